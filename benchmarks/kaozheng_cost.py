"""What the 考證 costs the segment and align stages: each stage per juan with the 考證 as shipped and with its entries
emptied (the baseline: the body alone, as before stop 83), as ratios, best of three, alternating.

    python benchmarks/kaozheng_cost.py [JUAN_FILE ...]      # default: juan 1, 2 and 3 of the three 注疏

Each juan is ingested once; each run reads a fresh copy. Prints one JSON object: seconds per stage and reading, the
考證's characters, the ratios (with / without).
"""

from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.align import align_document  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import read_segmenter, segment_document  # noqa: E402


def without_kaozheng(doc):
    bare = copy.deepcopy(doc)
    for u in bare.units:
        if u.kind == "report":
            u.text = ""
    return bare


def main(files: list[str]) -> None:
    files = files or [str(paths.DATA / "corpus" / b / f"{b}_{n:03d}.txt")
                      for b in ("KR1d0003", "KR1d0053", "KR1d0028") for n in (1, 2, 3)]
    docs = [read_document(f) for f in files]
    seg = read_segmenter(paths.SEGMENTER_DEFAULT)
    readings = {"with": docs, "without": [without_kaozheng(d) for d in docs]}
    best = {(stage, r): float("inf") for stage in ("segment", "align") for r in readings}
    for _ in range(3):
        for r, ds in readings.items():
            t = time.perf_counter()
            segmented = [segment_document(copy.deepcopy(d), seg) for d in ds]
            best[("segment", r)] = min(best[("segment", r)], time.perf_counter() - t)
            t = time.perf_counter()
            for d in segmented:
                align_document(d)
            best[("align", r)] = min(best[("align", r)], time.perf_counter() - t)
    print(json.dumps({
        "juan": [Path(f).stem for f in files],
        "kaozheng_chars": sum(len(u.text) for d in docs for u in d.units if u.kind == "report"),
        "text_chars": sum(len(u.text) for d in docs for u in d.units),
        "seconds": {f"{stage} {r}": round(v, 3) for (stage, r), v in best.items()},
        "ratio_with_to_without": {stage: round(best[(stage, "with")] / best[(stage, "without")], 3) for stage in ("segment", "align")},
    }, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
