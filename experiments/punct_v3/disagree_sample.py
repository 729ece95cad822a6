"""Where v2 and the ensemble disagree: 120 seeded dev 注 / 疏 units (aligned >= 0.99), every position one
of them breaks and the other does not; 16 sampled (seed 27) for the hand check in docs/segmentation.md.
python experiments/punct_v3/disagree_sample.py"""
import random, json
from pathlib import Path
from pipeline.segment import read_segmenter
from pipeline.segment.data import read_records, record_kind, book_of
v2 = read_segmenter(Path("models/segmenter-v2")); ens = read_segmenter(Path("models/segmenter-ensemble"))
recs = [r for b in ("KR1d0003","KR1d0053") for r in read_records(f"data/punct/{b}.punct.jsonl", split="dev") if r["text"] and record_kind(r) in ("疏","注") and r.get("aligned",1)>=0.99]
rng = random.Random(27); rng.shuffle(recs)
pts = []
for r in recs[:120]:
    k=[record_kind(r)]; b=[book_of(r["id"])]
    a = v2.predict([r["text"]], k, books=b)[0]; e = ens.predict([r["text"]], k, books=b)[0]
    n=len(r["text"]); gold={int(x) for x in r["marks"]}
    for i in range(1,n):
        if (i in a) != (i in e):
            pts.append((r["id"], k[0], i, r["text"][max(0,i-12):i], r["text"][i:i+12], "v2" if i in a else "ens", i in gold))
rng2 = random.Random(27); sample = rng2.sample(pts, 16)
print(len(pts), "disagreements in 120 units")
for p in sample: print(p)
