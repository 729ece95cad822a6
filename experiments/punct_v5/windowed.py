"""Stop 46: the BiLSTM (models/segmenter-v5, alone) on whole units against overlapping windows of
W characters every S (each position read from the window it is most central in), seg F1 by book and kind
on the tune juan: python experiments/punct_v5/windowed.py KR1d0003_007,KR1d0053_007,KR1d0030_007,KR1d0030_027 200 100
(docs/segmentation.md, "Stop 46")."""
import collections
import sys
from pathlib import Path

import numpy as np
ROOT = str(Path(__file__).resolve().parents[2])
sys.path.insert(0, ROOT)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402

torch.set_num_threads(1)
from pipeline.segment import read_segmenter
from tune_records import tune_records
from pipeline.segment.data import record_kind, book_of
from pipeline.segment.bilstm import decode
W = int(sys.argv[2]); S = int(sys.argv[3])
seg = read_segmenter(Path(ROOT) / "models" / "segmenter-v5", with_prior=False).backend
print(type(seg).__name__, seg.threshold, seg.final_threshold)
juan = set(sys.argv[1].split(","))
recs = tune_records(ROOT, juan)
texts = [r["text"] for r in recs]; kinds = [record_kind(r) for r in recs]; books = [book_of(r["id"]) for r in recs]
whole = seg.probs(texts, kinds, books=books)
# windows
wt, wk, wb, owner = [], [], [], []
for i, t in enumerate(texts):
    n = len(t)
    if n <= W: continue
    starts = list(range(0, n - W, S)) + [n - W]
    for s in starts:
        wt.append(t[s:s + W]); wk.append(kinds[i]); wb.append(books[i]); owner.append((i, s))
wp = seg.probs(wt, wk, books=wb)
win = [p.copy() for p in whole]
best = [np.full(len(t), 1e9) for t in texts]
for (i, s), p in zip(owner, wp):
    c = s + W / 2
    for k in range(W):
        d = abs(s + k - c)
        # the edges of the whole text are not edges of the window's context: keep the window's own edge only at the text's edge
        if d < best[i][s + k]:
            best[i][s + k] = d; win[i][s + k] = p[k]
def f1(probs):
    C = collections.defaultdict(lambda: [0, 0, 0])
    for r, p, kd in zip(recs, probs, kinds):
        n = len(r["text"])
        pred = set(k for k in decode(p, n, seg.threshold, final_threshold=seg.final_threshold) if 0 < k < n)
        gold = set(k for k in map(int, r["marks"]) if 0 < k < n)
        key = (r["id"][:8], kd, "long" if n > W else "short")
        for kk in (key, (r["id"][:8], kd, "all")):
            C[kk][0] += len(pred & gold); C[kk][1] += len(pred); C[kk][2] += len(gold)
    return {k: (round(2 * v[0] / (v[1] + v[2]), 4) if v[1] + v[2] else None, v[2]) for k, v in sorted(C.items())}
a, b = f1(whole), f1(win)
for k in a: print(k, "whole", a[k], "windowed", b[k])
diffs = [float(np.abs(a - b).max()) for a, b, t in zip(whole, win, texts) if len(t) > W]
print("long units", len(diffs), "max |Δp|", max(diffs), "median", float(np.median(diffs)))
