"""The types the export stage works in, and the three steps it takes:

    bundle(doc, split, stages, formats)  -> DocumentExport   where the document was processed
    assemble(exports, formats, stages)   -> {path: bytes}    in the driver, document-id order
    write(out, files)                                         the output folder replaced as a whole

A format (one module each, registered in pipeline/export/__init__.py) supplies the two ends:
`document(DocumentBundle) -> part` (small and picklable: it may travel from a Dask worker) and
`corpus(list[(split, part)], CorpusInfo) -> {path: bytes}`.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Callable, Iterable

from pipeline.model import Document


@dataclass(frozen=True)
class DocumentBundle:
    """What every format sees of one annotated document."""

    doc: Document
    split: str  # "train" | "dev"
    stages: list[str]  # the stages that ran on it (export excluded)
    records: dict[str, list[dict]]  # records.document_records

    @functools.cached_property
    def arrow_tables(self) -> dict:
        """The records as arrow tables, one a kind: built once for parquet/ and sqlite/ alike
        (one object, so a Dask worker pickles it once for both)."""
        from pipeline.export.arrow import tables

        return tables(self.records)


@dataclass(frozen=True)
class CorpusInfo:
    """What the corpus-level end of a format sees besides the parts."""

    stats: list[dict]  # records.document_stats of each document, in document-id order
    stages: dict[str, str]  # stage -> what happened to it ("ran", "skipped …")
    files: dict[str, bytes]  # the files of the formats assembled before this one
    failed: list[tuple[str, str]] = field(default_factory=list)  # (input, error) of documents left out


@dataclass(frozen=True)
class Format:
    name: str
    document: Callable[[DocumentBundle], object] | None
    corpus: Callable[[list[tuple[str, object]], CorpusInfo], dict[str, bytes]]
    reads_files: bool = False  # its corpus end reads CorpusInfo.files (the dataset card)
    slow_corpus: bool = False  # its corpus end compresses (parquet, DocBin): started first


@dataclass
class DocumentExport:
    """One document's share of the dataset: its stats and one part per format."""

    doc_id: str
    split: str
    stats: dict
    parts: dict[str, object] = field(default_factory=dict)


def bundle(doc: Document, split: str, stages: list[str], formats: Iterable[Format]) -> DocumentExport:
    from pipeline.export import records as rec

    records = rec.document_records(doc, split, stages)
    b = DocumentBundle(doc, split, stages, records)
    out = DocumentExport(doc.id, split, rec.document_stats(records))
    for fmt in formats:
        if fmt.document is not None:
            out.parts[fmt.name] = fmt.document(b)
    return out


def assemble(exports: list[DocumentExport], formats: Iterable[Format], stages: dict[str, str],
             failed: list[tuple[str, str]] = ()) -> dict[str, bytes]:
    """All output files, from the documents' exports (any order in, document-id order out);
    formats are assembled in the order given, each seeing the files of those before it."""
    from concurrent.futures import ThreadPoolExecutor

    exports = sorted(exports, key=lambda e: e.doc_id)
    stats = [e.stats for e in exports if e.stats]
    formats = list(formats)

    def corpus(fmt: Format, files: dict[str, bytes]) -> dict[str, bytes]:
        parts = [(e.split, e.parts.get(fmt.name)) for e in exports]
        return fmt.corpus(parts, CorpusInfo(stats, stages, files, list(failed)))

    # the formats that do not read the others' files side by side, the slow ones first:
    # parquet's compression, the DocBins' zlib and the joins of the jsonl release the GIL
    with ThreadPoolExecutor(max_workers=3) as pool:
        first = sorted((f for f in formats if not f.reads_files), key=lambda f: not f.slow_corpus)
        early = {f.name: pool.submit(corpus, f, {}) for f in first}
        done = {name: fut.result() for name, fut in early.items()}
    files: dict[str, bytes] = {}
    for fmt in formats:
        files.update(done[fmt.name] if fmt.name in done else corpus(fmt, dict(files)))
    return dict(sorted(files.items()))


def merge_files(parts: list[tuple[str, object]], _info: CorpusInfo | None = None) -> dict[str, bytes]:
    """The corpus end of a format whose documents each give their own files ({path: bytes})."""
    out: dict[str, bytes] = {}
    for _split, part in parts:
        out.update(part or {})
    return out


def by_split(parts: list[tuple[str, object]]) -> dict[str, list]:
    """Parts grouped by split, train and dev always present (empty files are still written)."""
    out: dict[str, list] = {"train": [], "dev": []}
    for split, part in parts:
        out.setdefault(split, []).append(part)
    return out


def write(out: str | os.PathLike, files: dict[str, bytes]) -> None:
    """Replace the folder `out` as a whole by one holding exactly `files`; if anything fails
    (a read-only folder, a full disk) `out` is left as it was and OutputError names it."""
    from concurrent.futures import ThreadPoolExecutor

    from pipeline import atomic
    from pipeline.errors import OutputError

    try:
        # two writers: copying a gigabyte into the page cache releases the GIL (the pool is
        # joined before the folder is swapped in or removed)
        with atomic.replaced_dir(out) as stage, ThreadPoolExecutor(max_workers=2) as pool:
            for done in [pool.submit(atomic.write_bytes, stage / rel, data) for rel, data in files.items()]:
                done.result()
    except OSError as err:
        raise OutputError(str(out), None, f"cannot write the output: {err.strerror or err}") from None
