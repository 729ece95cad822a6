"""jsonl/: one file per record kind (documents, units, sentences, entities, glosses, collation),
one JSON object a line, documents in id order, keys sorted."""

from __future__ import annotations

from pipeline.export.common import dumps
from pipeline.export.records import RECORD_KINDS


def render_lines(records: dict[str, list[dict]]) -> dict[str, str]:
    """Per-document text of each jsonl file (concatenated by the runner in document order)."""
    return {kind: "".join(dumps(r) + "\n" for r in records.get(kind, [])) for kind in RECORD_KINDS}


def files(per_doc: list[dict[str, str]]) -> dict[str, bytes]:
    """jsonl/<kind>.jsonl from the per-document pieces, in the order given."""
    return {
        f"jsonl/{kind}.jsonl": "".join(piece.get(kind, "") for piece in per_doc).encode("utf-8")
        for kind in RECORD_KINDS
    }
