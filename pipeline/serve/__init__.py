"""`zhushu serve`: the dataset's SQLite database (pipeline/export/sqlite.py) in Datasette, on
127.0.0.1, with metadata (title, licence, source, every column's description from the export
schema) and the canned queries of queries.py (KWIC, a word's commentary, readings, frequency,
collocation).

    from pipeline.serve import metadata, datasette_app
"""

from __future__ import annotations

from pathlib import Path

from pipeline.export.records import RECORD_KINDS, SCHEMAS
from pipeline.serve.queries import CANNED

LICENSE = ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/")
SOURCE = ("Kanseki Repository (Kanripo)", "https://www.kanripo.org/")
# Datasette's limits: a concordance of a common character has thousands of hits, and a
# collocation over all the books takes longer than Datasette's default second
SETTINGS = {"max_returned_rows": 5000, "sql_time_limit_ms": 20_000, "default_page_size": 100,
            "truncate_cells_html": 0}

TABLE_DESCRIPTIONS = {
    "documents": "one row a document (juan)",
    "units": "units of text: 經 (base), commentary (注, 疏, 音義, 鄭注, 釋曰 …), titles, headers; "
             "full-text search: trigram (3+ characters); 1–2 characters: the kwic query",
    "sentences": "restored sentences of each unit (full-text search: trigram)",
    "entities": "entity spans (ROLE, OBJECT, PLACE, ACT, MUSIC)",
    "glosses": "glosses of the commentary and 疏 quotations, anchored on their lemma in the base text",
    "collation": "collation notes",
    "tokens": "words of the parse stage (UD-Kanbun) with restored marks",
    "readings": "音義 readings (反切, 音X, 如字), anchored on the head in the 經 / 注",
    "unit_lines": "where the printed page and line change inside a unit's text",
    "char_counts": "characters per document, unit kind and marker: frequencies and collocation counts",
    "char_totals": "characters per document, unit kind and marker, all together (the N of the collocation measures)",
}


def metadata(title: str = "zhushu corpus") -> dict:
    from pipeline.export.sqlite import EXTRA_TABLES

    tables = {kind: {"description": TABLE_DESCRIPTIONS.get(kind, ""),
                     "columns": {name: descr for name, _typ, descr in SCHEMAS[kind]}} for kind in RECORD_KINDS}
    for name, (cols, _pk) in EXTRA_TABLES.items():
        tables[name] = {"description": TABLE_DESCRIPTIONS.get(name, ""), "columns": {c: d for c, _t, d in cols}}
    for fts in ("units_fts", "sentences_fts", "units_grams"):
        tables[fts] = {"hidden": True}
    return {
        "title": title,
        "description": "Classical Chinese commentary texts annotated by zhushu (注疏): units, sentences, "
                       "entities, glosses, 音義 readings, the parse; concordances, frequencies and "
                       "collocations as canned queries below.",
        "license": LICENSE[0], "license_url": LICENSE[1],
        "source": SOURCE[0], "source_url": SOURCE[1],
        "databases": {"zhushu": {
            "tables": tables,
            "queries": {name: {"title": t, "description": d, "sql": sql} for name, (t, d, sql) in CANNED.items()},
        }},
    }


def book_title(db: Path) -> str:
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        titles = [t for (t,) in conn.execute("SELECT DISTINCT title FROM documents WHERE title IS NOT NULL ORDER BY 1")]
    finally:
        conn.close()
    return "zhushu: " + "、".join(titles) if titles else "zhushu corpus"


def datasette_app(db: Path):
    """The Datasette instance (immutable: the database is a release, not a workspace)."""
    from datasette.app import Datasette
    from datasette.plugins import pm

    from pipeline.serve import plugin

    if not pm.is_registered(plugin):
        pm.register(plugin, name="zhushu")
    return Datasette(immutables=[str(db)], metadata=metadata(book_title(db)), settings=SETTINGS)


def serve(db: Path, port: int = 8001, host: str = "127.0.0.1") -> None:
    import asyncio

    import uvicorn

    ds = datasette_app(db)
    asyncio.run(ds.invoke_startup())
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning")
