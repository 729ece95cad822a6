"""Editions already punctuated (TLS 周易 KR1a0001, CHANT 論語 KR1h0004: data/tls, data/chant, every
file) and `<pb:…>` anywhere in a line: read losslessly, the edition's punctuation kept exactly and
out of `text`, a unit per paragraph, page provenance after an inline page break."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from pipeline import paths
from pipeline.ingest import detect_layout, read_document
from pipeline.ingest.lossless import rebuild_source
from pipeline.model import PUNCTUATION_MARKS
from pipeline.pua import decode_entities

ZHOUYI, LUNYU = paths.PUNCTUATED
FILES = sorted(ZHOUYI.glob("*.txt")) + sorted(LUNYU.glob("*.txt"))
FIX = Path(__file__).resolve().parent / "fixtures" / "export" / "KR1d0030_001.txt"  # 集釋 juan 1 (train)


def test_both_books_are_all_here():
    assert len(sorted(ZHOUYI.glob("*.txt"))) == 69 and len(sorted(LUNYU.glob("*.txt"))) == 20


@pytest.fixture(scope="module")
def docs():
    return [read_document(f) for f in FILES]


def test_every_file_is_read_as_punctuated_and_losslessly(docs):
    for doc in docs:
        assert doc.layout == "punctuated", doc.path
        assert rebuild_source(doc) == doc.source, doc.path


# --- the edition's punctuation, counted from the source independently of the reader ----------

# text: ideographs (CJK, extensions, compatibility), Kanripo characters, 〓 (unread), the hexagrams
_TEXT = re.compile(r"[\u3400-\u4dbf\u4dc0-\u4dff\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\U000f0000-\U000fffff〓]")


def source_marks(text: str) -> list[tuple[str, str]]:
    """(character, the marks of our alphabet printed right after it) for every text character
    of a file, in order: comment lines, page breaks and ¶ taken out first."""
    body = "\n".join(line for line in text.split("\n") if not line.startswith("#"))
    body = decode_entities(re.sub(r"<pb:[^>]*>|¶", "", body))
    out: list[tuple[str, str]] = []
    for ch in body:
        if _TEXT.match(ch):
            out.append((ch, ""))
        elif ch in PUNCTUATION_MARKS and out:
            out[-1] = (out[-1][0], out[-1][1] + ch)
    return out


def read_marks(doc) -> list[tuple[str, str]]:
    out = []
    for unit in doc.units:
        for i, ch in enumerate(unit.text):
            out.append((ch, "".join(c for c in unit.signs.get(i + 1, "") if c in PUNCTUATION_MARKS)))
    return out


def test_marks_per_character_equal_the_source(docs):
    positions = 0
    for doc in docs:
        src, got = source_marks(doc.source), read_marks(doc)
        assert got == src, doc.path
        # Unit.marks: a mark after every character the edition puts one after, and only there
        expect = [bool(m) for _, m in src]
        have = [bool(u.marks.get(i + 1)) for u in doc.units for i in range(len(u.text))]
        assert have == expect, doc.path
        positions += sum(expect)
        for u in doc.units:
            assert u.marks_source == "edition"
            for k, mark in u.marks.items():
                assert mark == [c for c in u.signs[k] if c in PUNCTUATION_MARKS][-1]
    assert positions == 5858 + 3968  # 周易, 論語


def test_the_tls_zhouli_and_liji_too():
    """The TLS 周禮 (juan 1-6) and 禮記 the project already ships (data/tls): the same reader."""
    for book in ("KR1d0001", "KR1d0052"):
        files = sorted((paths.TLS / book).glob("*.txt"))
        assert len(files) == {"KR1d0001": 6, "KR1d0052": 50}[book]
        for f in files:
            doc = read_document(f)
            assert doc.layout == "punctuated" and rebuild_source(doc) == doc.source, f
            assert read_marks(doc) == source_marks(doc.source), f
            assert not [ch for u in doc.units for ch in u.text if ord(ch) < 0x2E80 or unicodedata.category(ch)[0] in "PZ"], f


def test_no_markup_or_punctuation_in_text(docs):
    for doc in docs:
        for u in doc.units:
            bad = [ch for ch in u.text if ord(ch) < 0x2E80 or unicodedata.category(ch)[0] in "PZ" or "\uff00" <= ch <= "\uffef"]
            assert not bad, (doc.path, u.seq, bad)


def paragraphs(text: str) -> tuple[int, int]:
    """(headings, paragraphs) of a file: paragraphs are runs of text lines between blank or
    comment lines; page-break lines do not count as text."""
    headings = paras = 0
    inside = False
    for line in text.split("\n"):
        bare = re.sub(r"<pb:[^>]*>|¶|\s", "", line)
        if line.startswith("*"):
            headings += 1
            inside = False
        elif line.startswith("#") or not line.strip():
            inside = False
        elif bare and not inside:
            paras += 1
            inside = True
    return headings, paras


def test_units_are_paragraphs_and_headings_titles(docs):
    totals = [0, 0]
    for doc in docs:
        headings, paras = paragraphs(doc.source)
        kinds = [u.kind for u in doc.units]
        assert (kinds.count("title"), kinds.count("base"), len(kinds)) == (headings, paras, headings + paras), doc.path
        totals[0] += headings
        totals[1] += paras
    assert totals == [69 + 20, 1102 + 623]


def test_the_first_hexagram_as_printed(docs):
    doc = docs[0]  # KR1a0001_001: ** 《乾第一》 / ䷀乾下乾上 / 《乾》元亨，¶ 利貞。
    title, symbol, first = doc.units[:3]
    assert (title.kind, title.text, title.signs, title.marks) == ("title", "乾第一", {0: "《", 3: "》"}, {})
    assert (symbol.kind, symbol.text) == ("base", "䷀乾下乾上")
    assert (first.text, first.marks, first.signs) == ("乾元亨利貞", {3: "，", 5: "。"}, {0: "《", 1: "》", 3: "，", 5: "。"})
    assert first.printed() == "《乾》元亨，利貞。"
    assert doc.text_page(first, 0).pb == "KR1a0001_tls_001-2a"


def test_a_quotation_closing_between_two_marks_keeps_both(docs):
    # KR1a0001_065: 《易》曰：『負且乘，致寇至。』，盜之招也。 — one mark a position: the outer ，
    doc = next(d for d in docs if d.id == "KR1a0001_065")
    unit = next(u for u in doc.units if "負且乘致寇至盜之招也" in u.text)
    k = unit.text.rindex("負且乘致寇至") + 6
    assert unit.signs[k] == "。』，" and unit.marks[k] == "，"


def test_lunyu_paragraph_numbers_are_signs_and_pages_follow_inline_breaks(docs):
    doc = next(d for d in docs if d.id == "KR1h0004_001")
    u = doc.units[1]  # 1.1子曰：「學而時習之，…不亦君子乎？」<pb:KR1h0004_CHANT_001-2a>¶
    assert u.text.startswith("子曰學而時習之不亦說乎") and u.signs[0] == "1.1" and u.signs[2] == "：「"
    assert doc.text_page(u, len(u.text) - 1).pb == "KR1h0004_CHANT_001-1a"
    nxt = doc.units[2]  # 1.2有子曰： — after the inline break: the new page's first line
    assert nxt.signs[0] == "1.2" and (doc.text_page(nxt, 0).pb, doc.text_page(nxt, 0).line) == ("KR1h0004_CHANT_001-2a", 1)
    k = nxt.text.index("鮮矣")  # third line of that page
    assert (doc.text_page(nxt, k).pb, doc.text_page(nxt, k).line) == ("KR1h0004_CHANT_001-2a", 3)


def test_a_page_break_opening_a_line_and_a_mid_line_line_end(docs):
    doc = next(d for d in docs if d.id == "KR1h0004_008")  # <pb:KR1h0004_CHANT_008-20a>8.20舜有臣五人而天下治。¶
    u = next(u for u in doc.units if u.text.startswith("舜有臣五人"))
    assert (doc.text_page(u, 0).pb, doc.text_page(u, 0).line) == ("KR1h0004_CHANT_008-20a", 1)
    doc = next(d for d in docs if d.id == "KR1h0004_011")  # 11.3德行：¶顏淵、¶閔子騫、¶冉伯牛、仲弓。¶
    u = next(u for u in doc.units if u.text.startswith("德行顏淵閔子騫"))
    lines = [doc.text_page(u, u.text.index(w)).line for w in ("德", "顏", "閔", "冉")]
    assert lines == [lines[0], lines[0] + 1, lines[0] + 2, lines[0] + 3]


def test_inline_page_break_in_a_wyg_line(tmp_path):
    """`<pb:…>` inside a line of any layout: the characters after it are on the new page."""
    lines = FIX.read_text(encoding="utf-8").split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith("緇布冠缺項青組纓"))
    cut = lines[i].index("屬于")
    lines[i] = lines[i][:cut] + "<pb:KR1d0030_WYG_001-13z>" + lines[i][cut:]
    path = tmp_path / "KR1d0030_001.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    doc, plain = read_document(path), read_document(FIX)
    assert [(u.kind, u.text) for u in doc.units] == [(u.kind, u.text) for u in plain.units]
    assert rebuild_source(doc) == doc.source
    unit = next(u for u in doc.units if u.text.startswith("緇布冠缺項青組纓"))
    before, after = doc.text_page(unit, cut - 1), doc.text_page(unit, cut)
    assert before.pb != "KR1d0030_WYG_001-13z" and (after.pb, after.line) == ("KR1d0030_WYG_001-13z", 1)
    assert ("KR1d0030_WYG_001-13z" in [pb for _, pb in doc.pages])


def test_detected_from_properties_or_from_its_marks():
    assert detect_layout({"BASEEDITION": "tls"}, "") == "punctuated"
    assert detect_layout({"WITNESS": "chant"}, "") == "punctuated"
    plain = "子曰：「學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？」\n"  # no properties, no markup
    assert detect_layout({}, plain) == "punctuated"
    assert detect_layout({}, plain.replace("，", "").replace("？", "").replace("：", "")) == "wyg-print"  # unmarked WYG print


# --- the segment stage leaves an edition's marks alone (or re-punctuates on request) ---------


def test_segment_keeps_the_edition_marks_and_cuts_sentences_at_them():
    from pipeline.model import spans_from_marks
    from pipeline.segment import load_segmenter, segment_document

    doc = read_document(ZHOUYI / "KR1a0001_001.txt")
    before = {u.seq: (dict(u.marks), dict(u.signs)) for u in doc.units}
    segment_document(doc, load_segmenter())
    for u in doc.units:
        assert (u.marks, u.signs) == before[u.seq] and u.marks_source == "edition"
        if u.kind == "base":
            assert u.sentences == spans_from_marks(len(u.text), u.marks, final_only=True)
            assert u.clauses == spans_from_marks(len(u.text), u.marks, final_only=False)
    first = doc.units[2]  # 乾元亨，利貞。: two clauses, one sentence, as printed
    assert [(c.start, c.end, c.mark) for c in first.clauses] == [(0, 3, "，"), (3, 5, "。")]
    assert "".join(u.punctuated() for u in doc.units) .count("。。") == 0  # nothing doubled


def test_repunctuate_restores_marks_and_keeps_the_edition_in_signs():
    from pipeline.segment import load_segmenter, segment_document

    doc = read_document(LUNYU / "KR1h0004_001.txt")
    signs = {u.seq: dict(u.signs) for u in doc.units}
    edition = {u.seq: dict(u.marks) for u in doc.units}
    segment_document(doc, load_segmenter(), repunctuate=True)
    base = [u for u in doc.units if u.kind == "base"]
    assert all(u.marks_source is None and u.signs == signs[u.seq] for u in base)
    assert any(u.marks != edition[u.seq] for u in base)  # the model's, not the edition's
    assert all(len(u.text) in u.marks for u in base)  # the model marks every unit end


def test_run_keeps_edition_marks_and_says_so_in_the_exports(tmp_path):
    import json

    from click.testing import CliRunner

    from pipeline.cli import main

    out = tmp_path / "out"
    src = LUNYU / "KR1h0004_001.txt"
    result = CliRunner().invoke(main, ["run", str(src), "--out", str(out), "--no-progress", "--steps", "ingest,segment,export",
                                       "--formats", "jsonl,tei"])
    assert result.exit_code == 0, result.output
    units = [json.loads(x) for x in (out / "jsonl" / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    doc = read_document(src)
    for rec, unit in zip(units, doc.units):
        assert rec["text"] == unit.text and rec["marks_source"] == "edition"
        assert rec["printed"] == unit.printed()
        assert rec["punctuated"] == unit.punctuated()  # the edition's marks, none added
    tei = (out / "tei" / "KR1h0004_001.xml").read_text(encoding="utf-8")
    assert '<pc type="edition">' in tei and '<pc type="restored">' not in tei
    again = tmp_path / "again"
    result = CliRunner().invoke(main, ["run", str(src), "--out", str(again), "--no-progress", "--steps", "ingest,segment,export",
                                       "--formats", "jsonl", "--repunctuate"])
    assert result.exit_code == 0, result.output
    units = [json.loads(x) for x in (again / "jsonl" / "units.jsonl").read_text(encoding="utf-8").splitlines()]
    base = [r for r in units if r["kind"] == "base"]
    assert base and all(r["marks_source"] is None and r["printed"] for r in base)
