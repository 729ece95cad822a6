"""The chance check of the align stage (align.chance_classes): a juan whose commentary does not
gloss its passage keeps no anchors that chance explains. Fixtures: 表記集傳 (KR1d0063, 黃道周's
essays on the 表記; no juan of it is in any dev set) juan 2, whole (tests/fixtures/sources/KR1d0063_002.txt:
../shared/corpus/KR1d0063/KR1d0063_002.txt; until stop 78 its first 50 pages, where v7's marks leave one-character
heads at 0.43 of their own count in other passages, under the check's 0.5; the whole juan gives 0.63); juan 2
(train) of the 集釋 and of the 周禮注疏 in data/corpus."""

from __future__ import annotations

import pytest

from pipeline import align, paths
from pipeline.align import AlignStage, align_document
from pipeline.export import card, html, records
from pipeline.ingest import read_document
from pipeline.model import CHANCE_REASON
from pipeline.segment import SegmentStage

FIX = paths.REPO / "tests" / "fixtures"


@pytest.fixture(scope="module")
def segmented():
    AlignStage.load_model(None)
    stage = SegmentStage.load()
    return lambda path: stage(read_document(path))


def glosses(doc):
    return [g for u in doc.units for g in u.glosses]


def test_an_essay_commentary_keeps_no_chance_anchors(segmented):
    doc = align_document(segmented(FIX / "sources" / "KR1d0063_002.txt"))
    got = glosses(doc)
    withdrawn = [g for g in got if (g.reason or "").startswith(CHANCE_REASON)]
    one = [g for g in withdrawn if len(g.lemma) == 1]
    longer = [g for g in withdrawn if len(g.lemma) > 1]
    # 「諫者近臣之事也」, 「子仲還」: a sentence that opens with a common word of the passage
    assert len(one) >= 5 and all(g.lemma_start is None for g in withdrawn)
    assert not [g for g in got if g.lemma_start is not None and len(g.lemma) == 1]
    reason = one[0].reason
    assert "one-character heads stand in their own passage" in reason and "on average in another passage" in reason
    assert not any("stands elsewhere" in g.reason or "block before" in g.reason for g in withdrawn)
    # in such a juan a longer head goes too where it stands in another passage as well:
    # 「君子猶或為之」, 天下, 是故; heads peculiar to their passage stay
    bases = [u.text for u in doc.units if u.kind == "base"]
    assert "君子" in [g.lemma for g in longer] and {g.reason for g in longer} == {longer[0].reason}
    assert "stands in another passage of it too" in longer[0].reason
    assert all(sum(g.lemma in b for b in bases) > 1 for g in longer)
    kept = [g for g in got if g.lemma_start is not None]
    assert kept and all(sum(g.lemma in b for b in bases) == 1 for g in kept)
    # the dataset card says so, with the evidence
    stats = records.document_stats(records.document_records(doc, "train", ["ingest", "segment", "align"]))
    assert stats["glosses_withdrawn"] == {reason: len(one), longer[0].reason: len(longer)}
    readme = card.render([stats], {"align": "ran"}, [])
    assert f"- KR1d0063_002: {len(one)} glosses — {reason}" in readme
    plain = [g for g in got if g.lemma_start is None and g not in withdrawn]  # the juan's prose
    assert plain and f"Unanchored there: KR1d0063_002 {len(plain)}." in readme
    # … and the HTML page's tooltip: no "not in the base text" for a lemma that is in it
    page = html.render_doc(doc)
    assert page.count("(anchor withdrawn as chance: see the dataset card)") == 2 * len(withdrawn)  # data-lemma, title
    assert 'data-lemma="諫 (not in the base text)"' not in page and 'data-lemma="諫 (anchor withdrawn as chance' in page


@pytest.mark.parametrize("path", [paths.REPO / "data" / "corpus" / "KR1d0030" / "KR1d0030_002.txt",
                                  paths.REPO / "data" / "corpus" / "KR1d0003" / "KR1d0003_002.txt"], ids=["jishi", "zhushu"])
def test_a_glossing_commentary_is_untouched(segmented, monkeypatch, path):
    doc = segmented(path)
    checked = [(g.lemma, g.lemma_start, g.confidence, g.reason) for g in glosses(align_document(doc))]
    monkeypatch.setattr(align, "CHANCE_SHARE", float("inf"))  # never withdraws
    unchecked = [(g.lemma, g.lemma_start, g.confidence, g.reason) for g in glosses(align_document(doc))]
    assert checked == unchecked and sum(len(lemma) == 1 and s is not None for lemma, s, _, _ in checked) >= 10
