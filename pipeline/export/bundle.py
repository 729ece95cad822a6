"""The types the export stage works in, and the three steps it takes:

    bundle(doc, split, stages, formats)          -> DocumentExport   where the document was processed
    export_to(sink, exports, formats, stages)    the corpus files, streamed into the output's staging folder

A format (one module each, registered in pipeline/export/__init__.py) supplies the two ends:
`document(DocumentBundle) -> part` (small and picklable: it may travel from a Dask worker) and a
corpus end that sees the parts one document at a time, in document-id order: `stream(parts,
CorpusInfo, sink)` writes its files into the sink as it goes; a format with little to write may
give `corpus(list[(split, part)], CorpusInfo) -> {path: bytes}` instead. The parts are read back
from the spill (runner: a document's parts go to disk as it finishes), so the memory of the
assembly is that of one document, not of the book: all 161 juan of 禮記集說 peaked at 4.66 GB
when every part and every assembled file was held until the end. A format may also take the
parts as the documents finish (`collect`): the database stages its rows while the workers
still compute.
"""

from __future__ import annotations

import functools
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator

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
    files: list[str]  # the paths written by the formats assembled before this one, sorted
    failed: list[tuple[str, str]] = field(default_factory=list)  # (input, error) of documents left out


@dataclass(frozen=True)
class Format:
    name: str
    document: Callable[[DocumentBundle], object] | None
    # the corpus end: `corpus` returns the files whole (small outputs: the card, an index page);
    # `stream` writes them into the sink a document at a time (everything that grows with the book)
    corpus: Callable[[list[tuple[str, object]], CorpusInfo], dict[str, bytes]] | None = None
    reads_files: bool = False  # its corpus end reads CorpusInfo.files (the dataset card)
    slow_corpus: bool = False  # its corpus end compresses (parquet, DocBin): started first
    stream: Callable[["Parts", CorpusInfo, "Sink"], None] | None = None
    # takes each document's part as the document finishes, in any order (Spill.keep), and gives
    # back what `stream` reads in its place: `collect(folder)` -> an object with add(part) and
    # close() (the sqlite database's rows, staged while the workers still compute)
    collect: Callable[[Path], object] | None = None


class Sink:
    """The folder a dataset is being written into (the staging folder that replaces the output
    folder as a whole, so a file here need not be written atomically on its own)."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        self.names: set[str] = set()

    def path(self, rel: str) -> Path:
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        self.names.add(rel)
        return p

    def open(self, rel: str) -> BinaryIO:
        return open(self.path(rel), "wb")

    def write(self, rel: str, data: bytes) -> None:
        with self.open(rel) as fh:
            fh.write(data)


class SpilledPart:
    """A part written to disk by `Spill`, read back when the corpus end reaches its document."""

    __slots__ = ("path",)

    def __init__(self, path: Path):
        self.path = path

    def load(self) -> object:
        with open(self.path, "rb") as fh:
            return pickle.load(fh)


class Spill:
    """A folder of the finished documents' parts, one file a part, so that the driver holds no
    document once it is done (the folder is the caller's to remove, after close()). The parts of
    a format that collects (Format.collect) go to its collector instead, in this folder too."""

    def __init__(self, folder: str | os.PathLike, formats: Iterable[Format] = ()):
        self.folder = Path(folder)
        self.count = 0
        self.collecting = {f.name: f.collect for f in formats if f.collect is not None}
        self.collectors: dict[str, object] = {}

    def keep(self, export: "DocumentExport") -> "DocumentExport":
        self.count += 1
        for name, part in list(export.parts.items()):
            if name in self.collecting and part is not None:
                if name not in self.collectors:
                    self.collectors[name] = self.collecting[name](self.folder)
                export.parts[name] = self.collectors[name].add(part)
                continue
            path = self.folder / f"{self.count}.{name}.pickle"
            with open(path, "wb") as fh:
                pickle.dump(part, fh, protocol=pickle.HIGHEST_PROTOCOL)
            export.parts[name] = SpilledPart(path)
        return export

    def close(self) -> None:
        for collector in self.collectors.values():
            collector.close()
        self.collectors.clear()

    def keep_bytes(self, data: bytes) -> "SpilledPart":
        self.count += 1
        path = self.folder / f"{self.count}.bytes.pickle"
        with open(path, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
        return SpilledPart(path)


class Parts:
    """One format's parts of the documents, (split, part) in document-id order, each read from
    the spill when reached; iterable as often as a corpus end needs (a pass per split)."""

    def __init__(self, exports: list["DocumentExport"], name: str):
        self.exports = exports
        self.name = name

    def __iter__(self) -> Iterator[tuple[str, object]]:
        for e in self.exports:
            yield e.split, e.part(self.name)

    def __len__(self) -> int:
        return len(self.exports)

    def of_split(self, split: str) -> "Parts":
        return Parts([e for e in self.exports if e.split == split], self.name)


@dataclass
class DocumentExport:
    """One document's share of the dataset: its stats and one part per format."""

    doc_id: str
    split: str
    stats: dict
    parts: dict[str, object] = field(default_factory=dict)

    def part(self, name: str) -> object:
        p = self.parts.get(name)
        return p.load() if isinstance(p, SpilledPart) else p


def bundle(doc: Document, split: str, stages: list[str], formats: Iterable[Format]) -> DocumentExport:
    from pipeline.export import records as rec

    records = rec.document_records(doc, split, stages)
    b = DocumentBundle(doc, split, stages, records)
    out = DocumentExport(doc.id, split, rec.document_stats(records))
    for fmt in formats:
        if fmt.document is not None:
            out.parts[fmt.name] = fmt.document(b)
    return out


def export_to(sink: Sink, exports: list[DocumentExport], formats: Iterable[Format], stages: dict[str, str],
              failed: Iterable[tuple[str, str]] = ()) -> dict[str, float]:
    """Write all output files into `sink` from the documents' exports (any order in, document-id
    order out); formats are assembled in the order given, those that read the others' files
    (the card) after the rest. Returns each format's assembly seconds (wall; side by side)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    exports = sorted(exports, key=lambda e: e.doc_id)
    stats = [e.stats for e in exports if e.stats]
    formats = list(formats)

    seconds: dict[str, float] = {}

    def corpus(fmt: Format) -> None:
        t0 = time.perf_counter()
        info = CorpusInfo(stats, stages, sorted(sink.names) if fmt.reads_files else [], list(failed))
        parts = Parts(exports, fmt.name)
        if fmt.stream is not None:
            fmt.stream(parts, info, sink)
        else:
            for rel, data in fmt.corpus(list(parts), info).items():
                sink.write(rel, data)
        seconds[fmt.name] = time.perf_counter() - t0

    # the formats that do not read the others' files side by side, the slow ones first:
    # parquet's compression, the DocBins' zlib and the file writes release the GIL
    with ThreadPoolExecutor(max_workers=3) as pool:
        first = sorted((f for f in formats if not f.reads_files), key=lambda f: not f.slow_corpus)
        for done in [pool.submit(corpus, f) for f in first]:
            done.result()
    for fmt in formats:
        if fmt.reads_files:
            corpus(fmt)
    return seconds


def assemble(exports: list[DocumentExport], formats: Iterable[Format], stages: dict[str, str],
             failed: Iterable[tuple[str, str]] = ()) -> dict[str, bytes]:
    """All output files as {path: bytes} (export_to into a temporary folder, read back): for
    tests and callers that want the dataset in memory."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="zhushu-assemble-") as tmp:
        sink = Sink(tmp)
        export_to(sink, exports, formats, stages, failed)
        return {rel: (sink.root / rel).read_bytes() for rel in sorted(sink.names)}


def stream_files(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    """The corpus end of a format whose documents each give their own files ({path: bytes})."""
    for _split, part in parts:
        for rel, data in (part or {}).items():
            sink.write(rel, data)


# written into every folder zhushu replaces (the runner, beside the dataset and the saved states):
# the next run may replace a folder holding it (runner.check_output_folder), and refuses any
# other non-empty folder unless --force
OUTPUT_MARKER = ".zhushu-output"
OUTPUT_MARKER_TEXT = b"Written by zhushu: the next `zhushu run` with this folder as --out or --save-state replaces it as a whole.\n"
