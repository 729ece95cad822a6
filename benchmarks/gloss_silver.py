"""Glosses read with the segmenter's marks against glosses read with the edition's own marks, on
TRAIN juan (silver: no gloss gold involved). Measures what segmentation costs the aligner on juan
the dev set does not cover, and compares ways of calling the segmenter.

    python benchmarks/gloss_silver.py --book KR1d0030 --blocks 400 --seed 20261201 [--call note|pipeline|reader]

Blocks: records of data/punct/BOOK.punct.jsonl with split train, the commentary record (鄭注 for
the 集釋, 注 for a 注疏) right after its base record, aligned >= 0.9. Spans as `zhushu eval
glosses` scores them (distinct anchored lemma spans per block, micro P/R/F1), the edition-marks
spans standing in for gold. --call: how the segmenter is asked for a note's marks: `note` (kind
note, no book: what `zhushu eval glosses` did for the 集釋 before), `pipeline` (the kind and book
`segment_document` gives the unit: 注 and the book id; the published marks of a call without the
passage — the figures of stops 20-32) or `reader` (the marks the pipeline's gloss reader gets:
`note_marks`, the model's own marks with the base as the note's passage, kind and book as
`zhushu eval glosses` gives them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pairs(book: str, min_aligned: float = 0.9):
    recs = [json.loads(line) for line in open(ROOT / "data" / "punct" / f"{book}.punct.jsonl", encoding="utf-8")]
    for a, b in zip(recs, recs[1:]):
        if a["kind"] != "base" or b["kind"] != "note" or b["split"] != "train" or b["aligned"] < min_aligned:
            continue
        if b.get("marker", "注") != "注" or a["id"].split("#")[0] != b["id"].split("#")[0]:
            continue
        yield b["id"], a["text"], b["text"], {int(k): v for k, v in b["marks"].items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", default="KR1d0030")
    ap.add_argument("--blocks", type=int, default=400)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--call", choices=("note", "pipeline", "reader"), default="pipeline")
    args = ap.parse_args(argv)

    from pipeline.align import align_block
    from pipeline.evaluate.common import prf
    from pipeline.evaluate.glosses import note_marks, spans
    from pipeline.segment import load_segmenter

    pool = list(pairs(args.book))
    picked = random.Random(args.seed).sample(pool, min(args.blocks, len(pool)))
    seg = load_segmenter().without_memory()  # train juan: the phrase memory knows their marks by heart
    tp = n_sys = n_gold = 0
    for rid, base, note, marks in picked:
        if args.call == "reader":  # the id gives the kind and book, as `zhushu eval glosses` reads it
            pred = note_marks([note], seg, ids=[rid], bases=[base])[0][0]
        elif args.call == "note":
            pred = seg.predict([note], ["note"])[0]
        else:
            pred = seg.predict([note], ["注"], books=[args.book])[0]
        zhushu = args.book != "KR1d0030"  # a 注疏's 注: the head classifier's 注疏 weights
        g = spans(align_block(base, note, marks, zhushu=zhushu))
        s = spans(align_block(base, note, pred, zhushu=zhushu))
        tp += len(set(g) & set(s))
        n_sys += len(s)
        n_gold += len(g)
    print(json.dumps({"book": args.book, "blocks": len(picked), "call": args.call, "seed": args.seed,
                      "segmenter": str(seg.path.name), "lemma": prf(tp, n_sys, n_gold)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
