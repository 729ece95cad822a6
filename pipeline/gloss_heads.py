"""Does a sentence of a note open with a lemma head 「X，…」? A small classifier for unmarked heads.

A plain definition (「衆耦，士也」) has no formula word: it is read from the mark after X, the
longest stretch of the base passage that opens the sentence. When the segmenter leaves that
mark out (「衆耦士也」, 「適次由次前而北」) this classifier, which — unlike the segmenter — sees
the base passage, says whether the note's editors would have put a mark right after X.

Training data (silver, no gloss gold used): the 鄭注 units of the *train* split of
data/punct/KR1d0030.punct.jsonl (aligned >= 0.9) with their base unit; for each sentence
start (sentence-final marks, plus the cut after 也) whose longest base prefix X is shorter than
the sentence and not followed by a formula word, label = a mark stands right after X.
Model: logistic regression (scikit-learn, liblinear, C=1.0) over the features below, stored as
plain weights in models/gloss_heads/weights.json and applied here without scikit-learn.
Rebuild: `python -m pipeline.gloss_heads --train`.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from pathlib import Path

MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "gloss_heads" / "weights.json"
PUNCT_FILE = Path(__file__).resolve().parent.parent / "data" / "punct" / "KR1d0030.punct.jsonl"
FORMULA_NEXT = ("者", "猶", "謂", "之言", "讀", "當為", "當爲", "當作", "亦猶")
FINAL = "。？！；"


def is_formula_next(rest: str) -> bool:
    return rest.startswith(FORMULA_NEXT)


def features(x: str, rest: str, base_count: int, first_sentence: bool) -> list[str]:
    """x: the head (longest base prefix); rest: the sentence after it (no marks)."""
    n1 = rest[:1]
    n2 = rest[:2]
    lx = min(len(x), 4)
    lr = min(len(rest), 12) // 3
    f = [
        "bias",
        f"lx={lx}",
        f"n1={n1}",
        f"n2={n2}",
        f"x0={x[0]}",
        f"x-1={x[-1]}",
        f"lr={lr}",
        f"lx={lx}|lr={lr}",
        f"ye={rest.endswith('也')}",
        f"ye|lx={rest.endswith('也')}|{lx}",
        f"rep={any(c in x for c in rest[:3])}",
        f"cnt={min(base_count, 3)}",
        f"first={first_sentence}",
        f"n1|lx={n1}|{lx}",
    ]
    if len(x) == 1:
        f.append(f"x={x}")
    f += [
        f"xn={x[-1]}{n1}",  # the bigram across the candidate mark
        f"ye6={'也' in rest[:6]}",
        f"r-1={rest[-1:]}",
        f"x={x}" if len(x) == 2 else "x2=none",
    ]
    return f


@functools.lru_cache(maxsize=1)
def load_weights(path: str | None = None) -> dict[str, float]:
    p = Path(path) if path else MODEL_PATH
    if not p.exists():
        return {}
    return json.loads(p.read_text(encoding="utf-8"))["weights"]


def head_probability(x: str, rest: str, base_count: int, first_sentence: bool) -> float | None:
    """P(a mark right after the head x); None when no model is installed."""
    w = load_weights()
    if not w:
        return None
    z = sum(w.get(f, 0.0) for f in features(x, rest, base_count, first_sentence))
    return 1.0 / (1.0 + math.exp(-z))


def examples(punct_file: Path = PUNCT_FILE, split: str = "train", min_aligned: float = 0.9):
    """(features, label, juan) for every sentence head of the split's notes."""
    from pipeline.gloss_grammar import longest_base_prefix, sentences_of, soft_marks
    from pipeline.variants import fold

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
        "about": "P(mark after the longest base prefix opening a note sentence); see pipeline/gloss_heads.py",
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
    if "--train" in sys.argv:
        info = train()
        print(json.dumps({k: v for k, v in info.items() if k != "weights"}, ensure_ascii=False), file=sys.stderr)
