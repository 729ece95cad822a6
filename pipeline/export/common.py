"""Helpers shared by the exporters: ids, provenance, sentence iteration, nested markup.

Every exporter is a pure function of an annotated Document (plus the split it belongs to), so
that the serial runner and the Dask workers produce the same bytes. Nothing here may depend
on time, on hash order or on the machine.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import count, repeat
from typing import Callable, Iterable, Iterator

import orjson

from pipeline.model import Document, Unit
from pipeline.pua import encode_entities, entity_number, has_kanripo, is_kanripo_char


def unit_id(doc: Document, unit: Unit) -> str:
    return f"{doc.id}#{unit.seq}"


def gloss_id(doc: Document, unit: Unit, index: int) -> str:
    return f"{doc.id}#{unit.seq}.g{index}"


def reading_id(doc: Document, unit: Unit, index: int) -> str:
    """An 音義 reading: the index-th entry of the note `unit`."""
    return f"{doc.id}#{unit.seq}.r{index}"


# XML 1.0 NameStartChar less ":" (an NCName's first character), and the other NameChar
_NAME_START = ((0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A), (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x2FF), (0x370, 0x37D),
               (0x37F, 0x1FFF), (0x200C, 0x200D), (0x2070, 0x218F), (0x2C00, 0x2FEF), (0x3001, 0xD7FF),
               (0xF900, 0xFDCF), (0xFDF0, 0xFFFD), (0x10000, 0xEFFFF))
_NAME_MORE = ((0x2D, 0x2E), (0x30, 0x39), (0xB7, 0xB7), (0x300, 0x36F), (0x203F, 0x2040))


def _in(ch: str, ranges) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in ranges)


@lru_cache(maxsize=1 << 12)  # called for every unit, gloss and reading id of a TEI file with the same doc id
def xml_name(doc_id: str) -> str:
    """A document id as an XML NCName, for TEI's xml:id: each character an NCName cannot hold (a
    space, brackets, &, a PUA character …) becomes `_`, and `_` goes before a first character that
    cannot start one (a digit: a juan saved as `001.txt`). Kanripo ids (KR1d0030_001) are unchanged;
    before, such a file name made the TEI file ill-formed (`xml:id="001.u0"`)."""
    name = "".join(ch if _in(ch, _NAME_START) or _in(ch, _NAME_MORE) else "_" for ch in doc_id)
    return name if name and _in(name[0], _NAME_START) else "_" + name


def note_id(doc: Document, index: int) -> str:
    return f"{doc.id}.n{index}"


class UnitProvenance:
    """The page provenance ({"pb", "line"}) of a unit's text offsets: `doc.text_page(unit, offset)`
    for every offset, looked up in a table built in one sweep over the unit's source offsets
    (a bisect per token was a quarter of the records' time; tests/test_export.py compares)."""

    def __init__(self, doc: Document, unit: Unit):
        self.table: list[tuple[object, object]] = []
        if not unit.offsets:
            page = doc.page_of(unit.start)
            self.table = [(page.pb, page.line) if page is not None else (None, None)]
            return
        lines, i, prev = doc.lines, -1, None
        for src in unit.offsets:
            if prev is None or src < prev:  # (re)start the sweep where the offsets go back
                i = bisect_right(lines, (src, "\U0010ffff", 1 << 30)) - 1
            else:
                while i + 1 < len(lines) and lines[i + 1][0] <= src:
                    i += 1
            prev = src
            self.table.append((lines[i][1], lines[i][2]) if i >= 0 else (None, None))

    def at(self, offset: int) -> tuple[object, object]:
        """(pb, line) of a text offset (clamped to the unit)."""
        return self.table[min(max(offset, 0), len(self.table) - 1)]

    def __call__(self, offset: int) -> dict[str, object]:
        pb, line = self.at(offset)
        return {"pb": pb, "line": line}


# where a page or line break stands in a unit (`milestone_places`): before the unit (its first
# printed thing follows), in its marker, in its text, right before a collation note
LEAD, IN_MARKER, IN_TEXT, BEFORE_NOTE = range(4)


def marker_sources(doc: Document, unit: Unit) -> list[int] | None:
    """The source index of each character of a commentary unit's marker, found in order between the
    unit's raw start and its first text character, or its end where it has none (line ends, page
    breaks and indents may stand between them); None where the marker is not printed there as it
    reads."""
    if unit.kind != "commentary" or not unit.marker:
        return None
    out, i, stop = [], unit.start, unit.offsets[0] if unit.offsets else unit.end
    for ch in unit.marker:
        i = doc.source.find(ch, i, stop)
        if i < 0:
            return None
        out.append(i)
        i += 1
    return out


def milestone_places(doc: Document, indices: list[int]) -> list[tuple[int, int, int] | None]:
    """Where a page or line break at each source index goes: before the first thing printed after
    it — a character of a unit's text or marker, or a collation note. (seq, where, offset): LEAD
    (before the unit: its first printed thing), IN_MARKER (before the offset-th marker character:
    a marker printed across a line's or page's end, `○疏¶ 曰`, the 注疏's `音¶義`), IN_TEXT (before
    the offset-th text character), BEFORE_NOTE (before the note that follows the offset-th
    character); None after everything printed."""
    slots: list[tuple[int, int, int, int]] = []  # (source index, seq, where, offset)
    first: dict[int, int] = {}  # seq -> the source index of the unit's first printed thing
    for unit in doc.units:
        seq, printed = unit.seq, marker_sources(doc, unit) or ()
        slots.extend(zip(printed, repeat(seq), repeat(IN_MARKER), count()))
        slots.extend(zip(unit.offsets, repeat(seq), repeat(IN_TEXT), count()))
        if printed or unit.offsets:
            first[seq] = min([*printed[:1], *unit.offsets])
    for note in doc.notes:
        slots.append((note.start, note.unit_seq, BEFORE_NOTE, note.offset))
        first[note.unit_seq] = min(first.get(note.unit_seq, note.start), note.start)
    slots.sort()
    srcs = [x[0] for x in slots]
    out: list[tuple[int, int, int] | None] = []
    for idx in indices:
        j = bisect_left(srcs, idx)
        if j >= len(srcs):
            out.append(None)
            continue
        src, seq, where, k = slots[j]
        out.append((seq, LEAD, 0) if src == first[seq] else (seq, where, k))
    return out


def source_provenance(doc: Document, source_index: int) -> dict[str, object]:
    page = doc.page_of(source_index)
    if page is None:
        return {"pb": None, "line": None}
    return {"pb": page.pb, "line": page.line}


def text_units(doc: Document) -> Iterator[Unit]:
    """Units with text, in document order."""
    for unit in doc.units:
        if unit.text:
            yield unit


def offset_map(text: str) -> list[int]:
    """Offsets into the stored text for each offset 0..len(text) of the unit text: the stored
    text spells a Kanripo character out as `&KRnnnn;`, so every character before it moves the
    offsets after it (see docs/datasets.md: offsets index the string stored beside them)."""
    if not has_kanripo(text):  # (most units) every offset is its own
        return list(range(len(text) + 1))
    out, pos = [0], 0
    for ch in text:
        pos += len(encode_entities(ch)) if is_kanripo_char(ch) else 1
        out.append(pos)
    return out


def token_form(ch: str) -> str:
    """A character as a token: a Kanripo private-use character goes back to `&KRnnnn;`."""
    return encode_entities(ch)


def entity_tags(unit: Unit, start: int, end: int) -> list[str]:
    """BIO tags of the characters start..end of a unit (entities cut at the window edges).

    Overlapping entities (which the tagger should not produce) are resolved first come, longest
    first: a character keeps the first entity that claims it.
    """
    tags = ["O"] * (end - start)
    inside = [e for e in unit.entities if e.start < end and e.end > start]  # (the others change nothing)
    for ent in sorted(inside, key=lambda e: (e.start, -e.end, e.label)):
        s, e = max(ent.start, start), min(ent.end, end)
        if s >= e or any(t != "O" for t in tags[s - start : e - start]):
            continue
        tags[s - start] = f"B-{ent.label}"
        for i in range(s + 1, e):
            tags[i - start] = f"I-{ent.label}"
    return tags


def non_overlapping_entities(unit: Unit):
    """Entities of a unit that can nest as markup: sorted, overlapping ones dropped."""
    kept, last_end = [], -1
    for ent in sorted(unit.entities, key=lambda e: (e.start, -e.end, e.label)):
        if ent.start >= last_end and ent.end > ent.start:
            kept.append(ent)
            last_end = ent.end
    return kept


def dumps(record: dict) -> bytes:
    """One JSON line in UTF-8: sorted keys, no ASCII escaping, compact and stable (orjson:
    the same bytes as json.dumps(ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for our records, 8x faster; the jsonl export was a quarter of the export stage)."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS)


def book_title(doc: Document) -> str | None:
    """#+TITLE of the source file (a header line, not a #+PROPERTY), or a TITLE property."""
    if doc.properties.get("TITLE"):
        return doc.properties["TITLE"].strip()
    for line in doc.source.splitlines()[:12]:
        if line.startswith("#+TITLE:"):
            return line[len("#+TITLE:") :].strip()
    return None


def doc_title(doc: Document) -> str:
    juan = doc.properties.get("JUAN", "").strip()
    return " ".join(x for x in (book_title(doc) or "", juan) if x) or doc.id


# --- nested markup over one string ---------------------------------------------------------


@dataclass(frozen=True)
class Markup:
    """A span [start, end) rendered as open ... close; lower rank nests outside higher rank."""

    start: int
    end: int
    open: str
    close: str
    rank: int = 0


def render(
    text: str,
    spans: Iterable[Markup],
    points: Iterable[tuple[int, int, str]],
    char: Callable[[str], str],
) -> str:
    """Interleave span markup, point markup (offset, order, markup) and escaped characters.

    A point at offset k goes after the k-th character, after the spans that end there and
    before the spans that start there. Spans that cross are split (closed and reopened), so the
    result always nests.
    """
    n = len(text)
    starts: dict[int, list[Markup]] = {}
    for sp in spans:
        if 0 <= sp.start < sp.end <= n:
            starts.setdefault(sp.start, []).append(sp)
    at: dict[int, list[tuple[int, str]]] = {}
    for off, order, markup in points:
        at.setdefault(min(max(off, 0), n), []).append((order, markup))
    # only where a span starts or ends or a point sits is there anything but characters
    events = sorted({*starts, *(sp.end for group in starts.values() for sp in group), *at, n})
    out: list[str] = list(map(char, text[: events[0]]))
    stack: list[Markup] = []
    for ei, i in enumerate(events):
        # close the spans ending here, splitting those that cross them
        if any(sp.end == i for sp in stack):
            reopen = []
            while any(sp.end == i for sp in stack):
                top = stack.pop()
                out.append(top.close)
                if top.end != i:
                    reopen.append(top)
            pending = list(reversed(reopen))
        else:
            pending = []
        for _, markup in sorted(at.get(i, ()), key=lambda x: x[0]):
            out.append(markup)
        if i == n:
            break
        for sp in sorted(pending + starts.get(i, []), key=lambda sp: (-sp.end, sp.rank)):
            out.append(sp.open)
            stack.append(sp)
        out.extend(map(char, text[i : events[ei + 1]]))
    while stack:
        out.append(stack.pop().close)
    return "".join(out)


def pua_number(ch: str) -> int | None:
    return entity_number(ch)
