"""One document through the stages: `process_item(path, opts) -> DocResult`, a pure function of
the input file and the options, run in this process or on a Dask worker."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError
from pipeline.export import FORMATS
from pipeline.model import document_id
from pipeline.runner.stages import ANNOTATORS, STAGE_ORDER, providers
from pipeline.runner.state import document_from_json, document_to_json

DEFAULT_FORMATS = tuple(FORMATS)  # every registered format, in their output order


@dataclass(frozen=True)
class Options:
    steps: tuple[str, ...] = STAGE_ORDER
    annotators: tuple[str, ...] = ()  # the annotation stages that will run (loaded already)
    formats: tuple[str, ...] = DEFAULT_FORMATS
    dev_docs: tuple[str, ...] = ()
    save_state: bool = False
    from_state: bool = False
    not_run: tuple[tuple[str, str], ...] = ()  # (stage, why) for requested stages that do not run
    models: tuple[tuple[str, str], ...] = ()  # (stage, model folder) overriding the default
    layout: str = "auto"  # ingest: the source layout
    encoding: str = "utf-8"  # ingest: the encoding of the input files
    base_text: str = "auto"  # ingest: the plain 經 text of 注疏 inputs ("auto": the embedded one of the book)
    # keyword arguments of a stage's call: (stage, ((name, value), …)), e.g. the segment stage's
    # ("segment", (("repunctuate", True),)) from `--repunctuate`
    stage_options: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()


@dataclass
class DocResult:
    doc_id: str
    path: str
    error: str | None = None
    split: str = "train"
    stages: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # stage -> why it did not run on this document
    export: object = None  # pipeline.export.DocumentExport
    state: bytes | None = None
    chars: int = 0
    # CPU seconds of each stage (time.thread_time: the serial runner's look-ahead thread
    # overlaps stages of two documents, so wall-clock spans would count waits for the GIL)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def stats(self) -> dict:
        return self.export.stats if self.export is not None else {}


def load_stage(name: str, models: tuple[tuple[str, str], ...] = ()):
    """The loaded stage `name` (cached per process), with the model folder the options name."""
    return ANNOTATORS[name].load(dict(models).get(name))


@dataclass
class Head:
    """A document read and through its leading stages (`head_stages`), not yet further."""

    doc: object  # pipeline.model.Document
    history: list[str]
    result: DocResult
    seconds: dict[str, float]
    ran: list[str] = field(default_factory=list)  # the stages run on it in this run


def head_stages(opts: Options) -> tuple[str, ...]:
    """The leading annotation stages whose work releases the GIL (Stage.releases_gil): the
    serial runner runs them, with reading, for the next document in a thread."""
    out: list[str] = []
    for name in opts.annotators:
        if not ANNOTATORS[name].releases_gil:
            break
        out.append(name)
    return tuple(out)


def process_head(item: str, opts: Options) -> Head | DocResult:
    """Read (or load) one document and run its head stages; a DocResult if that failed."""
    warm_up(opts)
    t0 = time.thread_time()
    seconds: dict[str, float] = {}
    try:
        if opts.from_state:
            try:
                doc, history, skipped = document_from_json(Path(item).read_bytes())
            except (KeyError, TypeError, AttributeError, ValueError) as err:  # a file of another shape
                raise InputError(item, None, f"not a saved document of this zhushu: {type(err).__name__}: {err}") from err
        else:
            from pipeline.ingest import read_document

            doc = read_document(item, layout=opts.layout, encoding=opts.encoding, base_text=opts.base_text)
            history, skipped = ["ingest"], {}
    except InputError as err:
        return DocResult(doc_id=document_id(item), path=item, error=str(err))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        return DocResult(doc_id=document_id(item), path=item, error=f"{item}: {type(err).__name__}: {err}")
    seconds["ingest" if not opts.from_state else "load"] = time.thread_time() - t0
    res = DocResult(doc_id=doc.id, path=item, split="dev" if doc.id in opts.dev_docs or doc.juan_id in opts.dev_docs else "train")
    res.chars = sum(len(u.text) for u in doc.units)
    res.skipped = dict(skipped)
    res.skipped.update(dict(opts.not_run))
    head = Head(doc, history, res, seconds)
    for name in head_stages(opts):
        if not _run_stage(head, name, item, opts):
            return head.result
    return head


def _run_stage(head: Head, name: str, item: str, opts: Options) -> bool:
    missing = [p for p in providers(ANNOTATORS[name].requires) if p not in head.history]
    if missing:  # a saved document from a run without them
        head.result.error = f"{item}: stage {name} needs {', '.join(missing)}, which did not run on this document"
        return False
    t = time.thread_time()
    head.doc = load_stage(name, opts.models)(head.doc, **dict(dict(opts.stage_options).get(name, ())))
    head.seconds[name] = time.thread_time() - t
    head.history.append(name)
    head.ran.append(name)
    head.result.skipped.pop(name, None)
    return True


def process_item(item: str, opts: Options, head: Head | DocResult | None = None) -> DocResult:
    """Read (or load) one document, run the stages, render its per-document outputs. `head`:
    process_head(item, opts) when it was computed ahead (the serial runner's thread)."""
    warm_up(opts)
    if head is None:
        head = process_head(item, opts)
    if isinstance(head, DocResult):
        return head
    res = head.result
    for name in opts.annotators:
        if name not in head.ran and not _run_stage(head, name, item, opts):
            return res
    doc, history = head.doc, head.history
    res.stages = history
    if opts.save_state:
        res.state = document_to_json(doc, history, res.skipped)
    if "export" in opts.steps:
        from pipeline.export import bundle

        t = time.thread_time()
        res.export = bundle(doc, res.split, [s for s in history if s != "export"], [FORMATS[f] for f in opts.formats])
        head.seconds["export"] = time.thread_time() - t
    res.seconds = head.seconds
    return res


_WARM: set[tuple[str, ...]] = set()


def warm_up(opts: Options) -> None:
    """Import the exporters (spaCy is slow to import) and load the models once per process,
    outside the timings."""
    if opts.formats in _WARM:
        return
    if "export" in opts.steps:
        import_exporters(opts.formats)
    for name in opts.annotators:
        load_stage(name, opts.models)
    _WARM.add(opts.formats)


def import_exporters(formats: tuple[str, ...]) -> None:
    """The libraries the formats need (spaCy takes ~4 s of CPU to import)."""
    import pipeline.export  # noqa: F401

    if "parquet" in formats:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401

    if "spacy" in formats:
        import spacy.tokens  # noqa: F401
        import spacy.vocab  # noqa: F401
    if "sqlite" in formats:
        import sqlite_utils  # noqa: F401
