"""Where the 音義 notes' marks still differ from the editions' (issue 22's 音義 measure), on TRAIN
juan only: the default segmenter without its phrase memory (which knows train juan by heart) and
with the reading grammar, against the records aligned >= 0.99 (the gold lost no marks there).
Each differing position printed with its note, grouped by a coarse class of its context.

    PYTHONPATH=. python experiments/yinyi/errors.py [--book KR1d0003] [--min-aligned 0.99] [--show 40]
"""

from __future__ import annotations

import argparse
import collections
import random
import sys

sys.path.insert(0, "benchmarks")
from segment_yinyi import BOOKS, records  # noqa: E402

from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import book_of, record_kind  # noqa: E402


def show(text: str, marks: dict[int, str]) -> str:
    return "".join(c + marks.get(i + 1, "") for i, c in enumerate(text))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--book", default=None)
    ap.add_argument("--set", default="train")
    ap.add_argument("--min-aligned", type=float, default=0.99)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--seed", type=int, default=43)
    args = ap.parse_args()
    seg = load_segmenter().without_memory()
    for book in [args.book] if args.book else BOOKS:
        rs = [r for r in records(book) if r["set"] == args.set and r.get("aligned", 1.0) >= args.min_aligned]
        preds = seg.predict([r["text"] for r in rs], [record_kind(r) for r in rs], books=[book_of(r["id"]) for r in rs])
        res = score(rs, preds)
        print(f"## {book} {args.set} aligned>={args.min_aligned}: {len(rs)} records, seg {res['seg']}, punct F1 {res['punct']['f1']:.4f}")
        errs = []
        for r, p in zip(rs, preds):
            t, n = r["text"], len(r["text"])
            g = {int(k): v for k, v in r["marks"].items() if 0 < int(k) < n}
            q = {k: v for k, v in p.items() if 0 < k < n}
            for k in sorted(g.keys() | q.keys()):
                if g.get(k) != q.get(k):
                    kind = "FN" if k not in q else "FP" if k not in g else "kind"
                    errs.append((kind, r["id"], k, t[max(0, k - 4):k] + "|" + t[k:k + 4], show(t, g), show(t, q)))
        c = collections.Counter(e[0] for e in errs)
        print("errors:", dict(c))
        rnd = random.Random(args.seed)
        for e in rnd.sample(errs, min(args.show, len(errs))):
            print(f"{e[0]:4} {e[1]} {e[3]}\n     gold {e[4]}\n     ours {e[5]}")


if __name__ == "__main__":
    main()
