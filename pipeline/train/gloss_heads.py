"""Training the gloss-head classifier (pipeline/align/heads.py): logistic regression (scikit-learn)
on silver examples from the train split of data/punct, stored as plain weights.

Rebuild: `zhushu train gloss-heads` (or `python -m pipeline.train.gloss_heads`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pipeline import paths
from pipeline.align.grammar import FINAL, longest_base_prefix, sentences_of, soft_marks
from pipeline.align.heads import MODEL_PATH, features, is_formula_next, load_weights
from pipeline.variants import fold

PUNCT_FILE = paths.PUNCT_FILE


def examples(punct_file: Path = PUNCT_FILE, split: str = "train", min_aligned: float = 0.9):
    """(features, label, juan) for every sentence head of the split's notes."""
    recs = [json.loads(line) for line in open(punct_file, encoding="utf-8")]
    out = []
    for a, b in zip(recs, recs[1:]):
        if not (a["kind"] == "base" and b["kind"] == "note" and b["split"] == split and b["aligned"] >= min_aligned):
            continue
        fb = fold(a["text"])
        note = b["text"]
        marks = {int(k): v for k, v in b["marks"].items()}
        finals = {k: v for k, v in marks.items() if v in FINAL}

        def in_base(s, fb=fb):
            return fold(s) in fb

        for i, sent in enumerate(sentences_of(note, soft_marks(note, finals))):
            s, e = sent[0][0], sent[-1][1]
            k = longest_base_prefix(note[s:e], in_base)
            if k == 0 or s + k >= e:
                continue
            x, rest = note[s : s + k], note[s + k : e]
            if is_formula_next(rest) or note.startswith(("古文", "今文", "言"), s):
                continue
            out.append((features(x, rest, fb.count(fold(x)), i == 0), int((s + k) in marks), a["id"].split("#")[0]))
    return out


def train(out: Path = MODEL_PATH) -> dict:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    data = examples()
    juans = sorted({j for _f, _y, j in data})
    tune = set(juans[-3:])

    def fit(rows):
        vec = DictVectorizer()
        X = vec.fit_transform([{f: 1 for f in feats} for feats, _y, _j in rows]).toarray()
        y = [y for _f, y, _j in rows]
        clf = LogisticRegression(C=1.0, solver="liblinear", fit_intercept=False, max_iter=1000, random_state=0)
        clf.fit(X, y)
        return {name: float(wt) for name, wt in zip(vec.get_feature_names_out(), clf.coef_[0]) if abs(wt) > 1e-6}

    w = fit([r for r in data if r[2] not in tune])
    held = [r for r in data if r[2] in tune]
    correct = 0
    for feats, y, _j in held:
        z = sum(w.get(f, 0.0) for f in feats)
        correct += int((z > 0) == bool(y))
    acc = correct / len(held) if held else 0.0
    w = fit(data)  # final weights on all training juan
    info = {
        "about": "P(mark after the longest base prefix opening a note sentence); see pipeline/align/heads.py",
        "data": f"{PUNCT_FILE.name} split=train aligned>=0.9",
        "examples": len(data),
        "positives": sum(y for _f, y, _j in data),
        "heldout_juan": sorted(tune),
        "heldout_accuracy": round(acc, 4),
        "weights": dict(sorted(w.items())),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(info, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    load_weights.cache_clear()
    return info


if __name__ == "__main__":  # pragma: no cover
    info = train()
    print(json.dumps({k: v for k, v in info.items() if k != "weights"}, ensure_ascii=False), file=sys.stderr)
