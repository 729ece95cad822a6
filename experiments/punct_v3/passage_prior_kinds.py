"""The passage prior's features on each kind, with a logistic regression and a gradient-boosted
model (why the shipped prior reads the 注 and the 集釋's notes, not the 疏).

Fitted on the train juan, scored on the tune juan (dev is not read). A 注 / note is paired with the
經 unit before it; a 疏 with the 經 and 注 units since the previous 疏 (joined by "|").

    python experiments/punct_v3/passage_prior_kinds.py [MODEL_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.passage import features  # noqa: E402
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU  # noqa: E402

BOOKS = ("KR1d0003", "KR1d0053", "KR1d0030")
TUNE = set(TUNE_JUAN) | set(TUNE_JUAN_ZHUSHU)


def blocks(tune: bool):
    for book in BOOKS:
        recs = [json.loads(x) for x in open(ROOT / "data/punct" / f"{book}.punct.jsonl", encoding="utf-8")]
        since: list[str] = []
        prev = None
        for b in recs:
            juan = b["id"].split("#")[0]
            marker = b.get("marker") or ("" if b["kind"] == "base" else "注")
            if prev is not None and prev["id"].split("#")[0] != juan:
                since = []
            take = (b["split"] == "train" and not juan.endswith("_000") and (juan in TUNE) == tune
                    and b.get("aligned", 1) >= 0.9 and b["text"] and b["kind"] == "note")
            gold = {int(k) for k in b["marks"]}
            if take and marker == "注" and prev is not None and prev["kind"] == "base" and prev["id"].split("#")[0] == juan:
                yield book, "注", prev["text"], b["text"], gold
            if take and marker == "疏" and since:
                yield book, "疏", "|".join(since), b["text"], gold
            since = [] if marker == "疏" else since + [b["text"]] if marker in ("", "注") else since
            prev = b


def design(seg, items):
    kinds = ["note" if b == "KR1d0030" else k for b, k, _, _, _ in items]
    probs = seg.backend.probs([t for *_, t, _ in items], kinds, books=[None if b == "KR1d0030" else b for b, *_ in items])
    X, y, g = [], [], []
    for (book, kind, passage, text, gold), p in zip(items, probs):
        if len(text) < 2:
            continue
        X.append(features(1 - p[:, 0], passage, text))
        y.append(np.array([k in gold for k in range(1, len(text))]))
        g += [("集釋 note" if book == "KR1d0030" else "注疏 " + kind)] * (len(text) - 1)
    return np.vstack(X), np.concatenate(y), np.array(g)


def f1(pred, gold):
    tp = int((pred & gold).sum())
    return round(2 * tp / max(1, int(pred.sum()) + int(gold.sum())), 4)


def main() -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression

    seg = read_segmenter(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "models/segmenter-v2", with_prior=False)
    thr = seg.backend.threshold
    Xtr, ytr, gtr = design(seg, list(blocks(False)))
    Xtu, ytu, gtu = design(seg, list(blocks(True)))
    cut = np.log((1 - thr) / thr)
    for group in ("注疏 注", "集釋 note", "注疏 疏"):
        m, mu = gtr == group, gtu == group
        row = {"group": group, "tune_positions": int(mu.sum()), "model": f1(Xtu[mu, 0] > cut, ytu[mu])}
        for name, cols, clf in (("logit only", [0], LogisticRegression(max_iter=2000)),
                                ("prior (lr)", slice(None), LogisticRegression(max_iter=2000)),
                                ("gbm", slice(None), HistGradientBoostingClassifier(max_iter=200, random_state=0))):
            clf.fit(Xtr[m][:, cols], ytr[m])
            ptr = clf.predict_proba(Xtr[m][:, cols])[:, 1]
            t = max(np.arange(0.3, 0.701, 0.025), key=lambda t: f1(ptr > t, ytr[m]))
            row[name] = f1(clf.predict_proba(Xtu[mu][:, cols])[:, 1] > t, ytu[mu])
        print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
