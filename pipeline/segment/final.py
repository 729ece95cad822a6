"""The final prior: at each break, sentence-final or not, decided by a logistic regression over the
model's probabilities and the characters around the break (a segmenter folder's final_prior.json).

The BiLSTM's own choice (`bilstm.marks_at`: the final marks' summed probability against the
folder's final_threshold) sees the characters only through the network. On the two 注疏 books the
regression, fitted on their train juan, adds what their train juan say of the break's
neighbourhood — 也 before it, 云 / 注 / 釋曰 after it, the unit's kind — and raises sentence F1 on
their tune juan; on the 集釋 it did not, so a group is in the file only where it measured better
than the rule (docs/segmentation.md, "Stop 31"). Fitted by `zhushu train final-prior`
(pipeline/train/segment/final.py); a pure function of the unit, its kind and book: batch-invariant.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.segment.bilstm import FINAL_LABELS, NONFINAL_LABELS
from pipeline.segment.passage import group_of, read_prior, write_prior

FILE = "final_prior.json"
NUMERIC = ("lf", "pf", "pnone", "pos_end", "pos_start")
EPS = 1e-6


def numeric_features(probs: np.ndarray, idx: np.ndarray, n: int) -> np.ndarray:
    """(len(idx), len(NUMERIC)) for the breaks after chars `idx` of a unit of n chars: the log-odds
    of a final mark against a non-final one, P(final), P(none), and how near each end it lies."""
    rows = probs[idx].astype(np.float64)
    pf, pn = rows[:, FINAL_LABELS].sum(axis=1), rows[:, NONFINAL_LABELS].sum(axis=1)
    return np.stack([np.log(pf + EPS) - np.log(pn + EPS), pf, rows[:, 0],
                     np.minimum(n - 1 - idx, 20) / 20, np.minimum(idx + 1, 20) / 20], axis=1)


def indicator_keys(text: str, i: int) -> tuple[str, str, str, str]:
    """The characters around the break after char i: one before, two before, one after, two after."""
    return ("b1=" + text[i], "b2=" + text[max(0, i - 1):i + 1], "a1=" + text[i + 1], "a2=" + text[i + 1:i + 3])


def unit_keys(kind: str, book: str | None) -> tuple[str, str]:
    return ("kind=" + kind, "book=" + str(book))


class FinalPrior:
    """Per book group: {"numeric": [w per NUMERIC], "weights": {key: w}, "bias": b, "threshold": t}."""

    def __init__(self, groups: dict[str, dict], meta: dict | None = None):
        self.groups = groups
        self.meta = meta or {}

    def group(self, book: str | None) -> str | None:
        g = group_of(book)
        return g if g in self.groups else None

    def finals(self, probs: np.ndarray, idx: np.ndarray, text: str, kind: str, book: str | None,
               group: str) -> np.ndarray:
        """Boolean per break in `idx`: sentence-final."""
        g = self.groups[group]
        w = g["weights"]
        z = numeric_features(probs, idx, len(text)) @ np.asarray(g["numeric"], dtype=np.float64)
        get = w.get
        z += g["bias"] + sum(get(k, 0.0) for k in unit_keys(kind, book))
        z += np.array([get(b1, 0.0) + get(b2, 0.0) + get(a1, 0.0) + get(a2, 0.0)
                       for b1, b2, a1, a2 in (indicator_keys(text, i) for i in idx.tolist())])
        return 1 / (1 + np.exp(-z)) >= g["threshold"]

    def save(self, folder: str | Path) -> Path:
        return write_prior(Path(folder) / FILE, "numeric_features", NUMERIC, self.groups, self.meta)

    @classmethod
    def load(cls, folder: str | Path) -> "FinalPrior | None":
        got = read_prior(Path(folder) / FILE, "numeric_features", NUMERIC, "final-prior")
        return cls(*got) if got else None
