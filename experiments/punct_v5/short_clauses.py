"""Stop 46: the precision of the default segmenter's breaks by the length of the shorter clause they
make (1, 2, 3+ characters), by kind, on the tune juan:
python experiments/punct_v5/short_clauses.py KR1d0003_007,KR1d0053_007,KR1d0030_007,KR1d0030_027
(docs/segmentation.md, "Stop 46")."""
import collections
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
sys.path.insert(0, ROOT)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline import paths
from pipeline.segment import read_segmenter
from tune_records import tune_records
from pipeline.segment.data import record_kind, book_of
from pipeline.evaluate.segment import record_passages
juan = set(sys.argv[1].split(","))
recs = tune_records(ROOT, juan)
seg = read_segmenter(paths.SEGMENTER_DEFAULT)
# passages as `zhushu eval segment` gives them: a 注 with the 經 record before it
texts = [r["text"] for r in recs]; kinds = [record_kind(r) for r in recs]; books = [book_of(r["id"]) for r in recs]
passages = record_passages(recs)
preds = [p for p, _ in seg.predict_both(texts, kinds, books=books, passages=passages)]
C = collections.Counter()
for r, p, k in zip(recs, preds, kinds):
    if k == "音義": continue
    n = len(r["text"]); gold = set(int(x) for x in r["marks"] if 0 < int(x) < n)
    pb = sorted(x for x in p if 0 < x < n)
    allb = [0] + pb + [n]
    for i, b in enumerate(pb):
        left = b - allb[i]; right = allb[i + 2] - b
        m = min(left, right)
        key = (k, "min_side<=1" if m <= 1 else "min_side=2" if m == 2 else "min_side>=3")
        C[key + ("tp",)] += b in gold; C[key + ("all",)] += 1
for key in sorted({k[:2] for k in C}):
    tp, a = C[key + ("tp",)], C[key + ("all",)]
    print(key, a, "precision", round(tp / a, 3))
