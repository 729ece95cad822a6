"""The align stage's chance check, juan by juan: how many formula glosses anchor in their own
passage and how many, on average, in another passage of the juan (align.chance_counts), by head
class, with the share and whether the stage withdraws the class. docs/glosses.md, "Stop 44".

    python experiments/glosses/chance_shares.py ../shared/corpus/KR1d0063 ../shared/corpus/KR1d0057 …

Each folder is read as `zhushu run` reads it (ingest, the default segmenter); the 注疏 books take
a few minutes each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.align import AlignStage, chance_classes, chance_counts, read_formula_blocks  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.runner import expand_inputs  # noqa: E402
from pipeline.segment import SegmentStage  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    AlignStage.load_model(None)
    segment = SegmentStage.load()
    print("| juan | one-character: own / other / share | longer: own / other / share | withdrawn |")
    print("|---|---|---|---|")
    peak: dict[str, float] = {}
    for path in expand_inputs(args.inputs):
        doc = segment(read_document(path))
        bases, index, blocks, found = read_formula_blocks(doc)
        counts = chance_counts(blocks, found, bases, index, always=True)
        cells = []
        for cls in ("one-character", "longer"):
            n, expected = counts.get(cls, (0, 0.0))
            share = expected / n if n else 0.0
            if n >= 10:
                peak[cls] = max(peak.get(cls, 0.0), share)
            cells.append(f"{n} / {expected:.1f} / {share:.2f}" if n else "—")
        print(f"| {doc.id} | {cells[0]} | {cells[1]} | {', '.join(chance_classes(counts)) or '—'} |")
    print("highest share (classes with >= 10 anchors):", {k: round(v, 2) for k, v in peak.items()})


if __name__ == "__main__":
    main()
