"""The losslessness check: a Document's units and the markup between them rebuild its source.

`rebuild_source` does not just glue slices back together: it checks that every stretch of
source outside the units is markup (header lines, page breaks, line marks, blanks), and that
every unit's raw extent, with its marker, notes and markup taken out, is exactly its text.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from pipeline.ingest.wyg_zhushu import PRINTED_MARKERS
from pipeline.model import PUNCTUATION_MARKS, Document
from pipeline.pua import SPELLED_RE, decode_entities, spelled_char

# what may stand inside a unit's extent besides its text, and (with header lines) between units
_MARKUP_RE = re.compile(r"<pb:[^>\n]+>|¶|\r?\n|[\u3000 \t]")
_META_LINE_RE = re.compile(r"(?m)^#[^\n]*$")
_NOTE_RE = re.compile(r"\([^()\n]*\)")
_HEADING_RE = re.compile(r"^\*+[ \t]")  # an org heading's stars open a title unit's extent


class LossError(AssertionError):
    pass


def strip_markup(raw: str, between_units: bool = True) -> str:
    if between_units:
        raw = _META_LINE_RE.sub("", raw)
    return _MARKUP_RE.sub("", raw)


def _lifted(extents: list[tuple[int, int]], at: int) -> bool:
    """Whether a note group at source index `at` belongs to a collation note (one of the extents)."""
    i = bisect_right(extents, (at, 1 << 62)) - 1
    return i >= 0 and extents[i][0] <= at < extents[i][1]


def rebuild_source(doc: Document) -> str:
    src, out, pos = doc.source, [], 0
    lifted = sorted((n.start, n.end) for n in doc.notes)
    for unit in doc.units:
        if unit.start < pos or unit.end < unit.start:
            raise LossError(f"{doc.id}#{unit.seq}: extent {unit.start}-{unit.end} overlaps the previous unit")
        gap = src[pos : unit.start]
        if strip_markup(gap):
            raise LossError(f"{doc.id}: text outside any unit before #{unit.seq}: {strip_markup(gap)[:40]!r}")
        raw = src[unit.start : unit.end]
        if doc.layout.startswith("punctuated"):
            _check_printed(doc, unit, raw)
            out += [gap, raw]
            pos = unit.end
            continue
        # entities decoded first (a composed character's description holds ( ) / too), with the
        # raw index of every decoded character, so that a note is still found by its source index
        inner, raw_at = _decoded(raw)
        zhushu = doc.layout.startswith("wyg-zhushu")
        if doc.layout.startswith("sbck") and unit.kind == "commentary" or zhushu and not lifted:
            inner = inner.replace("(", "").replace(")", "").replace("/", "")  # the note is the text
        elif doc.layout.startswith(("wyg", "sbck")):  # the 注疏 too, when a note of its front matter was lifted
            # the collation notes are lifted out (Document.notes); any other note is text (夾注; SBCK:
            # the counts after a closing header, a header of their own)
            inner = _NOTE_RE.sub(lambda m: "" if _lifted(lifted, unit.start + raw_at[m.start()])
                                 else m.group(0)[1:-1].replace("/", ""), inner)
        else:
            inner = _NOTE_RE.sub("", inner)
        inner = strip_markup(inner, between_units=False)
        if unit.kind in ("header", "title"):
            text = strip_markup(unit.text, between_units=False)  # a header's layout blanks, as the print's
        else:
            text = unit.text
        printed = PRINTED_MARKERS.get(unit.marker, (unit.marker or "",)) if zhushu else (unit.marker or "",)
        if inner not in [p + text for p in printed]:
            raise LossError(f"{doc.id}#{unit.seq}: extent does not reduce to marker + text")
        _check_offsets(doc, unit)
        out += [gap, raw]
        pos = unit.end
    tail = src[pos:]
    if strip_markup(tail):
        raise LossError(f"{doc.id}: text after the last unit: {strip_markup(tail)[:40]!r}")
    out.append(tail)
    return "".join(out)


def _decoded(raw: str) -> tuple[str, list[int]]:
    """`decode_entities(raw)` and, for each of its characters, its index in `raw`."""
    out: list[str] = []
    at: list[int] = []
    pos = 0
    for m in SPELLED_RE.finditer(raw):
        out.append(raw[pos:m.start()])
        at.extend(range(pos, m.start()))
        out.append(spelled_char(m))
        at.append(m.start())
        pos = m.end()
    out.append(raw[pos:])
    at.extend(range(pos, len(raw)))
    return "".join(out), at


def _check_offsets(doc: Document, unit) -> None:
    for i, at in enumerate(unit.offsets):
        ch = doc.source[at]
        if ch != unit.text[i] and not ((m := SPELLED_RE.match(doc.source, at)) and spelled_char(m) == unit.text[i]):
            raise LossError(f"{doc.id}#{unit.seq}: offset {i} points at {ch!r}, not {unit.text[i]!r}")


def _check_printed(doc: Document, unit, raw: str) -> None:
    """A punctuated edition's unit: its extent, less markup and a heading's `** `, is the text with
    the edition's signs between the characters; its marks are the signs' own marks."""
    inner = decode_entities(strip_markup(_HEADING_RE.sub("", raw), between_units=False))
    if inner != unit.printed():
        raise LossError(f"{doc.id}#{unit.seq}: extent does not reduce to the text and its signs")
    for k, run in unit.signs.items():
        marks = [ch for ch in run if ch in PUNCTUATION_MARKS]
        if k > 0 and (marks[-1] if marks else None) != unit.marks.get(k):
            raise LossError(f"{doc.id}#{unit.seq}: mark at {k} is {unit.marks.get(k)!r}, the edition prints {run!r}")
    if set(unit.marks) - set(unit.signs):
        raise LossError(f"{doc.id}#{unit.seq}: marks the edition does not print")
    _check_offsets(doc, unit)
