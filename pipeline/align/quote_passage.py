"""What every 疏 quotation reader sees of the passage: match lengths, the 注 part, anchoring.

    QuotePassage(passage, notes)      the 經 and 注 units a 疏 follows, (seq, text) each
    .match_lengths(fshu)              the longest stretch of the passage starting / ending at
                                      each character of the (folded) 疏, per kind
    .anchor(shu, start, end, prefer, prev) -> (seq, start, end) | None

Anchoring (measured with the gold spans of the train split, docs/quotations.md): the stretch's
folded text in a unit of the preferred kind (經 before the 疏 turns to the 注 at 注正義曰 /
注釋曰, 注 after it), else in a unit of the other kind; among several occurrences the first (train, gold spans: 96.8 % anchored right so; the first at or after the
previous quotation's target, 95.4 %).
A range 「X至Y」 is X's occurrence and the first Y after it in the same unit.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from pipeline.variants import fold

# where the 疏 turns from the 經 to the 注: 注正義曰 (禮記) / 注釋曰 (周禮), after an optional
# lemma 「注X至Y」 of up to 24 characters
NOTE_PART = re.compile(r"注[^。]{0,24}?(?:正義曰|釋曰)")
SEP = "\x00"
KINDS = ("經", "注")


@dataclass
class Quote:
    shu_start: int  # the quotation in the 疏 text (者 excluded)
    shu_end: int
    target: str  # "經" | "注"
    seq: int  # the unit quoted
    start: int  # span in that unit's text
    end: int
    form: str  # "者" | "至"
    # the reader's probability that this is a quotation of the passage (the span reader's, roughly
    # calibrated on dev: docs/quotations.md "Stop 42"); None from readers that give none
    p: float | None = None


def note_part(shu: str) -> tuple[int, int] | None:
    """(start, end) of the 注正義曰 / 注釋曰 heading where the 疏 turns to the 注, if any."""
    m = NOTE_PART.search(shu)
    return (m.start(), m.end()) if m else None


# in the 注 part, a quotation of the 經 says so: 經云X, 此經X, 經之X, 經中X, 經文X, 經言X (train:
# 494 of the 15,672 gold spans anchor in the wrong kind by the part alone)
_CITES_JING = re.compile(r"經(?:[云之中文言曰]|[^，。]?云)$")


def preferred_kind(shu: str, start: int, note_start: int | None) -> str:
    """經 before the 疏 turns to the 注, 注 after it, unless the 疏 says it quotes the 經."""
    if note_start is None or start < note_start:
        return "經"
    return "經" if _CITES_JING.search(shu[max(0, start - 4) : start]) else "注"


def _occurrences(hay: str, needle: str) -> list[int]:
    out, i = [], hay.find(needle)
    while i != -1:
        out.append(i)
        i = hay.find(needle, i + 1)
    return out


class QuotePassage:
    def __init__(self, passage: list[tuple[int, str]], notes: list[tuple[int, str]], fold=fold,
                 marks: dict[int, dict[int, str]] | None = None):
        """`fold`: the variant view the reader matches in (pipeline.variants.fold or a `folder`);
        `marks`: per unit seq its punctuation (Unit.marks: a break after the k-th character), when
        the segment stage has run — kept with the sorted break positions."""
        self.marks = None if marks is None else {seq: (m, sorted(m)) for seq, m in marks.items()}
        units = [(seq, "經", t) for seq, t in passage] + [(seq, "注", t) for seq, t in notes]
        units.sort(key=lambda u: u[0])
        self.units = [(seq, kind, text, fold(text)) for seq, kind, text in units]
        self.order = {seq: i for i, (seq, *_rest) in enumerate(self.units)}
        self.joined = {k: SEP.join(f for _s, kind, _t, f in self.units if kind == k) for k in KINDS}
        # where each unit starts in its kind's joined text: one str.find there finds the first
        # occurrence in passage order (the anchor), instead of listing every occurrence per unit
        self._starts: dict[str, list[int]] = {}
        self._seqs: dict[str, list[int]] = {}
        for k in KINDS:
            starts, seqs, at = [], [], 0
            for seq, kind, _t, f in self.units:
                if kind == k:
                    starts.append(at)
                    seqs.append(seq)
                    at += len(f) + len(SEP)
            self._starts[k], self._seqs[k] = starts, seqs

    def match_lengths(self, fshu: str) -> dict[str, tuple[list[int], list[int]]]:
        """kind -> (starting, ending): starting[j] = the longest stretch fshu[j:j+k] in a unit of
        that kind; ending[i] = the longest stretch fshu[i-k+1:i+1] in one."""
        out = {}
        n = len(fshu)
        for kind in KINDS:
            hay = self.joined[kind]
            chars = set(hay) - {SEP}
            pairs = {hay[i : i + 2] for i in range(len(hay) - 1)}
            starting = [0] * n
            k = 0
            for j in range(n):
                k = max(k - 1, 0)  # matching statistics: starting[j] >= starting[j-1] - 1
                if k < 2:  # most characters go no further than a set lookup (3x faster)
                    if fshu[j] not in chars:
                        continue
                    if j + 1 == n or fshu[j : j + 2] not in pairs:
                        starting[j] = k = 1
                        continue
                    k = 2
                while j + k < n and fshu[j : j + k + 1] in hay:
                    k += 1
                starting[j] = k
            ending = [0] * n
            j = 0
            for i in range(n):  # the smallest j whose stretch reaches past i (ends never decrease)
                while j <= i and j + starting[j] <= i:
                    j += 1
                ending[i] = i + 1 - j if j <= i else 0
            out[kind] = (starting, ending)
        return out

    def kind_of(self, seq: int) -> str:
        return self.units[self.order[seq]][1]

    def anchor(self, fshu: str, start: int, end: int, prefer: str) -> tuple[int, int, int] | None:
        """(seq, start, end) of the stretch fshu[start:end] in the passage, or None."""
        fx = fshu[start:end]
        if not fx:
            return None
        for kinds in ((prefer,), tuple(k for k in KINDS if k != prefer)):
            best = None
            for k in kinds:
                i = self.joined[k].find(fx)
                if i != -1:
                    u = bisect_right(self._starts[k], i) - 1
                    seq, a = self._seqs[k][u], i - self._starts[k][u]
                    hit = (self.order[seq], a, a + len(fx), seq)
                    best = hit if best is None or hit < best else best
            if best is None and "至" in fx:
                hits = self._ranges(fx, kinds)
                best = min(hits) if hits else None
            if best is not None:
                return best[3], best[1], best[2]
        return None

    def _ranges(self, fx: str, kinds) -> list[tuple[int, int, int, int]]:
        hits = []
        for k in (i for i, ch in enumerate(fx) if ch == "至"):
            x, y = fx[:k], fx[k + 1 :]
            if not x or not y:
                continue
            for seq, kind, _t, f in self.units:
                if kind not in kinds:
                    continue
                for i in _occurrences(f, x):
                    j = f.find(y, i + len(x))
                    if j != -1:
                        hits.append((self.order[seq], i, j + len(y), seq))
        return sorted(set(hits))
