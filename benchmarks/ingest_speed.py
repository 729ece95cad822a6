"""Ingest speed on the embedded 儀禮集釋 (31 files), against a named baseline in the same run.

Baseline: read + decode every file and strip its markup with one regex (what a throwaway
script would do, without units, notes or provenance). Target of issue 2: all files < 2 s.
`--book` reads other embedded books instead (the 注疏, whose 經 is found in a plain text too:
stop 62 compared two commits on `--book KR1d0003 --book KR1d0028 --book KR1d0053`, each beside
the baseline, docs/ingest.md).

    python benchmarks/ingest_speed.py [--repeat 5] [--book KR1d0003 …]
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import time
from pathlib import Path

from pipeline.ingest import read_document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "corpus"
MARKUP = re.compile(r"(?m)^#.*$|<pb:[^>]+>|¶|\([^)]*\)|[\u3000\n]")


def book_files(books: list[str]) -> list[str]:
    return sorted(f for b in books for f in glob.glob(str(CORPUS / b / "*.txt")))


def baseline(files: list[str]) -> int:
    return sum(len(MARKUP.sub("", Path(p).read_text(encoding="utf-8"))) for p in files)


def ingest(files: list[str]) -> int:
    return sum(len(u.text) for p in files for u in read_document(p).units)


def best_of(fn, files: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(files)
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--book", action="append", help="embedded book ID(s) under data/corpus (default KR1d0030)")
    args = ap.parse_args()
    files = book_files(args.book or ["KR1d0030"])
    target = None if args.book else 2.0  # issue 2's target is for the 集釋
    chars = ingest(files)
    t_base, t_ingest = best_of(baseline, files, args.repeat), best_of(ingest, files, args.repeat)
    print(json.dumps({
        "files": len(files), "unit_chars": chars,
        "ingest_s": round(t_ingest, 3), "baseline_regex_strip_s": round(t_base, 3),
        "ingest_over_baseline": round(t_ingest / t_base, 1),
        "ingest_chars_per_s": int(chars / t_ingest), "target_s": target,
        "met": None if target is None else t_ingest < target,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
