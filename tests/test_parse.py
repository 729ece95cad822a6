"""The parse stage (UD-Kanbun): words, tags and trees over our sentences and marks."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.model import Document, Entity, Unit, spans_from_marks
from pipeline.parse import ParseStage, Parser, parse_document
from pipeline.pua import entity_char

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def parser():
    return ParseStage.load().model


def _unit(text, marks=None, entities=(), kind="base"):
    u = Unit(seq=0, kind=kind, marker=None, text=text, start=0, end=len(text))
    u.marks = dict(marks or {})
    u.sentences = spans_from_marks(len(text), u.marks, final_only=True) if u.marks else []
    u.entities = [Entity(s, e, lab, text[s:e]) for s, e, lab in entities]
    return u


def _check_trees(unit):
    by: dict[int, list] = {}
    for w in unit.words:
        by.setdefault(w.sentence, []).append(w)
    for words in by.values():
        ids = [w.id for w in words]
        assert ids == list(range(1, len(words) + 1))
        assert sum(w.head == 0 for w in words) == 1
        assert all(w.head in (0, *ids) and w.head != w.id for w in words)
        punct = {w.id for w in words if w.upos == "PUNCT"}
        assert not any(w.head in punct for w in words)  # a mark heads nothing
        for w in words:  # no cycle
            seen, h = set(), w
            while h.head:
                assert h.id not in seen
                seen.add(h.id)
                h = words[h.head - 1]


def test_words_cover_the_sentence_and_marks_stay_punct(parser):
    text = "司射適西階西倚扑升自西階東面請射于公"
    u = _unit(text, {5: "，", 8: "，", 18: "。"}, [(0, 2, "ROLE"), (3, 5, "PLACE")])
    parse_document(Document("t", "t", text, "wyg", units=[u]), parser)
    _check_trees(u)
    chars = [w for w in u.words if w.start < w.end]
    assert "".join(w.form for w in chars) == text
    marks = [w for w in u.words if w.start == w.end]
    assert [(w.start, w.form, w.upos, w.deprel) for w in marks] == [(5, "，", "PUNCT", "punct"), (8, "，", "PUNCT", "punct"),
                                                                     (18, "。", "PUNCT", "punct")]
    # a name of the tag stage is one word (one subtree), whatever MeCab would cut
    assert chars[0].form == "司射" and chars[0].upos == "NOUN" and chars[2].form == "西階"


def test_names_not_merged_are_cut_at_their_edges(parser):
    raw = Parser(merge_names=False)
    u = _unit("主人西階上北面", entities=[(0, 2, "ROLE"), (2, 4, "PLACE")])
    u.words = raw.parse_unit(u)
    starts = {w.start for w in u.words} | {u.words[-1].end}
    assert {0, 2, 4} <= starts
    assert not any(w.start < 2 < w.end or w.start < 4 < w.end for w in u.words)


def test_layout_spaces_kanripo_and_compatibility_characters(parser):
    kr = entity_char(1362)
    text = "儀禮集釋\u3000\u3000卷十" + kr + "\U0002F962爵"
    u = _unit(text, kind="header")
    parse_document(Document("t", "t", text, "wyg", units=[u]), parser)
    _check_trees(u)
    assert not any(w.form.isspace() or "\u3000" in w.form for w in u.words)
    k = next(w for w in u.words if kr in w.form)
    assert k.form == kr and k.upos == "NOUN" and k.end - k.start == 1
    c = next(w for w in u.words if w.start <= text.index("\U0002F962") < w.end)
    assert c.form == unicodedata.normalize("NFC", "\U0002F962") == "\u7bc6"
    assert sum(w.end - w.start for w in u.words) == len(text) - 2


def test_skip_parse_leaves_no_tokens_and_the_card_says_so(tmp_path):
    out = tmp_path / "out"
    fix = ROOT / "tests" / "fixtures" / "export" / "KR1d0030_001.txt"
    result = CliRunner().invoke(main, ["run", str(fix), "--out", str(out), "--no-progress",
                                       "--formats", "jsonl,conllu,card", "--skip", "parse"])
    assert result.exit_code == 0, result.output
    assert "| parse | skipped (--skip) |" in (out / "README.md").read_text(encoding="utf-8")
    assert (out / "jsonl" / "tokens.jsonl").read_text(encoding="utf-8") == ""
    rows = [line.split("\t") for line in (out / "conllu" / "KR1d0030_001.conllu").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert rows and all(len(r[1]) == 1 or r[1].startswith("&KR") for r in rows)  # characters, no tree
    assert all(r[6] == "_" for r in rows)


def test_a_mark_after_layout_spaces_is_kept(parser):
    text = "主人升\u3000\u3000賓升"
    u = _unit(text, {5: "，", 7: "。"})
    parse_document(Document("t", "t", text, "wyg", units=[u]), parser)
    _check_trees(u)
    marks = [(w.start, w.form) for w in u.words if w.upos == "PUNCT"]
    assert marks == [(5, "，"), (7, "。")]
    i = next(i for i, w in enumerate(u.words) if w.form == "，")
    assert u.words[i - 1].end == 3 and u.words[i + 1].start == 5  # after 升, before the words after the spaces


def _crossing(words) -> list:
    """Pairs of arcs of one sentence that cross."""
    arcs = [(min(w.id, w.head), max(w.id, w.head), w) for w in words if w.head]
    return [(x, y) for a, b, x in arcs for c, d, y in arcs
            if (a < c < b) != (a < d < b) and not {c, d} & {a, b}]


def test_udpipe_sees_words_only_and_marks_hang_without_crossing_an_arc(parser, monkeypatch):
    # juan 1 of the 集釋 (a train juan), every stage before parse as the pipeline runs them
    from pipeline.ingest import read_document
    from pipeline.runner.document import load_stage

    doc = read_document(ROOT / "tests" / "fixtures" / "export" / "KR1d0030_001.txt")
    for stage in ("segment", "tag"):
        doc = load_stage(stage)(doc)
    fed: list[str] = []
    process = parser.udpipe.process
    monkeypatch.setattr(parser, "udpipe", type("Spy", (), {"process": lambda self, t: (fed.append(t), process(t))[1]})())
    parse_document(doc, parser)
    rows = [line.split("\t") for t in fed for line in t.splitlines() if line and not line.startswith("#")]
    assert rows and not any(r[3] == "PUNCT" for r in rows)
    n_punct = 0
    for unit in doc.units:
        _check_trees(unit)
        by: dict[int, list] = {}
        for w in unit.words:
            by.setdefault(w.sentence, []).append(w)
        for words in by.values():
            n_punct += sum(w.upos == "PUNCT" for w in words)
            assert not [(x, y) for x, y in _crossing(words) if "PUNCT" in (x.upos, y.upos)]
    assert n_punct > 40


def test_a_long_unsegmented_stretch_is_parsed_in_pieces_into_one_tree(parser, monkeypatch):
    # the longest unit of 禮記註疏 juan 0, unsegmented here: the 原目's 疏 on 月令 (3,435 characters)
    from pipeline.ingest import read_document
    from pipeline.parse import MAX_PARSE_TOKENS

    doc = read_document(ROOT / "data" / "corpus" / "KR1d0053" / "KR1d0053_000.txt")
    unit = max(doc.units, key=lambda u: len(u.text))
    assert len(unit.text) > 3000 and not unit.marks
    fed: list[int] = []
    process = parser.udpipe.process
    monkeypatch.setattr(parser, "udpipe", type("Spy", (), {"process": lambda self, t: (
        fed.extend(len(s.splitlines()) for s in t.strip("\n").split("\n\n")), process(t))[1]})())
    unit.words = parser.parse_unit(unit)
    assert len(fed) > 10 and max(fed) <= MAX_PARSE_TOKENS
    _check_trees(unit)
    assert {w.sentence for w in unit.words} == {0}
    assert sum(w.deprel == "parataxis" for w in unit.words) >= len(fed) - 1
