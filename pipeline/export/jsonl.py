"""jsonl/: one file per record kind (documents, units, sentences, entities, glosses, collation),
one JSON object a line, documents in id order, keys sorted."""

from __future__ import annotations

from pipeline.export.bundle import CorpusInfo, Format, Parts, Sink
from pipeline.export.common import dumps
from pipeline.export.records import RECORD_KINDS


def render_lines(records: dict[str, list[dict]]) -> dict[str, bytes]:
    """Per-document bytes of each jsonl file (concatenated by the runner in document order)."""
    return {kind: b"".join(dumps(r) + b"\n" for r in records.get(kind, [])) for kind in RECORD_KINDS}


def stream(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    """jsonl/<kind>.jsonl from the per-document pieces, a document at a time, in the order given."""
    handles = {kind: sink.open(f"jsonl/{kind}.jsonl") for kind in RECORD_KINDS}
    try:
        for _split, piece in parts:
            for kind, data in piece.items():
                handles[kind].write(data)
    finally:
        for fh in handles.values():
            fh.close()


FORMAT = Format("jsonl", lambda b: render_lines(b.records), stream=stream)
