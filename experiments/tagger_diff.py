"""What changes between two taggers on the same text: every span one gives and the other does not,
counted by (label, text) and sampled (docs/entities.md, "Stop 44": the 君子 / 鄭司農 retraining).

    python experiments/tagger_diff.py OLD_MODEL_DIR NEW_MODEL_DIR INPUT… [--kept] [--sample 20] [--seed 44]
        [--expect 君,主君,…]   # the spans the change means to move: counted apart, the sample is the drift

INPUT: juan files or book folders, read as `zhushu run` reads them (no segmentation: the tagger
reads unit text). --kept: both sides as the tag stage keeps them (tag.kept_entities), else the
models' own spans. An old model into a folder of its own: `git show COMMIT:models/tagger/F > DIR/F`
for F in model.crfsuite, meta.json, clusters.tsv.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.runner import expand_inputs  # noqa: E402
from pipeline.tag import Tagger, kept_entities  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--kept", action="store_true")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--expect", default="",
                    help="comma-separated span texts the change means to remove or add (君,主君,…): "
                         "counted apart, the sample drawn from the rest — the retraining's drift")
    args = ap.parse_args()
    expected = {w for w in args.expect.split(",") if w}
    old, new = Tagger(args.old), Tagger(args.new)
    changed = {"removed": [], "added": []}
    totals = Counter()
    for path in expand_inputs(args.inputs):
        doc = read_document(path)
        units = [u for u in doc.units if u.kind in ("base", "commentary")]
        texts = [u.text for u in units]
        for unit, a, b in zip(units, old.tag(texts), new.tag(texts)):
            if args.kept:
                a, b = kept_entities(unit.text, unit.marker, a), kept_entities(unit.text, unit.marker, b)
            sa, sb = {(e.start, e.end, e.label) for e in a}, {(e.start, e.end, e.label) for e in b}
            totals["old"] += len(sa)
            totals["new"] += len(sb)
            for kind, spans in (("removed", sa - sb), ("added", sb - sa)):
                for s, e, label in sorted(spans):
                    t = unit.text
                    changed[kind].append((f"{doc.id}#{unit.seq}", unit.marker or unit.kind, label, t[s:e],
                                          f"{t[max(0, s - 8):s]}【{t[s:e]}】{t[e:e + 8]}"))
    print(f"spans: old {totals['old']}, new {totals['new']}; removed {len(changed['removed'])}, added {len(changed['added'])}")
    rng = random.Random(args.seed)
    for kind, rows in changed.items():
        print(f"== {kind}: " + ", ".join(f"{label} {text} {n}" for (label, text), n in
                                         Counter((r[2], r[3]) for r in rows).most_common(25)))
        if expected:
            rows = [r for r in rows if r[3] not in expected]
            print(f"   of them not expected (--expect): {len(rows)}; the sample below is drawn from these")
        for row in sorted(rng.sample(rows, min(args.sample, len(rows)))):
            print("  " + "\t".join(row[:3] + row[4:]))


if __name__ == "__main__":
    main()
