"""The losslessness check: a Document's units and the markup between them rebuild its source.

`rebuild_source` does not just glue slices back together: it checks that every stretch of
source outside the units is markup (header lines, page breaks, line marks, blanks), and that
every unit's raw extent, with its marker, notes and markup taken out, is exactly its text.
"""

from __future__ import annotations

import re

from pipeline.ingest.wyg_zhushu import PRINTED_MARKERS
from pipeline.model import Document
from pipeline.pua import SPELLED_RE, decode_entities, spelled_char

# what may stand inside a unit's extent besides its text, and (with header lines) between units
_MARKUP_RE = re.compile(r"<pb:[^>\n]+>|¶|\r?\n|[\u3000 \t]")
_META_LINE_RE = re.compile(r"(?m)^#[^\n]*$")
_NOTE_RE = re.compile(r"\([^()\n]*\)")


class LossError(AssertionError):
    pass


def strip_markup(raw: str, between_units: bool = True) -> str:
    if between_units:
        raw = _META_LINE_RE.sub("", raw)
    return _MARKUP_RE.sub("", raw)


def rebuild_source(doc: Document) -> str:
    src, out, pos = doc.source, [], 0
    for unit in doc.units:
        if unit.start < pos or unit.end < unit.start:
            raise LossError(f"{doc.id}#{unit.seq}: extent {unit.start}-{unit.end} overlaps the previous unit")
        gap = src[pos : unit.start]
        if strip_markup(gap):
            raise LossError(f"{doc.id}: text outside any unit before #{unit.seq}: {strip_markup(gap)[:40]!r}")
        raw = src[unit.start : unit.end]
        inner = decode_entities(raw)  # first: a composed character's description holds ( ) / too
        zhushu = doc.layout.startswith("wyg-zhushu")
        if doc.layout.startswith("sbck") and unit.kind == "commentary" or zhushu:
            inner = inner.replace("(", "").replace(")", "").replace("/", "")  # the note is the text
        else:
            inner = _NOTE_RE.sub("", inner)
        inner = strip_markup(inner, between_units=False)
        if unit.kind in ("header", "title"):
            text = unit.text.replace("\u3000", "").replace(" ", "")
        else:
            text = unit.text
        printed = PRINTED_MARKERS.get(unit.marker, (unit.marker or "",)) if zhushu else (unit.marker or "",)
        if inner not in [p + text for p in printed]:
            raise LossError(f"{doc.id}#{unit.seq}: extent does not reduce to marker + text")
        for i, at in enumerate(unit.offsets):
            ch = src[at]
            if ch != unit.text[i] and not ((m := SPELLED_RE.match(src, at)) and spelled_char(m) == unit.text[i]):
                raise LossError(f"{doc.id}#{unit.seq}: offset {i} points at {ch!r}, not {unit.text[i]!r}")
        out += [gap, raw]
        pos = unit.end
    tail = src[pos:]
    if strip_markup(tail):
        raise LossError(f"{doc.id}: text after the last unit: {strip_markup(tail)[:40]!r}")
    out.append(tail)
    return "".join(out)
