"""The phrase memory: marks the editions gave a stretch of text the segmenter has seen before.

The 注疏 repeat themselves: a 注 quotes the 經 of another chapter, a 疏 quotes a 注 of another
juan, Zheng's formulas come back, and the 經 of the 周禮 and 禮記 stand punctuated in the TLS
editions (data/extra). Where a stretch of N characters (variant-folded as the outside prose is,
OpenCC t2s one character at a time) stands in the training text with one pattern of breaks
everywhere it occurs, the edition's breaks inside it are the best guess at the breaks inside the
same stretch here: a memory of exact phrases, not a model of them. On the tune juan (the memory
built without them) it adds 2–4 points of seg F1 to the 注 and about 1 to the 注疏 as a whole
(docs/segmentation.md, "Stop 34").

Two memories: `all` (every training text: 經, 注, 疏, 小注, the 集釋's base and notes, the TLS 經)
is read by commentary; `base` (the classics' own punctuated editions only, the TLS 周禮 and 禮記)
by base text — a 經 is punctuated from an edition of that 經, not from another book's quotation
of it, whose conventions differ (the 儀禮 stretches the 注疏 quote, marked otherwise than the
集釋's own edition, cost as much as they gave on the 集釋's base).

A position gets the memory's decision only when every remembered stretch covering it agrees; a
stretch that occurred with two patterns (break classes none / mid / final) decides nothing. A
pure function of the unit's text and kind: batch-invariant. The memory file (`phrases.txt.gz`)
holds the training texts themselves, folded and with their marks inline, one per line; the
index (sorted 64-bit rolling hashes of every N-character window) is built when it is loaded
(about a second). Built by `zhushu train segment-memory` (pipeline/train/segment/memory.py).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from pipeline.model import SENTENCE_FINAL

CONFIG = "memory.json"
MARKS = "，、：；。？！"
_MARK_CODE = {m: i + 1 for i, m in enumerate(MARKS)}
_PRIME = np.uint64(1_000_003)
AMBIGUOUS = np.uint32(0xFFFFFFFF)
BUCKET_BITS = 20  # the lookup's first-level index: 2**20 buckets for ~1.2 M windows
# the kinds a memory reads: commentary from `all`, base text from `base`; 音義 notes have their grammar
KIND_MEMORY = {"注": "all", "疏": "all", "小注": "all", "note": "all", "base": "base"}


def _cls(code: np.ndarray) -> np.ndarray:
    """Break class of a mark code: 0 none, 1 a mid-sentence mark, 2 sentence-final."""
    out = (code > 0).astype(np.int64)
    for m in SENTENCE_FINAL:
        if m in _MARK_CODE:
            out[code == _MARK_CODE[m]] = 2
    return out


def _window_hashes(codes: np.ndarray, n: int) -> np.ndarray:
    """The rolling hash of every window codes[i:i+n], i = 0 .. len-n (uint64, wrapping)."""
    m = len(codes) - n + 1
    h = np.zeros(m, dtype=np.uint64)
    for j in range(n):
        h = h * _PRIME + codes[j:j + m]
    # MurmurHash3's finaliser: the polynomial leaves the top bits (the lookup's buckets) uneven
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return h


class _Index:
    """Sorted window hashes with, per window, its interior marks packed 3 bits a position
    (AMBIGUOUS where the window occurred with two break patterns)."""

    def __init__(self, lines: list[str], n: int):
        self.n = n
        self.hashes = np.zeros(0, dtype=np.uint64)
        self.packed = np.zeros(0, dtype=np.uint32)
        self._bucket_index()
        # every line at once: its characters' code points, a 0 between lines (no window crosses
        # it), and per character the code of the mark printed after it
        raw = np.frombuffer("\n".join(lines).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        is_mark = np.zeros(len(raw), dtype=bool)
        mark_code = np.zeros(len(raw), dtype=np.int64)
        for m, code in _MARK_CODE.items():
            hit = raw == ord(m)
            is_mark |= hit
            mark_code[hit] = code
        raw[raw == ord("\n")] = 0
        owner = np.cumsum(~is_mark) - 1  # the character a mark follows (its index among characters)
        c = raw[~is_mark]
        mk = np.zeros(len(c), dtype=np.int64)
        at = np.nonzero(is_mark & (owner >= 0))[0]
        mk[owner[at]] = mark_code[at]  # (two marks in a row: the last)
        mk[c == 0] = 0
        if len(c) < n:
            return
        h = _window_hashes(c, n)
        m = len(h)
        valid = np.ones(m, dtype=bool)
        for j in range(n):
            valid &= c[j:j + m] != 0
        packed = np.zeros(m, dtype=np.int64)
        cls = np.zeros(m, dtype=np.int64)
        for j in range(n - 1):  # interior positions: the marks after the window's chars 0 .. n-2
            packed |= mk[j:j + m] << (3 * j)
            cls = cls * 3 + _cls(mk[j:j + m])
        h, packed, cls = h[valid], packed[valid], cls[valid]
        if not len(h):
            return
        order = np.argsort(h, kind="stable")  # by hash, then first occurrence first
        h, packed, cls = h[order], packed[order], cls[order]
        first = np.ones(len(h), dtype=bool)
        first[1:] = h[1:] != h[:-1]
        starts = np.nonzero(first)[0]
        lo = np.minimum.reduceat(cls, starts)
        hi = np.maximum.reduceat(cls, starts)
        out = packed[starts].astype(np.uint32)
        out[lo != hi] = AMBIGUOUS
        self.hashes = h[starts]
        self.packed = out
        self._bucket_index()

    def _bucket_index(self) -> None:
        """Where each bucket of the top BUCKET_BITS bits of the (sorted) hashes begins: a lookup
        reads its bucket (about one hash) instead of a binary search over the whole table."""
        top = (self.hashes >> np.uint64(64 - BUCKET_BITS)).astype(np.int64)
        self.bucket = np.searchsorted(top, np.arange((1 << BUCKET_BITS) + 1), side="left")

    def lookup(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Window starts of `codes` found unambiguously in the index, and their packed marks."""
        if len(codes) < self.n or not len(self.hashes):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint32)
        h = _window_hashes(codes, self.n)
        b = (h >> np.uint64(64 - BUCKET_BITS)).astype(np.int64)
        first, end = self.bucket[b], self.bucket[b + 1]
        pos = np.full(len(h), -1, dtype=np.int64)
        last = len(self.hashes) - 1
        for step in range(int((end - first).max())):  # a bucket holds about one hash, a few at most
            at = np.minimum(first + step, last)
            found = (first + step < end) & (self.hashes[at] == h)
            pos[found] = at[found]
        starts = np.nonzero(pos >= 0)[0]
        packed = self.packed[pos[starts]]
        keep = packed != AMBIGUOUS
        return starts[keep], packed[keep]


class PhraseMemory:
    def __init__(self, lines_all: list[str], lines_base: list[str], n: int, fold: str | None):
        if not 2 <= n <= 10:  # n - 1 interior marks, 3 bits each, packed in 32 bits
            raise ValueError(f"phrase memory: window of {n} characters (2 .. 10)")
        self.n = n
        self.indexes = {"all": _Index(lines_all, n), "base": _Index(lines_base, n)}
        if fold:
            from pipeline.variants import CharFold

            self.fold = CharFold(fold)
        else:
            self.fold = None

    @classmethod
    def load(cls, folder: Path, cfg: dict | None = None) -> PhraseMemory | None:
        """The memory a segmenter folder's config.json names ("memory": a folder relative to it),
        or None."""
        if cfg is None:
            f = folder / "config.json"
            cfg = json.loads(f.read_text(encoding="utf-8")) if f.exists() else {}
        rel = cfg.get("memory")
        if not rel:
            return None
        mdir = (folder / rel).resolve()
        mcfg = json.loads((mdir / CONFIG).read_text(encoding="utf-8"))
        with gzip.open(mdir / mcfg["file"], "rt", encoding="utf-8") as fh:
            rows = [line.rstrip("\n").split("\t", 1) for line in fh]
        lines_all = [text for _src, text in rows]
        lines_base = [text for src, text in rows if src in mcfg["base_sources"]]
        return cls(lines_all, lines_base, int(mcfg["n"]), mcfg.get("fold"))

    def decisions(self, text: str, kind: str) -> dict[int, str | None]:
        """{k: mark or None (no break)} for the positions 1 .. len-1 the memory decides."""
        which = KIND_MEMORY.get(kind)
        if which is None or len(text) < self.n:
            return {}
        t = self.fold(text) if self.fold else text
        codes = np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        starts, packed = self.indexes[which].lookup(codes)
        if not len(starts):
            return {}
        n1 = self.n - 1
        # per position k and window offset j: the class / mark code the window starting at k-j-1
        # remembers there (-1: no such window)
        cls = np.full((len(t) + 1, n1), -1, dtype=np.int64)
        code = np.zeros((len(t) + 1, n1), dtype=np.int64)
        for j in range(n1):
            c = ((packed >> np.uint32(3 * j)) & np.uint32(7)).astype(np.int64)
            k = starts + j + 1
            code[k, j] = c
            cls[k, j] = _cls(c)
        hi = cls.max(axis=1)
        lo = np.where(cls >= 0, cls, 3).min(axis=1)
        # the mark itself: the first window's (by offset) that prints one (they agree on its class)
        has = code > 0
        mark = code[np.arange(len(code)), has.argmax(axis=1)]
        out: dict[int, str | None] = {}
        for k in np.nonzero((hi >= 0) & (lo == hi))[0].tolist():
            out[k] = MARKS[mark[k] - 1] if lo[k] > 0 else None
        return out

    def apply(self, text: str, kind: str, marks: dict[int, str]) -> dict[int, str]:
        """`marks` with the memory's decisions laid over them: a break it remembers is added (with
        the remembered mark, unless the marks already break there in the same class), one it
        remembers absent is removed."""
        dec = self.decisions(text, kind)
        if not dec:
            return marks
        out = dict(marks)
        for k, m in dec.items():
            if m is None:
                out.pop(k, None)
            elif k not in out or (out[k] in SENTENCE_FINAL) != (m in SENTENCE_FINAL):
                out[k] = m
        return {k: out[k] for k in sorted(out)}
