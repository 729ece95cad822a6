"""Would the 疏's quotations help the 注 gloss reader? A quotation of the 注 starts and ends where the
疏 reads a phrase of it; where the segmenter left no mark there, add one and read the 注's glosses
again. Train juan only (silver: the glosses read with the editions' marks), the 注 of both 注疏 that a
data/quotes record holds as a passage segment and data/punct holds after its 經 (aligned ≥ 0.9).

    python experiments/quote_marks/gloss_cuts.py DUMP.jsonl [--mark ，|。]

DUMP: `measure.py crossfit --dump` (the marked reader's cross-fitted quotations of every train
record); also the upper bound with the gold quotations. Stop 42, docs/glosses.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("--mark", default="，")
    args = ap.parse_args()
    from gloss_silver import pairs

    from pipeline.align import align_block
    from pipeline.evaluate.common import prf
    from pipeline.evaluate.glosses import note_marks
    from pipeline.segment import load_segmenter
    from pipeline.train.quotations import train_records

    recs = {r["id"]: r for r in train_records()}
    cuts: dict[str, dict[str, set]] = {}  # 注 text -> {"pred": positions, "gold": positions}
    for line in args.dump.open(encoding="utf-8"):
        d = json.loads(line)
        rec = recs[d["id"]]
        for which, spans in (("pred", [(q[2], q[3], q[4]) for q in d["marked"]]),
                             ("gold", [(q["target"], q["target_start"], q["target_end"]) for q in rec["quotes"]])):
            for seq, a, b in spans:
                item = rec["passage"][seq]
                if item["marker"] != "注":
                    continue
                c = cuts.setdefault(item["text"], {"pred": set(), "gold": set()})[which]
                c.update(k for k in (a, b) if 0 < k < len(item["text"]))
    seg = load_segmenter().without_memory()  # train juan: the phrase memory knows their marks by heart
    counts = {k: [0, 0, 0] for k in ("own", "own+pred", "own+gold")}
    n_blocks = n_added = 0
    for book in ("KR1d0003", "KR1d0053"):
        for rid, base, note, marks in pairs(book):
            if note not in cuts:
                continue
            n_blocks += 1
            silver = {(g.lemma_start, g.lemma_end) for g in align_block(base, note, marks, zhushu=True) if g.lemma_start is not None}
            own = note_marks([note], seg, ids=[rid], bases=[base])[0][0]
            for name, extra in (("own", set()), ("own+pred", cuts[note]["pred"]), ("own+gold", cuts[note]["gold"])):
                m = dict(own)
                for k in extra:
                    if k not in m:
                        m[k] = args.mark
                        n_added += name == "own+pred"
                got = {(g.lemma_start, g.lemma_end) for g in align_block(base, note, m, zhushu=True) if g.lemma_start is not None}
                c = counts[name]
                c[0] += len(got & silver)
                c[1] += len(got)
                c[2] += len(silver)
    out = {"blocks": n_blocks, "marks_added_pred": n_added, "mark": args.mark}
    for name, (tp, ns, ng) in counts.items():
        out[name] = prf(tp, ns, ng)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
