"""Where v2 alone and v2 with the passage prior (models/segmenter-v2-passage) disagree: every dev 注 of
the two 注疏 and every dev note of the 集釋 (aligned >= 0.99) with the base record before it, every
position one of them breaks and the other does not; 16 sampled (seed 28) for the hand check in
docs/segmentation.md ("Stop 28"), 20 with seed 30 for stop 30's (the prior became the default).

    python experiments/punct_v3/passage_disagree_sample.py [SEED N]     # default 28 16
"""
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import book_of, read_records, record_kind  # noqa: E402

seed, n = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (28, 16)
v2, prior = load_segmenter(paths.SEGMENTER_MODEL), load_segmenter(paths.SEGMENTER_PASSAGE)  # v2 alone, the default
pts = []
for b in ("KR1d0003", "KR1d0053", "KR1d0030"):
    recs = [r for r in read_records(ROOT / f"data/punct/{b}.punct.jsonl", split="dev") if r["text"]]
    for r, passage in zip(recs, record_passages(recs)):
        kind = record_kind(r)
        if passage is None or kind not in ("注", "note") or r.get("aligned", 1) < 0.99:
            continue
        book = [book_of(r["id"])]
        a = v2.predict([r["text"]], [kind], books=book)[0]
        p = prior.predict([r["text"]], [kind], books=book, passages=[passage])[0]
        gold = {int(x) for x in r["marks"]}
        for i in range(1, len(r["text"])):
            if (i in a) != (i in p):
                pts.append({"id": r["id"], "passage": passage[:30], "left": r["text"][max(0, i - 12):i],
                            "right": r["text"][i:i + 12], "breaks": "prior" if i in p else "v2",
                            "edition": i in gold})
sample = random.Random(seed).sample(pts, n)
print(len(pts), "disagreements;", sum(p["breaks"] == "prior" for p in pts), "where only the prior breaks;",
      sum((p["breaks"] == "prior") == p["edition"] for p in pts), "where the edition sides with the prior")
for p in sample:
    print(json.dumps(p, ensure_ascii=False))
