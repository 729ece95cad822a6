"""Property-based tests: generated mandoku-like input never crashes ingest and units tile it."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.ingest import read_document
from pipeline.ingest.lossless import rebuild_source

HAN = "司射適西階倚扑升自東面請于公許遂上命賓御諸卿則以耦告大夫降即位而後"
pieces = st.one_of(
    st.text(alphabet=HAN, min_size=1, max_size=8),
    st.sampled_from(["鄭注", "釋曰", "鄭目録云", "&KR1362;", "&KR0925;"]),
    st.builds(lambda a, b: f"({a}/{b})", st.text(alphabet=HAN, max_size=6), st.text(alphabet=HAN, max_size=6)),
    st.sampled_from(["(", ")", "&bad;", "/", "　", "<pb:X_WYG_001-2a>", "#+PROPERTY: JUAN 卷一", "\u2028"]),
)
line = st.builds(lambda indent, parts: "　" * indent + "".join(parts) + "¶", st.integers(0, 2), st.lists(pieces, max_size=6))
document = st.lists(st.one_of(line, st.just("<pb:KR1d0030_WYG_001-1b>¶"), st.just("")), min_size=1, max_size=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=document, layout=st.sampled_from(["auto", "wyg", "sbck"]))
def test_generated_input_is_read_or_refused_cleanly(tmp_path, lines, layout):
    path = tmp_path / "gen.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        doc = read_document(path, layout=layout)
    except InputError as err:
        assert err.path == str(path) and err.message
        return
    assert rebuild_source(doc) == doc.source
    prev_end = 0
    for unit in doc.units:
        assert prev_end <= unit.start <= unit.end
        assert len(unit.offsets) == len(unit.text)
        prev_end = unit.end
    for note in doc.notes:
        unit = doc.units[note.unit_seq]
        assert unit.start <= note.start < note.end <= unit.end
        assert 0 <= note.offset <= len(unit.text)
