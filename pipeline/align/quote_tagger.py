"""The learned 疏 quotation reader: a linear-chain CRF (python-crfsuite) over the 疏's characters.

Each character of the 疏 is tagged B / I / O (a quotation's first character, a later one, none)
from the characters around it and from what it shares with the passage the 疏 follows
(QuotePassage.match_lengths): the longest stretch of the 經 / of the 注 starting and ending at
it, the character right after that stretch (者, 也, 謂 …) and right before it (云, 曰, 言 …),
and whether the 疏 has turned to the 注 (注正義曰 / 注釋曰). A tagged stretch is kept when it
anchors in the passage (quote_passage.py). The same function makes the features for training.

Trained on the train split of data/quotes (`zhushu train quotations`, pipeline/train/quotations.py);
the model is models/quotations/model.crfsuite (6.0 MB).
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

from pipeline import paths
from pipeline.align.quote_passage import Quote, QuotePassage, note_part, preferred_kind
from pipeline.variants import fold

MODEL_PATH = paths.QUOTATIONS_MODEL
BOS, EOS = "^", "$"


# quotation lengths in train: 1 (7 %), 2-3 (20 %), 4-6 (37 %), 7-9 (20 %), 10+ (16 %)
_BUCKET = ("0", "1", "2", "3", "4-6", "4-6", "4-6", "7-9", "7-9", "7-9", "10+")


def char_features(shu: str, qp: QuotePassage) -> list[list[str]]:
    """Feature strings for each character of one 疏 unit (built column by column: the 疏 of a
    whole book is ~1.5 M characters, and this is the reader's main cost)."""
    f = fold(shu)
    n = len(f)
    np_ = note_part(shu)
    note_start, note_end = (np_ if np_ else (n, n))
    ml = qp.match_lengths(f)
    pad = BOS * 3 + f + EOS * 3
    rng = range(n)
    part = ["j" if i < note_start else ("h" if i < note_end else "z") for i in rng]
    cols = [
        ["c=" + pad[i + 3] for i in rng], ["p=" + pad[i + 2] for i in rng], ["n=" + pad[i + 4] for i in rng],
        ["pp=" + pad[i + 1] for i in rng], ["nn=" + pad[i + 5] for i in rng],
        ["pc=" + pad[i + 2 : i + 4] for i in rng], ["cn=" + pad[i + 3 : i + 5] for i in rng],
        ["part=" + p for p in part],
    ]
    for kind, (starting, ending) in ml.items():
        bs = [_BUCKET[x if x < 10 else 10] for x in starting]
        be = [_BUCKET[x if x < 10 else 10] for x in ending]
        # the character that ends the stretch starting here / the one before the stretch ending here
        after = [pad[i + 3 + x] if x else "-" for i, x in enumerate(starting)]
        before = [pad[i + 3 - x] if x else "-" for i, x in enumerate(ending)]
        cols += [
            [f"{kind}s={x}" for x in bs], [f"{kind}e={x}" for x in be],
            [f"{kind}a={x}" for x in after], [f"{kind}b={x}" for x in before],
            [f"{kind}as={x}{y}" for x, y in zip(after, bs)], [f"{kind}be={x}{y}" for x, y in zip(before, be)],
            [f"{kind}ps={x}{y}" for x, y in zip(part, bs)],
        ]
    return [["b", *row] for row in zip(*cols)]


def to_bio(n: int, spans) -> list[str]:
    tags = ["O"] * n
    for s, e in spans:
        tags[s] = "B"
        for k in range(s + 1, e):
            tags[k] = "I"
    return tags


def from_bio(tags: list[str]) -> list[tuple[int, int]]:
    spans, start = [], None
    for i, t in enumerate(tags + ["O"]):
        if t != "I" and start is not None:
            spans.append((start, i))
            start = None
        if t == "B" or (t == "I" and start is None):
            start = i
    return spans


class QuoteTagger:
    def __init__(self, path: Path):
        import pycrfsuite

        if not path.exists():
            raise FileNotFoundError(f"no quotation tagger at {path} (rebuild: `zhushu train quotations`)")
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open(str(path))
        self._lock = threading.Lock()  # a crfsuite Tagger is not thread-safe

    def spans(self, shu: str, qp: QuotePassage) -> list[tuple[int, int]]:
        if not shu:
            return []
        feats = char_features(shu, qp)
        with self._lock:
            tags = self._tagger.tag(feats)
        return from_bio(tags)


@functools.lru_cache(maxsize=1)
def load_tagger(path: str | None = None) -> QuoteTagger:
    return QuoteTagger(Path(path) if path else MODEL_PATH)


def tagged_quotations(shu: str, passage, notes, tagger: QuoteTagger | None = None):
    """The anchored quotations of one 疏 unit as the tagger reads them."""
    if not passage and not notes:  # nothing to quote: no stretch could anchor
        return []
    qp = QuotePassage(passage, notes)
    f = fold(shu)
    np_ = note_part(shu)
    out = []
    for s, e in (tagger or load_tagger()).spans(shu, qp):
        hit = qp.anchor(f, s, e, preferred_kind(shu, s, np_[0] if np_ else None))
        if hit is None:
            continue
        seq, a, b = hit
        out.append(Quote(s, e, qp.kind_of(seq), seq, a, b, "至" if b - a != e - s else "者"))
    return out
