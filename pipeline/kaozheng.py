"""A 注疏 juan's 考證 (report units: the Qing editors' collation report), cut into the pieces its entries are made of.
Core: the segment stage punctuates the pieces, the align stage links the editors' statements to the body.

Each entry of a 考證 is a lemma, then ○ and the editors' words on it:

    乃經土地而井牧其田野注甸之言乘也讀如𠂻甸之甸○臣浩按朱子曰甸乘古人原是一音…

The lemma quotes the juan's own text: a stretch of the 經, then (after 注, 疏, 注疏 or 音義) a stretch of
that layer; 又 or a bare marker opens a lemma from the same passage. One model reading of the whole
entry would read the quotation markers and ○ as words, so an entry is cut into its pieces
(`report_pieces`): a lemma piece found verbatim in the juan's body takes the marks the body got there
(what a scholar reads it as, the same breaks in both places), one the body does not hold (a
range 「X至Y」, the corrected reading) is read as its layer; the editors' words after each ○ are
read as a 疏 (COMMENT_KIND), an editor's signature (臣召南按) set off by ：. No mark is put at the end
of a lemma piece (the marker or ○ that follows sets it off, as printed).

The editors' statements about a word of the lemma (`statements`: 朝當作祭, 卿監本訛鄉, 監本脫X字) are read here too: the
segment stage keeps each one a clause, the align stage makes each a gloss anchored on that word (align/collation.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from pipeline.people import LAYERS  # the markers of a 注疏's commentary units

# A lemma's layer markers, longest first: 注疏 (the 疏 on the 注) before 注.
LEMMA_MARKERS = (("注疏", "疏"), ("注䟽", "疏"), ("音義", "音義"), ("注", "注"), ("疏", "疏"), ("䟽", "疏"))  # 䟽: the print's 疏
LEMMA_OPENERS = ("又",)  # 又疏…: a further lemma from the same passage
OPENED_LAYERS = ("base", "注", "疏", "音義")  # what a 又 without a marker may quote, in order of preference on a tie
SEPARATOR = "○"
SIGNATURE = re.compile(r"臣[^\W\d_○]{1,3}?按")  # (臣召南/)按: 臣, the editor's given name (1-3 characters), 按
# The editors' words are read as a 疏: discursive prose that quotes and argues (…云, 按, 當作) like the 疏's; read as a
# note (the 注's kind) they were broken inside the collation idiom (監，本訛作…) — 27 entries of 禮記註疏 juan 13 and
# 儀禮注疏 juan 7 read both ways, not blind: 疏 better 20, note 4, neither 3; then blind on other train juan 15 / 7 / 8
# (docs/segmentation.md "Stop 83")
COMMENT_KIND = "疏"
HEADING_ENDS = ("考證", "考證上", "考證下")  # a 考證's own title read into a report unit
HELD_AFTER = 4  # …or where the layer it names holds this many characters after it (the 經 quoted with a variant further back)
NEAR_MATCH = 3  # a marker this few characters past the 經 stretch the body holds (a corrected character) still ends it


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    kind: str | None  # the segmenter kind it is read as (base, 注, 疏, 音義, note); None: a marker, read as nothing
    lemma: bool  # a quotation of the juan's text (no mark at its end)
    mark_after: str | None = None  # the mark a piece read as nothing ends with (an editor's signature: ：)


def _marker_at(text: str, i: int) -> tuple[str, str] | None:
    return next(((m, k) for m, k in LEMMA_MARKERS if text.startswith(m, i)), None)


def _longest_prefix_in(text: str, body: str) -> int:
    """The length of the longest prefix of `text` that `body` holds."""
    lo, hi = 0, len(text)
    while lo < hi:  # a prefix held implies every shorter one is: bisect
        mid = (lo + hi + 1) // 2
        if text[:mid] in body:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _held_after_marker(lemma: str, j: int, bodies: dict[str, str]) -> bool:
    marker, kind = _marker_at(lemma, j)
    after = lemma[j + len(marker):]
    return bool(after) and _longest_prefix_in(after, bodies.get(kind, "")) >= min(HELD_AFTER, len(after))


def _a_base_word(lemma: str, j: int, bodies: dict[str, str]) -> bool:
    """Whether the 經 holds the marker at j with the characters either side of it (斬衰疏衰: 衰疏衰)."""
    marker, _kind = _marker_at(lemma, j)
    return lemma[j - 1:j + len(marker) + 1] in bodies.get("base", "")


def opened_layer(stretch: str, bodies: dict[str, str]) -> str:
    """The layer a lemma opened by 又 without a marker quotes: the one whose body holds the longest start of it (two
    characters at least), the 經 before the 注 before the 疏 on a tie (the 疏's body holds the 注's text too); else the 經."""
    held = {kind: _longest_prefix_in(stretch, bodies.get(kind, "")) for kind in OPENED_LAYERS}
    best = max(OPENED_LAYERS, key=lambda kind: held[kind])  # max keeps the first of equals
    return best if held[best] >= 2 else "base"


def lemma_pieces(lemma: str, bodies: dict[str, str]) -> list[Piece]:
    """Cut a lemma into its stretches and the layer markers between them: the 經 (an office's name and a
    phrase of it are two held runs), then after each marker the layer it names. A marker counts where the
    stretch before it ends: where the body of the stretch's layer stops holding it (`bodies`: per kind,
    that layer's text), or within NEAR_MATCH characters of there (a character the editors correct), or further on
    where the layer it names holds the words after it or the 經 does not hold it as a word; a 至
    between held runs is a range's hinge (X至Y). Not a marker where the body holds it as text (疏衰)."""
    pieces: list[Piece] = []
    i = stretch_start = 0
    kind = "base"
    if lemma.startswith(LEMMA_OPENERS) and len(lemma) > 1:
        pieces.append(Piece(0, 1, None, False))
        i = stretch_start = 1
        if not _marker_at(lemma, 1):  # 又 and no marker (又晉衛之男女…): the layer whose body holds the most of it
            kind = opened_layer(lemma[1:], bodies)
    while i < len(lemma):
        marker = _marker_at(lemma, i)
        held = _longest_prefix_in(lemma[i:], bodies.get(kind, ""))
        if marker and held < len(marker[0]) + 2:
            if i > stretch_start:
                pieces.append(Piece(stretch_start, i, kind, True))
            pieces.append(Piece(i, i + len(marker[0]), None, False))
            kind = marker[1]
            i = stretch_start = i + len(marker[0])
        elif held >= 2:
            i += held
        elif lemma[i] == "至":
            i += 1
        else:  # the body does not hold it here (a variant; a 考證 filed with another juan's body): on to the next marker
            # near by, one the layer it names holds the words after, or one the 經 does not hold as a word (疏衰)
            i = next((j for j in range(i + 1, len(lemma)) if _marker_at(lemma, j) and (
                j - i <= NEAR_MATCH or _held_after_marker(lemma, j, bodies) or not _a_base_word(lemma, j, bodies))),
                len(lemma))
    if len(lemma) > stretch_start:
        pieces.append(Piece(stretch_start, len(lemma), kind, True))
    return pieces


def report_pieces(text: str, bodies: dict[str, str]) -> list[Piece]:
    """The pieces of a 考證 entry: its lemma's (lemma_pieces), then each ○ and the words after it
    (comment_pieces). An entry without ○ is its lemma with the editors' words run on (…疏非實辭也臣召南按此疏是…): its last
    stretch is read as its layer and ends with a mark; a heading (周禮正義序考證) is left as it is."""
    if SEPARATOR not in text:
        if not text or text.endswith(HEADING_ENDS):
            return []
        *pieces, last = lemma_pieces(text, bodies)
        return pieces + [Piece(last.start, last.end, last.kind, False)]
    cut = text.index(SEPARATOR)
    pieces = lemma_pieces(text[:cut], bodies) if cut else []
    i = cut
    while i < len(text):
        j = text.find(SEPARATOR, i + 1)
        j = len(text) if j < 0 else j
        pieces.append(Piece(i, i + 1, None, False))
        pieces += comment_pieces(text, i + 1, j)
        i = j
    return pieces


def comment_pieces(text: str, start: int, end: int) -> list[Piece]:
    """The editors' words from start to end, read as COMMENT_KIND, cut at each editor's signature (臣召南按, 臣紱按: 687
    in the three 注疏), which is read as nothing and followed by ：."""
    pieces, i = [], start
    for sig in SIGNATURE.finditer(text, start, end):
        if sig.start() > i:
            pieces.append(Piece(i, sig.start(), COMMENT_KIND, False))
        pieces.append(Piece(sig.start(), sig.end(), None, False, "："))
        i = sig.end()
    if end > i:
        pieces.append(Piece(i, end, COMMENT_KIND, False))
    return pieces


# the body layers a lemma piece of each kind is looked up in (a 注疏 lemma may quote either)
LOOKUP = {"base": ("base",), "注": ("注",), "疏": ("疏", "注"), "音義": ("音義",)}


class Body:
    """A juan's body by layer (經 = base, 注, 疏, 音義: a 注疏's markers), for cutting its 考證 entries (`texts`, what
    report_pieces reads) and finding where a lemma stretch stands (`locate`)."""

    def __init__(self, doc):
        self.units: dict[str, list] = {}
        for u in doc.units:
            layer = "base" if u.kind == "base" else u.marker if u.kind == "commentary" and u.marker in LAYERS else None
            if layer and u.text:
                self.units.setdefault(layer, []).append(u)
        self.texts = {kind: "\0".join(u.text for layer in layers for u in self.units.get(layer, ()))
                      for kind, layers in LOOKUP.items()}

    def locate_word(self, stretch: str, at: int, n: int, kind: str, context: int = 2):
        """Where the word stretch[at:at + n] stands in the body: (unit, offset of the word), through the longest window of
        the stretch around it (at least `context` characters beside the word) that a unit of the layers holds verbatim —
        the whole stretch where the body holds it, else a part (the editors quote a reading the body does not print)."""
        for size in range(len(stretch), n + context - 1, -1):
            for lo in range(max(0, at + n - size), min(at, len(stretch) - size) + 1):
                found = self.locate(stretch[lo:lo + size], kind)
                if found is not None:
                    return found[0], found[1] + at - lo
        return None

    def locate(self, stretch: str, kind: str):
        """(unit, offset) of the first unit of the layers a piece of `kind` quotes that holds `stretch` verbatim, or None."""
        if stretch not in self.texts[kind]:  # one search of the joined layers before the unit by unit one
            return None
        for layer in LOOKUP[kind]:
            for u in self.units.get(layer, ()):
                at = u.text.find(stretch)
                if at >= 0:
                    return u, at
        return None


def entries_of(doc) -> list:
    """The document's 考證 entries (report units with text)."""
    return [u for u in doc.units if u.kind == "report" and u.text]


# --- the editors' statements about a word of the lemma: 「朝當作祭」, 「卿監本訛鄉」 (read by align.collation as glosses; the
# segment stage keeps each one a clause) ---------------------------------------------------------------------------------
# the editions the editors compare (監本, the 唐石經, 陸德明's 釋文, 敖繼公's, 朱子's, 楊復's …); 夲 as the print writes 本
EDITION = r"(?:監[本夲]|石經|釋文|敖[本夲]|朱子[本夲]|楊[本夲]|各[本夲]|舊[本夲]|刋[本夲]|刊[本夲]|毛[本夲]|閩[本夲]|宋[本夲]|通解)"
EDITIONS = rf"{EDITION}(?:[及與]?{EDITION})*"  # 石經及楊本敖本
READS = r"(?:[訛譌]作?|誤作|作)"  # 訛 Y, 訛作 Y, 誤作 Y, 作 Y (誤 alone says the edition errs, not what it reads)
# X當作Y, X字當作Y: an emendation of X
COUNT = r"(?:[二三四五六七八九十]+字|字)?"  # X字, X二字 before the formula
EMEND = re.compile(rf"{COUNT}(?:當作|當爲|當為|應作|宜作)(?P<y>\S)")
# X監本訛(作)Y, X石經作Y: another edition's reading of X
EDITION_AFTER = re.compile(rf"{COUNT}{EDITIONS}{READS}(?P<y>\S)")
# 監本X訛(作)Y: the same, X named after the edition
EDITION_BEFORE = re.compile(rf"{EDITIONS}(?P<x>[^，。、；：？！]{{1,4}}?)(?:[訛譌]作?|誤作)(?P<y>\S)")
# 監本脫X字(Y字): the edition lacks X
LACKS = re.compile(rf"{EDITIONS}(?:脫|脱)(?P<x>[^，。、；：？！字]{{1,4}})字")
# after a statement that names its edition, more of the same edition's readings follow without the name: 「監本禜訛宗酺訛歩」,
# 「監本鄉訛卿又脫師字」 (酺, 師: 14 such statements over the three 注疏)
MORE_READS = re.compile(r"[訛譌]作?(?P<y>\S)")
MORE_LACKS = re.compile(r"又?(?:脫|脱)(?P<x>[^，。、；：？！字]{1,4})字")
MAX_LEMMA = 4


class Statement(NamedTuple):
    """An emendation / variant statement: its lemma X a word the entry's lemma holds, its span from X (or the edition
    naming it) to the end of the replacement, which starts at `reading` (None for 「脫X字」, which names none)."""

    type: str
    start: int
    lemma: str
    end: int
    reading: int | None


def statements(text: str, pieces: list[Piece]) -> list[Statement]:
    """The emendation / variant statements in an entry's words, in entry order (one of two that overlap: the first found)."""
    lemma = [(p, text[p.start:p.end]) for p in pieces if p.lemma]
    if not lemma:
        return []
    found: list[Statement] = []
    for p in pieces:
        if p.kind != COMMENT_KIND or p.lemma:
            continue
        for st in _statements(text, p.start, p.end, lemma):
            if not any(other.start < st.end and st.start < other.end for other in found):
                found.append(st)
    return sorted(found, key=lambda st: st.start)


def _statements(text: str, start: int, end: int, lemma: list) -> list[Statement]:
    """Each formula in text[start:end], as a Statement."""
    out: list = []
    for m in EMEND.finditer(text, start, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x:
            out.append(("emendation", x_start, x, _statement_end(m.start("y"), len(x), end), m.start("y")))
    for m in EDITION_AFTER.finditer(text, start, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x:
            out.append(("variant", x_start, x, _statement_end(m.start("y"), len(x), end), m.start("y")))
    for m in EDITION_BEFORE.finditer(text, start, end):
        if _in_lemma(m.group("x"), lemma):
            out.append(("variant", m.start(), m.group("x"), _statement_end(m.start("y"), len(m.group("x")), end),
                        m.start("y")))
    for m in LACKS.finditer(text, start, end):
        if _in_lemma(m.group("x"), lemma):
            out.append(("variant", m.start(), m.group("x"), m.end(), None))
    named = min((s for kind, s, _x, _e, _y in out if kind == "variant"), default=None)
    if named is None:
        return [Statement(*st) for st in out]
    for m in MORE_READS.finditer(text, named, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x and not re.search(rf"{EDITION}$", text[start:x_start]):  # 監本X訛Y itself is named above
            out.append(("variant", x_start, x, _statement_end(m.start("y"), len(x), end), m.start("y")))
    for m in MORE_LACKS.finditer(text, named, end):
        if _in_lemma(m.group("x"), lemma) and not re.search(rf"{EDITIONS}$", text[start:m.start()]):
            out.append(("variant", m.start(), m.group("x"), m.end(), None))
    return [Statement(*st) for st in out]


def _lemma_before(text: str, start: int, at: int, lemma: list) -> tuple[int, str]:
    """The longest word right before `at` (up to MAX_LEMMA characters, not across the piece's start) that the lemma holds:
    (where it starts, it), or (at, "")."""
    for k in range(max(start, at - MAX_LEMMA), at):
        if _in_lemma(text[k:at], lemma):
            return k, text[k:at]
    return at, ""


def _statement_end(y: int, n: int, end: int) -> int:
    """The statement ends after its replacement, read as long as the word it replaces (朝當作祭, 咸陽二字當作陽城: the
    print gives no other bound), and never past the piece."""
    return min(y + n, end)


def _in_lemma(x: str, lemma: list) -> bool:
    return bool(x) and any(x in stretch for _p, stretch in lemma)
