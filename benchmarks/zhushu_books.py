"""The two 注疏 books through every stage: 2 Dask workers against one serial process, same run.

    python benchmarks/zhushu_books.py [--skip parse] [--out /tmp/zhushu-bench]

Runs `zhushu run data/corpus/KR1d0003 data/corpus/KR1d0053` once with `--workers 2` and once
serially (the baseline), each in its own process, and prints the wall times, their ratio, the
per-stage seconds (summed over documents) and whether the two datasets are byte-identical.
The issue's target: ≤ 180 s wall with 2 workers on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
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


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip", default=None, help="stages to skip, as zhushu run --skip")
    ap.add_argument("--out", default="/tmp/zhushu-bench")
    args = ap.parse_args()
    extra = ["--skip", args.skip] if args.skip else []
    root = Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    dask = run(root / "dask", ["--workers", "2", *extra])
    serial = run(root / "serial", extra)
    same = tree(root / "dask") == tree(root / "serial")
    print(json.dumps({"skip": args.skip, "dask_2_workers": dask, "serial": serial,
                      "speedup": round(serial["wall"] / dask["wall"], 2), "byte_identical": same,
                      "target_s": 180, "met": dask["wall"] <= 180}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
