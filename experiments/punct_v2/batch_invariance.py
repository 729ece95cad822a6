"""Batch invariance: marks of each dev unit predicted in one call over all units vs alone, and in
reversed / shuffled order: python experiments/punct_v2/batch_invariance.py DIR [--int8]
(an ensemble folder is read through pipeline.segment.read_segmenter)"""
import json
import random
import sys
from pathlib import Path

import torch
from common import DEV, NeuralSegmenter

from pipeline.segment.data import book_of, read_records, record_kind

torch.set_num_threads(1)
if json.loads((Path(sys.argv[1]) / "config.json").read_text(encoding="utf-8")).get("type") == "ensemble":
    from pipeline.segment import read_segmenter

    seg = read_segmenter(Path(sys.argv[1])).backend
else:
    seg = NeuralSegmenter.load(sys.argv[1], quantize="--int8" in sys.argv)
for name, path in DEV.items():
    recs = [r for r in read_records(path, split="dev") if r["text"]]
    t, k, b = [r["text"] for r in recs], [record_kind(r) for r in recs], [book_of(r["id"]) for r in recs]
    allp = seg.predict(t, k, books=b)
    alone = [seg.predict([x], [y], books=[z])[0] for x, y, z in zip(t, k, b)]
    idx = list(range(len(t)))
    random.Random(1).shuffle(idx)
    sh = seg.predict([t[i] for i in idx], [k[i] for i in idx], books=[b[i] for i in idx])
    shuffled = [None] * len(t)
    for j, i in enumerate(idx):
        shuffled[i] = sh[j]
    print(f"{name}: {len(t)} units, differ alone vs batched {sum(a != c for a, c in zip(allp, alone))}, "
          f"shuffled vs batched {sum(a != c for a, c in zip(allp, shuffled))}", flush=True)
