"""Dataset metrics from an output folder's jsonl/ files (for `dvc metrics`):

    python -m pipeline.export.stats out > metrics/dataset.json

Counts per record kind, entities per label, glosses per type, the share of glosses anchored to
a lemma and of base/commentary units that got restored sentences. Deterministic."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from pipeline.export.records import RECORD_KINDS


def dataset_stats(out: str | Path) -> dict:
    out = Path(out)
    recs = {}
    for kind in RECORD_KINDS:
        path = out / "jsonl" / f"{kind}.jsonl"
        recs[kind] = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    text_units = [u for u in recs["units"] if u["kind"] in ("base", "commentary") and u["chars"]]
    segmented = {s["unit"] for s in recs["sentences"]}
    glosses = recs["glosses"]
    return {
        "records": {k: len(v) for k, v in recs.items()},
        "chars": sum(d["chars"] for d in recs["documents"]),
        "entities_by_label": dict(sorted(Counter(e["label"] for e in recs["entities"]).items())),
        "glosses_by_type": dict(sorted(Counter(g["type"] for g in glosses).items())),
        "glosses_anchored": round(sum(g["lemma_start"] is not None for g in glosses) / len(glosses), 4) if glosses else 0.0,
        "units_segmented": round(sum(u["unit"] in segmented for u in text_units) / len(text_units), 4) if text_units else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print(json.dumps(dataset_stats(argv[0] if argv else "out"), ensure_ascii=False, sort_keys=True, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
