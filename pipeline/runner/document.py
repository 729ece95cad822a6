"""One document through the stages: `process_item(path, opts) -> DocResult`, a pure function of
the input file and the options, run in this process or on a Dask worker."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError
from pipeline.export import FORMATS
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
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def stats(self) -> dict:
        return self.export.stats if self.export is not None else {}


def load_stage(name: str, models: tuple[tuple[str, str], ...] = ()):
    """The loaded stage `name` (cached per process), with the model folder the options name."""
    return ANNOTATORS[name].load(dict(models).get(name))


def process_item(item: str, opts: Options) -> DocResult:
    """Read (or load) one document, run the stages, render its per-document outputs."""
    _warm_up(opts)
    t0 = time.perf_counter()
    seconds: dict[str, float] = {}
    try:
        if opts.from_state:
            doc, history, skipped = document_from_json(Path(item).read_bytes())
        else:
            from pipeline.ingest import read_document

            doc, history, skipped = read_document(item, layout=opts.layout, encoding=opts.encoding), ["ingest"], {}
    except InputError as err:
        return DocResult(doc_id=Path(item).stem, path=item, error=str(err))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        return DocResult(doc_id=Path(item).stem, path=item, error=f"{item}: {type(err).__name__}: {err}")
    seconds["ingest" if not opts.from_state else "load"] = time.perf_counter() - t0
    res = DocResult(doc_id=doc.id, path=item, split="dev" if doc.id in opts.dev_docs else "train")
    res.chars = sum(len(u.text) for u in doc.units)
    res.skipped = dict(skipped)
    res.skipped.update(dict(opts.not_run))
    for name in opts.annotators:
        missing = [p for p in providers(ANNOTATORS[name].requires) if p not in history]
        if missing:  # a saved document from a run without them
            res.error = f"{item}: stage {name} needs {', '.join(missing)}, which did not run on this document"
            return res
        t = time.perf_counter()
        doc = load_stage(name, opts.models)(doc)
        seconds[name] = time.perf_counter() - t
        history.append(name)
        res.skipped.pop(name, None)
    res.stages = history
    if opts.save_state:
        res.state = document_to_json(doc, history, res.skipped)
    if "export" in opts.steps:
        from pipeline.export import bundle

        t = time.perf_counter()
        res.export = bundle(doc, res.split, [s for s in history if s != "export"], [FORMATS[f] for f in opts.formats])
        seconds["export"] = time.perf_counter() - t
    res.seconds = seconds
    return res


_WARM: set[tuple[str, ...]] = set()


def _warm_up(opts: Options) -> None:
    """Import the exporters (spaCy is slow to import) and load the models once per process,
    outside the timings."""
    if opts.formats in _WARM:
        return
    if "export" in opts.steps:
        import pipeline.export  # noqa: F401

        if "parquet" in opts.formats:
            import pyarrow  # noqa: F401

        if "spacy" in opts.formats:
            import spacy.tokens  # noqa: F401
            import spacy.vocab  # noqa: F401
    for name in opts.annotators:
        load_stage(name, opts.models)
    _WARM.add(opts.formats)
