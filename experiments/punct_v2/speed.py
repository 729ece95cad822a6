"""Inference speed (chars/s, one thread, float) of untrained candidate architectures on the 集釋 dev
texts, with the vocabulary of models/segmenter: python experiments/punct_v2/speed.py"""
import json
import time

import torch
from common import ROOT, NeuralSegmenter

from pipeline.segment.data import read_records
from pipeline.segment.bilstm import Tagger

torch.set_num_threads(1)
torch.manual_seed(0)
base = NeuralSegmenter.load(ROOT / "models/segmenter", quantize=False)
recs = [r for r in read_records(ROOT / "data/punct/KR1d0030.punct.jsonl", split="dev") if r["text"]]
texts, kinds = [r["text"] for r in recs], [r["kind"] for r in recs]
n = sum(map(len, texts))
ARCHS = {
    "bilstm 1x192": {"hidden": 192, "layers": 1},
    "bilstm 2x192": {"hidden": 192, "layers": 2},
    "bilstm 1x256": {"hidden": 256, "layers": 1},
    "cnn2+bilstm 1x192": {"enc": "cnnlstm", "hidden": 192, "layers": 1, "conv_layers": 2},
    "transformer 3x192": {"enc": "transformer", "hidden": 192, "layers": 3, "kernel": 5, "ff": 512},
    "transformer 4x256": {"enc": "transformer", "hidden": 256, "layers": 4, "kernel": 5, "ff": 768},
}
for name, arch in ARCHS.items():
    m = Tagger(len(base.vocab.chars) + 2, base.vocab.n_ngrams, n_kinds=6, n_books=4, **arch).eval()
    seg = NeuralSegmenter(m, base.vocab)
    seg.predict(texts[:5], kinds[:5])
    best = 0
    for _ in range(3):
        t0 = time.perf_counter()
        seg.predict(texts, kinds)
        best = max(best, n / (time.perf_counter() - t0))
    print(json.dumps({"arch": name, "chars_per_second": round(best), "params": sum(p.numel() for p in m.parameters())}))
