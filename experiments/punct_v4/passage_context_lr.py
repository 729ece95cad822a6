"""Tune juan only: the passage prior's features plus the characters around the position (the
context prior's slots) in one logistic regression, for the 注 (and the 集釋's notes), against the
passage prior as shipped (tune seg F1 0.7448 注疏, 0.7829 集釋).

    python experiments/punct_v4/passage_context_lr.py
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from pipeline import paths  # noqa: E402
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.context import SLOTS, slot_keys  # noqa: E402
from pipeline.segment.passage import features, group_of  # noqa: E402
from pipeline.train.segment.context import sparse_design  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402

seg = read_segmenter(paths.SEGMENTER_DEFAULT, with_prior=False)


def design(pairs):
    probs = seg.backend.probs([p["text"] for p in pairs], [p["kind"] for p in pairs],
                              books=[None if p["book"] == "KR1d0030" else p["book"] for p in pairs])
    X, keys, y, g = [], [], [], []
    for pair, pr in zip(pairs, probs):
        t, n = pair["text"], len(pair["text"])
        if n < 2:
            continue
        X.append(features(1 - pr[:, 0], pair["passage"], t))
        for i in range(n - 1):
            keys.append(tuple(f"{s}={c}" for s, c in zip(SLOTS, slot_keys(t, i))))
        y.append(np.array([k in pair["marks"] for k in range(1, n)]))
        g.extend([group_of(pair["book"])] * (n - 1))
    return np.vstack(X).astype(np.float64), keys, np.concatenate(y), np.array(g)


def f1(pred, gold):
    tp = int((pred & gold).sum())
    return 2 * tp / (int(pred.sum()) + int(gold.sum()))


from sklearn.linear_model import LogisticRegression  # noqa: E402

Xtr, ktr, ytr, gtr = design(passage_pairs())
Xtu, ktu, ytu, gtu = design(passage_pairs(tune=True))
for group in ("注疏", "集釋"):
    m, mu = gtr == group, gtu == group
    counts = {}
    for j in np.nonzero(m)[0]:
        for k in ktr[j]:
            counts[k] = counts.get(k, 0) + 1
    vocab = {k: i for i, k in enumerate(sorted(k for k, c in counts.items() if c >= 3))}
    A = sparse_design(Xtr[m], [ktr[j] for j in np.nonzero(m)[0]], vocab)
    B = sparse_design(Xtu[mu], [ktu[j] for j in np.nonzero(mu)[0]], vocab)
    plain = LogisticRegression(C=1.0, max_iter=2000).fit(Xtr[m], ytr[m]).predict_proba(Xtu[mu])[:, 1]
    print(group, "passage features only:", " ".join(f"t{t} {f1(plain > t, ytu[mu]):.4f}" for t in (0.35, 0.4, 0.45, 0.5)), flush=True)
    for C in (0.3, 1.0):
        q = LogisticRegression(C=C, max_iter=5000).fit(A, ytr[m]).predict_proba(B)[:, 1]
        print(group, f"+ characters C {C}:", " ".join(f"t{t} {f1(q > t, ytu[mu]):.4f}" for t in (0.35, 0.4, 0.45, 0.5)), flush=True)
