"""Tune juan only: does deciding 'sentence-final or not' by the summed group probabilities
(。？！ against ，、：；) beat taking the single most likely mark? With a bias beta on the final
group (final if P(final) > beta * P(non-final)), or with an absolute threshold on P(final)
(`final_threshold`, shipped)? python experiments/punct_v4/final_mark_tune.py [MODEL_DIR]

Breaks are v2's own (P(none) < threshold); only the mark at each break changes, so seg F1 is
the same in every row; sentence and punct F1 move. Tune juan: 集釋 juan 7+27, 注疏 juan 7."""
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, __file__.rsplit("/experiments/", 1)[0])
from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.bilstm import LABELS, UNIT_END_MARK, decode  # noqa: E402
from pipeline.train.segment import tune_sets  # noqa: E402

torch.set_num_threads(1)
sets = tune_sets()
model = read_segmenter(Path(sys.argv[1] if len(sys.argv) > 1 else "models/segmenter-v2"), with_prior=False).backend
P = {name: model.probs([x["text"] for x in recs], [x["kind"] for x in recs], books=[x["book"] for x in recs])
     for name, recs in sets.items()}
FINAL = [LABELS.index(m) for m in "。？！"]
NONFINAL = [LABELS.index(m) for m in "，、：；"]


def marks(p, n, beta):
    idx = np.nonzero(p[: n - 1, 0] < model.threshold)[0]
    out = {}
    for i in idx.tolist():
        row = p[i]
        if beta is None:
            lab = int(row[1:].argmax()) + 1
        else:
            grp = FINAL if row[FINAL].sum() > beta * row[NONFINAL].sum() else NONFINAL
            lab = grp[int(row[grp].argmax())]
        out[i + 1] = LABELS[lab]
    out[n] = UNIT_END_MARK
    return out


def by_threshold(p, n, tau):
    return decode(p, n, model.threshold, final_threshold=tau)


rows = [(f"beta {b}", marks, b) for b in [None, 0.8, 0.9, 1.0, 1.1, 1.25]]
rows += [(f"final_threshold {t}", by_threshold, t) for t in [0.35, 0.4, 0.425, 0.45, 0.475, 0.5]]
for label, fn, arg in rows:
    cells = [label]
    for name, recs in sets.items():
        r = score(recs, [fn(p, len(x["text"]), arg) for p, x in zip(P[name], recs)])
        cells.append(f"{name} seg {r['seg']['f1']:.4f} sent {r['sentence']['f1']:.4f} punct {r['punct']['f1']:.4f} "
                     + " ".join(f"{k}:{v['sentence']['f1']:.4f}" for k, v in r["by_kind"].items()))
    print(" | ".join(cells), flush=True)
