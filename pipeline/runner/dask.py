"""Running documents on Dask: a LocalCluster of one-thread worker processes, or a given scheduler."""

from __future__ import annotations

import threading
from pathlib import Path

from pipeline.model import document_id
from pipeline.runner.document import DocResult, Options, load_stage, process_item

WORKER_ENVIRON = {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1, "MALLOC_ARENA_MAX": 1}
# Dask's statistical profiler samples each task's stack every 10 ms (for the dashboard, which a
# LocalCluster of ours does not serve): time taken from the stages
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}


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

    with dask.config.set({"distributed.nanny.pre-spawn-environ": dict(WORKER_ENVIRON), **WORKER_CONFIG}):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
            preload=["pipeline.runner.preload"],  # the heavy imports, at worker start
        )


def run_dask(items: list[str], opts: Options, workers: int, scheduler: str | None, done, cluster=None) -> threading.Thread:
    """Process `items` on Dask; `done(DocResult)` for each as it finishes (a crashed task gives
    a failed DocResult). `cluster`: a LocalCluster already started. Returns the thread that
    closes the client and the cluster (the worker processes take a second to exit: the caller
    assembles the outputs meanwhile and joins it)."""
    from dask.distributed import Client, as_completed

    if scheduler:
        client = Client(scheduler)
    else:
        cluster = cluster or local_cluster(workers)
        client = Client(cluster)
    try:
        check_workers(client, opts)
        # the largest files first, so that the last task to finish is a short one (the
        # outputs are assembled in document-id order whatever order they finish in)
        items = sorted(items, key=_size, reverse=True)
        futures = client.map(process_item, items, opts=opts, pure=False)
        for fut in as_completed(futures):
            try:
                res = fut.result()
            except Exception as err:  # a worker crashed on this document
                key_item = items[futures.index(fut)]
                res = DocResult(doc_id=document_id(key_item), path=key_item, error=f"{key_item}: worker error: {type(err).__name__}: {err}")
            done(res)
            fut.release()
    except BaseException:
        _close(client, cluster)
        raise
    closing = threading.Thread(target=_close, args=(client, cluster), name="zhushu-dask-close")
    closing.start()
    return closing


def check_workers(client, opts: Options) -> None:
    """Load the run's stages in every worker before any document is sent: a model that cannot be
    loaded raises its StageLoadError here, as the serial runner's check does, and the workers'
    first tasks find their models loaded."""
    if opts.annotators:
        client.wait_for_workers(1)
        client.run(load_stages, opts.annotators, opts.models)


def load_stages(annotators: tuple[str, ...], models: tuple[tuple[str, str], ...]) -> None:
    for name in annotators:
        load_stage(name, models)


def _close(client, cluster) -> None:
    client.close()
    if cluster is not None:
        cluster.close()


def _size(item: str) -> int:
    try:
        return Path(item).stat().st_size
    except OSError:  # reported when the document is read
        return 0
