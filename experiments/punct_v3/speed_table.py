"""chars/s (one thread, best of 3 predict calls over the 集釋 dev units, with their kinds and book)
and folder size of model folders, all measured in one run (the ratio to the first is what counts on a
shared machine): python experiments/punct_v3/speed_table.py models/segmenter-v2 /tmp/pv2/v3_192 …
An ensemble folder counts its members' folders and parameters."""
import json
import os
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.data import read_records  # noqa: E402

torch.set_num_threads(1)
recs = [r for r in read_records(ROOT / "data/punct/KR1d0030.punct.jsonl", split="dev") if r["text"]]
texts, kinds = [r["text"] for r in recs], [r["kind"] for r in recs]
books = ["KR1d0030"] * len(texts)
n = sum(map(len, texts))
print("load", os.getloadavg())
base = None
for d in sys.argv[1:]:
    seg = read_segmenter(Path(d)).backend
    members = [Path(d) / m for m in seg.config.get("members", [])] if hasattr(seg, "members") else [Path(d)]
    nets = [m.model for m in seg.members] if hasattr(seg, "members") else [seg.model]
    seg.predict(texts[:5], kinds[:5], books=books[:5])
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        seg.predict(texts, kinds, books=books)
        best = max(best, n / (time.perf_counter() - t0))
    base = base or best
    size = sum(f.stat().st_size for m in members for f in m.iterdir()) / 1e6
    print(json.dumps({"model": d, "chars_per_second": round(best), "ratio": round(best / base, 3), "size_mb": round(size, 1),
                      "params": sum(p.numel() for net in nets for p in net.parameters())}), flush=True)
print("load", os.getloadavg())
