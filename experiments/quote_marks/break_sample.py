"""The quotations only a break candidate makes (quote_spans.break_candidates, stop 42): a seeded
sample from a book's juan, punctuated by the default segmenter and aligned as `zhushu run` does, for a
hand check.

    python experiments/quote_marks/break_sample.py [--book KR1d0028] [--n 20] [--seed 42]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from diff_sample import readings, show  # noqa: E402

from pipeline import paths  # noqa: E402
from pipeline.align.quote_passage import QuotePassage  # noqa: E402
from pipeline.align.quote_spans import all_candidates, load_model  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import read_segmenter, segment_document  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", default="KR1d0028")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    seg, model = read_segmenter(paths.SEGMENTER_DEFAULT), load_model()
    rows, n_marked = [], 0
    for f in sorted((paths.DATA / "corpus" / args.book).glob("*.txt")):
        doc = segment_document(read_document(f), seg)
        for unit, units, plain, marked in readings(doc):
            n_marked += len(marked)
            passage = [(s, u.text) for s, u in units.items() if u.kind == "base"]
            notes = [(s, u.text) for s, u in units.items() if u.kind == "commentary" and u.marker == "注"]
            usual = {(s, e) for s, e, _m in all_candidates(model.fold(unit.text), QuotePassage(passage, notes, model.fold))[0]}
            rows += [(f"{f.stem}#{unit.seq}", show(unit, units, q, plain)) for q in marked if (q.shu_start, q.shu_end) not in usual]
    print(f"{args.book}: {n_marked} quotations with the marks, {len(rows)} of them break candidates")
    for i, (where, text) in enumerate(random.Random(args.seed).sample(rows, min(args.n, len(rows))), 1):
        print(f"{i}. {where} | {text}")


if __name__ == "__main__":
    main()
