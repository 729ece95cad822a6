"""Where the 經 resumes inside a 注 of the 注疏 layout, found from a plain 經 text.

The print marks the start of a 注 (`注`) and the start of a small note, but not the end of a
注: when Zheng's note runs straight into the next 經 passage (`…傷知直而勿有注直正也…`),
the marker-only reading keeps `直而勿有` in the 注, and the `注` after it as text. A plain
text of the 經 (the TLS editions KR1d0001 周禮, KR1d0052 禮記) settles it: walking the juan
with a pointer into that text, the 經 that should come next is looked for at the end of the
注 before an inner `注` (or before the small note that closes the unit). Matching compares
variant-folded characters (`pipeline.variants.fold`, one character to one; 閒 and 間 as one, `fold` here).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from pipeline.ingest.sbck import parse_sbck
from pipeline.ingest.source import split_lines
from pipeline.model import Document, Unit
from pipeline.variants import fold as _variant_fold

ZHU = "注"
PARAGRAPH = "○"  # the print's paragraph mark: in the 儀禮注疏 it opens each 經 paragraph
GRAM = 4  # a base unit is located by its 4-grams (3-grams recur too often)
MIN_RESUMED = 3  # the shortest 經 accepted at the end of a 注 (2 characters: many chance hits) …
MIN_RESUMED_AT_MARKER = 2  # … but for one closed by an inner 注 marker and standing at the pointer itself
MISMATCH_EVERY = 10  # one edit in 10: exact matching found 0.953 of the TLS 禮記 經, one mismatch in 10 0.978 (docs/ingest.md)
SLACK = 6  # the plain text may carry a few characters the print lacks (headings, variants)
# … and, for a stretch an inner 注 marker closes, up to WIDE characters ahead, if MIN_WIDE long or more: the
# pointer falls behind a 經 the plain text does not read as printed (儀禮 燕禮 「主人卒洗賓揖乃升」, the SBCK
# without 乃), and the next one stood out of its reach, with every 經 after it in that 注 (stop 62)
WIDE, MIN_WIDE = 40, 6
# … and, failing that, anywhere in the plain text if MIN_FAR long or more, as the two editions agree: 儀禮注疏 juan 6, 7, 14 (stop
# 74) left 「致命曰寡君使某有不腆之酒…」, 「主人卒洗賓揖乃升」, 「有乾肉折俎二尹縮祭半尹在西塾」 inside 注 — word for word in the SBCK, where
# the pointer stood thousands of characters off (the two editions order the 記 and some paragraphs differently); the 禮記 中庸's
# 「獲乎上有道…」 likewise. An inner 注 marker after eight characters of the 經 is no chance hit
MIN_FAR = 8


# Two prints of one 經 write 閒 and 間 for "between" (儀禮注疏 「以辯擩于醢上豆之閒祭」, 「尸進二手受于手閒」; the SBCK and the 集釋 間):
# the variant fold keeps them apart (閒 is also 閑 "leisure", a word the glosses must not confuse), but where two prints of
# the same passage are compared they are one character (stop 75)
@functools.lru_cache(maxsize=1)
def _same_in_two_prints() -> dict[int, str]:
    return str.maketrans({_variant_fold("間"): _variant_fold("閒")})  # (built on first use: the variant table is read then, not on import)


def fold(text: str) -> str:
    """The variant fold, and 間 as 閒: how the 經 of two prints is compared here (one character to one)."""
    return _variant_fold(text).translate(_same_in_two_prints())


_SBCK_RE = re.compile(r"(?m)^#\+PROPERTY:\s*(?:BASEEDITION|WITNESS)\s+SBCK\b")
_TLS_MARKUP_RE = re.compile(r"(?m)^#.*$|^\*+ .*$|<pb:[^>]*>|[\d.]+|[^\u3400-\u9fff\U00020000-\U0003ffff]")


class BaseText:
    """A plain 經 text, folded, with an index of its 4-grams."""

    def __init__(self, text: str):
        self.text = fold(text)
        self.index: dict[str, list[int]] = {}
        for i in range(len(self.text) - GRAM + 1):
            self.index.setdefault(self.text[i : i + GRAM], []).append(i)

    @classmethod
    def from_files(cls, paths: list[Path]) -> BaseText:
        """A mandoku edition without its markup, headings, numbering or punctuation; of an
        edition with its commentary inline (SBCK, `(a/b)` notes: the 儀禮 鄭注 KR1d0026), the
        base units alone."""
        return cls("".join(_plain_jing(Path(p)) for p in sorted(paths)))

    def locate(self, text: str, near: int) -> int | None:
        """Where a base unit's text starts in the plain text: the occurrence its 4-grams agree on,
        nearest `near` (stop 40; before, the first 4-gram found placed it, and a formula that recurs
        in the book could take the pointer to its later occurrence)."""
        folded = fold(text.replace(PARAGRAPH, ""))  # the plain text has no paragraph marks
        votes: dict[int, int] = {}
        for k in range(len(folded) - GRAM + 1):
            for p in self.index.get(folded[k : k + GRAM], ()):
                votes[p - k] = votes.get(p - k, 0) + 1
        if not votes:
            return None
        # the start most of the unit's 4-grams agree on (a formula recurring in the book matches its
        # first gram at several places; a variant spoils only the grams it stands in); among equals
        # the nearest ahead of `near` — the 經 comes in the same order in both editions, and a unit
        # may start a few characters early (the print's ○, a heading the plain text lacks) —, one
        # behind it only where nothing lies ahead
        best = max(votes.values())
        return max(0, min((p for p, v in votes.items() if v == best),
                          key=lambda p: (abs(p - near), p < near) if p >= near - SLACK else (4 * (near - p) + 10_000, True)))

    def follow(self, text: str, at: int) -> int | None:
        """The end in the plain text of a 經 unit too short for `locate` (under 4 characters but its
        paragraph mark): its folded text found verbatim within SLACK of the pointer; None if not. Left
        where it was, the pointer fell behind the 經 due next (儀禮注疏 juan 9: 「不授几」「無阼席」, then
        「亨于門外東方」 inside the next 注 was not found)."""
        piece = fold(text.replace(PARAGRAPH, ""))
        if len(piece) < 2:
            return None
        k = self.text.find(piece, max(0, at - SLACK), at + SLACK + len(piece))
        return None if k < 0 else k + len(piece)

    def resumed(self, folded: str, lo: int, j: int, at: int) -> tuple[int, int] | None:
        """The longest `folded[cut:j]` (≥ MIN_RESUMED characters, cut > lo; two where an inner 注
        marker closes it and it stands at `at` itself) that is the 經 due at `at`: (cut, end of it in
        the plain text).

        The two editions differ in a character now and then (a variant the folding does not
        know: 隂/陰, 冡/冢; a character one of them lacks): as `agrees` allows.
        """
        # closed by an inner 注 marker, the stretch before it is 經 for sure: the plain text may lie further
        # ahead there (a 經 the pointer could not place fell behind it)
        reach = WIDE if j < len(folded) else SLACK
        for start in range(at, at + reach):
            head = self.text[start : start + 2]
            cut = folded.find(head, lo + 1, j)
            shortest = MIN_RESUMED if start < at + SLACK else MIN_WIDE
            while 0 <= cut <= j - shortest:
                end = self.agrees(folded[cut:j], start)
                if end is not None:
                    return cut, end
                cut = folded.find(head, cut + 1, j)
        if j < len(folded) and j - lo > MIN_FAR:
            for p in self.index.get(folded[j - GRAM : j], ()):  # every place of the stretch's last 4-gram
                for cut in range(lo + 1, j - MIN_FAR + 1):  # the longest stretch that agrees, ending there
                    end = self.agrees(folded[cut:j], p + GRAM - (j - cut))
                    if end is not None:
                        return cut, end
        # a 經 of two characters (賓出, 公辭, 奏陔, 范金) closed by the next 注 marker: only the plain
        # text's very next characters; at the unit's end, where no marker follows, the 注's own last two
        # characters are too often the 經's next (「將酢主人」 before 「主人降」: stop 50)
        n = MIN_RESUMED_AT_MARKER
        if j < len(folded) and j - n > lo and folded[j - n : j] == self.text[at : at + n]:
            return j - n, at + n
        return None

    def agrees(self, piece: str, start: int) -> int | None:
        """The end in the plain text of `piece` read there from `start`, the two editions agreeing
        to one edit in every MISMATCH_EVERY characters — a character changed, or one the other
        edition lacks or adds (禮記 曲禮上: the WYG's 「前有車騎則載飛鴻」 is the TLS's 則載鴻, stop 62) —
        with the first two and the last two characters the same; None where they do not."""
        allowed = len(piece) // MISMATCH_EVERY
        other = self.text[start : start + len(piece)]
        if len(other) == len(piece) and other[:2] == piece[:2] and other[-2:] == piece[-2:] \
                and sum(a != b for a, b in zip(piece, other)) <= allowed:
            return start + len(piece)
        # a character one edition lacks: only inside a stretch whose first and last GRAM characters
        # agree (a 注 ending in the 經's own words — 「酬主人訖」 before 「主人西階上酬介」 — would pass
        # for the 經 with one character dropped)
        for n in range(len(piece) - allowed, len(piece) + allowed + 1):
            other = self.text[start : start + n]
            if n != len(piece) and len(other) == n and other[:GRAM] == piece[:GRAM] and other[-GRAM:] == piece[-GRAM:] \
                    and Levenshtein.distance(piece, other, score_cutoff=allowed) <= allowed:
                return start + n
        return None


def _plain_jing(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if _SBCK_RE.search(text):
        units, _notes = parse_sbck(split_lines(str(path), text))
        return "".join(u.text for u in units if u.kind == "base")
    return _TLS_MARKUP_RE.sub("", text)


# a 注疏 juan's 經 is found in a plain text when this share of its 4-grams (folded) stands there: every
# juan of the four 注疏 against the five embedded texts, its own book's 0.731–1.000, another's ≤ 0.114
FOUND_SHARE = 0.5
MIN_GRAMS = 20  # fewer distinct 4-grams of 經 (a front-matter juan) decide nothing


def find_base_text(units: list[Unit], candidates) -> tuple[Path, float] | None:
    """The candidate plain text holding FOUND_SHARE or more of the 經 units' 4-grams (the best such),
    with its share; None when none does or the 經 is too short to tell."""
    jing = "".join(fold(u.text) for u in units if u.kind == "base")
    grams = {jing[i : i + GRAM] for i in range(len(jing) - GRAM + 1)}
    if len(grams) < MIN_GRAMS or not candidates:
        return None
    shares = []
    for path in candidates:
        index = load_base_text(str(path)).index
        shares.append((sum(g in index for g in grams) / len(grams), str(path)))
    share, path = max(shares)
    return (Path(path), share) if share >= FOUND_SHARE else None


@functools.lru_cache(maxsize=8)  # the embedded texts (paths.JING_TEXTS: 5) and a user's
def load_base_text(path: str) -> BaseText:
    """A plain 經 text from one file or every .txt file of a folder (cached: one per book)."""
    p = Path(path)
    return BaseText.from_files(sorted(p.glob("*.txt")) if p.is_dir() else [p])


def resume_base(doc: Document, base: BaseText) -> int:
    """Split each 注 unit where the 經 resumes inside it; returns how many 經 were found."""
    out: list[Unit] = []
    at, found = 0, 0
    base_from = 0  # where the last 經 unit starts in the plain text (or the pointer before it, if not found)
    for unit in doc.units:
        if unit.kind == "base":
            start = base.locate(unit.text, at)
            base_from = at if start is None else start
            if start is not None:
                # counted without the print's ○, which the plain text lacks: each one set the pointer a
                # character past the 經 due next, and a 經 resuming in the next 注 lost its first characters
                # (儀禮注疏 juan 17: 「…○洗致爵于主人」, then 「主人席上拜受爵」 read from 席)
                at = start + len(unit.text.replace(PARAGRAPH, ""))
            else:  # too short for a 4-gram (無阼席, ○不授几): found verbatim beside the pointer, it moves it
                at = base.follow(unit.text, at) or at
            out.append(unit)
        elif unit.kind == "commentary" and unit.marker == ZHU:
            if out and out[-1].kind == "base" and out[-1].seq == unit.seq - 1:
                verb = _zhu_in_the_jing(out[-1], unit, base, base_from, doc.source)
                if verb is not None:  # the 注 "marker" was the 經's own word: 經 and marker joined
                    out[-1], unit, at = verb
                    found += 1
                    if unit is None:
                        continue
            pieces, at = _split_zhu(unit, base, at)
            found += sum(p.kind == "base" for p in pieces)
            out += pieces
        else:
            out.append(unit)
    _renumber(doc, out)
    return found


def _zhu_in_the_jing(jing: Unit, zhu: Unit, base: BaseText, near: int,
                    source: str) -> tuple[Unit, Unit | None, int] | None:
    """Where the print's `注` right after a 經 is a word of that 經 (周禮 「令禽注于虞中」, 「以注鳴者」,
    「輈注則利準」, 儀禮 「以挹湇注于疏匕」: the marker-only reading cut each 經 at it, and the pointer,
    due at 注, found only the rest), the 經 with the marker and the text up to the unit's next 注 (or
    its end), and what is left of the unit after that 注, when the plain text reads all of it — the
    two editions agreeing as `BaseText.agrees` allows, the 注 itself exactly — within SLACK of where
    the 經 starts; the pointer after it. None otherwise."""
    if source[zhu.start : zhu.start + 1] != ZHU:  # the marker as printed (not a 注 opened otherwise)
        return None
    j = zhu.text.find(ZHU)
    j = len(zhu.text) if j < 0 else j
    head = jing.text.replace(PARAGRAPH, "")
    piece = fold(head + ZHU + zhu.text[:j])
    if j in (0, len(zhu.text) - 1) or len(piece) < GRAM:
        return None  # (a next 注 that ends the unit would open an empty 注: left as printed)
    for start in range(max(0, near - SLACK), near + SLACK + 1):
        at = base.agrees(piece, start) if base.text[start + len(head) : start + len(head) + 1] == fold(ZHU) else None
        if at is not None:
            break
    else:
        return None
    end = zhu.offsets[j] if j < len(zhu.text) else zhu.end  # in the source: where the unit's next 注 stands
    joined = Unit(seq=jing.seq, kind="base", marker=None, text=jing.text + ZHU + zhu.text[:j], start=jing.start,
                  end=end, offsets=jing.offsets + [zhu.start] + zhu.offsets[:j])
    rest = None if j == len(zhu.text) else _piece(zhu, "commentary", ZHU, j + 1, len(zhu.text), end, zhu.end)
    return joined, rest, at


def _renumber(doc: Document, units: list[Unit]) -> None:
    """The document's units are these now, numbered in order."""
    for seq, unit in enumerate(units):
        unit.seq = seq
    doc.units = units


def _split_zhu(unit: Unit, base: BaseText, at: int) -> tuple[list[Unit], int]:
    """The 注 cut into 注 / 經 / 注 … pieces at each resumed 經 (an inner 注 is its marker)."""
    folded = fold(unit.text)
    ends = [j for j, ch in enumerate(unit.text) if ch == ZHU and j > 0] + [len(unit.text)]
    pieces: list[Unit] = []
    lo, extent_start, marker = 0, unit.start, unit.marker
    for j in ends:
        hit = base.resumed(folded, lo, j, at)
        if hit is None:
            continue
        cut, at = hit
        if cut - 1 > lo and unit.text[cut - 1] == PARAGRAPH:  # the print's paragraph mark opens the 經
            cut -= 1
        pieces.append(_piece(unit, "commentary", marker, lo, cut, extent_start, unit.offsets[cut]))
        end = unit.offsets[j] if j < len(unit.text) else unit.end
        pieces.append(_piece(unit, "base", None, cut, j, unit.offsets[cut], end))
        lo, extent_start, marker = j + 1, end, ZHU
        if j == len(unit.text):
            return pieces, at
    pieces.append(_piece(unit, "commentary", marker, lo, len(unit.text), extent_start, unit.end))
    return pieces, at


def split_paragraphs(doc: Document) -> int:
    """Split each 注 unit where the print opens a 經 paragraph inside it: a ○ followed, later in
    the unit, by a 注 marker — the stretch from the ○ to that marker is 經 (`○司宮取爵于篚…注房東…`).
    Only the 儀禮注疏 prints so (the 周禮 and 禮記 注疏 have no ○ in a 注); there the plain text
    (the SBCK 儀禮, another edition) missed 26 such 經 on its train juan, all 經 by hand, and
    without a plain text it is the only cue there is (docs/ingest.md, stop 48). Returns how many."""
    out = [piece for unit in doc.units for piece in
           (_split_at_paragraphs(unit) if unit.kind == "commentary" and unit.marker == ZHU and PARAGRAPH in unit.text[1:]
            else [unit])]
    found = sum(p.kind == "base" for p in out) - sum(u.kind == "base" for u in doc.units)
    _renumber(doc, out)
    return found


def _split_at_paragraphs(unit: Unit) -> list[Unit]:
    text, pieces = unit.text, []
    lo, extent_start, marker = 0, unit.start, unit.marker
    c = text.find(PARAGRAPH, 1)
    while c > lo:
        j = text.find(ZHU, c + 1)
        if j < 0 or j >= len(text) - 1:  # no 注 after it (or nothing after that 注): not a 經 we can close
            break
        pieces.append(_piece(unit, "commentary", marker, lo, c, extent_start, unit.offsets[c]))
        pieces.append(_piece(unit, "base", None, c, j, unit.offsets[c], unit.offsets[j]))
        lo, extent_start, marker = j + 1, unit.offsets[j], ZHU
        c = text.find(PARAGRAPH, lo + 1)
    if not pieces:
        return [unit]
    pieces.append(_piece(unit, "commentary", marker, lo, len(text), extent_start, unit.end))
    return pieces


def _piece(unit: Unit, kind: str, marker: str | None, a: int, b: int, start: int, end: int) -> Unit:
    return Unit(seq=unit.seq, kind=kind, marker=marker, text=unit.text[a:b], start=start, end=end,
                offsets=unit.offsets[a:b])


def unsplit_jing(path: str, source: str, units: list[Unit], book: str) -> list[str]:
    """A warning for a 注疏 juan read without a plain 經 text whose 注 hold a later 注 marker: the
    經 before each such marker ran on in the 注 and stays commentary (read so, the 禮記注疏 loses
    0.17 of its 經, the 儀禮注疏 0.11, the 周禮注疏 0.01; docs/ingest.md). Silent before stop 48, when
    every 注疏 but the three whose ID names a plain text was read so (`zhushu run` had no --base-text)."""
    held = [u for u in units if u.kind == "commentary" and u.marker == ZHU and ZHU in u.text[1:]]
    if not held:
        return []
    first = held[0]
    at = first.text.index(ZHU, 1)
    line = source.count("\n", 0, first.offsets[at]) + 1
    count = sum(u.text[1:].count(ZHU) for u in held)
    return [f"{path}:{line}: no plain text of the 經 of {book or 'this book'}: the 經 that runs on inside a 注 "
            f"stays in it ({count} 注 marker(s) inside a 注, the first in …{first.text[max(1, at - 12):at + 4]}…); "
            "--base-text names a plain 經 text (a Kanripo edition of the 經, file or folder)"]
