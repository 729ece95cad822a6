"""Peak resident memory of `zhushu run`, per process: the driver and each Dask worker.

    python benchmarks/memory_peak.py --label one data/corpus/KR1d0030 -- --workers 2
    python benchmarks/memory_peak.py --label four data/corpus/KR1d0030 data/corpus/KR1d0003 \
        data/corpus/KR1d0053 data/corpus/KR1d0028 -- --workers 2

The run's own rusage counts only the driver, so the process tree is sampled (psutil, every
0.1 s): the peak RSS of the driver and the largest peak of any other process in the tree (the
workers, the nanny). `--code DIR` runs another checkout's code (a baseline commit's worktree)
on the same inputs in the same invocation. Prints one JSON object per run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def peak_of_run(code: Path, inputs: list[str], extra: list[str]) -> dict:
    import psutil

    out = Path(tempfile.mkdtemp(prefix="zhushu-mem-")) / "out"
    cmd = [sys.executable, "-m", "pipeline.cli", "run", *[str(Path(i).resolve()) for i in inputs],
           "--out", str(out), "--no-progress", *extra]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=code, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    root = psutil.Process(proc.pid)
    driver, others = 0, {}
    while proc.poll() is None:
        try:
            driver = max(driver, root.memory_info().rss)
            for child in root.children(recursive=True):
                try:
                    others[child.pid] = max(others.get(child.pid, 0), child.memory_info().rss)
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
        time.sleep(0.1)
    err = proc.stderr.read().decode("utf-8", "replace")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) if out.exists() else 0
    return {
        "code": str(code), "inputs": inputs, "args": extra, "exit": proc.returncode,
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "driver_peak_mb": round(driver / 2**20, 1),
        "worker_peak_mb": round(max(others.values(), default=0) / 2**20, 1),
        "output_mb": round(size / 2**20, 1),
        "stderr_tail": err[-300:] if proc.returncode else "",
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--label", default="")
    ap.add_argument("--code", action="append", default=None,
                    help="checkout(s) whose code runs (default: this one)")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, extra = ap.parse_args(argv[:cut]), argv[cut + 1:]  # after --: the run's own options
    codes = [Path(c).resolve() for c in (args.code or [Path(__file__).resolve().parent.parent])]
    for code in codes:
        res = peak_of_run(code, args.inputs, extra)
        res["label"] = args.label
        print(json.dumps(res, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
