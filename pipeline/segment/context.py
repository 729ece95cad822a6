"""The context prior: two logistic regressions over the model's probabilities and the characters
around each position, fitted on the train juan of a book group (a segmenter folder's
context_prior.json):

- **breaks** — where the model alone decides (the 注疏's 疏, 經 and 小注: every kind but the 注,
  which the passage prior reads, and the 音義, which the reading grammar reads): a break or not;
- **notes** — a break or not in a 注 (or a 集釋 note) given its passage: the passage prior's
  features (segment/passage.py) and the characters around the position, in place of the passage
  prior where the group has it;
- **finals** — at each break, sentence-final or not (else `bilstm.marks_at`'s rule, the final
  marks' summed probability against the folder's final_threshold).

The network sees the characters too, but the 注疏 took part in its training at a 20 % sampling
rate an epoch, and the regression, fitted on every train juan of the book, adds what they say of a
position's neighbourhood (也 before it, 云 / 注 / 釋曰 after it, the unit's kind). A group and a
decision are in the file only where they measured better than the model alone on the group's tune
juan (docs/segmentation.md, "Stop 31"). Fitted by `zhushu train context-prior`
(pipeline/train/segment/context.py); a pure function of the unit, its kind and book:
batch-invariant.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.segment.bilstm import FINAL_LABELS, NONFINAL_LABELS
from pipeline.segment.passage import FEATURES as PASSAGE_FEATURES
from pipeline.segment.passage import features as passage_features
from pipeline.segment.passage import group_of, read_prior, write_prior

FILE = "context_prior.json"
# the numbers of a position the regressions read, besides the characters
NUMERIC = {"breaks": ("logit", "pos_end", "pos_start"),
           "notes": (*PASSAGE_FEATURES, "pos_end", "pos_start"),
           "finals": ("lf", "pf", "pnone", "pos_end", "pos_start")}
SLOTS = ("b1", "b2", "a1", "a2")  # the characters around the break after char i: see slot_keys
# what a fitted file must have been fitted on (checked at load): the numbers and the slots
FEATURES = {**NUMERIC, "slots": SLOTS}
EPS = 1e-6


def numeric_features(decision: str, probs: np.ndarray, idx: np.ndarray, n: int,
                     passage: str | None = None, text: str | None = None) -> np.ndarray:
    """(len(idx), len(NUMERIC[decision])) for the positions after chars `idx` of a unit of n chars.
    breaks: the log-odds of a break; notes: the passage prior's features (of every position:
    `idx` is all of them); finals: the log-odds of a final mark against a non-final one, P(final),
    P(none); each: how near each end of the unit it lies."""
    ends = [np.minimum(n - 1 - idx, 20) / 20, np.minimum(idx + 1, 20) / 20]
    if decision == "notes":
        return np.column_stack([passage_features(1 - probs[:, 0], passage, text).astype(np.float64), *ends])
    rows = probs[idx].astype(np.float64)
    if decision == "breaks":
        pb = 1 - rows[:, 0]
        return np.stack([np.log(pb + EPS) - np.log(rows[:, 0] + EPS), *ends], axis=1)
    pf, pn = rows[:, FINAL_LABELS].sum(axis=1), rows[:, NONFINAL_LABELS].sum(axis=1)
    return np.stack([np.log(pf + EPS) - np.log(pn + EPS), pf, rows[:, 0], *ends], axis=1)


def canonical_kind(kind: str) -> str:
    """The kind as the regressions know it: a 注 and a note are one (the run reads the 集釋's 鄭注
    as a 注, `eval segment` its records as notes; the model and the passage prior read both alike)."""
    return "注" if kind == "note" else kind


def slot_keys(text: str, i: int) -> tuple[str, str, str, str]:
    """The characters around the break after char i, one per SLOTS: one before, two before, one
    after, two after."""
    return text[i], text[max(0, i - 1):i + 1], text[i + 1], text[i + 1:i + 3]


class ContextPrior:
    """{decision: {group: {"numeric": [w per NUMERIC[decision]], "slots": {slot: {chars: w}},
    "kind": {kind: w}, "book": {book: w}, "bias": b, "threshold": t, "books": [...], "kinds": [...]}}};
    decisions: breaks, notes, finals."""

    def __init__(self, groups: dict[str, dict], meta: dict | None = None):
        self.groups = groups  # (by decision, then book group)
        self.meta = meta or {}

    def _group(self, decision: str, book: str | None, kind: str | None = None) -> str | None:
        """The group whose `decision` reads this book (one of the books it was fitted on: the
        characters of one book say little of another's) and kind, or None."""
        g = self.groups.get(decision, {}).get(group_of(book))
        if g is None or book not in g["books"] or (kind is not None and canonical_kind(kind) not in g["kinds"]):
            return None
        return group_of(book)

    def break_group(self, kind: str, book: str | None) -> str | None:
        return self._group("breaks", book, kind)

    def note_group(self, kind: str, book: str | None) -> str | None:
        return self._group("notes", book, kind)

    def final_group(self, book: str | None) -> str | None:
        return self._group("finals", book)

    def _decide(self, decision: str, group: str, probs: np.ndarray, idx: np.ndarray, text: str, kind: str,
                book: str | None, passage: str | None = None) -> np.ndarray:
        """Boolean per position in `idx`: the regression's yes."""
        g = self.groups[decision][group]
        x = numeric_features(decision, probs, idx, len(text), passage, text)
        z = x @ np.asarray(g["numeric"], dtype=np.float64)
        z += g["bias"] + g["kind"].get(canonical_kind(kind), 0.0) + g["book"].get(str(book), 0.0)
        b1, b2, a1, a2 = (g["slots"][s].get for s in SLOTS)
        z += np.array([b1(x, 0.0) + b2(y, 0.0) + a1(u, 0.0) + a2(v, 0.0)
                       for x, y, u, v in (slot_keys(text, i) for i in idx.tolist())])
        return 1 / (1 + np.exp(-z)) >= g["threshold"]

    def _break_positions(self, decision: str, group: str, probs: np.ndarray, text: str, kind: str,
                         book: str | None, passage: str | None = None) -> np.ndarray:
        idx = np.arange(len(text) - 1)
        return idx[self._decide(decision, group, probs, idx, text, kind, book, passage)] if len(idx) else idx

    def breaks(self, probs: np.ndarray, text: str, kind: str, book: str | None, group: str) -> np.ndarray:
        """The positions (chars 0 .. n-2) with a break after them."""
        return self._break_positions("breaks", group, probs, text, kind, book)

    def note_breaks(self, probs: np.ndarray, passage: str, text: str, kind: str, book: str | None,
                    group: str) -> np.ndarray:
        """The positions (chars 0 .. n-2) of a 注 with a break after them, given its passage."""
        return self._break_positions("notes", group, probs, text, kind, book, passage)

    def finals(self, probs: np.ndarray, idx: np.ndarray, text: str, kind: str, book: str | None,
               group: str) -> np.ndarray:
        """Boolean per break in `idx`: sentence-final."""
        return self._decide("finals", group, probs, idx, text, kind, book)

    def save(self, folder: str | Path) -> Path:
        return write_prior(Path(folder) / FILE, "features", FEATURES, self.groups, self.meta)

    @classmethod
    def load(cls, folder: str | Path) -> "ContextPrior | None":
        got = read_prior(Path(folder) / FILE, "features", FEATURES, "context-prior")
        return cls(*got) if got else None
