"""Every 音義 reading of the three embedded 注疏 (周禮, 禮記, 儀禮), one JSON list; diff two dumps to
see what a change to pipeline/readings.py does over the whole books (docs/readings.md, stop 40).
Judge only what changes on train juan (not 10, 20, …) when deciding; the dev juan's lines are shown
for completeness.

    python experiments/yinyi/readings_diff.py OUT.json
    python experiments/yinyi/readings_diff.py --diff BEFORE.json AFTER.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def dump(path: str) -> None:
    from zhushu_readings import ALL_BOOKS, collect

    from pipeline.variants import fold, reading_alternates

    out = [(doc_id, unit.seq, unit.text[r.head_start : r.sounds[-1].end], r.head, r.head_start,
            [unit.text[s.start : s.end] for s in r.sounds], r.scope, r.target, r.anchor_start)
           for doc_id, unit, r, _targets in collect(fold=fold, alternates=reading_alternates,
                                                    books=ALL_BOOKS)]
    Path(path).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    print(f"{len(out)} readings -> {path}")


def diff(before: str, after: str) -> None:
    a = {json.dumps(x, ensure_ascii=False) for x in json.loads(Path(before).read_text(encoding="utf-8"))}
    b = {json.dumps(x, ensure_ascii=False) for x in json.loads(Path(after).read_text(encoding="utf-8"))}
    for sign, rows in (("-", a - b), ("+", b - a)):
        for row in sorted(rows):
            juan = int(json.loads(row)[0].split("_")[1])
            print(sign, "dev  " if juan % 10 == 0 else "train", row)
    print(f"{len(a - b)} readings lost, {len(b - a)} gained")


if __name__ == "__main__":
    if sys.argv[1] == "--diff":
        diff(sys.argv[2], sys.argv[3])
    else:
        dump(sys.argv[1])
