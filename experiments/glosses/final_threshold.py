"""The gloss reader's own sentence-final threshold (stop 63; not taken — docs/glosses.md, "Stop 63"): silver F1 of
the 注 glosses on the tune juan with the default segmenter's final_threshold set to a few values (the segmenter's
own, 0.375, then 0.30 … 0.50), each against the glosses read with the edition's marks.

    python experiments/glosses/final_threshold.py [--train]   # --train: 1,500 train pairs (seed 63), no memory
"""

from __future__ import annotations

import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import note_marks, spans  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402


def main() -> None:
    tune = "--train" not in sys.argv
    pairs = passage_pairs(tune=tune)
    seg = load_segmenter()
    if not tune:
        pairs = random.Random(63).sample(pairs, 1500)
        seg = seg.without_memory()  # the memory knows train juan's marks by heart
    backend = seg.backend
    shipped = backend.final_threshold
    print("backend", type(backend).__name__, "final_threshold", shipped, len(pairs))
    for t in (shipped, 0.30, 0.35, 0.40, 0.50):
        backend.final_threshold = t
        counts = collections.defaultdict(lambda: [0, 0, 0])
        for p in pairs:
            marks = note_marks([p["text"]], seg, ids=[p["id"]], bases=[p["passage"]])[0][0]
            zhushu = p["book"] != "KR1d0030"
            gold = {int(k): v for k, v in p["marks"].items()}
            g = set(spans(align_block(p["passage"], p["text"], gold, zhushu=zhushu)))
            s = set(spans(align_block(p["passage"], p["text"], marks, zhushu=zhushu)))
            c = counts[p["book"]]
            c[0] += len(g & s)
            c[1] += len(s)
            c[2] += len(g)
        print(t, {b: {k: v for k, v in prf(*c).items() if k in ("p", "r", "f1")} for b, c in sorted(counts.items())},
              flush=True)
    backend.final_threshold = shipped


if __name__ == "__main__":
    main()
