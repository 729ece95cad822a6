"""The span reader with and without the segmenter's breaks (passage + 疏), cross-fitted over the
train split: 5 folds by juan, each scored by models trained on the other four, the two readers
paired record by record (a bootstrap over records of the F1 difference). The dev split is never
read.

    python experiments/quote_marks/crossfit.py MARKS.json [--folds 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tune import breaks_reader  # noqa: E402

from pipeline.align.quote_spans import SpanModel, span_quotations  # noqa: E402
from pipeline.evaluate.quotations import judge, reader_inputs, score  # noqa: E402
from pipeline.train.quotations import train_records, train_spans  # noqa: E402


def counts(rec, preds):
    right = other = counted = 0
    for _p, verdict in judge(rec, preds):
        if verdict in ("right", "anchor"):
            right += 1
        elif verdict == "other":
            other += 1
        if verdict != "left_out":
            counted += 1
    return right, other, counted, len(rec["quotes"])


def f1(rows):
    r = sum(x[0] for x in rows); o = sum(x[1] for x in rows); c = sum(x[2] for x in rows); g = sum(x[3] for x in rows)
    p, rc = (r + o) / c if c else 0.0, r / g if g else 0.0
    return 2 * p * rc / (p + rc) if p + rc else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("marks", type=Path)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--extra", action="store_true")
    args = ap.parse_args()
    import pipeline.align.quote_spans as qs
    qs.EXTRA = args.extra
    recs = train_records()
    juan = sorted({r["id"].split("#")[0] for r in recs})
    random.Random(args.seed).shuffle(juan)
    fold_of = {j: i % args.folds for i, j in enumerate(juan)}
    b = breaks_reader(args.marks)
    rows = {"without": [], "breaks": []}
    books = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.folds):
            hold = frozenset(j for j in juan if fold_of[j] == k)
            test = [r for r in recs if r["id"].split("#")[0] in hold]
            for name, bo in (("without", None), ("breaks", b)):
                path = Path(tmp) / f"{name}{k}.json"
                train_spans(path, log=lambda m: None, hold_out=hold, breaks_of=bo)
                model = SpanModel(path)
                for r in test:
                    pb, sb = bo(r) if bo else (None, None)
                    rows[name].append(counts(r, span_quotations(*reader_inputs(r), model=model, breaks=pb, shu_marks=sb)))
            books += [r["book"] for r in test]
            print(f"fold {k}: {len(test)} records; F1 so far without {f1(rows['without']):.4f} breaks {f1(rows['breaks']):.4f}",
                  file=sys.stderr, flush=True)
    out = {name: round(f1(v), 4) for name, v in rows.items()}
    for bk in sorted(set(books)):
        out[bk] = {name: round(f1([x for x, bb in zip(v, books) if bb == bk]), 4) for name, v in rows.items()}
    rng = random.Random(1)
    n = len(books)
    diffs = []
    for _ in range(1000):
        idx = [rng.randrange(n) for _ in range(n)]
        diffs.append(f1([rows["breaks"][i] for i in idx]) - f1([rows["without"][i] for i in idx]))
    diffs.sort()
    out["diff"] = round(out["breaks"] - out["without"], 4)
    out["diff_95"] = [round(diffs[25], 4), round(diffs[974], 4)]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
