"""Stop 80: seg F1 by marker and by how well each record aligned with the punctuated edition.

`aligned` (data/punct) is the share of a record's characters that matched the outside edition exactly; the
edition's marks were carried over only where it matched, so a record aligned 0.9 lacks the marks of its
unmatched stretches (「匶音舊」 without the comma the 周禮's edition puts after every such head: most likely a
head it prints in another form, so the mark after it did not carry over). This scores the default segmenter exactly as `zhushu eval segment` does (each
注 with the 經 record before it) and splits the score by `aligned` band: [0, 0.9), [0.9, 0.99), [0.99, 1].

    python experiments/punct_v8/aligned_bands.py KR1d0003 dev [--marker 音義] [--json OUT]
    python experiments/punct_v8/aligned_bands.py KR1d0003 train --marker 音義 --sample 30 --seed 80
    python experiments/punct_v8/aligned_bands.py KR1d0053 train --juan 007 --marker 疏 --sample 20 --seed 80

--sample N prints N positions drawn with `random.Random(seed)` where the segmenter breaks and the edition has
no mark, in records aligned below 0.99, each with the record as the edition marks it and as the segmenter
does (a hand check: is the extra break the segmenter's error or a mark the alignment lost?).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.evaluate.segment import MARKER_NAMES, record_passages, score  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import book_of, read_records, record_kind  # noqa: E402

BANDS = ((0.0, 0.9), (0.9, 0.99), (0.99, 1.01))


def marked(text: str, marks: dict[int, str], at: int | None = None) -> str:
    return "".join(c + ("｜" if i + 1 == at else "") + marks.get(i + 1, "") for i, c in enumerate(text))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("book")
    ap.add_argument("split")
    ap.add_argument("--marker", help="only records of this marker (經 is '')")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=80)
    ap.add_argument("--juan", help="only records of this juan (e.g. 007: a tune juan, held out of the segmenter)")
    ap.add_argument("--json")
    a = ap.parse_args()
    recs = [r for r in read_records(ROOT / "data" / "punct" / f"{a.book}.punct.jsonl", split=a.split) if r["text"]]
    before = record_passages(recs)  # before filtering: a 注's passage is the record before it in the file
    keep = [i for i, r in enumerate(recs) if (a.marker is None or MARKER_NAMES.get(r.get("marker"), r.get("marker")) == a.marker)
            and (a.juan is None or r["id"].startswith(f"{a.book}_{a.juan}#"))]
    recs, before = [recs[i] for i in keep], [before[i] for i in keep]
    seg = load_segmenter()
    preds = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs],
                        books=[book_of(r["id"]) for r in recs], passages=before)
    out = {"book": a.book, "split": a.split, "marker": a.marker, "all": score(recs, preds), "bands": {}}
    for lo, hi in BANDS:
        idx = [i for i, r in enumerate(recs) if lo <= r["aligned"] < hi]
        if idx:
            out["bands"][f"{lo}-{min(hi, 1.0)}"] = score([recs[i] for i in idx], [preds[i] for i in idx])
    for name, s in [("all", out["all"]), *out["bands"].items()]:
        row = [f"{name:9s} records {s['records']:5d} chars {s['chars']:7d}"]
        for m, c in (s.get("by_marker") or s["by_kind"]).items():  # the 集釋's records carry no marker
            row.append(f"{m} P {c['seg']['p']:.4f} R {c['seg']['r']:.4f} F1 {c['seg']['f1']:.4f} (gold {c['seg']['gold']})")
        print(" | ".join(row))
    if a.json:
        Path(a.json).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if a.sample:
        extra = []
        for r, p in zip(recs, preds):
            if r["aligned"] >= 0.99:
                continue
            n = len(r["text"])
            gold = {int(k): v for k, v in r["marks"].items()}
            extra += [(r, gold, {int(k): v for k, v in p.items()}, k) for k in sorted(p) if 0 < int(k) < n and int(k) not in gold]
        print(f"\n{len(extra)} breaks of the segmenter where the edition has none (records aligned < 0.99); {a.sample} drawn, seed {a.seed}:")
        for j, (r, gold, pred, k) in enumerate(random.Random(a.seed).sample(extra, min(a.sample, len(extra))), 1):
            print(f"{j:2d} {r['id']} aligned {r['aligned']} at {k}\n   edition   {marked(r['text'], gold, k)}\n   segmenter {marked(r['text'], pred, k)}")


if __name__ == "__main__":
    main()
