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

from diff_sample import book_readings, sample_args, show  # noqa: E402

from pipeline.align.quote_passage import QuotePassage  # noqa: E402
from pipeline.align.quote_spans import all_candidates, load_model  # noqa: E402


def main() -> None:
    args = sample_args(__doc__)
    model = load_model()
    rows, n_marked = [], 0
    for juan, unit, units, (passage, notes), plain, marked in book_readings(args.book):
        n_marked += len(marked)
        usual = {(s, e) for s, e, _m in all_candidates(model.fold(unit.text), QuotePassage(passage, notes, model.fold))[0]}
        rows += [(f"{juan}#{unit.seq}", show(unit, units, q, plain)) for q in marked if (q.shu_start, q.shu_end) not in usual]
    print(f"{args.book}: {n_marked} quotations with the marks, {len(rows)} of them break candidates")
    for i, (where, text) in enumerate(random.Random(args.seed).sample(rows, min(args.n, len(rows))), 1):
        print(f"{i}. {where} | {text}")


if __name__ == "__main__":
    main()
