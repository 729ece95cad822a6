"""Run the pipeline over many documents, serially or on Dask, and write the datasets.

    read_document -> the annotation stages (runner/stages.py, in requires/provides order) -> export

Each document is processed by `process_item` (runner/document.py: a pure function of the input
file and the options), in this process or on a Dask worker (runner/dask.py); the export stage
then assembles the corpus-level files from the per-document exports in document-id order and
writes everything atomically. So the serial and the Dask outputs are the same bytes, whatever
order the workers finish in. A finished document's exports go to disk at once (export.Spill) and
the formats stream them into the output's staging folder one document at a time, so the driver's
memory does not grow with the number of documents.

Every requested stage is loaded before any document is read: a model that cannot be loaded
raises StageLoadError (the CLI exits 2 naming the stage and the path) unless the stage was
skipped on purpose (`skip`), which the dataset card then says. A bad input file
(pipeline.errors.InputError) is reported and the other files are still processed, but nothing
is written unless `keep_going`: the output folder is replaced as a whole by a complete dataset
or left as it was (docs/datasets.md, "Failures").
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Iterable

from pipeline import paths
from pipeline.errors import InputError
from pipeline.ingest.source import STDIN, STDIN_NAME
from pipeline.model import document_id
from pipeline.runner.dask import local_cluster, run_dask
from pipeline.runner.document import (
    DEFAULT_FORMATS,
    DocResult,
    Options,
    head_stages,
    import_exporters,
    load_stage,
    process_head,
    process_item,
    warm_up,
)
from pipeline.runner.report import ProgressBar, RunSummary, print_summary
from pipeline.runner.stages import ANNOTATORS, STAGE_ORDER, providers
from pipeline.export.bundle import Spill

FORMATS = DEFAULT_FORMATS
DEFAULT_DEV = paths.DEV_DOCS

__all__ = ["FORMATS", "STAGE_ORDER", "DocResult", "Options", "RunSummary", "check_stages", "default_inputs",
           "expand_inputs", "local_cluster", "print_summary", "process_item", "run", "stage_status"]


def check_stages(steps: Iterable[str], models: tuple[tuple[str, str], ...] = (),
                 skip: Iterable[str] = (), load: bool = True) -> tuple[tuple[str, ...], dict[str, str]]:
    """The annotation stages that will run, each loaded once here (StageLoadError if it cannot
    be) unless not `load` (a Dask run: the workers load and check them, dask.check_workers),
    and the status of every requested stage."""
    steps, skip = set(steps), set(skip)
    ready, status = [], {}
    for stage in STAGE_ORDER:
        if stage in skip:
            status[stage] = "skipped (--skip)"
            continue
        if stage not in steps:
            continue
        if stage in ANNOTATORS:
            if load:
                load_stage(stage, models)
            ready.append(stage)
        status[stage] = "ran"
    return tuple(ready), status


def check_requirements(steps: tuple[str, ...]) -> None:
    """Each requested annotation stage must come after stages that provide what it requires."""
    for name in steps:
        if name in ANNOTATORS:
            earlier = steps[: steps.index(name)]
            missing = [p for p in providers(ANNOTATORS[name].requires) if p not in earlier]
            if missing:
                raise InputError("--steps", None, f"stage {name} needs {', '.join(missing)} before it (add it to --steps, or run from --state)")


def check_output_folder(out: str | os.PathLike, items: list[str], force: bool = False) -> None:
    """The output folder is replaced as a whole: refuse one that holds the inputs, the working
    directory or the checkout (a mistyped --out must not delete them), and, unless `force`, a
    folder that is neither empty nor an earlier zhushu output (it holds OUTPUT_MARKER): a user's
    own files are never deleted by a mistyped --out."""
    from pipeline.export.bundle import OUTPUT_MARKER

    target = Path(out).resolve()
    protected = [Path.cwd(), paths.REPO, *(Path(i).resolve() for i in items)]
    for p in protected:
        if p == target or target in p.parents:
            raise InputError(str(out), None, f"the output folder would replace {p}: choose a folder of its own for --out")
    if force or not target.exists():
        return
    if not target.is_dir():
        raise InputError(str(out), None, "the output folder exists and is not a folder")
    if (target / OUTPUT_MARKER).is_file():
        return
    found = sorted(p.name for p in target.iterdir())
    if found:
        shown = ", ".join(found[:3]) + (f" … ({len(found)} entries)" if len(found) > 3 else "")
        raise InputError(str(out), None, f"the folder holds files zhushu did not write ({shown}) and would be replaced "
                         "as a whole: choose an empty or new folder, or --force to replace it")


def check_inputs(items: list[str], encoding: str = "utf-8") -> list[tuple[str, str]]:
    """(path, error) for each input whose markup cannot be read (ingest.check_markup: the
    source-level checks; an error of a layout's reader still comes when that document is read)."""
    from pipeline.ingest import check_markup

    broken = []
    for item in items:
        try:
            check_markup(item, encoding)
        except InputError as err:
            broken.append((item, str(err)))
        except (OSError, UnicodeDecodeError, ValueError) as err:  # as process_head reports them
            broken.append((item, f"{item}: {type(err).__name__}: {err}"))
    return broken


def expand_inputs(inputs: Iterable[str], pattern: str = "*.txt") -> list[str]:
    """Files as given; folders become their sorted *.txt (or *.json) files; relative paths kept.
    A folder without such files is an error, not nothing: given beside other inputs it would drop
    out of the dataset unseen. A folder of book folders (Kanripo repositories cloned side by side)
    is not searched below, but the error says where the files are."""
    items: list[str] = []
    for raw in inputs:
        p = Path(raw)
        if p.is_dir():
            found = sorted(p.glob(pattern))
            if not found:
                below = sum(1 for _ in p.glob(f"*/{pattern}"))
                hint = (f"; its subfolders hold {below}: give the folders themselves "
                        f"(e.g. {os.path.join(raw, '*', '')})") if below else ""
                raise InputError(str(p), None, f"no input files ({pattern}) in this folder{hint}")
            items.extend(str(x) for x in found)
        else:
            items.append(str(p))
    return items


def default_inputs() -> list[str]:
    corpus = paths.CORPUS
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
    skip: Iterable[str] = (),
    formats: Iterable[str] = FORMATS,
    dev_docs: Iterable[str] = DEFAULT_DEV,
    state_in: str | None = None,
    state_out: str | None = None,
    models: dict[str, str] | None = None,
    layout: str = "auto",
    encoding: str = "utf-8",
    base_text: str = "auto",
    stage_options: dict[str, dict[str, object]] | None = None,
    keep_going: bool = False,
    force: bool = False,
    progress: bool = True,
    on_result: Callable[[DocResult], None] | None = None,
) -> RunSummary:
    t_start = time.perf_counter()
    skip = tuple(skip)
    steps = tuple(s for s in STAGE_ORDER if s in set(steps) and s not in skip)
    from_state = "ingest" not in steps
    if from_state:
        if not state_in:
            raise InputError(str(inputs or ""), None, "without the ingest step, --state DIR must give the saved documents")
        items = expand_inputs([state_in], "*.json")
    else:
        if STDIN in (inputs or ()):  # the check of every input would read it up, and Dask workers cannot
            raise InputError(STDIN_NAME, None, "`zhushu run` reads files and folders, not standard input "
                             "(`zhushu ingest -` and `zhushu punctuate -` do): save the text to a file and name that")
        items = expand_inputs(inputs) if inputs else default_inputs()
        check_requirements(steps)
    if not items:
        where = state_in if from_state else ", ".join(inputs or [])
        raise InputError(where, None, "no input files (*.json saved documents)" if from_state else "no input files (*.txt)")
    for target in (out, state_out):
        if target is not None:
            check_output_folder(target, items, force)
    # every input's markup is read before any model is loaded or any document segmented: a
    # broken file fails the run in seconds, not after the files before it went through
    broken = [] if from_state else check_inputs(items, encoding)
    if broken and not keep_going:
        summary = RunSummary(mode="input check", failed=sorted(broken))
        summary.wall_seconds = time.perf_counter() - t_start
        return summary
    refused = {path for path, _err in broken}
    items = [item for item in items if item not in refused]
    model_paths = tuple(sorted((k, str(v)) for k, v in (models or {}).items() if v))
    # on Dask the models are loaded, and so checked, in the workers that use them
    # (dask.check_workers), not in this process: ~600 MB and the CPU of loading them, taken
    # from the workers as they start on a 2-core machine, for models it never ran
    on_dask = bool(scheduler) or bool(workers and workers > 0)
    annotators, status = check_stages(steps, model_paths, skip, load=not on_dask)
    opts = Options(
        steps=steps,
        annotators=annotators,
        not_run=tuple((k, v) for k, v in status.items() if v != "ran"),
        models=model_paths,
        formats=tuple(f for f in FORMATS if f in set(formats)),
        dev_docs=tuple(dev_docs),
        save_state=state_out is not None,
        from_state=from_state,
        layout=layout,
        encoding=encoding,
        base_text=base_text,
        stage_options=tuple(sorted((k, tuple(sorted(v.items()))) for k, v in (stage_options or {}).items())),
    )
    if scheduler:
        mode = f"dask scheduler {scheduler}"
    elif workers and workers > 0:
        mode = f"dask LocalCluster, {workers} worker process(es)"
    else:
        mode = "serial"
    summary = RunSummary(mode=mode, stages=status, out=str(out) if out is not None else None)
    results: list[DocResult] = [DocResult(doc_id=document_id(path), path=path, error=err) for path, err in broken]
    spill_dir = _spill_folder(out if out is not None else state_out)
    from pipeline.export import FORMATS as REGISTRY

    importer: threading.Thread | None = None
    spill = Spill(spill_dir, [REGISTRY[f] for f in opts.formats] if "export" in steps and out is not None else ())

    try:
        with ProgressBar(progress, len(items), mode) as advance:

            def done(res: DocResult) -> None:
                if on_result:
                    on_result(res)
                # the document's exports and saved state go to disk: the driver keeps its stats only
                if res.export is not None:
                    res.export = spill.keep(res.export)
                if res.state is not None:
                    res.state = spill.keep_bytes(res.state)
                results.append(res)
                advance(res.doc_id)

            closing = None
            if mode == "serial":
                run_serial(items, opts, done)
            else:
                if "export" in steps:
                    # this process only assembles: it imports the exporters' libraries while the
                    # workers compute, not after them (spaCy: ~4 s of the assembly otherwise)
                    importer = threading.Thread(target=import_exporters, args=(opts.formats,), name="zhushu-import")
                    importer.start()
                closing = run_dask(items, opts, workers, scheduler, done)
        try:
            _finish(summary, results, items, steps, opts, out, state_out, keep_going)
        finally:
            if closing is not None:  # the Dask workers exit while the outputs are assembled
                closing.join()
    finally:
        if importer is not None:
            importer.join()
        spill.close()
        shutil.rmtree(spill_dir, ignore_errors=True)
    summary.wall_seconds = time.perf_counter() - t_start
    return summary


def _spill_folder(beside: str | os.PathLike | None) -> Path:
    """A folder of our own for the finished documents' parts, beside the output folder (the same
    file system as its staging folder, and not /tmp, which may be held in memory)."""
    if beside is None:
        return Path(tempfile.mkdtemp(prefix="zhushu-", suffix=".spill"))
    parent = Path(beside).resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=parent, prefix=f".{Path(beside).name}.", suffix=".spill"))


def _finish(summary: RunSummary, results: list[DocResult], items: list[str], steps: tuple[str, ...],
            opts: Options, out, state_out, keep_going: bool) -> None:
    """Fill the run's summary from the results; assemble and write the outputs."""
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
    if summary.failed and not keep_going:
        summary.out = None  # nothing written: the earlier output stays as it was
    else:
        from pipeline import atomic
        from pipeline.errors import OutputError
        from pipeline.export import FORMATS as REGISTRY
        from pipeline.export import Sink, export_to
        from pipeline.export.bundle import OUTPUT_MARKER, OUTPUT_MARKER_TEXT
        from pipeline.export.card import caveats

        # both folders are built before either replaces what was there: a failure in either
        # (a full disk, a read-only folder) leaves both as they were
        try:
            with ExitStack() as stack:
                if state_out is not None:
                    states = Sink(stack.enter_context(atomic.replaced_dir(state_out)))
                    for r in good:
                        if r.state is not None:
                            states.write(f"{r.doc_id}.json", r.state.load())
                    states.write(OUTPUT_MARKER, OUTPUT_MARKER_TEXT)  # ours: a later run may replace it
                if "export" in steps and out is not None:
                    sink = Sink(stack.enter_context(atomic.replaced_dir(out)))
                    summary.assemble_by_format = export_to(sink, [r.export for r in good], [REGISTRY[f] for f in opts.formats],
                              with_models(status, opts.models), summary.failed)
                    summary.files = len(sink.names)
                    summary.caveats = caveats([r.stats for r in good], summary.failed)
                    sink.write(OUTPUT_MARKER, OUTPUT_MARKER_TEXT)
        except OSError as err:
            where = out if out is not None else state_out
            raise OutputError(str(where), None, f"cannot write the output: {err.strerror or err}") from None
    summary.assemble_seconds = time.perf_counter() - t_asm


def run_serial(items: list[str], opts: Options, done: Callable[[DocResult], None]) -> None:
    """The documents one after another in this process, but each one's reading and head stages
    (document.head_stages: the segmenter, whose torch calls release the GIL) in a thread while
    the document before it goes through the other stages: the two overlap on two cores. Each
    document is computed as process_item alone would (one thread in each model), so the bytes
    are the same."""
    if not head_stages(opts) or len(items) < 2:
        for item in items:
            done(process_item(item, opts))
        return
    import sys
    from concurrent.futures import ThreadPoolExecutor

    # the look-ahead thread takes the GIL back after every torch call: with Python's default
    # 5 ms switch interval it waited most of its time for it (measured: no overlap at all)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="zhushu-head") as pool:
            warm_up(opts)  # load the models in this thread before the pool uses them
            ahead = pool.submit(process_head, items[0], opts)
            for i, item in enumerate(items):
                head = ahead.result()
                if i + 1 < len(items):
                    ahead = pool.submit(process_head, items[i + 1], opts)
                done(process_item(item, opts, head))
    finally:
        sys.setswitchinterval(interval)


def with_models(status: dict[str, str], models: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The stages' status as the dataset card shows it: a stage that ran with a model names the
    folder (given with --segment-model / --tag-model, else its default), so that a dataset made
    with an optional model says so."""
    given = dict(models)
    out = {}
    for stage, what in status.items():
        cls = ANNOTATORS.get(stage)
        folder = given.get(stage) or (cls.default_model if cls is not None else None)
        if what == "ran" and folder:
            path = Path(folder)
            try:
                shown = path.resolve().relative_to(paths.REPO).as_posix()
            except ValueError:
                shown = path.as_posix()
            what = f"ran (model {shown})"
        out[stage] = what
    return out


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
