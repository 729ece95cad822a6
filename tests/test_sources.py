"""Who speaks (Unit.source / source_name): filled from the markers of the 集釋 and the 注疏 by
pipeline/ingest/sources.py, and exported in every format; the dataset card counts by source.

Fixtures (tests/fixtures/sources/), cut from TRAIN juan of the real corpus:
- KR1d0030_001.txt: data/corpus/KR1d0030/KR1d0030_001.txt lines 1–15 (headers, 士冠禮第一, the
  鄭目録云 block, the first line of the 釋曰 after it);
- KR1d0030_003.txt: data/corpus/KR1d0030/KR1d0030_003.txt lines 1–20 (the 鄭目錄云 block — the
  other spelling — the first 經 and its 鄭注);
- KR1d0028_001.txt: ../shared/corpus/KR1d0028/KR1d0028_001.txt lines 1–15 (儀禮注疏 juan 1:
  headers, 士冠禮 with 音義, 注, 音義, 疏) + lines 1105–1110 (the start of 卷一考證).
and tests/fixtures/zhushu/KR1d0003_001.txt, KR1d0053_001.txt (周禮注疏 and 禮記註疏 juan 1, train;
described in tests/test_ingest_zhushu.py).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import get_args

import pytest
from lxml import etree

from pipeline.export import FORMATS, assemble, bundle, records
from pipeline.ingest import read_document
from pipeline.people import person
from pipeline.model import ENTITY_LABELS, Entity, Gloss, UnitKind, spans_from_marks

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "sources"
ZHUSHU = ROOT / "tests" / "fixtures" / "zhushu"
FILES = [FIX / "KR1d0030_001.txt", FIX / "KR1d0030_003.txt", FIX / "KR1d0028_001.txt",
         ZHUSHU / "KR1d0003_001.txt", ZHUSHU / "KR1d0053_001.txt"]
TEI = {"t": "http://www.tei-c.org/ns/1.0"}


def speakers(path) -> set[tuple]:
    doc = read_document(path)
    return {(u.kind, u.marker, u.source, u.source_name) for u in doc.units}


def test_jishi_markers_name_their_commentator():
    one, three = speakers(FIX / "KR1d0030_001.txt"), speakers(FIX / "KR1d0030_003.txt")
    # both spellings of the 目録 marker are one source, 鄭玄's
    assert ("commentary", "鄭目録云", "鄭目録", "鄭玄") in one
    assert ("commentary", "鄭目錄云", "鄭目録", "鄭玄") in three
    assert ("commentary", "釋曰", "釋曰", "李如圭") in one  # the 集釋's author
    assert ("commentary", "鄭注", "鄭注", "鄭玄") in three
    # base text, titles and headers speak for nobody
    assert all(s is None and n is None for kind, _, s, n in one | three if kind != "commentary")


@pytest.mark.parametrize("path, shu", [(FIX / "KR1d0028_001.txt", "賈公彦"), (ZHUSHU / "KR1d0003_001.txt", "賈公彦"),
                                       (ZHUSHU / "KR1d0053_001.txt", "孔穎達")])
def test_zhushu_markers_by_book(path, shu):
    got = speakers(path)
    assert {(m, s, n) for kind, m, s, n in got if kind in ("commentary", "report")} == {
        ("注", "注", "鄭玄"), ("音義", "音義", "陸德明"), ("疏", "疏", shu), ("考證", "考證", "考證諸臣")}
    assert all(s is None for kind, _, s, _ in got if kind not in ("commentary", "report"))


@pytest.mark.parametrize("replace", ["#+PROPERTY: ID KR1d9999", "#+PROPERTY: ID KR3a0001", ""])
def test_unknown_book_keeps_the_printed_source_but_no_person(tmp_path, replace):
    for name, marker in (("KR1d0003_001.txt", "疏"), ("KR1d0030_001.txt", "釋曰")):
        src = (ZHUSHU / name if name.startswith("KR1d0003") else FIX / name).read_text(encoding="utf-8")
        book = name[:8]
        f = tmp_path / name
        f.write_text(src.replace(f"#+PROPERTY: ID {book}", replace), encoding="utf-8")
        got = speakers(f)
        assert any(m == marker and s for _, m, s, _ in got)
        persons = {n for *_, n in got} - {None}
        # a 注疏's own author line (漢鄭氏注　唐陸徳明音義　賈公彦疏) names its 音義 and 疏 under any ID, and its
        # 鄭氏 in the 經部 (KR1); the 集釋's 釋曰 has no such line: nobody
        from_line = {"陸德明", "賈公彦"} | ({"鄭玄"} if replace.startswith("#+PROPERTY: ID KR1") else set())
        if replace.endswith("KR1d9999"):  # a 禮 book not in the table: only the names that mean one person in every 禮 book
            assert persons <= {"鄭玄", "考證諸臣"} | from_line
            assert (persons >= from_line) == (marker == "疏") and not any(m == "釋曰" and n for _, m, _, n in got)
        elif not replace:  # no ID line: the book is the file's name, as Document.book (and the segmenter) reads it
            original = tmp_path / "original" / name
            original.parent.mkdir(exist_ok=True)
            original.write_text(src, encoding="utf-8")
            assert got == speakers(original) and persons
        else:
            assert persons == (from_line if marker == "疏" else set())


def test_person_table():
    assert person("鄭目錄", "KR1d0030") == person("鄭目録", "KR1d0030") == "鄭玄"
    assert person("疏", "KR1d0003") == "賈公彦" and person("疏", "KR1d0053") == "孔穎達"
    assert person("疏", "KR1d0099") is None and person("鄭氏", None) is None
    assert person("鄭氏", "KR1d0057") == "鄭玄" and person("孔氏", "KR1d0057") == "孔穎達"
    # a 禮 book the table does not list still gets the names its category's rows give
    assert person("考證", "KR1d0099") == "考證諸臣" and person("考證", "KR3a0001") is None
    # a name is given only as far as its evidence reaches: 孔氏 is 孔穎達 in the 禮 classics, 孔安國 in a
    # 書 (KR1b) or 論語 (KR1h) book; 鄭氏 is 鄭玄 in the 經部 (KR1), not in a 子部 book; 朱先生 is 朱熹 in
    # 儀禮述註, which says so; 朱子 is 朱熹 anywhere
    assert person("孔氏", "KR1d0099") == "孔穎達" and person("孔氏", "KR1b0001") is None and person("孔氏", "KR1h0004") is None
    assert person("鄭氏", "KR1c0001") == "鄭玄" and person("鄭氏", "KR3a0001") is None
    assert person("朱先生", "KR1d0040") == "朱熹" and person("朱先生", "KR1d0099") is None
    assert person("朱子", "KR4a0001") == "朱熹"


def test_a_name_printed_in_another_graphic_form_is_the_rows_person():
    # 禮記集說 prints 陸佃 山隂陸氏 (its 名氏 list's form, the table's row) and twice 山陰陸氏
    assert person("山陰陸氏", "KR1d0057") == person("山隂陸氏", "KR1d0057") == "陸佃"
    assert person("唐陸氏", "KR1d0057") is None  # 陸德明 or 陸贄: two entries of the 名氏 list


def test_one_speaker_table_built_by_its_script():
    """sources.py (the markers of the 集釋 and 注疏) and speakers.py (the attributions of the
    gathered commentaries) read one table; every row says where the print states it, and the
    committed file is exactly what scripts/speakers_table.py builds."""
    import subprocess
    import sys

    from pipeline import paths

    lines = [ln for ln in paths.SPEAKERS_TABLE.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    rows = [ln.split("\t") for ln in lines[1:]]
    assert lines[0] == "book\tform\tname\tprovenance" and len(rows) > 200
    assert all(len(r) == 4 and r[3].strip() for r in rows)
    assert all(r[0] in ("*", "KR1", "KR1d") or (len(r[0]) == 8 and r[0].startswith("KR")) for r in rows)
    keys = [(r[0], r[1]) for r in rows]
    assert len(keys) == len(set(keys))
    # one spelling a person: no two names are one name in two graphic forms (孔頴達 / 孔穎達, 鄭𤣥 / 鄭玄)
    from pipeline.variants import fold

    names = {r[2] for r in rows}
    assert len({fold(n) for n in names}) == len(names)
    mingshi = ROOT.parent / "shared" / "corpus" / "KR1d0057" / "KR1d0057_000.txt"
    if not mingshi.exists():
        pytest.skip("../shared is not beside the repo: the rebuild is not checked")
    built = subprocess.run([sys.executable, str(ROOT / "scripts" / "speakers_table.py"), str(mingshi)],
                           capture_output=True, text=True, check=True).stdout
    assert built == paths.SPEAKERS_TABLE.read_text(encoding="utf-8")


def _annotate(doc):
    """Hand-set sentences (a mark every 7 characters), an entity at the start of every unit with text and a
    gloss at the start of every commentary, so that the sentences, entities and glosses tables have rows of every source."""
    for unit in doc.units:
        if unit.kind in ("base", "commentary", "report") and unit.text:
            unit.marks = {k: "。" for k in range(7, len(unit.text), 7)}
            unit.sentences = spans_from_marks(len(unit.text), unit.marks, final_only=True)
            unit.entities = [Entity(0, 1, "ROLE", unit.text[0], "rule")]
            if unit.kind == "commentary" and len(unit.text) >= 2:  # an unanchored gloss, for the glosses table's source
                unit.glosses = [Gloss(0, 2, unit.text[:2], "definition", unit.text[0], None, None, None, 0.5)]
    return doc


@pytest.fixture(scope="module")
def docs():
    return [_annotate(read_document(f)) for f in FILES]


@pytest.fixture(scope="module")
def outputs(docs):
    formats = list(FORMATS.values())
    exports = [bundle(d, "train", ["ingest", "segment", "tag"], formats) for d in docs]
    return assemble(exports, formats, {"ingest": "ran", "segment": "hand-set in this test"})


def _jsonl(outputs, kind):
    return [json.loads(x) for x in outputs[f"jsonl/{kind}.jsonl"].decode().splitlines()]


def test_tables_carry_the_source(outputs, docs):
    import pyarrow.parquet as pq

    unit_of = {f"{d.id}#{u.seq}": u for d in docs for u in d.units}
    units = _jsonl(outputs, "units")
    assert {(r["source"], r["source_name"]) for r in units} >= {("鄭目録", "鄭玄"), ("疏", "孔穎達"), ("考證", "考證諸臣")}
    for r in units:
        u = unit_of[r["unit"]]
        assert (r["source"], r["source_name"]) == (u.source, u.source_name)
    for kind, col in (("sentences", "source"), ("entities", "unit_source")):
        rows = _jsonl(outputs, kind)
        assert any(r[col] for r in rows) and any(r[col] is None for r in rows)
        for r in rows:
            u = unit_of[r["unit"]]
            assert (r[col], r[col + "_name"]) == (u.source, u.source_name), (kind, r)
    # a gloss carries its commentary unit's speaker (stop 67: a gathered commentary's 鄭氏曰 / 朱子 blocks, without a join)
    glosses = _jsonl(outputs, "glosses")
    assert {r["unit_source"] for r in glosses} >= {"注"}
    for r in glosses:
        u = unit_of[r["unit"]]
        assert (r["unit_source"], r["unit_source_name"]) == (u.source, u.source_name), r
    for kind in ("units", "sentences", "entities", "glosses"):
        table = pq.read_table(io.BytesIO(outputs[f"parquet/{kind}.parquet"]))
        col = "unit_source" if kind in ("entities", "glosses") else "source"
        for c in (col, col + "_name"):
            assert table.column(c).to_pylist() == [r[c] for r in _jsonl(outputs, kind)]


def test_conllu_misc_and_comments(outputs, docs):
    text = outputs["conllu/KR1d0053_001.conllu"].decode()
    by_unit = {u.seq: u for u in docs[-1].units}
    seen = set()
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        sent_id = next(x for x in lines if x.startswith("# sent_id = "))
        u = by_unit[int(sent_id.rsplit("#", 1)[1].split(".")[0])]
        tokens = [x for x in lines if not x.startswith("#")]
        if u.source is None:
            assert "ZhSource" not in block and "# unit_source" not in block
            continue
        seen.add(u.source)
        assert f"# unit_source = {u.source}" in lines and f"# unit_source_name = {u.source_name}" in lines
        assert all(x.split("\t")[9].endswith(f"|ZhSource={u.source}|ZhSourceName={u.source_name}") for x in tokens)
    assert seen == {"注", "音義", "疏", "考證"}


def test_tei_resp_points_at_the_person_named_once(outputs, docs):
    ids = {}
    for doc in docs:
        tree = etree.fromstring(outputs[f"tei/{doc.id}.xml"])
        stmts = tree.findall(".//t:titleStmt/t:respStmt[@{http://www.w3.org/XML/1998/namespace}id]", TEI)
        ids = {s.get("{http://www.w3.org/XML/1998/namespace}id"): s for s in stmts}
        persons = [s.findtext("t:persName", namespaces=TEI) for s in stmts]
        assert len(persons) == len(set(persons))  # each person once
        by_id = {f"{doc.id}.u{u.seq}": u for u in doc.units}
        for el in tree.iterfind(".//t:body//*[@{http://www.w3.org/XML/1998/namespace}id]", TEI):
            u = by_id.get(el.get("{http://www.w3.org/XML/1998/namespace}id"))
            if u is None:
                continue
            if u.source is None:
                assert el.get("resp") is None
                continue
            stmt = ids[el.get("resp")[1:]]
            assert stmt.findtext("t:persName", namespaces=TEI) == u.source_name
            assert u.source in stmt.findtext("t:resp", namespaces=TEI)
    # the 集釋 juan 3: 鄭目錄云 and 鄭注 are both 鄭玄's — one respStmt
    tree = etree.fromstring(outputs["tei/KR1d0030_003.xml"])
    stmt = tree.xpath("//t:respStmt[t:persName='鄭玄']", namespaces=TEI)
    assert len(stmt) == 1 and stmt[0].findtext("t:resp", namespaces=TEI).endswith("鄭目録 鄭注")
    rng = etree.RelaxNG(etree.parse(str(ROOT / "schemas" / "tei_zhushu.rng")))
    assert rng.validate(tree), rng.error_log


def test_html_shows_who_speaks(outputs):
    page = etree.fromstring(outputs["html/KR1d0053_001.html"], etree.HTMLParser())
    shu = page.xpath("//*[contains(@class,'m-shu')]//span[@class='who']")
    assert shu and {s.text for s in shu} == {"孔穎達"} and shu[0].get("title") == "疏"
    assert {s.text for s in page.xpath("//*[contains(@class,'report')]//span[@class='who']")} == {"考證諸臣"}
    assert not page.xpath("//*[contains(@class,'u base')]//span[@class='who']")


def test_spacy_span_group(outputs, docs):
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("zh")
    got = [(d.spans["source"][0].label_, d.spans["source"][0].kb_id_, len(d.spans["source"][0]) == len(d))
           if "source" in d.spans else None
           for d in DocBin().from_bytes(outputs["spacy/train.spacy"]).get_docs(nlp.vocab)]
    want = [(u.source, u.source_name or "", True) if u.source else None
            for d in sorted(docs, key=lambda d: d.id) for u in d.units if u.text for _ in (u.sentences or [None])]
    assert got == want and ("疏", "賈公彦", True) in got and None in got


def test_card_counts_by_source_one_row_a_name(outputs):
    text = outputs["README.md"].decode()
    who = text.split("## Who speaks")[1].split("\n## ")[0]
    rows = [r.split(" | ") for r in who.splitlines() if r.startswith("| ") and not r.startswith("| source")]
    sources = [r[0][2:] for r in rows]
    assert len(sources) == len(set((r[0], r[1]) for r in rows))
    assert "鄭目錄" not in who and sources.count("鄭目録") == 1
    row = next(r for r in rows if r[0] == "| 鄭目録")
    assert row[1] == "鄭玄" and row[2] == "2"  # 鄭目録云 (juan 1) and 鄭目錄云 (juan 3)
    units = _jsonl(outputs, "units")
    mulu = [u for u in units if u["source"] == "鄭目録"]
    assert int(row[3].rstrip(" |")) == sum(u["chars"] for u in mulu)
    assert {r[0][2:] for r in rows} == {u["source"] for u in units if u["source"]}


def test_card_kinds_and_labels(outputs):
    text = outputs["README.md"].decode()
    units = _jsonl(outputs, "units")
    kind_row = next(x for x in text.splitlines() if x.startswith("| `kind` | string | header"))
    for kind in get_args(UnitKind):  # every kind, report included, in the schema and counted
        assert kind in kind_row
        assert f"| units {kind} | {sum(u['kind'] == kind for u in units)} |" in text
    assert "| units report | 0 |" not in text
    # the entity labels listed are the ones the shipped tagger produces: no ACT
    import pycrfsuite

    tagger = pycrfsuite.Tagger()
    tagger.open(str(ROOT / "models" / "tagger" / "model.crfsuite"))
    produced = {lab[2:] for lab in tagger.labels() if lab != "O"}
    assert produced == set(ENTITY_LABELS)
    label_row = next(x for x in text.splitlines() if x.startswith("| `label` |"))
    assert label_row == "| `label` | string | " + " \\| ".join(ENTITY_LABELS) + " |"
    assert "ACT" not in label_row


def test_spacy_source_spans_are_spacys_own_for_words_of_several_characters():
    # the span group's bytes are made once per (tokens, characters, speaker); with a parse, a
    # word may hold several characters: the bytes must still be DocBin.add's
    from pipeline.export import spacy_docbin
    from pipeline.model import Word

    doc = _annotate(read_document(ZHUSHU / "KR1d0053_001.txt"))
    shu = next(u for u in doc.units if u.source == "疏" and u.sentences[0].end - u.sentences[0].start >= 4)
    s = shu.sentences[0]
    cuts = [s.start, s.start + 2] + list(range(s.start + 3, s.end + 1))  # one two-character word, then characters
    shu.words = [Word(0, i + 1, a, b, shu.text[a:b], shu.text[a:b], "NOUN", "n", "_", 0 if i == 0 else 1,
                      "root" if i == 0 else "dep") for i, (a, b) in enumerate(zip(cuts, cuts[1:]))]
    assert len(shu.words) < s.end - s.start
    assert spacy_docbin.docbin(doc).to_bytes() == spacy_docbin._spacy_docbin(doc).to_bytes()


def test_html_index_counts_by_source(outputs):
    page = etree.fromstring(outputs["html/index.html"], etree.HTMLParser())
    table = page.xpath("//h2[text()='Who speaks']/following-sibling::table[1]")[0]
    rows = [[td.text for td in tr.findall("td")] for tr in table.findall("tr")[1:]]
    assert ["鄭目録", "鄭玄", "2"] == next(r for r in rows if r[0] == "鄭目録")[:3]
    assert len({(r[0], r[1]) for r in rows}) == len(rows)


def test_the_siku_editors_abstract_is_theirs(tmp_path):
    """Every book of the 四庫 opens with its editors' abstract (提要: `臣等謹案…恭校上`, signed 總纂官紀昀 …), read as
    a prose unit of the front matter with no source: a user counting commentary by who wrote it found it among
    nobody's. It is the 四庫館臣's now, in every layout, from its opening (謹按 or 謹案) through the unit that
    ends 恭校上 (禮記註疏's falls into two); the preface after it is not."""
    jishi = read_document(ROOT / "data" / "corpus" / "KR1d0030" / "KR1d0030_000.txt")
    named = [u for u in jishi.units if u.source == "提要"]
    assert len(named) == 1 and named[0].text.startswith("臣等謹案儀禮集釋") and named[0].text.endswith("恭校上")
    assert named[0].source_name == "四庫館臣"
    liji = read_document(ROOT / "data" / "corpus" / "KR1d0053" / "KR1d0053_000.txt")
    named = [i for i, u in enumerate(liji.units) if u.source == "提要"]
    assert len(named) == 2 and named[1] == named[0] + 1 and liji.units[named[1]].text.endswith("恭校上")
    after = next(u for u in liji.units[named[1] + 1:] if u.kind == "commentary")
    assert after.source is None and after.text.startswith("夫禮者經天緯地")
    # a 提要 that does not end 恭校上 (a copy cut or misprinted) ends at its signature: the preface is not the editors'
    cut = tmp_path / "KR1d0030_000.txt"
    cut.write_text((ROOT / "data" / "corpus" / "KR1d0030" / "KR1d0030_000.txt").read_text(encoding="utf-8").replace("恭校上", ""),
                   encoding="utf-8")
    assert [u.source for u in read_document(cut).units if u.kind == "commentary"] == ["提要", None]
