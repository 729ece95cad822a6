"""Tune juan only: a logistic regression that decides "sentence-final or not" at each of v2's
breaks from its probabilities and the characters around the break, fitted on the train juan
(records aligned >= 0.9), against the shipped final_threshold rule.

    python experiments/punct_v4/final_mark_lr.py [--no-bigrams]
"""
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment.bilstm import FINAL_LABELS, LABELS, NONFINAL_LABELS, NeuralSegmenter, decode  # noqa: E402
from pipeline.model import SENTENCE_FINAL  # noqa: E402
from pipeline.train.segment import training_data, v2_records, zhushu_data  # noqa: E402

torch.set_num_threads(1)
train, tune, _ = training_data()
v2_records(train, tune, [])
ztrain, ztune = zhushu_data()
train = [r for r in train if r.get("weight", 1.0) >= 1.0] + [r for r in ztrain if r.get("weight", 1.0) >= 1.0]
tune_sets = {"集釋": tune, "注疏": ztune}
v2 = NeuralSegmenter.load("models/segmenter-v2")


def probs(recs):
    return v2.probs([r["text"] for r in recs], [r["kind"] for r in recs], books=[r.get("book") for r in recs])


KINDS = ["base", "注", "疏", "音義", "小注"]
BIGRAMS = "--no-bigrams" not in sys.argv


def rows(recs, P):
    """Per break position of v2: (record index, k, features dict), gold final?"""
    out = []
    for ri, (r, p) in enumerate(zip(recs, P)):
        t, n = r["text"], len(r["text"])
        gold = {int(k): v for k, v in r["marks"].items()}
        for i in np.nonzero(p[: n - 1, 0] < v2.threshold)[0].tolist():
            pf, pn = float(p[i, FINAL_LABELS].sum()), float(p[i, NONFINAL_LABELS].sum())
            f = {"lf": np.log(pf + 1e-6) - np.log(pn + 1e-6), "pf": pf, "pnone": float(p[i, 0]),
                 "b1=" + t[i]: 1, "a1=" + t[i + 1]: 1,
                 **({"a2=" + t[i + 1:i + 3]: 1, "b2=" + t[max(0, i - 1):i + 1]: 1} if BIGRAMS else {}),
                 "kind=" + r["kind"]: 1, "book=" + str(r.get("book")): 1,
                 "pos_end": min(n - 1 - i, 20) / 20, "pos_start": min(i + 1, 20) / 20}
            out.append((ri, i + 1, f, gold.get(i + 1, "") in SENTENCE_FINAL))
    return out


from sklearn.feature_extraction import DictVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

print("probs train", flush=True)
Ptr = probs(train)
R = rows(train, Ptr)
vec = DictVectorizer()
X = vec.fit_transform([f for _, _, f, _ in R])
y = np.array([g for *_, g in R])
print(X.shape, y.mean(), flush=True)
for C in ((0.1, 0.3, 1.0) if BIGRAMS else (0.3, 1.0)):
    lr = LogisticRegression(C=C, max_iter=3000).fit(X, y)
    for name, recs in tune_sets.items():
        P = probs(recs)
        Rt = rows(recs, P)
        pt = lr.predict_proba(vec.transform([f for _, _, f, _ in Rt]))[:, 1]
        base = [decode(p, len(r["text"]), v2.threshold, final_threshold=v2.final_threshold) for p, r in zip(P, recs)]
        cells = [f"C {C} {name}: rule {score(recs, base)['sentence']['f1']:.4f}"]
        for t in (0.35, 0.4, 0.45, 0.5, 0.55):
            pred = [dict(m) for m in base]
            for (ri, k, f, _), q in zip(Rt, pt):
                p = P[ri][k - 1]
                lab = FINAL_LABELS[p[FINAL_LABELS].argmax()] if q >= t else NONFINAL_LABELS[p[NONFINAL_LABELS].argmax()]
                pred[ri][k] = LABELS[lab]
            cells.append(f"t{t} {score(recs, pred)['sentence']['f1']:.4f}")
        print(" ".join(cells), flush=True)
