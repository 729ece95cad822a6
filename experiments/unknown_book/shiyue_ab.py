"""Stop 82: the 集釋's own commentary (李如圭's 釋曰) is read as 疏 under the 集釋's book embedding — a pairing of kind and
book the network never trained (the 集釋's punct data holds no 釋曰). Blind A/B against an alternative reading of the same
units: mode b, 疏 under the 注疏's mean embedding; mode c, as the 集釋's notes (kind note). Prints 30 positions the two read
otherwise (seeded; A / B in a seeded order) and writes the key (the alternative's letter) to /work/ckpt/s82 or --key.

    python experiments/unknown_book/shiyue_ab.py MODE SEED [JUAN,JUAN,...]
"""
import sys, json, random
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import pipeline.segment.bilstm as bilstm
from pipeline.ingest import read_document
from pipeline.segment import load_segmenter, passages_of
from pipeline.segment.data import MEAN_OF_ZHUSHU
seg = load_segmenter(); TODAY = bilstm.book_index
mode, seed = sys.argv[1], int(sys.argv[2])  # mode: "b" (疏 under the 注疏 mean) or "c" (as note)
T, P = [], []
for j in (sys.argv[3].split(",") if len(sys.argv) > 3 else ("001", "013", "017")):
    doc = read_document(Path(__file__).resolve().parents[2] / "data" / "corpus" / "KR1d0030" / f"KR1d0030_{j}.txt")
    us = [u for u in doc.units if u.text and u.kind in ("base", "commentary")]
    for u, p in zip(us, passages_of(doc, us)):
        if u.marker == "釋曰": T.append(u.text); P.append(p)
a = seg.predict(T, ["疏"] * len(T), books=["KR1d0030"] * len(T), passages=P)
if mode == "b":
    bilstm.book_index = lambda b, k: MEAN_OF_ZHUSHU if k == "疏" else TODAY(b, k)
    o = seg.predict(T, ["疏"] * len(T), books=["KR1d0030"] * len(T), passages=P)
    bilstm.book_index = TODAY
else:
    o = seg.predict(T, ["note"] * len(T), books=["KR1d0030"] * len(T), passages=P)
def show(t, m, x, y): return "".join(t[i] + (m.get(i + 1, "") if i + 1 < len(t) else "") for i in range(x, y))
items = []
for t, ma, mo in zip(T, a, o):
    for k in sorted(k for k in set(ma) | set(mo) if k < len(t) and ma.get(k) != mo.get(k)):
        x, y = max(0, k - 14), min(len(t), k + 14)
        items.append((show(t, ma, x, y), show(t, mo, x, y)))
print(len(T), "釋曰 units", len(items), "positions differ", file=sys.stderr)
rng = random.Random(seed); key = []
for i, (ta, to) in enumerate(rng.sample(items, 30)):
    flip = rng.random() < 0.5
    key.append("B" if flip else "A")  # the letter of the alternative (mode) reading
    print(f"{i+1:2d} A {ta if flip else to}\n   B {to if flip else ta}")
json.dump(key, open(f"key_shiyue_{mode}_{seed}.json", "w"))
