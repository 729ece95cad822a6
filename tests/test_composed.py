"""Kanripo's composed characters (`[孑*(焉-正+?)]`, `[門@里]`) and the small notes inside a 注.

Read from the embedded books, TRAIN juan only: 儀禮注疏 juan 11 (KR1d0028_011.txt, lines
1594 and 1601: a composed character in a 注 and at the head of an 音義 note, the line a plain
run died on), juan 2 (line 855: `於祭(乃/)行謂助祭也`); 周禮注疏 juan 13 (`[門@里]`, 109
times in the book).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from lxml import etree

from pipeline import paths
from pipeline.errors import InputError
from pipeline.export import records, tei
from pipeline.ingest import read_document
from pipeline.ingest.lossless import rebuild_source
from pipeline.pua import COMPOSED, composed_char, decode_entities, encode_entities, is_composed, is_kanripo_char

YILI = paths.DATA / "corpus" / "KR1d0028"
ZHOULI = paths.DATA / "corpus" / "KR1d0003"
YAN = "[孑*(焉-正+?)]"


@pytest.fixture(scope="module")
def juan11():
    return read_document(YILI / "KR1d0028_011.txt", base_text=None)


def _with(doc, ch):
    return [u for u in doc.units if ch in u.text]


def test_a_composed_character_is_one_character_also_inside_a_small_note(juan11):
    yan = composed_char(YAN[1:-1])
    zhu, yinyi = _with(juan11, yan)
    assert (zhu.kind, zhu.marker) == ("commentary", "注") and "内則曰異為" + yan + "子室於宮中" in zhu.text
    # the 音義 note that made the run die: its first column opens with the composed character
    assert yinyi.marker == "音義" and yinyi.text == yan + "而注反有食音嗣傅姆音茂劉音母"
    assert encode_entities(yinyi.text) == YAN + "而注反有食音嗣傅姆音茂劉音母"
    # its offset points at the `[` of the description in the source
    assert juan11.source[yinyi.offsets[0] : yinyi.offsets[0] + len(YAN)] == YAN
    assert rebuild_source(juan11) == juan11.source


def test_the_zhouli_composed_character_no_longer_counts_five_characters():
    doc = read_document(ZHOULI / "KR1d0003_013.txt", base_text=None)
    li = composed_char("門@里")
    base = next(u for u in doc.units if u.kind == "base" and u.text.startswith("以" + li))
    assert base.text.startswith("以" + li + "里任國中之地") and "[" not in base.text and "@" not in base.text
    assert sum(u.text.count(li) for u in doc.units) == doc.source.count("[門@里]")
    assert rebuild_source(doc) == doc.source


def test_the_character_is_the_same_in_every_process_and_distinct_from_entities():
    code = "from pipeline.pua import composed_char; print(ord(composed_char('門@里')), ord(composed_char('孑*(焉-正+?)')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=paths.REPO, capture_output=True, text=True, check=True).stdout.split()
    assert [int(x) for x in out] == [ord(composed_char("門@里")), ord(composed_char(YAN[1:-1]))]
    ch = composed_char("門@里")
    assert is_composed(ch) and is_kanripo_char(ch) and 0x100000 <= ord(ch) <= 0x10FFFD
    assert decode_entities("&KR0001;[門@里]") == chr(0xF0001) + ch


def test_two_descriptions_on_one_character_are_refused(tmp_path, monkeypatch):
    """The hash could give two descriptions one character: refuse, never merge them."""
    src = (YILI / "KR1d0028_011.txt").read_text(encoding="utf-8")
    monkeypatch.setitem(COMPOSED, composed_char(YAN[1:-1]), "木*目")  # as if 木*目 had been read first
    path = tmp_path / "KR1d0028_011.txt"
    path.write_text(src, encoding="utf-8")
    with pytest.raises(InputError, match=r"KR1d0028_011.txt:1594: composed characters \[木\*目\] and \[孑"):
        read_document(path, base_text=None)


def test_a_bracket_that_composes_nothing_is_refused(tmp_path):
    lines = (YILI / "KR1d0028_011.txt").read_text(encoding="utf-8").split("\n")
    lines[1593] = lines[1593].replace(YAN, "[孑焉]")
    path = tmp_path / "KR1d0028_011.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=r":1594: '\[孑焉\]' is not a composed character"):
        read_document(path, base_text=None)


def test_exports_spell_it_out_again(juan11):
    yan = composed_char(YAN[1:-1])
    recs = records.document_records(juan11, "train", ["ingest"])
    unit = next(r for r in recs["units"] if r["marker"] == "音義" and r["text"].startswith("["))
    assert unit["text"] == YAN + "而注反有食音嗣傅姆音茂劉音母" and unit["chars"] == 15
    xml = tei.render_doc(juan11)
    root = etree.fromstring(xml.encode("utf-8"))
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    gid = f"KRC{ord(yan):X}"
    glyph = root.find(f".//t:glyph[@{{http://www.w3.org/XML/1998/namespace}}id='{gid}']", ns)
    assert glyph is not None and glyph.find("t:mapping[@type='kanripo']", ns).text == YAN
    assert len(root.findall(f".//t:g[@ref='#{gid}']", ns)) == 2
    json.dumps(recs)  # plain JSON all the way


def test_a_character_inside_a_zhu_stays_in_the_zhu():
    doc = read_document(YILI / "KR1d0028_002.txt", base_text=None)
    zhu = next(u for u in doc.units if u.text.startswith("入夫之室三月之後"))
    assert (zhu.kind, zhu.marker, zhu.text) == ("commentary", "注", "入夫之室三月之後於祭乃行謂助祭也")
    after = doc.units[zhu.seq + 1]
    assert after.marker == "疏" and after.text.startswith("釋曰此據舅在無姑")
    assert not any(u.marker == "小注" for u in doc.units)
    assert rebuild_source(doc) == doc.source


def test_a_longer_unmarked_note_after_a_zhu_is_still_a_note_of_its_own():
    """禮記 juan 34 (train): an 音義 printed without its marker after a 注, a marker after it;
    juan 21 (train): a 疏 printed without its marker (`闕七行…正義曰…`), 經 after it."""
    doc = read_document(paths.DATA / "corpus" / "KR1d0053" / "KR1d0053_034.txt", base_text=None)
    note = next(u for u in doc.units if u.text.startswith("省舊仙善反"))
    assert note.marker == "小注" and doc.units[note.seq - 1].text.endswith("立曰義")
    doc = read_document(paths.DATA / "corpus" / "KR1d0053" / "KR1d0053_021.txt", base_text=None)
    note = next(u for u in doc.units if u.text.startswith("闕七行"))
    assert note.marker == "小注" and doc.units[note.seq - 1].marker == "注"
    assert doc.units[note.seq + 1].kind == "base" and doc.units[note.seq + 1].text.startswith("故𤣥酒在室")


def test_a_longer_group_inside_a_zhu_is_not_taken_into_it(tmp_path):
    """The same 注 with a six-character group in place of `(乃/)` (edited): a note of its own."""
    src = (YILI / "KR1d0028_002.txt").read_text(encoding="utf-8")
    assert src.count("於祭(乃/)") == 1
    path = tmp_path / "KR1d0028_002.txt"
    path.write_text(src.replace("於祭(乃/)", "於祭(諸本乃/字同)"), encoding="utf-8")
    doc = read_document(path, base_text=None)
    zhu = next(u for u in doc.units if u.text.startswith("入夫之室三月之後"))
    assert zhu.text == "入夫之室三月之後於祭" and doc.units[zhu.seq + 1].marker == "小注"
