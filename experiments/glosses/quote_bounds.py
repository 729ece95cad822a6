"""Do the 疏's quotations of a 注 mark where the 注's glosses start? (stop 47; TRAIN juan only, silver)

The 疏 quotes its 注 statement by statement (「云X，Y也者」): where a quoted stretch of the 注 starts or
ends, the 注 has a statement boundary, which is where the gloss reader needs a mark and the segmenter
often leaves none (docs/glosses.md: the misses are heads run into the sentence before or after).
This measures the upper bound of that cue: the gold quotations of data/quotes (the editions' marks
carried over), their inner ends added as breaks to the marks the gloss reader gets, and the 注's
glosses read with them scored against glosses read with the edition's own marks (silver, as
benchmarks/gloss_silver.py). With the upper bound flat there is nothing to build with the reader's
predicted quotations.

    python experiments/glosses/quote_bounds.py --book KR1d0003 --juan 7          # the tune juan
    python experiments/glosses/quote_bounds.py --book KR1d0053 --blocks 400       # a train sample
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gloss_silver import pairs  # noqa: E402


def quote_bounds(book: str) -> dict[str, set[int]]:
    """注 text → the inner ends of the stretches the train split's 疏 quote from it (gold)."""
    out: dict[str, set[int]] = defaultdict(set)
    for line in open(ROOT / "data" / "quotes" / f"{book}.quotes.jsonl", encoding="utf-8"):
        rec = json.loads(line)
        if rec["split"] != "train":
            continue
        for q in rec["quotes"]:
            target = rec["passage"][q["target"]]
            if target["marker"] != "注":
                continue
            n = len(target["text"])
            for k in (q["target_start"], q["target_end"]):
                if 0 < k < n:
                    out[target["text"]].add(k)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", default="KR1d0003")
    ap.add_argument("--juan", type=int, help="only this juan (7: the tune juan)")
    ap.add_argument("--blocks", type=int, default=0, help="a seeded sample of this many blocks (0: all)")
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--show", type=int, default=0, help="print this many blocks whose glosses change")
    args = ap.parse_args(argv)

    from pipeline.align import align_block
    from pipeline.evaluate.common import prf
    from pipeline.evaluate.glosses import note_marks, spans
    from pipeline.segment import load_segmenter

    bounds = quote_bounds(args.book)
    pool = [p for p in pairs(args.book) if args.juan is None or int(p[0].split("_")[1].split("#")[0]) == args.juan]
    if args.blocks:
        pool = random.Random(args.seed).sample(pool, min(args.blocks, len(pool)))
    seg = load_segmenter().without_memory()  # train juan: the phrase memory knows their marks by heart
    counts = {"reader": [0, 0, 0], "reader + quote ends": [0, 0, 0]}
    added = quoted = shown = 0
    for rid, base, note, gold_marks in pool:
        pred = note_marks([note], seg, ids=[rid], bases=[base])[0][0]
        extra = {k: "，" for k in bounds.get(note, ()) if k not in pred}
        quoted += note in bounds
        added += len(extra)
        g = set(spans(align_block(base, note, gold_marks, zhushu=True)))
        results = {}
        for name, marks in (("reader", pred), ("reader + quote ends", {**pred, **extra})):
            s = set(spans(align_block(base, note, marks, zhushu=True)))
            results[name] = s
            c = counts[name]
            c[0] += len(g & s)
            c[1] += len(s)
            c[2] += len(g)
        if shown < args.show and results["reader"] != results["reader + quote ends"]:
            shown += 1
            print(rid, note, "| ends", sorted(extra), "| silver", sorted(g), "| reader", sorted(results["reader"]),
                  "| + ends", sorted(results["reader + quote ends"]))
    print(json.dumps({"book": args.book, "juan": args.juan, "blocks": len(pool), "quoted blocks": quoted,
                      "breaks added": added,
                      **{name: prf(*c) for name, c in counts.items()}}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
