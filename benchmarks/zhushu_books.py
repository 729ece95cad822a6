"""The two 注疏 books through every stage: 2 Dask workers against one serial process, same run;
or against an earlier commit's code, alternately.

    python benchmarks/zhushu_books.py [--skip parse] [--out /tmp/zhushu-bench]
    python benchmarks/zhushu_books.py --against COMMIT [--rounds 3] [--inputs DIR …] [--out …]

The first runs `zhushu run data/corpus/KR1d0003 data/corpus/KR1d0053` once with `--workers 2`
and once serially (the baseline), each in its own process, and prints the wall times, their
ratio, the per-stage seconds (summed over documents) and whether the two datasets are
byte-identical. The issue's target: ≤ 180 s wall with 2 workers on this 2-core machine.

With --against, COMMIT's tree (`git archive`, into a temporary folder) and the current tree
run the same `zhushu run INPUTS --workers 2` alternately (the baseline first in even rounds,
second in odd ones: use an even number of rounds),
each as its own process; it prints each run's wall, CPU (the process and its children), the
load average before and after, the assembly seconds, the ratio of the medians, and whether the
two codes' datasets are byte-identical (every file). The machine is shared: the ratio of runs
made side by side in time is the measure, not one wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BOOKS = ["data/corpus/KR1d0003", "data/corpus/KR1d0053"]


def run(out: Path, extra: list[str]) -> dict:
    summary = out.with_suffix(".json")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline.cli", "run", *BOOKS, "--out", str(out), "--no-progress",
                    "--summary-json", str(summary), *extra], cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    s = json.loads(summary.read_text(encoding="utf-8"))
    return {"wall": round(wall, 1), "chars": s["chars"], "stages": {k: round(v, 1) for k, v in s["seconds"].items()},
            "counts": s["counts"]}


def timed_run(code: Path, inputs: list[str], out: Path) -> dict:
    """`zhushu run INPUTS --workers 2` with the code in `code`, as its own process."""
    summary = out.with_suffix(".json")
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline.cli", "run", *inputs, "--workers", "2", "--out", str(out),
                    "--no-progress", "--summary-json", str(summary)], cwd=code, env=dict(os.environ, PYTHONPATH=str(code)),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    s = json.loads(summary.read_text(encoding="utf-8"))
    return {"wall": round(wall, 1), "cpu": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
            "assemble": round(s["assemble_seconds"], 1), "load": [round(load, 2), round(os.getloadavg()[0], 2)],
            "stages": {k: round(v, 1) for k, v in s["seconds"].items()}}


def against(commit: str, rounds: int, inputs: list[str], root: Path) -> dict:
    inputs = [str((Path(i) if Path(i).exists() else REPO / i).resolve()) for i in inputs]
    with tempfile.TemporaryDirectory(prefix="zhushu-baseline-") as tmp:
        base = Path(tmp)
        archive = subprocess.run(["git", "archive", commit], cwd=REPO, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        runs: dict[str, list[dict]] = {"baseline": [], "current": []}
        for r in range(rounds):
            # ABBA: the baseline first in even rounds, second in odd ones, so that the machine's
            # drift over a round (debcbe7 alone: 412 -> 387 -> 349 s over three rounds at stop 29)
            # falls on both codes alike over an even number of rounds
            order = (("baseline", base), ("current", REPO))
            for name, code in (order if r % 2 == 0 else order[::-1]):
                runs[name].append(timed_run(code, inputs, root / name))
                print(name, json.dumps(runs[name][-1], ensure_ascii=False), flush=True)
    med = {k: statistics.median(r["wall"] for r in v) for k, v in runs.items()}
    return {"baseline": commit, "inputs": inputs, "runs": runs, "median wall": med,
            "ratio": round(med["current"] / med["baseline"], 3),
            "byte_identical": tree(root / "baseline") == tree(root / "current")}


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip", default=None, help="stages to skip, as zhushu run --skip")
    ap.add_argument("--out", default="/tmp/zhushu-bench")
    ap.add_argument("--against", default=None, help="a commit whose code runs alternately with the current tree")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--inputs", nargs="+", default=BOOKS)
    args = ap.parse_args()
    extra = ["--skip", args.skip] if args.skip else []
    root = Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    if args.against:
        print(json.dumps(against(args.against, args.rounds, args.inputs, root), ensure_ascii=False, indent=1))
        return
    dask = run(root / "dask", ["--workers", "2", *extra])
    serial = run(root / "serial", extra)
    same = tree(root / "dask") == tree(root / "serial")
    print(json.dumps({"skip": args.skip, "dask_2_workers": dask, "serial": serial,
                      "speedup": round(serial["wall"] / dask["wall"], 2), "byte_identical": same,
                      "target_s": 180, "met": dask["wall"] <= 180}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
