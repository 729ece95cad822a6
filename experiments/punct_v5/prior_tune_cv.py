"""The passage prior fitted on the tune juan instead of the train juan (stop 76; docs/segmentation.md "Stop 76"): the shipped prior is
fitted on train juan, where the network's break logit is overconfident (it learned their marks); the tune juan are held out of the
network. Each tune juan is scored (seg F1 of the 注 / 鄭注 breaks) by the network alone, by the shipped prior, and by a prior fitted on
the other tune juan of its book group or on all the other tune juan (threshold chosen on the fit's own rows).

    python experiments/punct_v5/prior_tune_cv.py

Reads no dev juan.
"""
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.passage import PassagePrior  # noqa: E402
from pipeline.train.segment.passage import _design, passage_pairs  # noqa: E402


def f1(pred, gold):
    tp = (pred & gold).sum()
    return round(float(2 * tp / (pred.sum() + gold.sum())), 4)


def main() -> None:
    seg = read_segmenter(ROOT / "models/segmenter-v6", with_prior=False)
    prior = PassagePrior.load(ROOT / "models/segmenter-v6-passage")
    pairs = passage_pairs(tune=True)
    X, y, g = _design(seg, pairs)  # the rows `zhushu train passage-prior` fits on, here of the tune juan
    X = X.astype(np.float64)
    j = np.array([p["id"].split("#")[0] for p in pairs for _ in range(len(p["text"]) - 1)])
    cut = np.log((1 - seg.backend.threshold) / seg.backend.threshold)
    for juan in sorted(set(j)):
        m = j == juan
        grp = prior.groups[g[m][0]]
        z = X[m] @ np.array(grp["coef"]) + grp["intercept"]
        out = {"positions": int(m.sum()), "network": f1(X[m][:, 0] > cut, y[m]),
               "shipped prior": f1(1 / (1 + np.exp(-z)) > grp["threshold"], y[m])}
        for name, fit in (("other juan of its group", (g == g[m][0]) & ~m), ("all other tune juan", ~m)):
            lr = LogisticRegression(C=1.0, max_iter=3000).fit(X[fit], y[fit])
            own = lr.predict_proba(X[fit])[:, 1]
            t = max(np.arange(0.3, 0.71, 0.025), key=lambda t: f1(own > t, y[fit]))
            out[name] = f1(lr.predict_proba(X[m])[:, 1] > t, y[m])
        print(juan, out)


if __name__ == "__main__":
    main()
