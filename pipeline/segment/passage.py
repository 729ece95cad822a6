"""The passage prior: a 注 is read with the 經 unit printed before it.

A 注 glosses its 經 unit: 「X，Y也」, 「X謂Y」 with X a stretch of the passage. The BiLSTM sees only
the 注, and misses many of the breaks after such a head (the 注 glosses lose their recall there:
docs/glosses.md). The prior re-decides each break of a 注 (the 集釋's notes included) from the
model's break logit and passage-match features (the longest stretch of the passage ending at this
character, starting after it, whether that stretch is a whole word of the passage opened by a
break) by a logistic regression fitted per book group on the train juan
(`zhushu train passage-prior`; pipeline/train/segment/passage.py). On the tune juan it adds about
two points of seg F1 to the 注 of the 注疏 and to the 集釋's notes (docs/segmentation.md); on the
疏, whose passage is quoted in long stretches, it added 0.2 and is not used.

It is a pure function of the unit's text, its kind and book and its passage: batch-invariant like
the model. A model folder carries its own fit in passage_prior.json (the coefficients are tied to
that model's probabilities); without the file, or without a passage, the model decides alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pipeline.segment.data import ZHUSHU_BOOKS, book_id

FILE = "passage_prior.json"
KINDS = frozenset(("注", "note"))  # the prior reads 注 units (and the 集釋's notes), nothing else
MAX_MATCH = 6
FORMULA = frozenset("謂猶者曰也言爲為之")  # a gloss formula may open right after the head
FEATURES = ("logit", "end_len", "start_len", "opened", "closed", "word", "word_logit", "long_end",
            "single_word", "word_formula", "formula")
# the break before a matched stretch counts as a word's opening above this model probability
OPENED_AT = 0.3


# The passage channel (a model's own input, stop 77; bilstm.Tagger's `passage_emb`): per character of a
# 注, the longest stretch of its passage ending at it and starting at it, each capped at CHANNEL_CAP —
# id 1 + (CAP + 1) x end + start; 0 for a character of a unit without a passage (every other kind).
CHANNEL_CAP = 4
PASSAGE_IDS = 1 + (CHANNEL_CAP + 1) ** 2


# The 疏's passage (stop 81): a 疏 comments on every 經 and 注 printed since the 疏 before it, and quotes them
# («云X者»); a model whose channel reads the 疏 (Tagger `passage_kinds`) is given them, joined by SEP (no stretch
# of a text matches across it). Other commentary keeps the base unit right before it (the 注's passage).
SHU = "疏"
SHU_READS = frozenset(("base", "注"))
SEP = "\n"


def commentary_passages(units: list[tuple[str | None, str, object]]) -> list[str | None]:
    """Per unit in print order — (its kind as the model reads it: base, 注, 疏, 音義, note …, or None for
    a unit that is neither base text nor commentary; its text; its scope, a juan: no passage crosses
    one) — its passage: for a 疏 the base and 注 units since the 疏 before it (a 疏 right after a 疏
    reads the same), for other commentary the base unit right before it, for base text None."""
    out: list[str | None] = []
    prev: tuple[str | None, str, object] | None = None
    since: list[str] = []
    shu: str | None = None
    scope = object()
    for kind, text, where in units:
        if where != scope:
            scope, since, shu, prev = where, [], None, None
        if kind == SHU:
            if since:
                shu, since = SEP.join(since), []
            out.append(shu)
        elif kind is None or kind == "base":
            out.append(None)
        else:
            out.append(prev[1] if prev is not None and prev[0] == "base" and prev[1] else None)
        if kind in SHU_READS and text:
            since.append(text)
        prev = (kind, text, where)
    return out


def passage_ids(text: str, passage: str | None) -> list[int]:
    """The passage channel's id of every character of `text` (all 0 without a passage)."""
    if not passage:
        return [0] * len(text)
    end, start = match_lengths(text, _substrings(passage, CHANNEL_CAP), CHANNEL_CAP)
    return [1 + (CHANNEL_CAP + 1) * e + s for e, s in zip(end, start)]


def group_of(book: str | None) -> str:
    """注疏 for the two 注疏 books the model knows by their book embedding; 集釋 for the 集釋 and any
    other text (the fit on the 集釋 is the one for a book the model has not seen)."""
    return "注疏" if book_id(book) in ZHUSHU_BOOKS else "集釋"


def _substrings(passage: str, longest: int) -> set[str]:
    n = len(passage)
    return {passage[i:j] for i in range(n) for j in range(i + 1, min(n, i + longest) + 1)}


def match_lengths(text: str, subs: set[str], cap: int) -> tuple[list[int], list[int]]:
    """Per character of `text`, the longest stretch in `subs` (the passage's substrings, at least `cap`
    long) ending at it and starting at it, each at most `cap`."""
    n = len(text)
    end, start = [], []
    for i in range(n):
        e = 0
        while e < cap and i - e >= 0 and text[i - e:i + 1] in subs:
            e += 1
        end.append(e)
        s = 0
        while s < cap and i + s < n and text[i:i + s + 1] in subs:
            s += 1
        start.append(s)
    return end, start


def features(p_break: np.ndarray, passage: str, text: str) -> np.ndarray:
    """One row of FEATURES per break position after char i, i = 0 .. n-2. `p_break`: the model's
    probability of a break after each char (at least n-1 of them)."""
    n = len(text)
    if n < 2:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    subs = _substrings(passage, MAX_MATCH + 1)  # one longer: `closed` looks one character past a match
    end, start = match_lengths(text, subs, MAX_MATCH)
    eps = 1e-4
    p = np.clip(p_break[: n - 1].astype(np.float64), eps, 1 - eps)
    logit = np.log(p / (1 - p))
    rows = np.zeros((n - 1, len(FEATURES)), dtype=np.float32)
    for i in range(n - 1):
        e, s = int(end[i]), int(start[i + 1])
        st = i - e + 1
        opened = 1.0 if e and (st == 0 or p_break[st - 1] > OPENED_AT) else 0.0
        # a whole word: the matched stretch does not go on over the break in the passage
        closed = 1.0 if e and text[st:i + 2] not in subs else 0.0
        word = opened * closed
        formula = 1.0 if text[i + 1] in FORMULA else 0.0
        rows[i] = (logit[i], min(e, 4) / 4, min(s, 4) / 4, opened, closed, word, word * logit[i],
                   float(e >= 2), float(e == 1) * word, word * formula, float(e > 0) * formula)
    return rows


class PassagePrior:
    """Per book group: {"coef": [...], "intercept": b, "threshold": t}; a break where the
    regression's probability exceeds t."""

    def __init__(self, groups: dict[str, dict], meta: dict | None = None):
        self.groups = groups
        self.meta = meta or {}

    def group(self, kind: str, book: str | None) -> str | None:
        g = group_of(book)
        return g if kind in KINDS and g in self.groups else None

    def breaks(self, probs: np.ndarray, passage: str, text: str, group: str) -> np.ndarray:
        """Boolean over positions 0 .. n-2: a break after that char."""
        g = self.groups[group]
        x = features(1 - probs[:, 0], passage, text)
        z = x.astype(np.float64) @ np.asarray(g["coef"], dtype=np.float64) + g["intercept"]
        return 1 / (1 + np.exp(-z)) > g["threshold"]

    def save(self, folder: str | Path) -> Path:
        return write_prior(Path(folder) / FILE, "features", FEATURES, self.groups, self.meta)

    @classmethod
    def load(cls, folder: str | Path) -> "PassagePrior | None":
        got = read_prior(Path(folder) / FILE, "features", FEATURES, "passage-prior")
        return cls(*got) if got else None


def write_prior(path: Path, key: str, features: tuple[str, ...] | dict, groups: dict, meta: dict) -> Path:
    """A prior's JSON (its feature names under `key`, its groups, its meta): sorted, the same bytes
    from the same fit."""
    from pipeline.atomic import write_text

    body = {key: _names(features), "groups": groups, **meta}
    write_text(path, json.dumps(body, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return path


def read_prior(path: Path, key: str, features: tuple[str, ...] | dict, command: str) -> tuple[dict, dict] | None:
    """(groups, meta) of a prior's JSON, or None where the folder has none; refused when it was
    fitted on other features than this code computes."""
    if not path.exists():
        return None
    cfg = json.loads(path.read_text(encoding="utf-8"))
    if cfg.get(key) != _names(features):
        raise ValueError(f"{path}: fitted on other features than this code computes (refit with `zhushu train {command}`)")
    return cfg["groups"], {k: v for k, v in cfg.items() if k not in (key, "groups")}


def _names(features: tuple[str, ...] | dict) -> list | dict:
    """The feature names as the JSON holds them (a dict of tuples: of lists)."""
    return {k: list(v) for k, v in features.items()} if isinstance(features, dict) else list(features)
