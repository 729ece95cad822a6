"""jsonl/: one file per record kind (documents, units, sentences, entities, glosses, collation),
one JSON object a line, documents in id order, keys sorted."""

from __future__ import annotations

from pipeline.export.bundle import Format
from pipeline.export.common import dumps
from pipeline.export.records import RECORD_KINDS


def render_lines(records: dict[str, list[dict]]) -> dict[str, bytes]:
    """Per-document bytes of each jsonl file (concatenated by the runner in document order)."""
    return {kind: b"".join(dumps(r) + b"\n" for r in records.get(kind, [])) for kind in RECORD_KINDS}


def files(per_doc: list[dict[str, bytes]]) -> dict[str, bytes]:
    """jsonl/<kind>.jsonl from the per-document pieces, in the order given."""
    return {f"jsonl/{kind}.jsonl": b"".join(piece.get(kind, b"") for piece in per_doc) for kind in RECORD_KINDS}


FORMAT = Format("jsonl", lambda b: render_lines(b.records), lambda parts, _info: files([p for _s, p in parts]))
