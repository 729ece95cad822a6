"""The sqlite export (sqlite/zhushu.db), `zhushu serve` and `zhushu stats`, used as a user would:
the database of a real `zhushu run` holds every jsonl table row for row with its keys; its
search indexes find what a scan of the text finds; every canned query answers through
Datasette's HTTP API on a loopback port; headless Chromium renders the KWIC page with its hits.

Input: juan 5 of the 儀禮集釋 (鄉射禮: 司射 33 times, 揖 51 times; a TRAIN juan, not the dev
juan 10) and tests/fixtures/zhushu/KR1d0053_001.txt (the start of 禮記註疏 juan 1, train: 注,
音義 readings with authorities, 疏, 考證), every stage including the parse.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline import paths
from pipeline.export.records import RECORD_KINDS, SCHEMAS
from pipeline.export.sqlite import INDEXED, PATH, PRIMARY_KEYS, REFERENCES
from pipeline.pua import decode_entities, encode_entities
from tests.conftest import browser_missing
from pipeline.serve.queries import CANNED, run_query

ROOT = Path(__file__).resolve().parent.parent
INPUTS = [paths.CORPUS / "KR1d0030_005.txt", ROOT / "tests" / "fixtures" / "zhushu" / "KR1d0053_001.txt"]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    from pipeline.runner import run

    folder = tmp_path_factory.mktemp("sqlite")
    summary = run([str(p) for p in INPUTS], folder, formats=["jsonl", "sqlite"], progress=False)
    assert summary.ok and summary.stages["parse"] == "ran"
    return folder


@pytest.fixture(scope="module")
def conn(out):
    c = sqlite3.connect(f"file:{out / PATH}?mode=ro", uri=True)
    yield c
    c.close()


def jsonl(out: Path, kind: str) -> list[dict]:
    return [json.loads(x) for x in (out / "jsonl" / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()]


def db_value(value, typ: str):
    """A jsonl value as the database holds it."""
    if typ == "bool" and value is not None:
        return int(value)
    if typ == "json" and value is not None:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


@pytest.mark.parametrize("kind", RECORD_KINDS)
def test_every_table_equals_its_jsonl_table_row_for_row(out, conn, kind):
    cols = SCHEMAS[kind]
    names = [c[0] for c in cols]
    assert [r[1] for r in conn.execute(f"PRAGMA table_info([{kind}])")] == names
    rows = conn.execute(f"SELECT {', '.join(f'[{n}]' for n in names)} FROM [{kind}] ORDER BY rowid").fetchall()
    want = [tuple(db_value(r.get(n), t) for n, t, _ in cols) for r in jsonl(out, kind)]
    assert len(rows) == len(want) and len(want) > 0, kind
    assert rows == want


@pytest.mark.parametrize("kind", RECORD_KINDS)
def test_keys_and_indexes(conn, kind):
    info = conn.execute(f"PRAGMA table_info([{kind}])").fetchall()
    pk = tuple(r[1] for r in sorted(info, key=lambda r: r[5]) if r[5])
    assert pk == PRIMARY_KEYS[kind]
    names = {r[1] for r in info}
    fks = {(r[3], r[2], r[4]) for r in conn.execute(f"PRAGMA foreign_key_list([{kind}])")}
    assert fks == {(c, *REFERENCES[c]) for c in REFERENCES if c in names and REFERENCES[c] != (kind, c)}
    indexed = {conn.execute(f"PRAGMA index_info([{ix[1]}])").fetchone()[2]
               for ix in conn.execute(f"PRAGMA index_list([{kind}])")}
    wanted = {"doc", "juan", "kind", "marker", "label", "lemma"} | ({"head"} if kind == "readings" else set())
    assert (wanted & names) <= indexed <= set(INDEXED) | set(PRIMARY_KEYS[kind][:1])


def test_every_foreign_key_resolves(conn):
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # and the check is not vacuous: a broken reference is reported
    mem = sqlite3.connect(":memory:")
    conn.backup(mem)
    mem.execute("UPDATE glosses SET base_unit = 'KR1d0030_005#99999' WHERE rowid = 1")
    assert [r[:3] for r in mem.execute("PRAGMA foreign_key_check")] == [("glosses", 1, "units")]


def units_with(conn, s: str) -> set[str]:
    return {u for (u, t) in conn.execute("SELECT unit, text FROM units") if s in t}


def test_search_indexes_find_what_a_scan_finds(conn):
    """FTS5 trigram (3+ characters) and units_grams (1-2): the same units as `s in text`, for
    司射 / 揖 and 60 strings drawn from the text (seeded)."""
    texts = [decode_entities(t) for (t,) in conn.execute("SELECT text FROM units WHERE text != ''")]
    rng = random.Random(23)
    samples = ["司射", "揖", "司射主", "毋不敬"]
    while len(samples) < 64:
        t = rng.choice(texts)
        n = rng.choice((1, 2, 3))
        i = rng.randrange(max(len(t) - n, 1))
        s = t[i:i + n]
        if len(s) == n and not any(c.isspace() or c.isascii() for c in s):
            samples.append(encode_entities(s) if len(s) == n and not any(ord(c) >= 0xF0000 for c in s) else s)
    for s in samples:
        if any(ord(c) >= 0xF0000 for c in s):
            continue  # a Kanripo character is 8 characters of text: searched as &KRnnnn; (3+)
        table = "units_fts" if len(s) >= 3 else "units_grams"
        found = {u for (u,) in conn.execute(
            f"SELECT unit FROM units WHERE rowid IN (SELECT rowid FROM {table} WHERE {table} MATCH ?)", (f'"{s}"',))}
        assert found == units_with(conn, s), s
    assert len(units_with(conn, "司射")) > 20


def test_the_search_indexes_pass_fts5s_own_integrity_check(out, tmp_path):
    """The full-text indexes are built in a file of their own beside the tables and copied in
    (sqlite._build_search, _take_search): FTS5's integrity-check reads each against its content
    (units.text, sentences.text) and its own size records."""
    import shutil

    db = tmp_path / "zhushu.db"
    shutil.copy(out / PATH, db)  # (the check writes nothing, but needs a writable handle)
    c = sqlite3.connect(db)
    for fts in ("units_fts", "sentences_fts", "units_grams"):
        c.execute(f"INSERT INTO {fts} ({fts}, rank) VALUES ('integrity-check', 1)")
    c.close()


def test_a_failed_search_build_fails_the_database_and_leaves_no_file_of_its_own(tmp_path, monkeypatch):
    """The search indexes are built in another thread: its error is the build's error, and its
    own file goes with it."""
    from pipeline.export import FORMATS, bundle
    from pipeline.export import sqlite as sq
    from pipeline.ingest import read_document

    def broken(path, parts):
        path.write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sq, "_build_search", broken)
    part = bundle(read_document(str(INPUTS[1])), "train", ["ingest"], [FORMATS["sqlite"]]).parts["sqlite"]
    with pytest.raises(OSError, match="No space"):
        sq.write_database(tmp_path / "zhushu.db", [part])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zhushu.db"]  # (the caller's: thrown away whole)


def test_sentence_search(conn):
    hits = {r for (r,) in conn.execute(
        "SELECT s.unit || '.' || s.[index] FROM sentences s JOIN sentences_fts f ON f.rowid = s.rowid "
        "WHERE sentences_fts MATCH '\"司射適\"'")}
    want = {f"{u}.{i}" for u, i, t in conn.execute("SELECT unit, [index], text FROM sentences") if "司射適" in t}
    assert hits == want and want


def test_unit_lines_give_every_tokens_page_and_line(conn):
    rows = conn.execute("""SELECT t.pb, t.line, l.pb, l.line FROM tokens t JOIN unit_lines l ON l.rowid =
        (SELECT rowid FROM unit_lines WHERE unit = t.unit AND start <= t.start ORDER BY start DESC LIMIT 1)
        WHERE NOT t.restored""").fetchall()
    assert len(rows) == conn.execute("SELECT count(*) FROM tokens WHERE NOT restored").fetchone()[0] > 5000
    assert all(r[:2] == r[2:] for r in rows)
    assert conn.execute("SELECT count(DISTINCT pb) FROM unit_lines").fetchone()[0] > 60


def test_char_counts_count_the_unit_text(conn):
    want: Counter = Counter()
    for doc, kind, marker, text in conn.execute("SELECT doc, kind, marker, text FROM units"):
        for ch in decode_entities(text):
            if not ch.isspace() and not ch.isascii():
                want[(doc, kind, marker, encode_entities(ch))] += 1
    got = {(d, k, m, c): n for d, k, m, c, n in conn.execute(  # summed over units.source, where exported
        "SELECT doc, kind, marker, char, sum(n) FROM char_counts GROUP BY doc, kind, marker, char")}
    assert got == dict(want)
    totals: Counter = Counter()
    for (d, k, m, _c), n in want.items():
        totals[(d, k, m)] += n
    assert {(d, k, m): n for d, k, m, n in conn.execute(
        "SELECT doc, kind, marker, sum(n) FROM char_totals GROUP BY doc, kind, marker")} == dict(totals)
    chars = [c for (c,) in conn.execute("SELECT char FROM char_counts ORDER BY rowid")]
    assert chars == sorted(chars)  # clustered by character


def kwic_by_scan(conn, q: str, width: int, kind: str = "") -> list[tuple]:
    out = []
    for unit, text, k in conn.execute("SELECT unit, text, kind FROM units ORDER BY rowid"):
        if kind and k != kind:
            continue
        i = text.find(q)
        while i >= 0:
            out.append((unit, i, text[max(0, i - width):i], q, text[i + len(q):i + len(q) + width]))
            i = text.find(q, i + 1)
    return out


@pytest.mark.parametrize("q,kind", [("司射", ""), ("揖", ""), ("揖", "base"), ("主人之吏", ""), ("之", "commentary")])
def test_kwic_finds_every_occurrence_with_its_context(conn, q, kind):
    cols, rows = run_query(conn, "kwic", q=q, width="7", kind=kind)
    got = [(r[cols.index("unit")], r[cols.index("start")], r[cols.index("left")], r[cols.index("hit")],
            r[cols.index("right")]) for r in rows]
    assert got == kwic_by_scan(conn, q, 7, kind) and got


def test_collocates_measures_by_hand(conn):
    """O11, f, N, expected, MI and G2 of the node 射 (window 3) recomputed from the text."""
    import math

    cols, rows = run_query(conn, "collocates", q="射", window="3")
    by = {r[0]: dict(zip(cols, r)) for r in rows}
    texts = [t for (t,) in conn.execute("SELECT text FROM units ORDER BY rowid")]
    keep = lambda c: not c.isspace() and not c.isascii()  # noqa: E731
    n = sum(keep(c) for t in texts for c in decode_entities(t))
    freq = Counter(encode_entities(c) for t in texts for c in decode_entities(t) if keep(c))
    obs: Counter = Counter()
    for t in texts:
        for i, c in enumerate(t):
            if c == "射":
                obs.update(x for x in t[max(0, i - 3):i] + t[i + 1:i + 4] if keep(x))
    r1 = sum(obs.values())
    assert set(by) == set(obs)
    for c in ("司", "上", "乃"):
        o11, f = obs[c], freq[c]
        e11 = r1 * f / n
        table = [(o11, e11), (r1 - o11, r1 * (n - f) / n), (f - o11, (n - r1) * f / n),
                 (n - r1 - f + o11, (n - r1) * (n - f) / n)]
        g2 = 2 * sum(o * math.log(o / e) for o, e in table if o > 0)
        assert (by[c]["observed"], by[c]["frequency"]) == (o11, f)
        assert by[c]["expected"] == pytest.approx(e11, abs=1e-3)
        assert by[c]["mi"] == pytest.approx(math.log2(o11 / e11), abs=1e-3)
        assert by[c]["log_likelihood"] == pytest.approx(g2, abs=1e-3)
    assert rows[0][0] == "司"  # 司射: the strongest collocate of 射 in 鄉射禮


def test_building_twice_gives_the_same_bytes(out, tmp_path):
    """The builder alone, twice on the same parts (the runner's tests compare whole runs,
    serial and Dask, which include sqlite/zhushu.db)."""
    from pipeline.export import FORMATS, bundle
    from pipeline.ingest import read_document

    doc = read_document(str(INPUTS[1]))
    part = bundle(doc, "train", ["ingest"], [FORMATS["sqlite"]]).parts["sqlite"]
    from pipeline.export.sqlite import build

    a, b = build([part]), build([part])
    assert a == b and a[:16] == b"SQLite format 3\x00"


def test_rows_staged_in_any_order_give_the_bytes_of_the_parts_in_order(tmp_path):
    """The runner stages each document's rows as it finishes, in any order (Dask: largest
    first); the database copies them in document-id order: the same bytes as built from the
    parts in order."""
    from pipeline.export import FORMATS, bundle
    from pipeline.export.sqlite import build, staging, write_database
    from pipeline.ingest import read_document

    parts = [bundle(read_document(str(p)), "train", ["ingest"], [FORMATS["sqlite"]]).parts["sqlite"] for p in INPUTS]
    st = staging(tmp_path)
    staged = [st.add(p) for p in reversed(parts)][::-1]  # the second document staged first
    write_database(tmp_path / "staged.db", staged)
    st.close()
    assert (tmp_path / "staged.db").read_bytes() == build(parts)


def test_the_grams_index_is_that_of_a_row_by_row_build(out, conn, tmp_path):
    """units_grams (FTS5) as a plain build makes it, each unit's grams inserted in one
    transaction, a row a statement: FTS5 writes its pending terms out as another segment when an
    INSERT … SELECT runs after it, so the grams copied between the other tables' copies gave an
    index of other bytes (the structure record's write counter: 294 against 273 on 14 juan)."""
    from pipeline.export.sqlite import _grams

    units = [r[0] for r in conn.execute("SELECT text FROM units ORDER BY rowid")]
    plain = sqlite3.connect(tmp_path / "plain.db", isolation_level=None)
    plain.execute("CREATE VIRTUAL TABLE units_grams USING fts5(grams, content='', tokenize='ascii', detail='none')")
    plain.execute("BEGIN")
    plain.executemany("INSERT INTO units_grams (rowid, grams) VALUES (?, ?)", ((i + 1, _grams(t)) for i, t in enumerate(units)))
    plain.execute("COMMIT")
    plain.execute("INSERT INTO units_grams (units_grams) VALUES ('optimize')")
    for shadow in ("units_grams_data", "units_grams_idx"):
        assert conn.execute(f"SELECT * FROM {shadow} ORDER BY 1, 2").fetchall() == \
            plain.execute(f"SELECT * FROM {shadow} ORDER BY 1, 2").fetchall(), shadow
    plain.close()


def test_stats_cli_frequency_and_collocates(out, conn):
    res = CliRunner().invoke(__import__("pipeline.cli", fromlist=["main"]).main,
                             ["stats", "frequency", str(out), "--kind", "base", "--format", "json", "--limit", "5"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    base = Counter(encode_entities(c) for (t,) in conn.execute("SELECT text FROM units WHERE kind = 'base'")
                   for c in decode_entities(t) if not c.isspace() and not c.isascii())
    assert [(r["item"], r["n"]) for r in got] == sorted(base.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    res = CliRunner().invoke(__import__("pipeline.cli", fromlist=["main"]).main,
                             ["stats", "collocates", str(out), "揖", "--by", "word", "--window", "3"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "collocate,observed,frequency,expected,mi,log_likelihood" and len(lines) > 10
    res = CliRunner().invoke(__import__("pipeline.cli", fromlist=["main"]).main, ["stats", "frequency", str(out / "jsonl")])
    assert res.exit_code == 2 and "zhushu: error:" in res.output and "no database here" in res.output


# --- zhushu serve: Datasette on a loopback port ---------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(out):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pipeline.cli", "serve", str(out), "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(base + "/-/versions.json", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"zhushu serve exited: {proc.stdout.read()}")
                time.sleep(0.25)
        else:
            pytest.fail("zhushu serve did not answer in 60 s")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=60) as resp:
        return json.loads(resp.read())


# one real question per canned query, and a row the answer must hold
QUESTIONS = {
    "kwic": ({"q": "司射", "width": "6", "kind": "base"}, lambda r: r["hit"] == "司射" and r["kind"] == "base"),
    "kwic_entity": ({"label": "ROLE", "q": "司射"}, lambda r: r["hit"] == "司射" and r["label"] == "ROLE"),
    "kwic_lemma": ({"lemma": "揖"}, lambda r: r["hit"] == "揖"),
    "lemma_commentary": ({"q": "毋不敬"}, lambda r: r["what"] == "疏 quotation" and "毋不敬" in r["commentary"]),
    "readings_by_sound": ({"authority": "徐"}, lambda r: "徐" in r["note"]),
    "readings_of_head": ({"head": "毋"}, lambda r: r["reading_text"] == "音無" and r["n"] >= 1),
    "frequency": ({"by": "word", "kind": "base", "limit": "20"}, lambda r: r["item"] == "主人"),
    "collocates": ({"q": "司射", "window": "4"}, lambda r: r["observed"] >= 1 and r["log_likelihood"] is not None),
    "collocates_words": ({"q": "揖", "window": "3"}, lambda r: r["collocate"] == "讓"),
}


def test_every_canned_query_has_a_question():
    assert set(QUESTIONS) == set(CANNED)


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_canned_query_through_the_http_api(server, conn, name):
    params, holds = QUESTIONS[name]
    data = get_json(f"{server}/zhushu/{name}.json?_shape=objects&" + urllib.parse.urlencode(params))
    assert data["ok"] and not data.get("truncated")
    rows = data["rows"]
    cols, want = run_query(conn, name, **params)
    assert [tuple(r[c] for c in cols) for r in rows] == want and rows
    assert any(holds(r) for r in rows), rows[:3]


def test_kwic_link_opens_the_unit(server):
    row = get_json(f"{server}/zhushu/kwic.json?_shape=objects&q=%E5%8F%B8%E5%B0%84")["rows"][0]
    unit = get_json(server + row["link"] + ".json?_shape=objects")["rows"][0]
    assert unit["unit"] == row["unit"] and unit["text"][row["start"]:row["start"] + 2] == "司射"


def test_metadata_licence_source_and_column_descriptions(server):
    meta = get_json(server + "/-/metadata.json")
    assert meta["license"] == "CC BY-SA 4.0" and "Kanripo" in meta["source"]
    assert meta["title"] == "zhushu: 儀禮集釋、禮記註疏"
    cols = meta["databases"]["zhushu"]["tables"]["glosses"]["columns"]
    assert cols == {n: d for n, _t, d in SCHEMAS["glosses"]}
    page = urllib.request.urlopen(server + "/zhushu/readings", timeout=60).read().decode()
    kind_of_reading = dict((n, d) for n, _t, d in SCHEMAS["readings"])["kind"]
    assert kind_of_reading.startswith("the reading: fanqie (反切)") and kind_of_reading in page  # shown on the table page


def test_serve_without_a_database_says_so(tmp_path):
    res = CliRunner().invoke(__import__("pipeline.cli", fromlist=["main"]).main, ["serve", str(tmp_path)])
    assert res.exit_code == 2 and f"zhushu: error: {tmp_path / PATH}: no database here" in res.output


# --- the browser: Debian's chromium, headless, through chromedriver --------------------------

@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_browser_renders_the_kwic_page_with_its_hits(server, conn, browser):
    from selenium.webdriver.common.by import By

    driver = browser
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{server}/zhushu/kwic?" + urllib.parse.urlencode({"q": "司射", "width": "8", "kind": "base"}))
    want = kwic_by_scan(conn, "司射", 8, "base")
    # once in a full suite run (stop 52) the page had no marks yet when asked: wait for them, and say what it showed
    try:
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.rows-and-columns td mark.zhushu-hit"))
    except TimeoutException:
        pytest.fail("no marked hits on the page in 30 s; it shows: " + driver.find_element(By.TAG_NAME, "body").text[:600])
    marks = driver.find_elements(By.CSS_SELECTOR, "table.rows-and-columns td mark.zhushu-hit")
    assert [m.text for m in marks] == ["司射"] * len(want) and len(want) > 10
    first = driver.find_elements(By.CSS_SELECTOR, "table.rows-and-columns tbody tr")[0]
    cells = {td.get_attribute("class").split()[0]: td.text for td in first.find_elements(By.TAG_NAME, "td")}
    assert (cells["col-left"], cells["col-right"]) == (want[0][2], want[0][4])
    link = first.find_element(By.CSS_SELECTOR, "td.col-link a")
    assert link.get_attribute("href").endswith("/zhushu/units/" + want[0][0].replace("#", "~23"))
    if os.environ.get("ZHUSHU_SCREENSHOT"):  # docs/serve_kwic.png is made this way
        driver.save_screenshot(os.environ["ZHUSHU_SCREENSHOT"])
