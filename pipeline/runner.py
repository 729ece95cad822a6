"""Run the pipeline over many documents, serially or on Dask, and write the datasets.

    read_document -> segment_document -> tag_document -> align_document -> per-document exports

Each document is processed by `process_item` (a pure function of the input file and the
options), in this process or on a Dask worker; the driver then assembles the corpus-level files
(jsonl/, parquet/, spacy/, iob/, html/index.html, README.md) from the per-document results in
document-id order and writes everything atomically. So the serial and the Dask outputs are the
same bytes, whatever order the workers finish in.

A stage whose module is not importable (or whose model does not load) is skipped: its
annotations are absent and the summary says why. A bad input file (pipeline.errors.InputError)
is reported and the other files are still processed.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from pipeline.errors import InputError

STAGE_ORDER = ("ingest", "segment", "tag", "align", "export")
ANNOTATORS: dict[str, tuple[str, str | None, str, tuple[str, ...]]] = {
    # stage: (module, loader, document function, stages it needs before it)
    "segment": ("pipeline.segment", "load_segmenter", "segment_document", ()),
    "tag": ("pipeline.tag", "load_tagger", "tag_document", ()),
    "align": ("pipeline.align", None, "align_document", ("segment",)),
}
FORMATS = ("jsonl", "parquet", "conllu", "spacy", "iob", "tei", "html", "card")
DEFAULT_DEV = ("KR1d0030_010",)
STATE_VERSION = 1


def embedded_corpus() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "corpus" / "KR1d0030"


@dataclass(frozen=True)
class Options:
    steps: tuple[str, ...] = STAGE_ORDER
    annotators: tuple[str, ...] = ()  # the annotation stages that will run (checked available)
    formats: tuple[str, ...] = FORMATS
    dev_docs: tuple[str, ...] = DEFAULT_DEV
    save_state: bool = False
    from_state: bool = False
    not_run: tuple[tuple[str, str], ...] = ()  # (stage, why) for requested stages that cannot run
    models: tuple[tuple[str, str], ...] = ()  # (stage, model folder) overriding the default


@dataclass
class DocResult:
    doc_id: str
    path: str
    error: str | None = None
    split: str = "train"
    stages: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # stage -> why it did not run on this document
    files: dict[str, bytes] = field(default_factory=dict)  # relative to the output folder
    jsonl: dict[str, bytes] = field(default_factory=dict)
    stats: dict = field(default_factory=dict)  # records.document_stats (the records stay in the worker)
    tables: dict = field(default_factory=dict)  # parquet: kind -> pyarrow.Table
    iob: str = ""
    docbin: object = None  # spacy.tokens.DocBin
    state: bytes | None = None
    chars: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class RunSummary:
    mode: str
    documents: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    stages: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    chars: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # summed over documents
    assemble_seconds: float = 0.0
    wall_seconds: float = 0.0
    out: str | None = None
    files: int = 0

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["failed"] = [{"path": p, "error": e} for p, e in self.failed]
        return d


# --- stages ---------------------------------------------------------------------------------

_MODELS: dict[tuple[str, str | None], object] = {}


def _stage_function(stage: str):
    module, loader, fn, _ = ANNOTATORS[stage]
    mod = importlib.import_module(module)
    return getattr(mod, loader) if loader else None, getattr(mod, fn)


def _model(stage: str, models: tuple[tuple[str, str], ...] = ()):
    path = dict(models).get(stage)
    if (stage, path) not in _MODELS:
        loader, _ = _stage_function(stage)
        _MODELS[(stage, path)] = (loader(path) if path else loader()) if loader else None
    return _MODELS[(stage, path)]


def check_stages(steps: Iterable[str], models: tuple[tuple[str, str], ...] = ()) -> tuple[tuple[str, ...], dict[str, str]]:
    """Which annotation stages can run here: import each module and load its model once."""
    ready, status = [], {}
    steps = list(steps)
    for stage in STAGE_ORDER:
        if stage not in steps:
            continue
        if stage not in ANNOTATORS:
            status[stage] = "ran"
            continue
        try:
            _stage_function(stage)
            _model(stage, models)
        except Exception as err:  # a stage under construction must not stop the run
            kind = "not available" if isinstance(err, ImportError) else "failed to load"
            status[stage] = f"{kind}: {type(err).__name__}: {err}"
            continue
        ready.append(stage)
        status[stage] = "ran"
    return tuple(ready), status


# --- document state (for stage-by-stage runs, e.g. the DVC stages) ---------------------------


def document_to_json(doc, stages: list[str], skipped: dict[str, str] | None = None) -> bytes:
    payload = {"version": STATE_VERSION, "stages": stages, "skipped": skipped or {}, "document": dataclasses.asdict(doc)}
    return (json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def document_from_json(data: bytes | str):
    from pipeline import model

    payload = json.loads(data)
    d = payload["document"]

    def build(cls, values: dict):
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})

    units = []
    for u in d.get("units", []):
        unit = build(model.Unit, u)
        unit.marks = {int(k): v for k, v in (u.get("marks") or {}).items()}
        unit.sentences = [build(model.Sentence, s) for s in u.get("sentences", [])]
        unit.clauses = [build(model.Sentence, s) for s in u.get("clauses", [])]
        unit.entities = [build(model.Entity, e) for e in u.get("entities", [])]
        unit.glosses = [build(model.Gloss, g) for g in u.get("glosses", [])]
        units.append(unit)
    doc = build(model.Document, d)
    doc.units = units
    doc.notes = [build(model.CollationNote, n) for n in d.get("notes", [])]
    doc.pages = [tuple(p) for p in d.get("pages", [])]
    doc.lines = [tuple(x) for x in d.get("lines", [])]
    return doc, list(payload.get("stages", [])), dict(payload.get("skipped", {}))


# --- one document ---------------------------------------------------------------------------


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

            doc, history, skipped = read_document(item), ["ingest"], {}
    except InputError as err:
        return DocResult(doc_id=Path(item).stem, path=item, error=str(err))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        return DocResult(doc_id=Path(item).stem, path=item, error=f"{item}: {type(err).__name__}: {err}")
    seconds["ingest" if not opts.from_state else "load"] = time.perf_counter() - t0
    res = DocResult(doc_id=doc.id, path=item, split="dev" if doc.id in opts.dev_docs else "train")
    res.chars = sum(len(u.text) for u in doc.units)
    res.skipped = dict(skipped)
    res.skipped.update(dict(opts.not_run))
    for stage in opts.annotators:
        missing = [need for need in ANNOTATORS[stage][3] if need not in history]
        if missing:
            res.skipped[stage] = f"skipped (needs {', '.join(missing)})"
            continue
        t = time.perf_counter()
        _, fn = _stage_function(stage)
        model = _model(stage, opts.models)
        doc = fn(doc, model) if model is not None else fn(doc)
        seconds[stage] = time.perf_counter() - t
        history.append(stage)
        res.skipped.pop(stage, None)
    res.stages = history
    if opts.save_state:
        res.state = document_to_json(doc, history, res.skipped)
    if "export" in opts.steps:
        t = time.perf_counter()
        _export_document(doc, res, opts)
        seconds["export"] = time.perf_counter() - t
    res.seconds = seconds
    return res


_WARM: set[tuple[str, ...]] = set()


def _warm_up(opts: Options) -> None:
    """Import the exporters (spaCy is slow to import) once per process, outside the timings."""
    if opts.formats in _WARM:
        return
    if "export" in opts.steps:
        import pipeline.export.records  # noqa: F401

        if "parquet" in opts.formats:
            import pyarrow  # noqa: F401

        if "spacy" in opts.formats:
            import spacy.tokens  # noqa: F401
            import spacy.vocab  # noqa: F401
    for stage in opts.annotators:
        _model(stage, opts.models)
    _WARM.add(opts.formats)


def _export_document(doc, res: DocResult, opts: Options) -> None:
    from pipeline.export import records as rec

    fmts = set(opts.formats)
    records = rec.document_records(doc, res.split, [s for s in res.stages if s != "export"])
    res.stats = rec.document_stats(records)
    if "jsonl" in fmts:
        from pipeline.export import jsonl

        res.jsonl = jsonl.render_lines(records)
    if "parquet" in fmts:
        from pipeline.export import parquet

        res.tables = parquet.tables(records)
    if "conllu" in fmts:
        from pipeline.export import conllu

        res.files[f"conllu/{doc.id}.conllu"] = conllu.render(doc).encode("utf-8")
    if "tei" in fmts:
        from pipeline.export import tei

        res.files[f"tei/{doc.id}.xml"] = tei.render_doc(doc).encode("utf-8")
    if "html" in fmts:
        from pipeline.export import html

        res.files[f"html/{doc.id}.html"] = html.render_doc(doc).encode("utf-8")
    if "iob" in fmts:
        from pipeline.export import iob

        res.iob = iob.render(doc)
    if "spacy" in fmts:
        from pipeline.export import spacy_docbin

        res.docbin = spacy_docbin.docbin(doc)


# --- the corpus-level files -----------------------------------------------------------------


def assemble(results: list[DocResult], opts: Options, stage_status: dict[str, str]) -> dict[str, bytes]:
    """All output files, from the per-document results (any order in, document-id order out)."""
    results = sorted((r for r in results if r.error is None), key=lambda r: r.doc_id)
    fmts = set(opts.formats)
    files: dict[str, bytes] = {}
    for r in results:
        files.update(r.files)
    stats = [r.stats for r in results if r.stats]
    if "jsonl" in fmts:
        from pipeline.export import jsonl

        files.update(jsonl.files([r.jsonl for r in results]))
    if "parquet" in fmts:
        from pipeline.export import parquet

        files.update(parquet.files([r.tables for r in results]))
    if "iob" in fmts:
        from pipeline.export import iob

        per: dict[str, list[str]] = {"train": [], "dev": []}
        for r in results:
            per[r.split].append(r.iob)
        files.update(iob.files(per))
    if "spacy" in fmts:
        from pipeline.export import spacy_docbin

        perb: dict[str, list] = {"train": [], "dev": []}
        for r in results:
            perb[r.split].append(r.docbin)
        files.update(spacy_docbin.files(perb))
    note = "Stages: " + "; ".join(f"{k}: {v}" for k, v in stage_status.items())
    if "html" in fmts:
        from pipeline.export import html

        files.update(html.files_for_index(stats, note))
    if "card" in fmts:
        from pipeline.export import card

        files["README.md"] = card.render(stats, stage_status, sorted(files)).encode("utf-8")
    return dict(sorted(files.items()))


def write_outputs(out: str | os.PathLike, files: dict[str, bytes], prune: Iterable[str] = ()) -> None:
    """Write all files atomically (a staged folder moved in at the end); then remove the files
    of an earlier run left in the `prune` folders (e.g. tei/ of a document not in this run),
    so that the folders hold one coherent dataset. Other files in `out` are left alone."""
    from pipeline import atomic

    with atomic.staged_dir(out) as stage:
        for rel, data in files.items():
            atomic.write_bytes(stage / rel, data)
    root = Path(out)
    for folder in prune:
        for old in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
            if old.is_file() and str(old.relative_to(root)) not in files:
                old.unlink()


# --- the run --------------------------------------------------------------------------------


def expand_inputs(inputs: Iterable[str], pattern: str = "*.txt") -> list[str]:
    """Files as given; folders become their sorted *.txt (or *.json) files; relative paths kept."""
    items: list[str] = []
    for raw in inputs:
        p = Path(raw)
        if p.is_dir():
            items.extend(str(x) for x in sorted(p.glob(pattern)))
        else:
            items.append(str(p))
    return items


def default_inputs() -> list[str]:
    corpus = embedded_corpus()
    try:
        rel = os.path.relpath(corpus)
    except ValueError:
        rel = str(corpus)
    return expand_inputs([rel if not rel.startswith("..") else str(corpus)])


def run(
    inputs: list[str] | None = None,
    out: str | os.PathLike | None = "out",
    *,
    workers: int = 0,
    scheduler: str | None = None,
    steps: Iterable[str] = STAGE_ORDER,
    formats: Iterable[str] = FORMATS,
    dev_docs: Iterable[str] = DEFAULT_DEV,
    state_in: str | None = None,
    state_out: str | None = None,
    models: dict[str, str] | None = None,
    progress: bool = True,
    on_result: Callable[[DocResult], None] | None = None,
) -> RunSummary:
    t_start = time.perf_counter()
    steps = tuple(s for s in STAGE_ORDER if s in set(steps))
    from_state = "ingest" not in steps
    if from_state:
        if not state_in:
            raise InputError(str(inputs or ""), None, "without the ingest step, --state DIR must give the saved documents")
        items = expand_inputs([state_in], "*.json")
    else:
        items = expand_inputs(inputs) if inputs else default_inputs()
    model_paths = tuple(sorted((k, str(v)) for k, v in (models or {}).items() if v))
    annotators, status = check_stages(steps, model_paths)
    opts = Options(
        steps=steps,
        annotators=annotators,
        not_run=tuple((k, v) for k, v in status.items() if v != "ran"),
        models=model_paths,
        formats=tuple(f for f in FORMATS if f in set(formats)),
        dev_docs=tuple(dev_docs),
        save_state=state_out is not None,
        from_state=from_state,
    )
    if scheduler:
        mode = f"dask scheduler {scheduler}"
    elif workers and workers > 0:
        mode = f"dask LocalCluster, {workers} worker process(es)"
    else:
        mode = "serial"
    summary = RunSummary(mode=mode, stages=status, out=str(out) if out is not None else None)
    results: list[DocResult] = []

    def collect(res: DocResult) -> None:
        results.append(res)
        if on_result:
            on_result(res)

    with _progress(progress, len(items), mode) as advance:

        def done(res: DocResult) -> None:
            collect(res)
            advance(res.doc_id)

        if mode == "serial":
            for item in items:
                done(process_item(item, opts))
        else:
            _run_dask(items, opts, workers, scheduler, done)

    # duplicate ids: keep the first (in input order), report the rest
    seen: dict[str, str] = {}
    order = {item: i for i, item in enumerate(items)}
    for r in sorted(results, key=lambda r: order.get(r.path, 0)):
        if r.error is None:
            if r.doc_id in seen:
                r.error = f"{r.path}: duplicate document id {r.doc_id} (also {seen[r.doc_id]})"
            else:
                seen[r.doc_id] = r.path
    status = stage_status(results, steps)
    summary.stages = status
    summary.failed = sorted((r.path, r.error) for r in results if r.error is not None)
    good = [r for r in results if r.error is None]
    summary.documents = len(good)
    summary.chars = sum(r.chars for r in good)
    for r in good:
        for k, v in r.seconds.items():
            summary.seconds[k] = summary.seconds.get(k, 0.0) + v
        for kind, n in r.stats.get("counts", {}).items():
            summary.counts[kind] = summary.counts.get(kind, 0) + n
    t_asm = time.perf_counter()
    if state_out is not None:
        write_outputs(state_out, {f"{r.doc_id}.json": r.state for r in good if r.state is not None})
    if "export" in steps and out is not None:
        files = assemble(good, opts, status)
        write_outputs(out, files, prune=sorted({rel.split("/", 1)[0] for rel in files if "/" in rel}))
        summary.files = len(files)
    summary.assemble_seconds = time.perf_counter() - t_asm
    summary.wall_seconds = time.perf_counter() - t_start
    return summary


def stage_status(results: list[DocResult], steps: tuple[str, ...]) -> dict[str, str]:
    """What happened to each stage over the documents (from their histories, so that a run
    from saved states reports the stages of the earlier steps too)."""
    good = sorted((r for r in results if r.error is None), key=lambda r: r.doc_id)
    status: dict[str, str] = {}
    for stage in STAGE_ORDER:
        if stage == "export":
            if "export" in steps:
                status[stage] = "ran"
            continue
        ran = [r for r in good if stage in r.stages]
        if good and len(ran) == len(good):
            status[stage] = "ran"
            continue
        why = next((r.skipped[stage] for r in good if stage in r.skipped), "not run")
        status[stage] = why if not ran else f"ran on {len(ran)} of {len(good)} documents; {why}"
    return status


WORKER_ENVIRON = {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1, "MALLOC_ARENA_MAX": 1}


def local_cluster(workers: int):
    """A LocalCluster of `workers` processes, one thread each.

    Worker environment: one BLAS/OpenMP thread, and glibc malloc as in a plain process. Dask's
    default sets MALLOC_TRIM_THRESHOLD_=65536, which switches off glibc's dynamic mmap
    threshold: every tensor of the segmenter is then mmap'ed and faulted in afresh (the segment
    stage ran 2x slower in a worker, measured); tasks also run in a non-main thread, whose
    malloc arena trims eagerly, hence MALLOC_ARENA_MAX=1.
    """
    import logging

    import dask
    from dask.distributed import LocalCluster

    with dask.config.set({"distributed.nanny.pre-spawn-environ": dict(WORKER_ENVIRON)}):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )


def _run_dask(items: list[str], opts: Options, workers: int, scheduler: str | None, done) -> None:
    from dask.distributed import Client, as_completed

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = local_cluster(workers)
        client = Client(cluster)
    try:
        futures = client.map(process_item, items, opts=opts, pure=False)
        for fut in as_completed(futures):
            try:
                res = fut.result()
            except Exception as err:  # a worker crashed on this document
                key_item = items[futures.index(fut)]
                res = DocResult(doc_id=Path(key_item).stem, path=key_item, error=f"{key_item}: worker error: {type(err).__name__}: {err}")
            done(res)
            fut.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class _progress:
    """A rich progress bar over documents (silent when disabled or not on a terminal)."""

    def __init__(self, enabled: bool, total: int, mode: str):
        self.enabled, self.total, self.mode = enabled, total, mode
        self.bar = None

    def __enter__(self):
        if not self.enabled:
            return lambda _doc: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn("[bold]zhushu run[/] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.bar.__enter__()
        task = self.bar.add_task(self.mode, total=self.total)
        return lambda doc_id: self.bar.update(task, advance=1, description=f"{self.mode}: {doc_id}")

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def print_summary(summary: RunSummary, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console(stderr=True)
    table = Table(title=f"zhushu run — {summary.mode}", show_header=True)
    table.add_column("")
    table.add_column("value", justify="right")
    table.add_row("documents", f"{summary.documents} ok, {len(summary.failed)} failed")
    table.add_row("characters", str(summary.chars))
    for kind, n in summary.counts.items():
        table.add_row(f"records: {kind}", str(n))
    for stage, status in summary.stages.items():
        secs = summary.seconds.get(stage)
        rate = f", {summary.chars / secs:,.0f} chars/s" if secs and summary.chars else ""
        table.add_row(f"stage {stage}", status + (f" ({secs:.1f}s{rate})" if secs else ""))
    table.add_row("assemble + write", f"{summary.assemble_seconds:.1f}s")
    table.add_row("wall time", f"{summary.wall_seconds:.1f}s")
    if summary.out:
        table.add_row("output", f"{summary.out} ({summary.files} files)")
    console.print(table)
    for path, err in summary.failed:
        console.print(f"[red]zhushu: error:[/] {err}", highlight=False)
