"""Tune-juan scores of two segmenters and of their weighted mean (a teacher for distillation):
python experiments/punct_v3/ensemble_tune.py DIR_A DIR_B

Per-character mark distributions of each model are computed once on the tune juan (集釋 juan 7+27,
注疏 juan 7); the mean w*A + (1-w)*B is decoded at a sweep of thresholds. Tune only: this picks a
teacher, it does not report a dev figure."""
import sys

import numpy as np
import torch

sys.path.insert(0, __file__.rsplit("/experiments/", 1)[0])
from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment.bilstm import NeuralSegmenter, decode  # noqa: E402
from pipeline.train.segment import tune_sets  # noqa: E402

torch.set_num_threads(1)
sets = tune_sets()
dirs = sys.argv[1:3]
models = [NeuralSegmenter.load(d, quantize=False) for d in dirs]
P = {name: [m.probs([x["text"] for x in recs], [x["kind"] for x in recs], books=[x["book"] for x in recs])
            for m in models] for name, recs in sets.items()}


def row(label, w, t):
    out = [f"{label} w={w:.2f} t={t:.3f}"]
    for name, recs in sets.items():
        pa, pb = P[name]
        pred = [decode(w * a + (1 - w) * b, len(x["text"]), t) for a, b, x in zip(pa, pb, recs)]
        r = score(recs, pred)
        out.append(f"{name} seg {r['seg']['f1']:.4f} sent {r['sentence']['f1']:.4f} "
                   + " ".join(f"{k}:{v['seg']['f1']:.4f}" for k, v in r["by_kind"].items()))
    print(" | ".join(out), flush=True)


row("A", 1.0, models[0].threshold)
row("B", 0.0, models[1].threshold)
for w in (0.3, 0.5, 0.7):
    for t in (0.5, 0.55, 0.6, 0.65):
        row("mean", w, t)
