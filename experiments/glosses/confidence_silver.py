"""How often a 注 / 鄭注 gloss read with the segmenter's marks is also read with the editions' own
marks, by band of its confidence, on TRAIN juan (silver: what the punctuation costs, not the
grammar's own errors). docs/glosses.md, "Stop 43".

    python experiments/glosses/confidence_silver.py [--blocks 600] [--seed 20261204]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gloss_silver import pairs  # noqa: E402

from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import ConfidenceBands  # noqa: E402
from pipeline.evaluate.glosses import note_marks, span_confidences  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--blocks", type=int, default=600)
    ap.add_argument("--seed", type=int, default=20261204)
    args = ap.parse_args()
    seg = load_segmenter().without_memory()  # train juan: the phrase memory knows their marks by heart
    for book in ("KR1d0003", "KR1d0053", "KR1d0030"):
        pool = list(pairs(book))
        picked = random.Random(args.seed).sample(pool, min(args.blocks, len(pool)))
        bands = ConfidenceBands()
        zhushu = book != "KR1d0030"
        for rid, base, note, marks in picked:
            own = note_marks([note], seg, ids=[rid], bases=[base])[0][0]
            silver = {(g.lemma_start, g.lemma_end) for g in align_block(base, note, marks, zhushu=zhushu)
                      if g.lemma_start is not None}
            for sp, conf in span_confidences(align_block(base, note, own, zhushu=zhushu)).items():
                bands.add(conf, sp in silver)
        print(book, {k: f"{v['precision'] * v['predicted']:.0f} / {v['predicted']}" for k, v in bands.result().items()})


if __name__ == "__main__":
    main()
