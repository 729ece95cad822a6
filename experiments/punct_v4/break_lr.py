"""Tune juan only: does a logistic regression over v2's break probability and the characters
around each position (fitted on the 注疏 train juan, which v2 saw only at a 20 % sampling rate
an epoch) place the breaks of the 注疏's 疏 / 經 / 小注 better than v2's threshold?

    python experiments/punct_v4/break_lr.py [--jishi] [--wide]   # --jishi: the 集釋's base text; --wide: more context
"""
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from pipeline.segment.bilstm import NeuralSegmenter  # noqa: E402
from pipeline.train.segment import zhushu_data  # noqa: E402

torch.set_num_threads(1)
if "--jishi" in sys.argv:  # the 集釋's base text (its notes are the passage prior's)
    from pipeline.train.segment import training_data, v2_records

    ztrain, ztune, _ = training_data()
    v2_records(ztrain, ztune, [])
    KINDS = {"base"}
else:
    ztrain, ztune = zhushu_data()
    KINDS = {"疏", "base", "小注"}
WIDE = "--wide" in sys.argv
train = [r for r in ztrain if r.get("weight", 1.0) >= 1.0 and r["kind"] in KINDS]
tune = [r for r in ztune if r["kind"] in KINDS]
v2 = NeuralSegmenter.load("models/segmenter-v2")


def design(recs):
    P = v2.probs([r["text"] for r in recs], [r["kind"] for r in recs], books=[r.get("book") for r in recs])
    num, keys, y = [], [], []
    for r, p in zip(recs, P):
        t, n = r["text"], len(r["text"])
        if n < 2:
            continue
        gold = {int(k) for k in r["marks"]}
        pb = 1 - p[: n - 1, 0].astype(np.float64)
        i = np.arange(n - 1)
        num.append(np.stack([np.log(pb + 1e-6) - np.log(1 - pb + 1e-6), np.minimum(n - 1 - i, 20) / 20,
                             np.minimum(i + 1, 20) / 20], axis=1))
        for j in range(n - 1):
            ks = ("b1=" + t[j], "b2=" + t[max(0, j - 1):j + 1], "a1=" + t[j + 1], "a2=" + t[j + 1:j + 3],
                  "k=" + r["kind"], "bk=" + r["book"])
            if WIDE:  # three characters each side, the pair straddling the position, the char two after
                ks += ("b3=" + t[max(0, j - 2):j + 1], "a3=" + t[j + 1:j + 4], "s=" + t[j:j + 2], "a_2=" + t[j + 2:j + 3])
            keys.append(ks)
            y.append(j + 1 in gold)
    return np.vstack(num), keys, np.array(y)


from sklearn.linear_model import LogisticRegression  # noqa: E402

from pipeline.train.segment.context import sparse_design as matrix  # noqa: E402


def f1(pred, gold):
    tp = int((pred & gold).sum())
    return 2 * tp / (int(pred.sum()) + int(gold.sum()))


num, keys, y = design(train)
counts = {}
for ks in keys:
    for k in ks:
        counts[k] = counts.get(k, 0) + 1
vocab = {k: i for i, k in enumerate(sorted(k for k, c in counts.items() if c >= 3))}
X = matrix(num, keys, vocab)
tn, tk, ty = design(tune)
tX = matrix(tn, tk, vocab)
base = tn[:, 0] > np.log((1 - v2.threshold) / v2.threshold)
print(f"train {X.shape}, tune {tX.shape}; v2 threshold seg F1 {f1(base, ty):.4f}", flush=True)
for t in (0.4, 0.45, 0.5, 0.55, 0.6):
    print(f"  v2 at P(break) > {t}: {f1(tn[:, 0] > np.log(t / (1 - t)), ty):.4f}")
for C in (0.3, 1.0):
    lr = LogisticRegression(C=C, max_iter=3000).fit(X, y)
    q = lr.predict_proba(tX)[:, 1]
    print(f"C {C}: " + " ".join(f"t{t} {f1(q > t, ty):.4f}" for t in (0.35, 0.4, 0.45, 0.5, 0.55)), flush=True)
