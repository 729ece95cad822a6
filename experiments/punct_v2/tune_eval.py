"""Tune-juan scores (集釋 juan 7+27, 注疏 juan 7) of model folders at their own threshold:
python experiments/punct_v2/tune_eval.py DIR [DIR …]"""
import sys

import torch
from common import NeuralSegmenter

from pipeline.evaluate.segment import score
from pipeline.train.segment import training_data, v2_records, zhushu_data

torch.set_num_threads(1)
_, tune, _ = training_data()
v2_records([], tune, [])
_, ztune = zhushu_data()
for d in sys.argv[1:]:
    seg = NeuralSegmenter.load(d, quantize=False)
    out = [d]
    for name, recs in (("集釋", tune), ("注疏", ztune)):
        r = score(recs, seg.predict([x["text"] for x in recs], [x["kind"] for x in recs], books=[x["book"] for x in recs]))
        out.append(f"{name} seg {r['seg']['f1']:.4f} sent {r['sentence']['f1']:.4f} punct {r['punct']['f1']:.4f} "
                   + " ".join(f"{k}:{v['seg']['f1']:.4f}" for k, v in r["by_kind"].items()))
    print(" | ".join(out), flush=True)
