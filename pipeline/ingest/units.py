"""Turning runs of tokens into Units and CollationNotes (shared by every layout profile)."""

from __future__ import annotations

from pipeline.ingest.source import INDENT_CHARS as BLANKS
from pipeline.ingest.source import SourceLine, Token
from pipeline.model import MARKERS, CollationNote, Unit
from pipeline.pua import SPELLED_RE, decode_entities, spelled_char


def marker_at(tokens: list[Token]) -> str | None:
    """The commentary marker the tokens open with, if any."""
    head = "".join(t.char for t in tokens[:4] if t.kind == "char")
    for marker in MARKERS:
        if head.startswith(marker):
            return marker
    return None


class UnitBuilder:
    """Collects the tokens of one unit, possibly over several lines and pages."""

    def __init__(self, seq: int, kind: str, marker: str | None = None, skip: int | None = None):
        self.seq, self.kind, self.marker = seq, kind, marker
        self.start: int | None = None
        self.end = 0
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.notes: list[CollationNote] = []
        self._note_open = False  # the last token taken was a note group: a next group continues it
        # marker characters are not unit text; `skip` when the marker is printed otherwise (注疏: 䟽 for 疏)
        self._skip = (len(marker) if marker else 0) if skip is None else skip

    @property
    def empty(self) -> bool:
        return self.start is None

    def add(self, tokens: list[Token]) -> None:
        for tok in tokens:
            if self.start is None:
                self.start = tok.start
            self.end = tok.end
            if tok.kind == "note":
                self._add_note(tok)
                continue
            self._note_open = False
            if tok.char in BLANKS and self.kind not in ("header", "title"):
                continue  # a blank inside base or commentary is layout, not text
            if self._skip:
                self._skip -= 1
                continue
            self.chars.append(tok.char)
            self.offsets.append(tok.start)

    def add_columns(self, tok: Token) -> None:
        """Take a note group's columns as unit text (SBCK: inline commentary), in reading order."""
        if self.start is None:
            self.start = tok.start
        self.end = tok.end
        at = tok.start + 1
        for column in tok.columns:
            i = 0
            while i < len(column):
                m = SPELLED_RE.match(column, i)
                if column[i] in BLANKS and self.kind not in ("header", "title"):
                    i += 1  # a blank padding a column is layout, as in full-size lines
                elif m:  # an entity or a composed character: one character
                    self.chars.append(spelled_char(m))
                    self.offsets.append(at + i)
                    i = m.end()
                else:
                    self.chars.append(column[i])
                    self.offsets.append(at + i)
                    i += 1
            at += len(column) + 1  # past the column and its "/" (or the closing ")")

    def _add_note(self, tok: Token) -> None:
        raw = "".join(tok.columns)
        if self._note_open and self.notes:
            note = self.notes[-1]
            note.raw += raw
            note.text = decode_entities(note.raw)
            note.end = tok.end
        else:
            self.notes.append(
                CollationNote(raw=raw, text=decode_entities(raw), start=tok.start, end=tok.end,
                              unit_seq=self.seq, offset=len(self.chars))
            )
        self._note_open = True

    def build(self) -> Unit:
        assert self.start is not None
        return Unit(seq=self.seq, kind=self.kind, marker=self.marker, text="".join(self.chars),
                    start=self.start, end=self.end, offsets=self.offsets)


def line_tokens(lines: list[SourceLine]) -> list[Token]:
    return [tok for line in lines for tok in line.tokens]
