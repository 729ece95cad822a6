"""The whole default book (儀禮集釋, `zhushu run` with no inputs) against an earlier commit, on the
same machine in the same run: the baseline of issue 12 ("the whole-book time stays within 10 %").

    python benchmarks/whole_book_vs_commit.py 287aeac [--rounds 2] [--skip parse]

Checks the commit out into a temporary git worktree, then runs the two alternately (baseline
first in each round), each as its own process from start to exit, and prints every wall time,
the CPU time (user + sys of the process and its children) and the ratio of the medians. The
baseline runs with its own defaults; `--skip` is passed to the current tree only (287aeac had no
parse stage, so `--skip parse` compares the same stages).
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


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return round(wall, 2), round(cpu, 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("commit")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--skip", default=None, help="stages to skip in the current tree, as zhushu run --skip")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(base), args.commit], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            runs = {"baseline": [], "current": []}
            for _ in range(args.rounds):
                for name, tree in (("baseline", base), ("current", REPO)):
                    out = Path(tmp) / f"out-{name}"
                    cmd = [sys.executable, "-m", "pipeline.cli", "run", "--out", str(out), "--no-progress"]
                    if name == "current" and args.skip:
                        cmd += ["--skip", args.skip]
                    env = dict(os.environ, PYTHONPATH=str(tree))
                    runs[name].append(timed(cmd, tree, env))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=REPO, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    med = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    print(json.dumps({"baseline": args.commit, "skip": args.skip, "runs (wall s, cpu s)": runs,
                      "median wall": med, "ratio": round(med["current"] / med["baseline"], 3),
                      "load": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
