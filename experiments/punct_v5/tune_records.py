"""The records of data/punct for some juan (aligned 0.9 or more, text not empty), in file order:
what the stop-46 scripts beside this one read (windowed.py, short_clauses.py)."""

from __future__ import annotations

from pathlib import Path

from pipeline.segment.data import read_records

BOOKS = ("KR1d0030", "KR1d0003", "KR1d0053")


def tune_records(root: str | Path, juan: set[str]) -> list[dict]:
    return [r for b in BOOKS for r in read_records(Path(root) / "data" / "punct" / f"{b}.punct.jsonl")
            if r["id"].split("#")[0] in juan and r.get("aligned", 0) >= 0.9 and r["text"]]
