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
Rebuild: `zhushu train gloss-heads` (pipeline/train/gloss_heads.py).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

from pipeline import paths

MODEL_PATH = paths.GLOSS_HEADS_MODEL
FORMULA_NEXT = ("者", "猶", "謂", "之言", "讀", "當為", "當爲", "當作", "亦猶")


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


@functools.lru_cache(maxsize=4)
def load_weights(path: str | None = None, zhushu: bool = False) -> dict[str, float]:
    """The weights for the 集釋's notes, or with `zhushu` for the 注 of a 注疏 (a model of its own:
    the 注疏's modern editions print short glosses without the mark after X, 「倅副也」, and the
    segmenter learned their habit; pipeline/train/gloss_heads.py). {} when no model is installed."""
    p = Path(path) if path else MODEL_PATH
    if not p.exists():
        return {}
    model = json.loads(p.read_text(encoding="utf-8"))
    return model.get("weights_zhushu", model["weights"]) if zhushu else model["weights"]


def head_probability(x: str, rest: str, base_count: int, first_sentence: bool, zhushu: bool = False) -> float | None:
    """P(a mark right after the head x); None when no model is installed. `zhushu`: the note is a
    注 of a 注疏."""
    w = load_weights(zhushu=zhushu)
    if not w:
        return None
    z = sum(w.get(f, 0.0) for f in features(x, rest, base_count, first_sentence))
    return 1.0 / (1.0 + math.exp(-z))
