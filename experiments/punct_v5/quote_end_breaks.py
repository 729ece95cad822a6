"""Stop 46: the default segmenter's breaks at the end of the editions' 疏 quotations (after the 疏's
者) against its breaks elsewhere, on the tune juan 007 of both 注疏:
python experiments/punct_v5/quote_end_breaks.py KR1d0003_007,KR1d0053_007 (docs/segmentation.md, "Stop 46")."""
import collections
import json
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
sys.path.insert(0, ROOT)
from pipeline import paths
from pipeline.segment import read_segmenter
from pipeline.evaluate.quotations import record_marks
juan = sys.argv[1].split(",")
punct = {}
for b in ("KR1d0003", "KR1d0053"):
    for l in open(f"{ROOT}/data/punct/{b}.punct.jsonl", encoding="utf-8"):
        r = json.loads(l); punct[r["id"]] = r
recs = []
for b in ("KR1d0003", "KR1d0053"):
    for l in open(f"{ROOT}/data/quotes/{b}.quotes.jsonl", encoding="utf-8"):
        r = json.loads(l)
        if r["id"].split("#")[0] in juan and r["id"] in punct and punct[r["id"]]["text"] == r["text"] and punct[r["id"]]["aligned"] >= 0.9:
            recs.append(r)
seg = read_segmenter(paths.SEGMENTER_DEFAULT)
marks = record_marks(recs, seg)
C = collections.Counter(); EX = collections.defaultdict(list)
allpos = collections.Counter()
for r, (_, shu) in zip(recs, marks):
    t = r["text"]; gold = {int(k): v for k, v in punct[r["id"]]["marks"].items()}
    ends = set()
    for q in r["quotes"]:
        e = q["end"] + (1 if t[q["end"]:q["end"] + 1] == "者" else 0)
        if e >= len(t): continue
        ends.add(e)
        g, p = e in gold, e in shu
        k = ("者" if t[e - 1] == "者" else "bare") + f" gold={int(g)} pred={int(p)}"
        C[k] += 1
        if g != p and len(EX[k]) < 6: EX[k].append(t[max(0, e - 15):e] + "｜" + t[e:e + 8])
    for k in range(1, len(t)):
        g, p = k in gold, k in shu
        allpos[("end" if k in ends else "other", g, p)] += 1
for k, v in sorted(C.items()): print(k, v)
for k, v in EX.items(): print(k, v)
def f1(tag):
    tp = allpos[(tag, True, True)]; fp = allpos[(tag, False, True)]; fn = allpos[(tag, True, False)]
    return tp, fp, fn
print("quote-end positions tp/fp/fn", f1("end"), "other", f1("other"))
