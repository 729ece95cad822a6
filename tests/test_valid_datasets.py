"""The datasets of a real `zhushu run` (every stage, the parse included) pass their own
validators: CoNLL-U `udvalidate --lang lzh --level 2` (udtools, the official UD validator), TEI
against TEI P5 tei_all (RelaxNG, lxml), every offset of every jsonl/parquet table indexes the
string stored beside it, and a Kanripo character is one spaCy token.

Input: juan 0 (front matter: header lines with U+3000 layout spaces) and juan 3 (base text,
commentary, collation notes, Kanripo characters) of data/corpus, and tests/fixtures/parse/
KR1d0030_025.txt (a CJK compatibility ideograph) — TRAIN juan, not the dev juan 10.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from pipeline import paths
from pipeline.export.records import RECORD_KINDS
from pipeline.variants import fold, reading_alternates
from tests.conftest import browser_missing

ROOT = Path(__file__).resolve().parent.parent
INPUTS = [paths.CORPUS / "KR1d0030_000.txt", paths.CORPUS / "KR1d0030_003.txt",
          ROOT / "tests" / "fixtures" / "parse" / "KR1d0030_025.txt",
          ROOT / "tests" / "fixtures" / "zhushu" / "KR1d0053_001.txt"]  # the 注疏 layout: 注, 音義, 疏, 考證
# TEI P5 tei_all, edition 4.3.0: read where ../shared/schemas/README.md puts it (not copied
# into the repository, as that README asks)
TEI_ALL = ROOT.parent / "shared" / "schemas" / "tei_all.rng"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    from pipeline.runner import run

    folder = tmp_path_factory.mktemp("valid")
    summary = run([str(p) for p in INPUTS], folder, progress=False)
    assert summary.stages.get("parse", "").startswith("ran") if hasattr(summary, "stages") else True
    return folder


def udvalidate(files, level: int = 2) -> subprocess.CompletedProcess:
    """The udtools validator, as its console script runs it (same interpreter)."""
    code = "import sys; from udtools.cli import main; sys.argv = ['udvalidate'] + sys.argv[1:]; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, "--lang", "lzh", "--level", str(level), *map(str, files)],
                          capture_output=True, text=True, timeout=300)


def test_conllu_passes_udvalidate_level_2(out):
    files = sorted((out / "conllu").glob("*.conllu"))
    assert len(files) == len(INPUTS)
    res = udvalidate(files)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    text = (out / "conllu" / "KR1d0030_025.conllu").read_text(encoding="utf-8")
    assert "ZhOrig=U+2F962" in text and "\u3000" not in text and "ZhSpacesBefore=\\u3000" in text
    assert "Entity=" not in text and "\tPUNCT\t" in text


def test_conllu_validator_catches_what_we_fixed(out, tmp_path):
    """The check is not vacuous: a whitespace token, a non-NFC form each fail level 2."""
    lines = (out / "conllu" / "KR1d0030_000.conllu").read_text(encoding="utf-8").split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith("1\t"))
    for bad in ("\u3000", "\u2f962"[0:0] + "\U0002F962"):
        cols = lines[i].split("\t")
        head = next(k for k in range(i, 0, -1) if lines[k].startswith("# text = "))
        broken = list(lines)
        broken[head] = "# text = " + bad + lines[head][len("# text = ") + len(cols[1]):]
        broken[i] = "\t".join([cols[0], bad] + cols[2:])
        f = tmp_path / "broken.conllu"
        f.write_text("\n".join(broken), encoding="utf-8")
        assert udvalidate([f]).returncode != 0, repr(bad)


@pytest.mark.skipif(not TEI_ALL.exists(), reason=f"TEI P5 tei_all.rng not found at {TEI_ALL}")
def test_tei_valid_against_tei_all(out):
    rng = etree.RelaxNG(etree.parse(str(TEI_ALL)))
    files = sorted((out / "tei").glob("*.xml"))
    assert len(files) == len(INPUTS)
    for f in files:
        tree = etree.parse(str(f))
        assert rng.validate(tree), (f.name, str(rng.error_log)[:2000])
    # and it rejects what we used to write: <p type="base">
    ns = "{http://www.tei-c.org/ns/1.0}"
    tree = etree.parse(str(files[1]))
    ab = tree.find(f".//{ns}ab[@type='base']")
    ab.tag = f"{ns}p"
    assert not rng.validate(tree)


def _rows(out: Path, kind: str, fmt: str) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(x) for x in (out / "jsonl" / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()]
    import pyarrow.parquet as pq

    return pq.read_table(out / "parquet" / f"{kind}.parquet").to_pylist()


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_every_offset_indexes_the_string_beside_it(out, fmt):
    rows = {kind: _rows(out, kind, fmt) for kind in RECORD_KINDS}
    assert all(rows[k] for k in RECORD_KINDS), {k: len(v) for k, v in rows.items()}
    units = {u["unit"]: u for u in rows["units"]}
    sources = {p.stem: p.read_text(encoding="utf-8") for p in INPUTS}
    assert any("&KR" in u["text"] for u in units.values())  # the case that used to be wrong
    for u in rows["units"]:
        raw = sources[u["doc"]][u["start"] : u["end"]]
        it = iter(raw)
        assert all(ch in it for ch in u["text"]), u  # the text, in order, inside its raw extent
    for r in rows["sentences"] + rows["entities"]:
        assert units[r["unit"]]["text"][r["start"] : r["end"]] == r["text"], r
    for r in rows["glosses"]:
        assert units[r["unit"]]["text"][r["note_start"] : r["note_end"]] == r["text"], r
        if r["lemma_start"] is not None:
            assert units[r["base_unit"]]["text"][r["lemma_start"] : r["lemma_end"]] == r["lemma"], r
    for r in rows["readings"]:
        assert units[r["unit"]]["text"][r["head_start"] : r["head_end"]] == r["head"], r
        if r["target_unit"] is not None:
            # the head as the text prints it: the same characters folded, or a variant the note
            # itself names (丐本亦作匄 anchors on 匄) or models/variants/readings.tsv gives
            form = units[r["target_unit"]]["text"][r["target_start"] : r["target_end"]]
            assert len(form) == len(r["head"]) and (
                fold(form) == fold(r["head"]) or form in units[r["unit"]]["text"]
                or all(f == h or f in reading_alternates(h) for f, h in zip(form, r["head"]))), r
    for r in rows["collation"]:
        assert sources[r["doc"]][r["start"]] == "(" and sources[r["doc"]][r["end"] - 1] == ")", r
        assert 0 <= r["offset"] <= len(units[r["unit"]]["text"]), r
    for r in rows["tokens"]:
        if r["restored"]:
            assert r["start"] == r["end"] and r["deprel"] == "punct" and r["upos"] == "PUNCT", r
        else:
            assert units[r["unit"]]["text"][r["start"] : r["end"]] == r["text"], r
    # the tokens cover every non-space character of every parsed sentence exactly once
    covered: dict[str, int] = {}
    for r in rows["tokens"]:
        if not r["restored"]:
            covered[r["unit"]] = covered.get(r["unit"], 0) + (r["end"] - r["start"])
    for uid, u in units.items():
        if u["text"]:
            assert covered.get(uid, 0) == sum(1 for ch in u["text"] if not ch.isspace()), uid


def test_docbin_keeps_a_kanripo_character_one_token(out):
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("zh")
    docs = list(DocBin().from_bytes((out / "spacy" / "train.spacy").read_bytes()).get_docs(nlp.vocab))
    tokens = [json.loads(x) for x in (out / "jsonl" / "tokens.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sum(len(d) for d in docs) == len(tokens)  # one spaCy token per word of the parse
    kr = [t for d in docs for t in d if t.norm_.startswith("&KR")]
    assert kr and all(len(t.text) == 1 for t in kr)
    doc = kr[0].doc
    # spaCy's own character tokenizer (what `spacy train` runs on the text) keeps it one token
    assert kr[0].text in [t.text for t in nlp.make_doc(doc.text)]
    assert len(nlp.make_doc(kr[0].text)) == 1
    assert all(t.head.i != t.i or t.dep_ == "ROOT" for d in docs for t in d)
    assert {t.pos_ for d in docs for t in d} >= {"NOUN", "VERB", "PUNCT"}


def test_tei_valid_against_the_project_subset_and_readings_point_at_their_heads(out):
    rng = etree.RelaxNG(etree.parse(str(paths.REPO / "schemas" / "tei_zhushu.rng")))
    for f in sorted((out / "tei").glob("*.xml")):
        assert rng.validate(etree.parse(str(f))), (f.name, str(rng.error_log)[:2000])
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    tree = etree.parse(str(out / "tei" / "KR1d0053_001.xml"))
    readings = tree.findall(".//t:note[@type='reading']", ns)
    assert len(readings) > 20
    ids = {a.get("{http://www.w3.org/XML/1998/namespace}id") for a in tree.iter("{http://www.tei-c.org/ns/1.0}anchor")}
    pointed = [r for r in readings if r.get("target")]
    assert len(pointed) >= 0.8 * len(readings)  # 32 of 37 in this cut; the whole books: docs/readings.md
    assert all(t.lstrip("#") in ids for r in pointed for t in r.get("target").split())
    assert {n.get("subtype") for n in tree.findall(".//t:note[@type='commentary']", ns)} >= {"zhu", "yinyi", "shu"}


@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_a_link_to_a_quotation_in_a_folded_shu_opens_the_fold(out, browser):
    """The HTML folds a long 疏 (<details>); a page opened at one of its quotations (?gloss=<id> or
    #<id>) opens the fold and shows the quotation with its tooltip (headless Chromium)."""
    from selenium.webdriver.common.by import By

    page = etree.fromstring((out / "html" / "KR1d0053_001.html").read_bytes(), etree.HTMLParser())
    folded = page.xpath("//details[contains(@class, 'm-shu')]//span[contains(concat(' ', @class, ' '), ' gloss ')]/@id")
    assert len(folded) > 2
    url = (out / "html" / "KR1d0053_001.html").resolve().as_uri()
    for gid, how in ((folded[0], f"?gloss={folded[0]}"), (folded[-1], f"#{folded[-1]}")):
        browser.get(url + how)
        el = browser.find_element(By.ID, gid)
        assert el.is_displayed(), how
        assert browser.execute_script("return arguments[0].closest('details').open", el)
    browser.get(url)  # opened plainly, the folds stay shut
    assert not browser.find_element(By.ID, folded[0]).is_displayed()


def test_conllu_carries_the_readings_at_their_heads(out):
    """The 音義 readings in CoNLL-U MISC (the fixture: juan 1 of 禮記註疏, train): the note's head word
    names the reading, prints it and points at where the head stands; the 經 / 注 word there names
    the reading back — for every anchored reading of the tables."""
    readings = [r for r in _rows(out, "readings", "jsonl") if r["doc"] == "KR1d0053_001"]
    anchored = [r for r in readings if r["target_unit"] is not None]
    assert len(anchored) > 20
    tokens: dict[str, list[tuple[int, int, dict]]] = {}  # unit -> (start, end, misc) of its words
    unit = None
    for line in (out / "conllu" / "KR1d0053_001.conllu").read_text(encoding="utf-8").splitlines():
        if line.startswith("# newpar id = "):
            unit = line.split(" = ", 1)[1]
        elif line and not line.startswith("#"):
            misc = dict(kv.split("=", 1) for kv in line.split("\t")[9].split("|"))
            if "ZhSpan" in misc:
                a, b = map(int, misc["ZhSpan"].split("-"))
                tokens.setdefault(unit, []).append((a, b, misc))

    def word_at(unit, k):
        return next(m for a, b, m in tokens[unit] if a <= k < b)

    for r in readings:
        head = word_at(r["unit"], r["head_start"])
        assert r["id"] in head["ZhReading"].split(",") and head["ZhReadingText"] == r["reading_text"]
        if r["target_unit"] is None:
            assert "ZhReadingTarget" not in head
            continue
        assert head["ZhReadingTarget"] == f"{r['target_unit']}:{r['target_start']}-{r['target_end']}"
        assert r["id"] in word_at(r["target_unit"], r["target_start"])["ZhReadingOf"].split(",")


def test_html_shows_the_zhushu_commentaries_apart_with_readings_on_hover(out):
    from lxml import html

    page = html.fromstring((out / "html" / "KR1d0053_001.html").read_text(encoding="utf-8"))
    for cls in ("m-zhu", "m-yinyi", "m-shu"):
        assert page.xpath(f"//*[contains(concat(' ', @class, ' '), ' {cls} ')]"), cls
    folded = page.xpath("//details[contains(@class, 'm-shu')]")
    assert folded and all(len(d.text_content()) > 120 for d in folded)  # the long 疏 are folded
    # the folded view opens as the body prints it, with the restored marks (stop 51: bare characters)
    openings = [d.xpath("summary")[0].text_content() for d in folded]
    assert sum("：" in o or "，" in o or "。" in o for o in openings) > len(openings) / 2
    heads = page.xpath("//span[@class='reading']/@title")
    assert len(heads) > 20 and all(t.startswith("音義: ") for t in heads)


def test_shu_quotations_in_every_format(out):
    """The 疏's quotations (the fixture's first 疏, train juan 1 of 禮記註疏: 「毋不敬者人君行禮…」
    quotes the 經 毋不敬) are glosses of type explanation on the 疏 unit in every format."""
    units = {u["unit"]: u for u in _rows(out, "units", "jsonl")}
    rows = [g for g in _rows(out, "glosses", "jsonl")
            if g["doc"] == "KR1d0053_001" and units[g["unit"]]["marker"] == "疏"]
    quote = next((g for g in rows if g["text"] == "毋不敬"), None)
    assert quote is not None, sorted(g["text"] for g in rows)[:20]
    assert quote["type"] == "explanation" and quote["lemma"] == "毋不敬" and quote["lemma_start"] is not None
    assert units[quote["base_unit"]]["kind"] == "base" and units[quote["base_unit"]]["text"].startswith("曲禮曰毋不敬")
    assert {"note_start", "note_end", "lemma_pb", "lemma_line", "confidence"} <= set(quote)
    gid = quote["id"]
    parquet = {g["id"]: g for g in _rows(out, "glosses", "parquet")}
    assert parquet[gid]["lemma"] == "毋不敬" and parquet[gid]["type"] == "explanation"
    conllu = (out / "conllu" / "KR1d0053_001.conllu").read_text(encoding="utf-8")
    assert f"ZhGloss={gid}" in conllu and "ZhGlossType=explanation" in conllu and gid in conllu.split("ZhLemmaOf=", 1)[1]
    conf = quote["confidence"]  # the reader's probability, the same in every format
    assert f"ZhGlossLemma={quote['base_unit']}:{quote['lemma_start']}-{quote['lemma_end']}|ZhGlossConf={conf:.3f}" in conllu
    tei = (out / "tei" / "KR1d0053_001.xml").read_text(encoding="utf-8")
    tid = gid.replace("#", ".u")  # the TEI xml:id of the gloss
    assert f'<link type="explanation" target="#{tid}.s #{tid}.e #{tid}.ls #{tid}.le" n="毋不敬" cert="{conf:.3f}"/>' in tei
    page = etree.fromstring((out / "html" / "KR1d0053_001.html").read_bytes(), etree.HTMLParser())
    seq, index = gid.split("#", 1)[1].split(".g")
    spans = page.xpath(f"//span[contains(concat(' ', @class, ' '), ' gloss ') and @id='g-{seq}-{index}']")  # html's gloss ids
    assert spans and spans[0].get("data-lemma") == "毋不敬" and spans[0].get("data-type") == "explanation"
    assert spans[0].get("data-conf") == f"{conf:.2f}" and f"confidence {conf:.2f}" in spans[0].get("title")
    # a 疏 quotation under 0.5 is drawn as unsure, and only a 疏 quotation
    shu = page.xpath("//*[contains(concat(' ', @class, ' '), ' m-shu ')]//span[contains(concat(' ', @class, ' '), ' gloss ')]")
    other = page.xpath("//*[not(contains(concat(' ', @class, ' '), ' m-shu '))]/span[contains(concat(' ', @class, ' '), ' gloss ')][@id]")
    unsure = [g for g in shu if "unsure" in g.get("class").split()]
    assert unsure and len(unsure) < len(shu)
    confidence = {"g-" + g["id"].split("#", 1)[1].replace(".g", "-"): g["confidence"]
                  for g in _rows(out, "glosses", "jsonl") if g["doc"] == "KR1d0053_001"}
    assert all(("unsure" in g.get("class").split()) == (confidence[g.get("id")] < 0.5) for g in shu)
    assert other and not any("unsure" in g.get("class").split() for g in other)
    # the 集釋's glosses keep their formula × anchoring confidence (an order, not a probability):
    # those under 0.5 are drawn like the rest
    low = [g for g in _rows(out, "glosses", "jsonl") if g["doc"] == "KR1d0030_003" and g["confidence"] < 0.5]
    page = etree.fromstring((out / "html" / "KR1d0030_003.html").read_bytes(), etree.HTMLParser())
    drawn = page.xpath("//span[contains(concat(' ', @class, ' '), ' gloss ')][@id]")
    assert low and drawn and not any("unsure" in g.get("class").split() for g in drawn)


def test_a_file_name_that_is_no_identifier_still_gives_valid_datasets(tmp_path):
    """Juan saved as `001.txt` or `juan 3 (copy)#2.txt` (train juan of the 集釋, the export fixture):
    the id went as it was into CoNLL-U's sent_id (a space: udvalidate failed), TEI's xml:id (a digit
    first: lxml refused to parse the file) and the HTML index's links (`#` opened a fragment), exit 0.
    Now the id has `_` for whitespace, TEI an NCName form of it, the links are percent-encoded."""
    from urllib.parse import unquote

    from pipeline.runner import run

    fixture = ROOT / "tests" / "fixtures" / "export" / "KR1d0030_001.txt"
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("001.txt", "juan 3 (copy)#2.txt"):
        (folder / name).write_bytes(fixture.read_bytes())
    out = tmp_path / "out"
    run([str(folder)], out, steps=["ingest", "segment", "tag", "align", "parse", "export"],
        formats=["conllu", "tei", "html", "jsonl"], progress=False)
    assert sorted(p.name for p in (out / "conllu").glob("*.conllu")) == ["001.conllu", "juan_3_(copy)#2.conllu"]
    res = udvalidate(sorted((out / "conllu").glob("*.conllu")))
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
    rng = etree.RelaxNG(etree.parse(str(paths.REPO / "schemas" / "tei_zhushu.rng")))
    for f in sorted((out / "tei").glob("*.xml")):
        tree = etree.parse(str(f))  # raised on xml:id="001.…" before
        assert rng.validate(tree), (f.name, str(rng.error_log)[:2000])
    index = (out / "html" / "index.html").read_text(encoding="utf-8")
    links = [unquote(h) for h in __import__("re").findall(r'<td class="l"><a href="([^"]+)"', index)]
    assert sorted(links) == ["001.html", "juan_3_(copy)#2.html"] and "%232.html" in index
    assert all((out / "html" / link).exists() for link in links)
