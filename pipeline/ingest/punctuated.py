"""Editions already punctuated: the TLS and CHANT texts of Kanripo (`#+PROPERTY: BASEEDITION tls`
or `CHANT`: 周易 KR1a0001, 論語 KR1h0004, 周禮 KR1d0001, 禮記 KR1d0052).

These digital editions print modern punctuation, about one clause a line, and separate
paragraphs by blank lines:

    ** 1 《學而篇第一》                    an org heading: a title unit
    # src: LY 01.02:01; tr. CH             a comment line: ends a paragraph, as a blank line does
    1.2有子曰：¶                           the edition's paragraph number, then text
    「其為人也孝弟，而好犯上者，¶
    未之有也。<pb:KR1h0004_CHANT_001-3a>¶  a page break may stand anywhere in a line

A paragraph is one base unit. Nothing the edition prints between characters is text: its marks
of our alphabet (，、：；。？！) go to `Unit.marks` (marks_source "edition": the segment stage
leaves them alone), and everything printed between characters, marks included, goes to
`Unit.signs` exactly as printed — the quotation and book-title brackets 「」『』《》〈〉 that the
mark alphabet lacks, editorial （…）, the dash －, paragraph numbers, any ASCII — so that
`Unit.printed()` is the edition's text and the round trip stays lossless (lossless.py).
"""

from __future__ import annotations

import unicodedata

from pipeline.errors import InputError
from pipeline.ingest.source import INDENT_CHARS as BLANKS
from pipeline.ingest.source import SourceLine, Token
from pipeline.model import EDITION, PUNCTUATION_MARKS, Unit

# Below U+2E80 (where the CJK radicals begin) and in the fullwidth forms U+FF00–FFEF no character
# is Chinese text: ASCII (paragraph numbers `1.1`), Latin (a pinyin note `士@shì` in the 論語),
# box drawing (the TLS 禮記 marks a lacuna with ─), fullwidth ＜ ＞. 〓 (U+3013, a character the
# edition could not read) and the hexagrams ䷀ … (U+4DC0) of the 周易 are text.
TEXT_FROM = 0x2E80
FULLWIDTH_FORMS = range(0xFF00, 0xFFF0)
HEADING = "*"  # an org heading line opens with one or more `*` and a blank


def is_sign(ch: str) -> bool:
    """A character an edition prints between text characters: punctuation (Unicode P*) and the
    ranges above."""
    return ord(ch) < TEXT_FROM or ord(ch) in FULLWIDTH_FORMS or unicodedata.category(ch).startswith("P")


def heading_length(tokens: list[Token]) -> int:
    """How many tokens of an org heading's `** ` prefix a line opens with (0: no heading)."""
    i = 0
    while i < len(tokens) and tokens[i].kind == "char" and tokens[i].char == HEADING:
        i += 1
    if i == 0 or i >= len(tokens) or tokens[i].char not in BLANKS:
        return 0
    while i < len(tokens) and tokens[i].kind == "char" and tokens[i].char in BLANKS:
        i += 1
    return i


class _Builder:
    """One unit of a punctuated edition: text characters, and the signs between them."""

    def __init__(self, path: str, seq: int, kind: str):
        self.path, self.seq, self.kind = path, seq, kind
        self.start: int | None = None
        self.end = 0
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.signs: dict[int, str] = {}

    def add(self, line: SourceLine, tokens: list[Token]) -> None:
        for tok in tokens:
            if tok.kind == "note":
                raise InputError(self.path, line.number, "a (…) small note in a punctuated edition (TLS/CHANT): "
                                 "not known in this layout; give --layout for another one")
            if self.start is None:
                self.start = tok.start
            self.end = tok.end
            if tok.char in BLANKS:
                continue  # layout, as in every layout
            if is_sign(tok.char):
                k = len(self.chars)
                self.signs[k] = self.signs.get(k, "") + tok.char
            else:
                self.chars.append(tok.char)
                self.offsets.append(tok.start)

    def build(self) -> Unit:
        assert self.start is not None
        marks = {}
        for k, run in self.signs.items():
            printed = [ch for ch in run if ch in PUNCTUATION_MARKS]
            # one mark a position; `。』，` (once in the 周易, 3 such runs in the 周禮) prints two: the last one, after
            # the quotation closes, is the mark of the sentence it stands in (signs keep both)
            if printed and k > 0:
                marks[k] = printed[-1]
        return Unit(seq=self.seq, kind=self.kind, marker=None, text="".join(self.chars), start=self.start,
                    end=self.end, offsets=self.offsets, marks_source=EDITION, marks=marks, signs=self.signs)


def parse_punctuated(path: str, lines: list[SourceLine]) -> list[Unit]:
    """Units of a punctuated edition: a title unit per heading, a base unit per paragraph."""
    units: list[Unit] = []
    current: _Builder | None = None

    def close() -> None:
        nonlocal current
        if current is not None and current.start is not None:
            units.append(current.build())
        current = None

    for line in lines:
        if line.kind in ("blank", "meta"):
            close()
            continue
        if line.kind != "text":
            continue  # a page break between two lines of a paragraph does not end it
        stars = heading_length(line.tokens)
        if stars:
            close()
            current = _Builder(path, len(units), "title")
            current.start = line.tokens[0].start  # the `** ` is org markup inside the extent
            current.add(line, line.tokens[stars:])
            close()
            continue
        if current is None:
            current = _Builder(path, len(units), "base")
        current.add(line, line.tokens)
    close()
    return units
