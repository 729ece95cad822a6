"""The export stage: the datasets, one module per format, registered here in output order.

    from pipeline.export import FORMATS, bundle, assemble
    part = bundle(doc, "train", ["ingest", "segment"], [FORMATS["jsonl"]])

To add a format: a module with a `FORMAT = Format(name, document, corpus)` (see bundle.py for
the contract), imported and listed below. `card` comes last: it lists the files of the others.
"""

from __future__ import annotations

from pipeline.export import card, conllu, html, iob, jsonl, parquet, spacy_docbin, sqlite, tei
from pipeline.export.bundle import (
    CorpusInfo,
    DocumentBundle,
    DocumentExport,
    Format,
    Parts,
    Sink,
    Spill,
    assemble,
    bundle,
    export_to,
)

FORMATS: dict[str, Format] = {
    m.FORMAT.name: m.FORMAT for m in (jsonl, parquet, sqlite, conllu, spacy_docbin, iob, tei, html, card)
}

__all__ = ["FORMATS", "CorpusInfo", "DocumentBundle", "DocumentExport", "Format", "Parts", "Sink", "Spill", "assemble", "bundle",
           "export_to"]
