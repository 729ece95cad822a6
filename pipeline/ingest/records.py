"""Flat JSON-ready records of a Document's units (what `zhushu ingest --jsonl` prints)."""

from __future__ import annotations

from typing import Any, Iterator

from pipeline.model import Document


def unit_records(doc: Document) -> Iterator[dict[str, Any]]:
    notes_by_unit: dict[int, list] = {}
    for note in doc.notes:
        notes_by_unit.setdefault(note.unit_seq, []).append({"offset": note.offset, "text": note.text})
    for unit in doc.units:
        page = doc.text_page(unit, 0)
        yield {
            "id": doc.unit_id(unit),
            "doc": doc.id,
            "seq": unit.seq,
            "kind": unit.kind,
            "marker": unit.marker,
            "source": unit.source,
            "source_name": unit.source_name,
            "text": unit.text,
            "start": unit.start,
            "end": unit.end,
            "page": page.pb if page else None,
            "line": page.line if page else None,
            "notes": notes_by_unit.get(unit.seq, []),
        }
