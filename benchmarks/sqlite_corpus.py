"""The corpus database at scale (issue 23): the 儀禮集釋 and the 周禮注疏 and 禮記註疏 in one
sqlite/zhushu.db; KWIC of two-character strings and a collocation query through the canned SQL
of `zhushu serve`, against pandas over the Parquet tables of the same run on the same question
(both answers compared); database size by table.

    python benchmarks/sqlite_corpus.py --run --out /tmp/all          # the run (heavy: 2 workers) + the measures
    python benchmarks/sqlite_corpus.py --out /tmp/all                # the measures on an existing run
    python benchmarks/sqlite_corpus.py --out /tmp/all --rebuild      # the database rebuilt by the current code first
    python benchmarks/sqlite_corpus.py ... --json benchmarks/sqlite_corpus.json

The run is `zhushu run data/corpus/KR1d0030 data/corpus/KR1d0003 data/corpus/KR1d0053 --skip parse
--workers 2` (in this process, so the sqlite format's corpus end can be timed on its own).
Times are medians of --repeats runs of each query, the database opened read-only once (as
Datasette holds it), the Parquet tables read once (their read time reported apart).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOOKS = ["data/corpus/KR1d0030", "data/corpus/KR1d0003", "data/corpus/KR1d0053"]


def run_books(out: Path) -> dict:
    from pipeline.export import FORMATS
    from pipeline.runner import run

    fmt = FORMATS["sqlite"]
    spent: list[float] = []
    original = fmt.corpus

    def timed(parts, info):
        t = time.perf_counter()
        try:
            return original(parts, info)
        finally:
            spent.append(time.perf_counter() - t)

    object.__setattr__(fmt, "corpus", timed)  # Format is frozen: the wrapper lives for this run only
    try:
        t = time.perf_counter()
        summary = run([str(ROOT / b) for b in BOOKS], out, workers=2, skip=["parse"], progress=False)
        wall = time.perf_counter() - t
    finally:
        object.__setattr__(fmt, "corpus", original)
    return {"wall_s": round(wall, 1), "documents": summary.documents, "ok": summary.ok,
            "sqlite_corpus_end_s": round(spent[0], 1), "counts": summary.counts,
            "assemble_write_s": round(getattr(summary, "assemble_seconds", float("nan")), 1)}


def rebuild_from_parquet(out: Path) -> dict:
    """Rebuild sqlite/zhushu.db with the current code from the run's own tables, without
    rerunning the pipeline: the record tables from parquet/ (the same rows the workers made:
    checked below), unit_lines from the database being replaced (it needs the documents' page
    tables), char_counts and the grams recomputed from the units as the workers do."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from pipeline import atomic
    from pipeline.export.records import RECORD_KINDS
    from pipeline.export.sqlite import PATH, _char_counts, _grams, build

    db = out / PATH
    old = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    lines: dict[str, list[tuple]] = {}
    for row in old.execute("SELECT unit, start, pb, line FROM unit_lines ORDER BY rowid"):
        lines.setdefault(row[0].split("#")[0], []).append(row)
    old_rows = {k: old.execute(f"SELECT * FROM [{k}] ORDER BY rowid").fetchall() for k in RECORD_KINDS}
    old.close()
    tables = {k: pq.read_table(out / "parquet" / f"{k}.parquet") for k in RECORD_KINDS}
    docs = tables["documents"]["doc"].to_pylist()
    parts = []
    for d in docs:
        mine = {k: t.filter(pc.equal(t["doc"], d)) for k, t in tables.items()}
        units = mine["units"].to_pylist()
        parts.append({"tables": mine, "unit_lines": lines.get(d, []), "char_counts": _char_counts(units),
                      "grams": [_grams(u["text"]) for u in units]})
    t = time.perf_counter()
    data = build(parts)
    seconds = time.perf_counter() - t
    atomic.write_bytes(db, data)
    new = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    same = all(new.execute(f"SELECT * FROM [{k}] ORDER BY rowid").fetchall() == old_rows[k] for k in RECORD_KINDS)
    new.close()
    return {"build_s": round(seconds, 1), "record_tables_unchanged": same}


def median_time(fn, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


# --- pandas, the same questions -----------------------------------------------------------

def pandas_kwic(units, q: str, width: int) -> list[tuple]:
    out = []
    hit = units[units["text"].str.contains(q, regex=False)]
    for unit, text in zip(hit["unit"], hit["text"]):
        i = text.find(q)
        while i >= 0:
            out.append((unit, i, text[max(0, i - width):i], text[i + len(q):i + len(q) + width]))
            i = text.find(q, i + 1)
    return out


def pandas_collocates(units, q: str, window: int) -> dict[str, tuple[int, int, float, float]]:
    from pipeline.pua import decode_entities, encode_entities

    keep = lambda c: not c.isspace() and not c.isascii()  # noqa: E731  (as char_counts and the SQL do)
    texts = units["text"].tolist()
    freq = Counter(encode_entities(c) for t in texts for c in decode_entities(t) if keep(c))
    n = sum(freq.values())
    obs: Counter = Counter()
    for t in units.loc[units["text"].str.contains(q, regex=False), "text"]:
        i = t.find(q)
        while i >= 0:
            obs.update(c for c in t[max(0, i - window):i] + t[i + len(q):i + len(q) + window] if keep(c))
            i = t.find(q, i + 1)
    r1 = sum(obs.values())
    out = {}
    for c, o11 in obs.items():
        f = freq[c]
        e = [r1 * f / n, r1 * (n - f) / n, (n - r1) * f / n, (n - r1) * (n - f) / n]
        o = [o11, r1 - o11, f - o11, n - r1 - f + o11]
        g2 = 2 * sum(a * math.log(a / b) for a, b in zip(o, e) if a > 0)
        out[c] = (o11, f, math.log2(o11 / e[0]), g2)
    return out


def measure(out: Path, repeats: int) -> dict:
    import pandas as pd

    from pipeline.export.sqlite import PATH
    from pipeline.serve.queries import run_query

    db = out / PATH
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    sizes = dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall())
    result = {"database_bytes": db.stat().st_size, "parquet_bytes": sum(p.stat().st_size for p in (out / "parquet").glob("*.parquet")),
              "rows": {t: conn.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0]
                       for t in ("documents", "units", "sentences", "entities", "glosses", "collation", "tokens", "readings",
                                 "unit_lines", "char_counts", "char_totals")},
              "largest_objects_bytes": dict(list(sizes.items())[:12]), "queries": []}
    t = time.perf_counter()
    units = pd.read_parquet(out / "parquet" / "units.parquet", columns=["unit", "text", "kind"])
    result["pandas_read_units_s"] = round(time.perf_counter() - t, 3)
    for q in ("司射", "主人", "揖讓"):
        s_time, (cols, rows) = median_time(lambda: run_query(conn, "kwic", q=q, width="10"), repeats)
        p_time, p_rows = median_time(lambda: pandas_kwic(units, q, 10), repeats)
        same = [(r[cols.index("unit")], r[cols.index("start")], r[cols.index("left")], r[cols.index("right")]) for r in rows] == p_rows
        result["queries"].append({"question": f"KWIC {q} (width 10)", "hits": len(rows), "sqlite_median_s": round(s_time, 4),
                                  "pandas_median_s": round(p_time, 4), "ratio_pandas_over_sqlite": round(p_time / s_time, 1),
                                  "same_answer": same})
    for q in ("司射", "揖"):
        s_time, (cols, rows) = median_time(lambda: run_query(conn, "collocates", q=q, window="5"), repeats)
        p_time, p_out = median_time(lambda: pandas_collocates(units, q, 5), repeats)
        got = {r[0]: (r[1], r[2], r[4], r[5]) for r in rows}
        same = got.keys() == p_out.keys() and all(
            got[c][:2] == p_out[c][:2] and abs(got[c][2] - p_out[c][2]) < 2e-3 and abs(got[c][3] - p_out[c][3]) < 2e-3
            for c in got)
        result["queries"].append({"question": f"collocates of {q} (window 5, characters)", "collocates": len(rows),
                                  "top5": [r[0] for r in rows[:5]], "sqlite_median_s": round(s_time, 4),
                                  "pandas_median_s": round(p_time, 4), "ratio_pandas_over_sqlite": round(p_time / s_time, 1),
                                  "same_answer": same})
    conn.close()
    result["load_average"] = os.getloadavg()[0]
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="/tmp/all", type=Path)
    ap.add_argument("--run", action="store_true", help="run the pipeline over the three books first (heavy)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the database with the current code from the run's parquet tables (see rebuild_from_parquet)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    res = {"load_average_start": os.getloadavg()[0]}
    if args.run:
        res["run"] = run_books(args.out)
        print(json.dumps(res["run"], ensure_ascii=False), flush=True)
    if args.rebuild:
        res["rebuild"] = rebuild_from_parquet(args.out)
        print(json.dumps(res["rebuild"]), flush=True)
    res.update(measure(args.out, args.repeats))
    text = json.dumps(res, ensure_ascii=False, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
