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
# the 注 of the 注疏 (a model of their own: "weights_zhushu")
ZHUSHU_FILES = (paths.DATA / "punct" / "KR1d0003.punct.jsonl", paths.DATA / "punct" / "KR1d0053.punct.jsonl")
# A short 「X Y也」 (Y of one to three characters) is a gloss of X even where the edition prints no
# mark after X, as the 注疏's modern editions do (「倅副也」, 「翣棺飾也」, 「廞興也」: read by hand on
# train juan, docs/glosses.md); unless Y opens with a word that makes it a clause of the note.
SHORT_GLOSS_NOT = frozenset("之而乃不無其所以於")


def short_gloss(rest: str) -> bool:
    return rest.endswith("也") and len(rest) <= 4 and rest[0] not in SHORT_GLOSS_NOT


def examples(punct_file: Path = PUNCT_FILE, split: str = "train", min_aligned: float = 0.9, zhushu: bool = False):
    """(features, label, juan) for every sentence head of the split's notes (the 集釋's 鄭注, or
    with `zhushu` a 注疏's 注: the note record right after its base record, in the same juan, and a
    short 「X Y也」 counted as marked)."""
    recs = [json.loads(line) for line in open(punct_file, encoding="utf-8")]
    out = []
    for a, b in zip(recs, recs[1:]):
        if not (a["kind"] == "base" and b["kind"] == "note" and b["split"] == split and b["aligned"] >= min_aligned):
            continue
        if zhushu and (b.get("marker") != "注" or a["id"].split("#")[0] != b["id"].split("#")[0]):
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
            label = (s + k) in marks or (zhushu and short_gloss(rest))
            out.append((features(x, rest, fb.count(fold(x)), i == 0), int(label), a["id"].split("#")[0]))
    return out


def train(out: Path = MODEL_PATH) -> dict:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    def fit(rows):
        vec = DictVectorizer()
        X = vec.fit_transform([{f: 1 for f in feats} for feats, _y, _j in rows]).toarray()
        y = [y for _f, y, _j in rows]
        clf = LogisticRegression(C=1.0, solver="liblinear", fit_intercept=False, max_iter=1000, random_state=0)
        clf.fit(X, y)
        return {name: float(wt) for name, wt in zip(vec.get_feature_names_out(), clf.coef_[0]) if abs(wt) > 1e-6}

    def fit_and_check(data, tune):
        """weights on all of `data`, and their accuracy on the `tune` juan when fitted without them"""
        w = fit([r for r in data if r[2] not in tune])
        held = [r for r in data if r[2] in tune]
        correct = sum(int((sum(w.get(f, 0.0) for f in feats) > 0) == bool(y)) for feats, y, _j in held)
        return fit(data), (correct / len(held) if held else 0.0)

    data = examples()
    tune = set(sorted({j for _f, _y, j in data})[-3:])
    w, acc = fit_and_check(data, tune)
    zdata = [row for f in ZHUSHU_FILES for row in examples(f, zhushu=True)]
    ztune = set()  # the last three train juan of each book
    for book in sorted({j.split("_")[0] for _f, _y, j in zdata}):
        ztune |= set(sorted({j for _f, _y, j in zdata if j.startswith(book)})[-3:])
    zw, zacc = fit_and_check(zdata, ztune)
    info = {
        "about": "P(mark after the longest base prefix opening a note sentence); see pipeline/align/heads.py",
        "data": f"{PUNCT_FILE.name} split=train aligned>=0.9",
        "examples": len(data),
        "positives": sum(y for _f, y, _j in data),
        "heldout_juan": sorted(tune),
        "heldout_accuracy": round(acc, 4),
        "weights": dict(sorted(w.items())),
        "zhushu": {
            "about": "the same for the 注 of a 注疏, a short 「X Y也」 counted as marked (train/gloss_heads.py)",
            "data": " + ".join(f.name for f in ZHUSHU_FILES) + " split=train aligned>=0.9 marker=注",
            "examples": len(zdata),
            "positives": sum(y for _f, y, _j in zdata),
            "heldout_juan": sorted(ztune),
            "heldout_accuracy": round(zacc, 4),
        },
        "weights_zhushu": dict(sorted(zw.items())),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(info, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    load_weights.cache_clear()
    return info


if __name__ == "__main__":  # pragma: no cover
    info = train()
    print(json.dumps({k: v for k, v in info.items() if k != "weights"}, ensure_ascii=False), file=sys.stderr)
