"""sqlite/zhushu.db: every record table of the dataset in one SQLite database, for Datasette
(`zhushu serve`) and for anyone with `sqlite3`.

The record tables are those of jsonl/ and parquet/, built from records.SCHEMAS (a column added
there is a column here), with primary keys, foreign keys to `documents` and `units`, and
indexes on what people filter by. Beside them:

- `units_fts`, `sentences_fts`: FTS5 `trigram` indexes of `units.text` / `sentences.text`
  (external content, the rows' rowids): any string of three or more characters;
- `units_grams`: a contentless FTS5 index of every character and character pair of each unit
  (`ascii` tokenizer: every non-ASCII character is a token character; detail=none): the one- and
  two-character strings the trigram index cannot find (`MATCH '"揖"'`, `MATCH '"司射"'`);
- `unit_lines`: where the printed page/line changes inside a unit's text (a hit's page and line);
- `char_counts`: characters per document × unit kind × marker (× source), and `char_totals`
  their sums: frequencies and the expected counts of collocation measures without reading the text.

Byte-identical from run to run: the rows are inserted in document-id order, then record order;
fixed page size, no journal, ANALYZE at the end (no VACUUM: the free pages stay, the same every
run), and SQLite writes no timestamps.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Iterable

from pipeline.export.bundle import CorpusInfo, DocumentBundle, Format, Parts, Sink
from pipeline.export.records import RECORD_KINDS, SCHEMAS

PATH = "sqlite/zhushu.db"
PAGE_SIZE = 4096

_TYPES = {"string": str, "int64": int, "float64": float, "bool": int, "json": str}

# each table's primary key (every one is unique by construction of the records)
PRIMARY_KEYS: dict[str, tuple[str, ...]] = {
    "documents": ("doc",),
    "units": ("unit",),
    "sentences": ("unit", "index"),
    "entities": ("unit", "start", "end", "label"),
    "glosses": ("id",),
    "collation": ("id",),
    "tokens": ("sentence", "word"),
    "readings": ("id",),
}
# column -> (table, column) it refers to, wherever a table has that column
REFERENCES = {"doc": ("documents", "doc"), "unit": ("units", "unit"), "base_unit": ("units", "unit"),
              "target_unit": ("units", "unit")}
# what people filter by (issue 23), plus the token's form; tokens.head is a word number, not a head word
INDEXED = ("doc", "unit", "base_unit", "target_unit", "juan", "kind", "marker", "source", "label", "lemma", "head", "form")
NOT_INDEXED = {("tokens", "head"), ("units", "unit"), ("documents", "doc")}  # a word number; the primary keys

# the tables beside the records: name -> (columns, primary key, description of each column)
UNIT_GROUP = ("doc", "kind", "marker") + (("source",) if any(c[0] == "source" for c in SCHEMAS["units"]) else ())
EXTRA_TABLES: dict[str, tuple[list[tuple[str, type, str]], tuple[str, ...]]] = {
    "unit_lines": ([
        ("unit", str, "unit id"),
        ("start", int, "offset in units.text from which the text stands on this page and line"),
        ("pb", str, "page id"),
        ("line", int, "printed line on the page"),
    ], ("unit", "start")),
    # rows sorted by character, the key led by it: a character's rows are neighbours on disk
    # (the collocation query reads those of ~500 collocates: 0.45 s through an index on char
    # into rows in document order, measured on the three books)
    "char_counts": ([
        ("char", str, "a character (a Kanripo character as &KRnnnn;); layout spaces and ASCII left out"),
        *[(c, str, f"the units' {c}") for c in UNIT_GROUP],
        ("n", int, "its occurrences in the unit texts of this group"),
    ], ("char",) + UNIT_GROUP),
    "char_totals": ([
        *[(c, str, f"the units' {c}") for c in UNIT_GROUP],
        ("n", int, "characters in the unit texts of this group (as counted in char_counts)"),
    ], UNIT_GROUP),
}


def _grams(text: str) -> str:
    """The `units_grams` document of a unit text: every character and every pair of
    neighbouring characters once, sorted (detail=none keeps no positions, so once is enough);
    a Kanripo character counts as one character (its private-use code point), layout spaces
    break a pair."""
    from pipeline.pua import decode_entities

    chars = decode_entities(text)
    grams = {c for c in chars if not c.isspace() and not c.isascii()}
    grams.update(a + b for a, b in zip(chars, chars[1:]) if a in grams and b in grams)
    return " ".join(sorted(grams))


def _lines(b: DocumentBundle) -> list[tuple]:
    from pipeline.export.common import UnitProvenance, offset_map, unit_id

    out = []
    for unit in b.doc.units:
        om = offset_map(unit.text)
        prov = UnitProvenance(b.doc, unit)
        prev = None
        for i, here in enumerate(prov.table):
            if here != prev and here != (None, None):
                out.append((unit_id(b.doc, unit), om[min(i, len(om) - 1)], *here))
            prev = here
    return out


def _sort_key(row: tuple) -> tuple:
    return tuple("" if x is None else x for x in row)


def _char_counts(units: list[dict]) -> list[tuple]:
    """(char, *group, n) rows of one document, sorted (build sorts the whole corpus again)."""
    from pipeline.pua import decode_entities, encode_entities

    counts: Counter = Counter()
    for u in units:
        key = tuple(u.get(c) for c in UNIT_GROUP)
        for ch in decode_entities(u["text"]):
            if not ch.isspace() and not ch.isascii():  # layout spaces; markup residue ([, @, ] of 109 composed characters)
                counts[(encode_entities(ch),) + key] += 1
    return sorted((k + (n,) for k, n in counts.items()), key=_sort_key)


def document_part(b: DocumentBundle) -> dict:
    """One document's rows (built where the document was processed): the record tables as
    arrow tables (shared with parquet/), the unit_lines and char_counts rows, the grams."""
    return {
        "tables": b.arrow_tables,
        "unit_lines": _lines(b),
        "char_counts": _char_counts(b.records.get("units", [])),  # char_totals: from these, in write_database
        "grams": [_grams(u["text"]) for u in b.records.get("units", [])],
    }


def _rows(table) -> list[tuple]:
    return list(zip(*(col.to_pylist() for col in table.columns))) if table.num_rows else []


def create_schema(db) -> None:
    """The tables, from records.SCHEMAS and EXTRA_TABLES (sqlite-utils writes the DDL)."""
    for kind in RECORD_KINDS:
        cols = SCHEMAS[kind]
        names = {c[0] for c in cols}
        fks = [(c, *REFERENCES[c]) for c in REFERENCES if c in names and REFERENCES[c] != (kind, c)]
        db[kind].create({name: _TYPES[typ] for name, typ, _ in cols}, pk=PRIMARY_KEYS[kind], foreign_keys=fks)
    for name, (cols, pk) in EXTRA_TABLES.items():
        fks = [(c, *REFERENCES[c]) for c, _t, _d in cols if c in ("doc", "unit")]
        db[name].create({c: t for c, t, _ in cols}, pk=pk, foreign_keys=fks)


def create_indexes(db) -> None:
    for kind in RECORD_KINDS:  # (unit_lines and char_counts are read through their keys)
        names = [c.name for c in db[kind].columns]
        pk = PRIMARY_KEYS[kind]
        for col in INDEXED:
            # a column that leads the primary key is indexed by it already
            if col in names and (kind, col) not in NOT_INDEXED and pk[0] != col:
                db[kind].create_index([col], index_name=f"idx_{kind}_{col}")


def _insert(conn, table: str, names: list[str], rows) -> None:
    """Rows into a table, by sqlite3's executemany: sqlite-utils' insert_all checks every value
    for JSON (jsonify_if_needed: 26 s of a 75 s profile of the three books' build)."""
    cols = ", ".join(map(_q, names))
    conn.executemany(f"INSERT INTO {_q(table)} ({cols}) VALUES ({', '.join('?' * len(names))})", rows)


# what a document's part puts in the staging database: table -> its columns
def _staged_tables() -> dict[str, list[str]]:
    out = {kind: [c[0] for c in SCHEMAS[kind]] for kind in RECORD_KINDS}
    out["unit_lines"] = [c[0] for c in EXTRA_TABLES["unit_lines"][0]]
    out["char_counts"] = ["char", *UNIT_GROUP, "n"]
    out["grams"] = ["grams"]
    return out


STAGED = _staged_tables()


class StagedPart:
    """Where one document's rows stand in a staging database: table -> (first rowid, last rowid)."""

    __slots__ = ("path", "ranges")

    def __init__(self, path: Path, ranges: dict[str, tuple[int, int]]):
        self.path, self.ranges = path, ranges


class Staging:
    """The documents' rows, inserted as each document finishes, in any order, into a database of
    the run's own (in the runner's spill folder, removed with it): the rows' Python-to-SQLite
    insert — most of the database's build — happens while the workers still compute, and
    write_database copies them in document-id order, within SQLite, at the end. (Before, the
    driver inserted every row after the last document: most of the 40.6 s the assembly took in
    the two 注疏 books' 308 s run of stop 25.)
    Tables without types, keys or indexes: each value is stored as bound, and the database
    proper applies its column types when the rows are copied, as it did to the bound values."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode = OFF")  # a file of ours, thrown away with the run
        self.conn.execute("PRAGMA synchronous = OFF")
        for table, names in STAGED.items():
            self.conn.execute(f"CREATE TABLE {_q(table)} ({', '.join(map(_q, names))})")

    def add(self, part: dict) -> StagedPart:
        rows = {kind: _rows(part["tables"][kind]) for kind in RECORD_KINDS}
        rows.update(unit_lines=part["unit_lines"], char_counts=part["char_counts"], grams=[(g,) for g in part["grams"]])
        ranges = {}
        self.conn.execute("BEGIN")
        for table, names in STAGED.items():
            before = self._last(table)
            _insert(self.conn, table, names, rows[table])
            ranges[table] = (before + 1, self._last(table))
        self.conn.execute("COMMIT")
        return StagedPart(self.path, ranges)

    def _last(self, table: str) -> int:
        return self.conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {_q(table)}").fetchone()[0]

    def close(self) -> None:
        self.conn.close()


def staging(folder: str | os.PathLike) -> Staging:
    """The sqlite format's collector (bundle.Format.collect): a staging database in `folder`."""
    return Staging(Path(folder) / "sqlite-staging.db")


def _q(name: str) -> str:
    """A quoted SQL identifier (sqlite-utils' quoting; imported here, when a database is built)."""
    from sqlite_utils.db import quote_identifier

    return quote_identifier(name)


def write_database(path: str | os.PathLike, parts: Iterable[dict | StagedPart]) -> None:
    """The database at `path` from the documents' parts in document-id order: parts staged as
    their documents finished (Staging, the runner) or given whole (staged here first, into a
    temporary folder); the rows are copied from the staging database a document at a time."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        local: Staging | None = None
        staged = []
        for part in parts:
            if not isinstance(part, StagedPart):
                if local is None:
                    tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="zhushu-sqlite-", dir=Path(path).parent))
                    local = staging(tmp)
                    stack.callback(local.close)
                part = local.add(part)
            staged.append(part)
        _write(path, staged)


# the full-text indexes: the two trigram ones over units.text and sentences.text, declared by
# sqlite-utils' enable_fts (external content, the rows' rowids), and the grams' own
SEARCH_TABLES = ("units_fts", "sentences_fts", "units_grams")
TRIGRAM_INDEXED = ("units", "sentences")  # the tables whose "text" the trigram indexes read
# contentless (content=''): the index alone, the text is units.text
GRAMS_TABLE = "CREATE VIRTUAL TABLE units_grams USING fts5(grams, content='', tokenize='ascii', detail='none')"
SHADOWS = ("data", "idx", "docsize", "config")  # an FTS5 table's own tables (what it stores)


def _open(path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    # fixed page size; no journal and no syncs: a file that fails is thrown away whole
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    return conn


def _attach(conn, parts: list[StagedPart]) -> dict[Path, str]:
    aliases: dict[Path, str] = {}
    for part in parts:
        if part.path not in aliases:
            aliases[part.path] = f"staged{len(aliases)}"
            conn.execute(f"ATTACH DATABASE ? AS {aliases[part.path]}", (str(part.path),))
    return aliases


def _build_search(path: Path, parts: list[StagedPart]) -> None:
    """The three full-text indexes, in a database of their own at `path`, from the staged rows
    (a unit's / sentence's rowid: its place in document-id order, as in the database proper).
    Built beside the tables' copy and indexes (another thread, another file: SQLite writes one
    file from one connection at a time), they take ~10 s off the two 注疏 books' serial tail;
    _take_search copies them in."""
    import sqlite_utils

    conn = _open(path)
    try:
        aliases = _attach(conn, parts)
        db = sqlite_utils.Database(conn)
        for table in TRIGRAM_INDEXED:
            # an empty stand-in of the content table, for enable_fts to declare the index over
            # (and to fill it from: nothing); the rows come from the staged parts below
            conn.execute(f'CREATE TABLE "{table}" ("text" TEXT)')
            db[table].enable_fts(["text"], tokenize="trigram")
        conn.execute(GRAMS_TABLE)
        for table in TRIGRAM_INDEXED:
            # one INSERT … SELECT over every part in document-id order, as enable_fts's own
            conn.execute(f"CREATE TEMP TABLE order_{table} (alias, first, last, offset)")
            offset = 1
            for part in parts:
                first, last = part.ranges[table]
                conn.execute(f"INSERT INTO order_{table} VALUES (?, ?, ?, ?)", (aliases[part.path], first, last, offset))
                offset += last - first + 1
            rows = " UNION ALL ".join(
                f"SELECT s.rowid - o.first + o.offset AS id, s.text AS text, o.offset AS o, s.rowid AS r "
                f"FROM temp.order_{table} o JOIN {alias}.{_q(table)} s ON o.alias = '{alias}' AND s.rowid BETWEEN o.first AND o.last"
                for alias in aliases.values())
            conn.execute(f'INSERT INTO "{table}_fts" (rowid, "text") SELECT id, text FROM ({rows}) ORDER BY o, r')
        # the grams a row a statement, in one transaction: an FTS5 table writes its pending terms
        # out as a segment whenever a statement that may abort half-way (an INSERT … SELECT) runs
        # after it was written, so the grams read like this give the index a plain row-by-row
        # build gives (tests/test_sqlite.py)
        units_so_far = 0  # the k-th unit's grams: rowid k
        conn.execute("BEGIN")
        for part in parts:
            first, last = part.ranges["grams"]
            grams = conn.execute(f"SELECT rowid - ? + ?, grams FROM {aliases[part.path]}.grams WHERE rowid BETWEEN ? AND ? "
                                 "ORDER BY rowid", (first, units_so_far + 1, first, last)).fetchall()
            _insert(conn, "units_grams", ["rowid", "grams"], grams)
            units_so_far += len(grams)
        conn.execute("COMMIT")
        for fts in SEARCH_TABLES:
            conn.execute(f"INSERT INTO {fts} ({fts}) VALUES ('optimize')")  # one b-tree an index
    finally:
        conn.close()


def _take_search(conn, path: Path) -> None:
    """The full-text indexes built by _build_search into the database: each declared as it was
    there (its own statement, from the search file's schema), its shadow tables' rows copied over
    (they are the index: FTS5 reads nothing else)."""
    conn.execute("ATTACH DATABASE ? AS search", (str(path),))
    for fts in SEARCH_TABLES:
        (sql,) = conn.execute("SELECT sql FROM search.sqlite_master WHERE type = 'table' AND name = ?", (fts,)).fetchone()
        conn.execute(sql)
    conn.execute("BEGIN")
    for fts in SEARCH_TABLES:
        for shadow in SHADOWS:
            name = f"{fts}_{shadow}"
            if conn.execute("SELECT 1 FROM search.sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone():
                conn.execute(f"DELETE FROM main.{name}")
                conn.execute(f"INSERT INTO main.{name} SELECT * FROM search.{name}")
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE search")


def _write(path: str | os.PathLike, parts: list[StagedPart]) -> None:
    import threading

    import sqlite_utils

    with tempfile.TemporaryDirectory(prefix="zhushu-sqlite-search-", dir=Path(path).parent) as tmp:
        search_path = Path(tmp) / "search.db"
        failed: list[BaseException] = []

        def search() -> None:
            try:
                _build_search(search_path, parts)
            except BaseException as err:  # raised again in this thread, after the join
                failed.append(err)

        searcher = threading.Thread(target=search, name="zhushu-sqlite-search")
        searcher.start()
        conn = _open(path)
        try:
            db = sqlite_utils.Database(conn)
            create_schema(db)
            # char_counts are sorted by character over the whole corpus: SQLite sorts them, from a
            # temporary table (outside the database file), rather than a list of the book's rows
            group = ", ".join(f'"{c}"' for c in UNIT_GROUP)
            conn.execute(f'CREATE TEMP TABLE counts_in ("char", {group}, "n")')
            aliases = _attach(conn, parts)
            targets = {table: table for table in STAGED} | {"char_counts": "counts_in"}  # (a temporary table)
            conn.execute("BEGIN")
            for part in parts:
                st = aliases[part.path]
                for table, names in STAGED.items():
                    first, last = part.ranges[table]
                    if table != "grams" and first <= last:  # (the grams: _build_search)
                        cols = ", ".join(map(_q, names))
                        conn.execute(f"INSERT INTO {_q(targets[table])} ({cols}) SELECT {cols} FROM {st}.{_q(table)} "
                                     "WHERE rowid BETWEEN ? AND ? ORDER BY rowid", (first, last))
            conn.execute(f'INSERT INTO char_counts SELECT "char", {group}, "n" FROM counts_in ORDER BY "char", {group}')
            conn.execute(f'INSERT INTO char_totals SELECT {group}, SUM("n") FROM char_counts GROUP BY {group} ORDER BY {group}')
            conn.execute("COMMIT")
            for alias in aliases.values():
                conn.execute(f"DETACH DATABASE {alias}")
            conn.execute("DROP TABLE counts_in")
            create_indexes(db)
            searcher.join()
            if failed:
                raise failed[0]
            _take_search(conn, search_path)
            conn.execute("ANALYZE")
            # no VACUUM: it rewrote the whole file (4.4 s of the two 注疏 books' 688 MB, in the run's
            # serial tail) to drop the pages FTS5's merge freed, 4 % of the file; the free pages stay
            # on the freelist, the same ones every run
        finally:
            conn.close()
            searcher.join()


def build(parts: list[dict]) -> bytes:
    """The database's bytes (write_database into a temporary file): for the benchmark's rebuild."""
    with tempfile.TemporaryDirectory(prefix="zhushu-sqlite-") as tmp:
        path = Path(tmp) / "zhushu.db"
        write_database(path, parts)
        return path.read_bytes()


def stream(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    write_database(sink.path(PATH), (p for _split, p in parts if p is not None))


def open_database(out: str | os.PathLike) -> Path:
    """The database of an output folder (or the file itself)."""
    out = Path(out)
    return out if out.is_file() else out / PATH


FORMAT = Format("sqlite", document_part, stream=stream, slow_corpus=True, collect=staging)
