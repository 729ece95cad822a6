"""Exporters on two short documents cut from the real corpus (tests/fixtures/export/), with
annotations set by hand so that every format's handling of punctuation, entities, glosses,
collation notes, page breaks and &KR characters is checked whatever stage models exist.
Each format is read back by its own ecosystem's reader."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from lxml import etree

from pipeline import paths
from pipeline.export import html, records, tei
from pipeline.ingest import read_document
from pipeline.model import Entity, Gloss, spans_from_marks
from pipeline.pua import decode_entities, encode_entities
from pipeline.export import FORMATS, assemble, bundle

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "export"
SCHEMA = ROOT / "schemas" / "tei_zhushu.rng"
PUNCT = ROOT / "data" / "punct" / "KR1d0030.punct.jsonl"
TERMS = {"司射": "ROLE", "大夫": "ROLE", "公": "ROLE", "西階": "PLACE", "扑": "OBJECT", "右个": "PLACE", "俎": "OBJECT", "纓": "OBJECT"}


def _annotate(doc):
    """Hand annotations: marks from data/punct where the unit text matches, entities from a
    short term list, and one gloss per commentary unit naming the first two base characters."""
    marks_by_text = {}
    for line in PUNCT.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        marks_by_text[r["text"]] = {int(k): v for k, v in r["marks"].items()}
    for unit in doc.units:
        if unit.kind not in ("base", "commentary"):
            continue
        unit.marks = dict(marks_by_text.get(unit.text, {}))
        unit.sentences = spans_from_marks(len(unit.text), unit.marks, final_only=True)
        unit.clauses = spans_from_marks(len(unit.text), unit.marks, final_only=False)
        i = 0
        while i < len(unit.text):
            for term, label in TERMS.items():
                if unit.text.startswith(term, i):
                    unit.entities.append(Entity(i, i + len(term), label, term, "lexicon"))
                    i += len(term) - 1
                    break
            i += 1
        base = doc.base_before(unit) if unit.kind == "commentary" else None
        if base is not None and len(unit.text) >= 6:
            lemma = base.text[:2]
            unit.glosses.append(Gloss(0, 6, unit.text[:6], "definition", lemma, base.seq, 0, 2, 0.9, said_by="鄭司農", said_by_name="鄭衆"))
            unit.glosses.append(Gloss(2, 4, unit.text[2:4], "variant", "升堂", base.seq, None, None, 0.5, "not in base"))
    return doc


@pytest.fixture(scope="module")
def docs():
    from pipeline.parse import ParseStage

    parse = ParseStage.load()  # the real parse stage over the hand annotations (UD-Kanbun is a dependency)
    return [parse(_annotate(read_document(FIX / name))) for name in ("KR1d0030_001.txt", "KR1d0030_010.txt")]


def _export_all(docs, reverse: bool = False):
    """Export each document as a worker would, then assemble (optionally in reverse order)."""
    formats = list(FORMATS.values())
    exports = [bundle(doc, "dev" if doc.id == "KR1d0030_010" else "train", ["ingest", "segment", "tag", "align", "parse"], formats)
               for doc in docs]
    if reverse:
        exports.reverse()
    return assemble(exports, formats, {"ingest": "ran", "segment": "ran (hand-set in this test)"})


@pytest.fixture(scope="module")
def outputs(docs):
    return _export_all(docs, reverse=True)


def test_every_format_is_written(outputs):
    names = set(outputs)
    for kind in records.RECORD_KINDS:
        assert f"jsonl/{kind}.jsonl" in names and f"parquet/{kind}.parquet" in names
    for doc in ("KR1d0030_001", "KR1d0030_010"):
        assert {f"conllu/{doc}.conllu", f"tei/{doc}.xml", f"html/{doc}.html"} <= names
    assert {"spacy/train.spacy", "spacy/dev.spacy", "iob/train.iob", "iob/dev.iob", "html/index.html", "README.md"} <= names


def test_jsonl_records_carry_provenance_and_round_trip_offsets(outputs, docs):
    units = {d.id: {f"{d.id}#{u.seq}": u for u in d.units} for d in docs}
    recs = {k: [json.loads(x) for x in outputs[f"jsonl/{k}.jsonl"].decode().splitlines()] for k in records.RECORD_KINDS}
    assert [r["doc"] for r in recs["documents"]] == ["KR1d0030_001", "KR1d0030_010"]  # id order
    assert recs["documents"][1]["split"] == "dev" and recs["documents"][0]["properties"]["JUAN"] == "卷一"
    assert recs["readings"] == []  # the 集釋 has no 音義 (readings: tests/test_valid_datasets.py)
    for kind in records.RECORD_KINDS[1:]:
        assert recs[kind] or kind == "readings", kind
        for r in recs[kind]:
            assert r["doc"] and r["unit"] and r["pb"].startswith("KR1d0030_WYG_") and r["line"] >= 1, (kind, r)
            assert list(r) == sorted(r)  # sorted keys
    for e in recs["entities"]:
        unit = units[e["doc"]][e["unit"]]
        assert encode_entities(unit.text)[e["start"] : e["end"]] == e["text"]
    # the &KR character comes back as its entity, and counts as one character in offsets
    kr = [u for u in recs["units"] if "&KR1362;" in u["text"]]
    assert kr and len(decode_entities(kr[0]["text"])) == kr[0]["chars"]
    g = recs["glosses"][0]
    assert {"lemma", "type", "base_unit", "lemma_start", "lemma_pb", "lemma_line"} <= set(g)
    assert any(x["lemma_start"] is None and x["reason"] for x in recs["glosses"])
    assert {x["said_by"] for x in recs["glosses"]} == {"鄭司農", None}  # who the note says a statement is by
    # the commentary's page provenance: juan 10's first note is on page 1a, line 5
    first_note = next(u for u in recs["units"] if u["doc"] == "KR1d0030_010" and u["kind"] == "commentary")
    assert (first_note["pb"], first_note["line"]) == ("KR1d0030_WYG_010-1a", 5)
    coll = [c for c in recs["collation"] if c["doc"] == "KR1d0030_010"]
    assert coll and coll[0]["text"].startswith("案比今注疏本訛作北據")


def test_parquet_tables_read_by_pandas(outputs):
    import pandas as pd

    for kind in records.RECORD_KINDS:
        df = pd.read_parquet(io.BytesIO(outputs[f"parquet/{kind}.parquet"]))
        lines = outputs[f"jsonl/{kind}.jsonl"].decode().splitlines()
        assert len(df) == len(lines)
        assert list(df.columns) == [c for c, _, _ in records.SCHEMAS[kind]]
    gl = pd.read_parquet(io.BytesIO(outputs["parquet/glosses.parquet"]))
    assert {"lemma", "type"} <= set(gl.columns) and set(gl["type"]) == {"definition", "variant"}
    assert gl["lemma_start"].isna().sum() == (gl["type"] == "variant").sum()


def test_conllu_parsed_by_the_conllu_package(outputs, docs):
    import conllu as conllu_pkg

    doc = docs[1]
    sents = conllu_pkg.parse(outputs["conllu/KR1d0030_010.conllu"].decode())
    assert sents[0].metadata["newdoc id"] == "KR1d0030_010"
    n_sent = sum(len(u.sentences) if u.sentences else 1 for u in doc.units if u.text)
    assert len(sents) == n_sent
    for s in sents:
        assert all(t["misc"]["SpaceAfter"] == "No" for t in s)
        assert "".join(t["form"] for t in s) == s.metadata["text"]
        assert s.metadata["pb"].startswith("KR1d0030_WYG_010")
    # words of the parse (a two-character name is one word); restored marks are punct leaves
    by_id = {s.metadata["sent_id"]: s for s in sents}
    first = by_id["KR1d0030_010#3.s0"]
    assert [t["form"] for t in first][:3] == ["司射", "適", "西階"]
    assert first[0]["misc"]["ZhNE"] == "B-ROLE" and first[2]["misc"]["ZhNE"] == "B-PLACE"
    assert first[0]["misc"]["ZhSpan"] == "0-2" and "Entity" not in first[0]["misc"]
    marks = [t for t in first if t["upos"] == "PUNCT"]
    assert marks and all(t["misc"].get("ZhRestored") == "Yes" and t["deprel"] == "punct" for t in marks)
    ids = {t["id"] for t in first}
    assert sum(t["head"] == 0 for t in first) == 1 and all(t["head"] in ids | {0} for t in first)
    assert not any(t["head"] == m["id"] for t in first for m in marks)  # a mark heads nothing
    # gloss links both ways
    note = by_id["KR1d0030_010#4.s0"]
    assert note[0]["misc"]["ZhGloss"] == "KR1d0030_010#4.g0"
    assert note[0]["misc"]["ZhGlossType"] == "definition" and note[0]["misc"]["ZhGlossLemma"] == "KR1d0030_010#3:0-2"
    assert note[0]["misc"]["ZhGlossBy"] == "鄭司農" and note[0]["misc"]["ZhGlossByName"] == "鄭衆"  # whom it is by
    assert not any("ZhGlossBy" in t["misc"] for s in sents for t in s if t["misc"] and t["misc"].get("ZhGlossType") == "variant")
    assert "KR1d0030_010#4.g0" in first[0]["misc"]["ZhLemmaOf"]
    kr = conllu_pkg.parse(outputs["conllu/KR1d0030_001.conllu"].decode())
    assert any(t["form"] == "&KR1362;" for s in kr for t in s)


def test_iob_columns(outputs):
    dev = outputs["iob/dev.iob"].decode()
    assert dev.startswith("-DOCSTART-\tO\n\n")
    rows = [line.split("\t") for line in dev.splitlines() if line and not line.startswith("-DOCSTART-")]
    assert all(len(r) == 2 for r in rows)
    assert ["司", "B-ROLE"] in rows and ["階", "I-PLACE"] in rows
    assert "KR1d0030_010" not in outputs["iob/train.iob"].decode()


def test_spacy_docbins_train_a_blank_ner(outputs):
    import random

    import spacy
    from spacy.tokens import Doc, DocBin
    from spacy.training import Example

    nlp = spacy.blank("zh")
    train = list(DocBin().from_bytes(outputs["spacy/train.spacy"]).get_docs(nlp.vocab))
    dev = list(DocBin().from_bytes(outputs["spacy/dev.spacy"]).get_docs(nlp.vocab))
    assert train and dev
    # a Kanripo character is one token (its private-use character, NORM &KR1362;), also for
    # spaCy's own character tokenizer
    kr = [t for d in train for t in d if t.norm_ == "&KR1362;"]
    assert kr and all(len(t.text) == 1 for t in kr)
    kr_doc = kr[0].doc
    assert len(nlp.make_doc(kr_doc.text)) == len(kr_doc) or [t.text for t in nlp.make_doc(kr_doc.text)].count(kr[0].text) == 1
    assert any(t.dep_ and t.pos_ and t.head is not t for d in train for t in d)
    labels = {e.label_ for d in train + dev for e in d.ents}
    assert {"ROLE", "PLACE", "OBJECT"} <= labels
    ner = nlp.add_pipe("ner")
    for lab in sorted(labels):
        ner.add_label(lab)
    with_ents = [d for d in train if d.ents][:40]
    examples = [Example(Doc(nlp.vocab, words=[t.text for t in d], spaces=[False] * len(d)), d) for d in with_ents]
    random.seed(0)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(30):
        nlp.update(examples, sgd=optimizer, drop=0.0, losses={})
    # the DocBins carry real annotation: trained on them, the NER gives back most of their spans
    gold = {(i, e.start, e.end, e.label_) for i, d in enumerate(with_ents) for e in d.ents}
    pred = {(i, e.start, e.end, e.label_) for i, d in enumerate(with_ents)
            for e in nlp(Doc(nlp.vocab, words=[t.text for t in d], spaces=[False] * len(d))).ents}
    assert len(gold & pred) >= 0.5 * len(gold), (len(gold & pred), len(gold))


def test_tei_well_formed_and_valid_against_the_subset_schema(outputs, docs):
    rng = etree.RelaxNG(etree.parse(str(SCHEMA)))
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    for doc in docs:
        tree = etree.fromstring(outputs[f"tei/{doc.id}.xml"])
        assert rng.validate(tree), rng.error_log
        pbs = [e.get("n") for e in tree.iterfind(".//t:pb", ns)]
        assert pbs == [pb for _, pb in doc.pages]
        assert tree.find(".//t:teiHeader//t:idno[@type='JUAN']", ns).text == doc.properties["JUAN"]
        ids = set(tree.xpath("//@xml:id"))
        for note in tree.iterfind(".//t:note[@type='commentary']", ns):
            assert note.get("target")[1:] in ids
        assert tree.xpath("//t:roleName|//t:placeName|//t:rs", namespaces=ns)
        assert tree.find(".//t:note[@type='collation']", ns) is not None
        for link in tree.iterfind(".//t:link", ns):
            assert all(t[1:] in ids for t in link.get("target").split())
    t10 = etree.fromstring(outputs["tei/KR1d0030_010.xml"])
    assert [e.text for e in t10.iterfind(".//t:roleName", ns)][:1] == ["司射"]
    # whom a gloss is by: @resp on its link, at the respStmt naming him (the variant names nobody)
    by = {link.get("type"): link.get("resp") for link in t10.iterfind(".//t:link", ns)}
    stmt = t10.xpath("//t:respStmt[@xml:id=$i]", namespaces=ns, i=by["definition"][1:])
    assert stmt and stmt[0].findtext("t:persName", namespaces=ns) == "鄭衆" and by["variant"] is None
    assert [e.text for e in t10.iterfind(".//t:placeName", ns)][:1] == ["西階"]
    t1 = etree.fromstring(outputs["tei/KR1d0030_001.xml"])
    assert t1.find(".//t:g[@ref='#KR1362']", ns) is not None
    assert t1.find(".//t:glyph", ns).get("{http://www.w3.org/XML/1998/namespace}id") == "KR1362"
    # the text content (without header, notes and restored marks) is the unit text
    body_p = t1.find(".//t:ab[@type='base']", ns)
    assert "".join(body_p.itertext()).replace("，", "").replace("。", "").replace("、", "").startswith("緇布冠缺項")


def _tei_lines_script():
    """scripts/tei_lines.py, the checker of every file's TEI lines, as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tei_lines", ROOT / "scripts" / "tei_lines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", [
    ROOT / "data" / "corpus" / "KR1d0003" / "KR1d0003_002.txt",  # 周禮注疏, a train juan: 音¶義, 疏¶, a page turned in 音|義
    ROOT / "data" / "corpus" / "KR1d0030" / "KR1d0030_002.txt",  # 集釋, a train juan: collation notes opening a line
    ROOT / "tests" / "fixtures" / "print" / "KR1d0040_003.txt",  # 儀禮述註 juan 3 (no dev split): ○¶疏曰
])
def test_tei_lines_hold_what_the_print_has_on_them(path):
    # every character of a unit's text and of its marker, and every collation note, stands after the
    # <pb>/<lb> of the printed line that holds it: a marker printed across a line's end (音¶義, ○疏¶曰) or
    # at a line's end (疏¶) was put whole after the next line's <lb/> (3,195 markers of the 530 embedded
    # and shared files), and a collation note opening a line before that line's <lb/> (82 of 1,428)
    check = _tei_lines_script()
    doc = read_document(path)
    got = check.tei_lines(tei.render_doc(doc).encode("utf-8"))
    want = check.printed_lines(doc)
    assert {k: got.get(k) for k in want} == want
    # the file holds such markers or notes (KR1d0003_002: 10 markers; KR1d0030_002: a note opening a line
    # and a 釋曰 with nothing but its note; KR1d0040_003: 1 marker)
    moved = sum(len(set(v)) > 1 or v[-1] != want.get((k[0], "text"), v)[0] for k, v in want.items() if k[1] == "label")
    opens = [n for n in doc.notes if not doc.source[max(x[0] for x in doc.lines if x[0] <= n.start):n.start].strip("\u3000 ")]
    assert moved + len(opens) > 0
    if path.name == "KR1d0003_002.txt":
        assert '<label>音<pb n="KR1d0003_WYG_002-32b"/><lb n="1"/>義</label>' in tei.render_doc(doc)


def test_html_page_ids_stand_before_the_first_thing_printed_on_the_page():
    # the same placement as the TEI's <pb/>: inside a marker the page turns in (音 | 義, 周禮注疏 juan 2,
    # train), before a collation note opening the page (集釋 juan 1, train), before a unit's marker
    # where the unit opens the page (周禮注疏 juan 4, train: the 疏 marker was shown on the page before)
    def page(path):
        return html.render_doc(read_document(ROOT / "data" / "corpus" / path))

    assert '<span class="marker">音<span class="pb" title="KR1d0003_WYG_002-32b">' in page("KR1d0003/KR1d0003_002.txt")
    assert ('<span class="pb" title="KR1d0030_WYG_001-26b">001-26b</span><span class="coll">（案厚下原本衍之字'
            in page("KR1d0030/KR1d0030_001.txt"))
    j4 = page("KR1d0003/KR1d0003_004.txt")  # <pb:…004-29a>¶ 疏(釋曰言以…: the 疏 opens the page
    assert '<span class="pb" title="KR1d0003_WYG_004-29a">004-29a</span><span class="who" title="疏">賈公彦</span><span class="marker">疏</span>' in j4
    # 音義¶ <pb:…004-4b>¶ (授祭…: the marker ends page 4a, the page id follows it
    assert '<span class="marker">音義</span><span class="pb" title="KR1d0003_WYG_004-4b">' in j4


def test_tei_schema_rejects_what_tei_forbids():
    rng = etree.RelaxNG(etree.parse(str(SCHEMA)))
    bad = etree.fromstring(
        b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><div><p>x</p></div></body></text></TEI>'
    )
    assert not rng.validate(bad)  # no teiHeader


def test_html_pages(outputs):
    page = etree.fromstring(outputs["html/KR1d0030_010.html"], etree.HTMLParser())
    glosses = page.xpath("//span[@class='gloss' and @id]")
    assert glosses and glosses[0].get("data-lemma") and glosses[0].get("data-type") == "definition"
    assert glosses[0].get("data-by") == " · 鄭司農 (鄭衆)" and "鄭司農 (鄭衆)" in glosses[0].get("title")
    assert all(g.get("data-by") is None for g in glosses if g.get("data-type") == "variant")  # names nobody
    assert page.xpath("//span[@class='lemma']/@data-g")
    assert page.xpath("//span[@class='e ROLE']") and page.xpath("//span[@class='coll']")
    assert page.xpath("//div[contains(@class,'commentary')]/span[@class='marker']/text()")[0] == "鄭注"
    css = outputs["html/style.css"].decode()
    assert ".gloss:hover::after" in css and "attr(data-lemma)" in css
    index = outputs["html/index.html"].decode()
    assert index.count("<svg") >= 2 and 'href="KR1d0030_010.html"' in index


def test_dataset_card(outputs):
    text = outputs["README.md"].decode()
    assert "CC BY-SA 4.0" in text and "Kanseki Repository" in text
    for kind in records.RECORD_KINDS:
        assert f"`jsonl/{kind}.jsonl`" in text
    for col, _, _ in records.SCHEMAS["glosses"]:
        assert f"| `{col}` |" in text
    assert "| documents (juan) | 2 (dev 1, train 1) |" in text


def test_exports_are_deterministic(docs, outputs):
    # exported again, assembled in the other order: the same bytes
    assert _export_all(docs) == outputs


def test_control_character_of_a_source_stays_well_formed():
    # KR1d0026_008 has a U+0001 in its text: XML cannot hold it, TEI keeps it as a <gap>
    doc = read_document(FIX / "KR1d0030_010.txt")
    unit = next(u for u in doc.units if u.kind == "base")
    unit.text = unit.text[:3] + "\x01" + unit.text[4:]
    xml = tei.render_doc(doc).encode("utf-8")
    tree = etree.fromstring(xml)
    assert etree.RelaxNG(etree.parse(str(SCHEMA))).validate(tree)
    assert tree.find(".//{http://www.tei-c.org/ns/1.0}gap").get("n") == "U+0001"
    page = html.render_doc(doc)
    assert "\x01" not in page and "␁" in page


def test_docbin_bytes_are_spacys_own(docs):
    # the export fills its DocBins' rows itself, without a spaCy Doc a sentence; the bytes must
    # be what DocBin.add gives (parsed words, and characters when the parse did not run)
    from pipeline.export import spacy_docbin

    unparsed = _annotate(read_document(FIX / "KR1d0030_001.txt"))
    for doc in (docs[0], unparsed):
        assert spacy_docbin.docbin(doc).to_bytes() == spacy_docbin._spacy_docbin(doc).to_bytes()
    # the workers send per-document parts, merged into one DocBin per split
    reference = spacy_docbin._spacy_docbin(docs[0])
    reference.merge(spacy_docbin._spacy_docbin(unparsed))
    parts = [spacy_docbin.docbin_part(docs[0]), spacy_docbin.docbin_part(unparsed)]
    assert spacy_docbin.merge(parts) == reference.to_bytes()


def test_source_span_bytes_skip_the_entry_point_scan_and_stay_spacys(monkeypatch):
    # the `source` span-group bytes are made without srsly's per-call entry-point scan
    # (catalogue over importlib.metadata's entry points, a quarter of the export's CPU) and are
    # still spaCy's own bytes
    from spacy.tokens import Doc
    from spacy.vocab import Vocab
    from srsly.msgpack import msgpack_encoders

    from pipeline.export import spacy_docbin

    spacy_docbin._source_spans.cache_clear()
    scans = []
    real = msgpack_encoders._get_entry_points  # catalogue's scan of every installed entry point
    monkeypatch.setattr(msgpack_encoders, "_get_entry_points", lambda: scans.append(1) or real())
    spacy_docbin._encoder_entry_points()  # the one check, made before counting
    scans.clear()
    got = spacy_docbin._source_spans(3, 5, "疏", "賈公彦")
    assert scans == []  # no scan while the bytes were made
    assert msgpack_encoders.entry_points  # the registry is left as it was
    sdoc = Doc(Vocab(), words=["_", "_", "___"], spaces=[False] * 3)
    spacy_docbin._set_source(sdoc, SimpleNamespace(source="疏", source_name="賈公彦"))
    assert got == sdoc.spans.to_bytes()
    spacy_docbin._source_spans.cache_clear()


def test_unit_provenance_is_text_page_at_every_offset():
    # the records look page provenance up in a table swept once per unit; it must give
    # doc.text_page's answer at every offset (a 集釋 juan and a 注疏 juan, real files)
    from pipeline.export.common import UnitProvenance

    for path in (FIX / "KR1d0030_001.txt", ROOT / "data" / "corpus" / "KR1d0003" / "KR1d0003_001.txt"):
        doc = read_document(path)
        checked = 0
        for unit in doc.units:
            table = UnitProvenance(doc, unit)
            for k in range(-1, len(unit.text) + 1):
                page = doc.text_page(unit, k)
                assert table(k) == ({"pb": page.pb, "line": page.line} if page else {"pb": None, "line": None})
                checked += 1
        assert checked > 200 and len({p for _, p in doc.pages}) > 1


def test_streamed_docbin_is_the_merged_docbin(docs):
    # the corpus end writes each split's DocBin as a zlib stream, one document's rows at a time:
    # the bytes must be DocBin.to_bytes of the merged parts (and of no parts at all)
    from pipeline.export import spacy_docbin

    unparsed = _annotate(read_document(FIX / "KR1d0030_001.txt"))
    parts = [spacy_docbin.docbin_part(docs[0]), spacy_docbin.docbin_part(unparsed), spacy_docbin.docbin_part(docs[1])]
    for chosen in (parts, parts[:1], []):
        buf = io.BytesIO()
        spacy_docbin.write_docbin(buf, chosen)
        assert buf.getvalue() == spacy_docbin.merge(chosen)


def test_parquet_row_groups_are_written_as_they_fill(docs, monkeypatch):
    # the streamed tables hold at most ROW_GROUP rows before writing a group: with a tiny group
    # the file must hold every row in order, in full groups and one last short one
    import pyarrow.parquet as pq

    from pipeline.export import parquet

    monkeypatch.setattr(parquet, "ROW_GROUP", 7)
    formats = [FORMATS["parquet"]]
    exports = [bundle(doc, "train", ["ingest"], formats) for doc in docs]
    files = assemble(exports, formats, {"ingest": "ran"})
    units = pq.ParquetFile(io.BytesIO(files["parquet/units.parquet"]))
    expected = [r["unit"] for doc in docs for r in records.document_records(doc, "train", ["ingest"])["units"]]
    assert units.read().column("unit").to_pylist() == expected
    sizes = [units.metadata.row_group(i).num_rows for i in range(units.metadata.num_row_groups)]
    assert len(expected) > 7 and all(n == 7 for n in sizes[:-1]) and 0 < sizes[-1] <= 7


def test_spilled_parts_are_read_back_in_document_order(docs, tmp_path):
    # the runner sends each finished document's parts to disk; assembling from the spill must
    # give the bytes of assembling from memory, whatever order the documents finished in
    from pipeline.export import Spill
    from pipeline.export.bundle import SpilledPart

    formats = list(FORMATS.values())
    stages = {"ingest": "ran", "segment": "ran (hand-set in this test)"}
    spill = Spill(tmp_path)
    exports = [spill.keep(bundle(doc, "dev" if doc.id == "KR1d0030_010" else "train",
                                 ["ingest", "segment", "tag", "align", "parse"], formats)) for doc in reversed(docs)]
    assert all(isinstance(p, SpilledPart) for e in exports for p in e.parts.values())
    assert len(list(tmp_path.iterdir())) == len(formats) * len(docs) - len(docs)  # the card has no part
    assert assemble(exports, formats, stages) == _export_all(docs)


def test_the_html_and_the_tei_show_what_ingest_and_the_card_warn_of(tmp_path):
    """A philologist who reads only the HTML saw no warning: 儀禮注疏 juan 5 (train) has a 注 marker
    misprinted as 疏, read as printed and listed in the card; its page, the index, the TEI header
    (notesStmt) and the CoNLL-U file (`# ingest_warning`, after `newdoc id`) now say so."""
    from pipeline.runner import run

    juan = paths.DATA / "corpus" / "KR1d0028" / "KR1d0028_005.txt"
    run([str(juan)], tmp_path / "out", steps=["ingest", "export"], formats=["html", "tei", "conllu"], progress=False)
    page = (tmp_path / "out" / "html" / "KR1d0028_005.html").read_text(encoding="utf-8")
    index = (tmp_path / "out" / "html" / "index.html").read_text(encoding="utf-8")
    assert '<div class="warn">' in page and "where a 注 should start" in page.split('<div class="warn">')[1].split("</div>")[0]
    assert '<div class="warn">' in index and "Ingest warnings: 1 in KR1d0028_005" in index
    conllu = (tmp_path / "out" / "conllu" / "KR1d0028_005.conllu").read_text(encoding="utf-8").split("\n")
    assert conllu[0] == "# newdoc id = KR1d0028_005" and conllu[1].startswith("# ingest_warning = ")
    tree = etree.parse(str(tmp_path / "out" / "tei" / "KR1d0028_005.xml"))  # and the TEI header, valid
    notes = tree.findall(".//{http://www.tei-c.org/ns/1.0}notesStmt/{http://www.tei-c.org/ns/1.0}note")
    assert [n.get("type") for n in notes] == ["ingest-warning"] and "where a 注 should start" in notes[0].text
    rng = etree.RelaxNG(etree.parse(str(paths.REPO / "schemas" / "tei_zhushu.rng")))
    assert rng.validate(tree), str(rng.error_log)[:2000]
    tei_all = paths.REPO.parent / "shared" / "schemas" / "tei_all.rng"
    if tei_all.exists():
        assert etree.RelaxNG(etree.parse(str(tei_all))).validate(tree)
