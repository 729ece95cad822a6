"""chars/s (one thread, best of 3 predict calls over the 集釋 dev units) and size of the trained
models, measured in one run: python experiments/punct_v2/speed_table.py"""
import json
import os
import time

import torch
from common import ROOT, NeuralSegmenter

from pipeline.segment.data import read_records

torch.set_num_threads(1)
recs = [r for r in read_records(ROOT / "data/punct/KR1d0030.punct.jsonl", split="dev") if r["text"]]
texts, kinds = [r["text"] for r in recs], [r["kind"] for r in recs]
n = sum(map(len, texts))
MODELS = [("today int8", ROOT / "models/segmenter", True), ("today float", ROOT / "models/segmenter", False),
          ("v2 (mix8) float", ROOT / "models/segmenter-v2", False), ("s3-bilstm", "/tmp/pv2/s3-bilstm", False),
          ("s3-cnnlstm", "/tmp/pv2/s3-cnnlstm", False), ("s3-transformer", "/tmp/pv2/s3-transformer", False)]
print("load", os.getloadavg())
for name, d, q in MODELS:
    seg = NeuralSegmenter.load(d, quantize=q)
    seg.predict(texts[:5], kinds[:5])
    best = 0
    for _ in range(3):
        t0 = time.perf_counter()
        seg.predict(texts, kinds)
        best = max(best, n / (time.perf_counter() - t0))
    size = sum(f.stat().st_size for f in __import__("pathlib").Path(d).iterdir()) / 1e6
    print(json.dumps({"model": name, "chars_per_second": round(best), "size_mb": round(size, 1),
                      "params": sum(p.numel() for p in seg.model.parameters())}), flush=True)
print("load", os.getloadavg())
