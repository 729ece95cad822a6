"""Stop 46: a blind A/B sample for reading the commentary of a book the segmenter does not know
(禮記集說, 表記集傳) as today (kind note, the book embedding of the 集釋) or as a 疏 of 禮記註疏 (kind 疏,
book KR1d0053): seed 47, 30 sentences of 禮記集說's commentators other than 鄭玄 / 孔穎達 and 20 of
表記集傳; each sentence's stretch printed under both settings as X / Y in random order, the key
apart (OUT/blind_key.json), to be judged before the key is read:

    zhushu run ../shared/corpus/KR1d0057 ../shared/corpus/KR1d0063 --skip parse --out OUT
    python experiments/punct_v5/other_books_blind.py OUT        # OUT/blind_items.txt, OUT/blind_key.json

docs/segmentation.md, "Stop 46: a book the segmenter does not know".
"""
import json
import random
import sys
from pathlib import Path
ROOT = str(Path(__file__).resolve().parents[2])
sys.path.insert(0, ROOT)
OUT = sys.argv[1]  # a `zhushu run` output folder holding 禮記集說 (KR1d0057) and 表記集傳 (KR1d0063)
from pipeline import paths
from pipeline.segment import read_segmenter
U = {u["unit"]: u for u in map(json.loads, open(f"{OUT}/jsonl/units.jsonl", encoding="utf-8"))}
S = [s for s in map(json.loads, open(f"{OUT}/jsonl/sentences.jsonl", encoding="utf-8")) if s["kind"] == "commentary"]
EXCL = {None, "鄭氏", "孔氏", "註", "注", "疏", "䟽", "鄭注", "賈疏", "孔疏"}
def pool(book, excl=EXCL):
    p = [s for s in S if s["doc"].startswith(book) and not s["doc"].endswith("_000") and s["source"] not in excl and s["end"] - s["start"] >= 6]
    return sorted(p, key=lambda s: (s["unit"], s["index"]))
rng = random.Random(47)
sample = rng.sample(pool("KR1d0057"), 30) + rng.sample(pool("KR1d0063", EXCL - {None}), 20)
seg = read_segmenter(paths.SEGMENTER_DEFAULT)
units = sorted({s["unit"] for s in sample})
texts = [U[u]["text"] for u in units]
pas = [U[U[u]["base_unit"]]["text"] if U[u].get("base_unit") in U else None for u in units]
cur = dict(zip(units, [p for p, _ in seg.predict_both(texts, ["note"] * len(units), books=[u.split("_")[0] for u in units], passages=pas)]))
cand = dict(zip(units, [p for p, _ in seg.predict_both(texts, ["疏"] * len(units), books=["KR1d0053"] * len(units), passages=pas)]))
def show(m, t, a, b):
    return "".join(t[i] + m.get(i + 1, "") for i in range(a, b))
key = []; out = []
for i, s in enumerate(sample):
    t = U[s["unit"]]["text"]; a, b = s["start"], s["end"]
    x, y = show(cur[s["unit"]], t, a, b), show(cand[s["unit"]], t, a, b)
    ctx = t[max(0, a - 20):a] + "〔" + t[a:b] + "〕" + t[b:b + 12]
    flip = rng.random() < 0.5
    key.append({"item": i + 1, "unit": s["unit"], "source": s["source"], "X": "cand" if flip else "cur", "same": x == y})
    first, second = (y, x) if flip else (x, y)
    out.append(f"{i + 1} {s['unit']} {s['source']}\n   ctx {ctx}\n   X {first}\n   Y {second}" + ("   (same)" if x == y else ""))
open(f"{OUT}/blind_key.json", "w").write(json.dumps(key, ensure_ascii=False))
open(f"{OUT}/blind_items.txt", "w").write("\n".join(out))
print(sum(k["same"] for k in key), "identical of", len(key))
