"""Train one punctuation-v2 candidate through pipeline.train.segment.train_segmenter and score it on
the dev split of the three books.

    nice python experiments/punct_v2/train.py NAME '{"zhushu": true, "zhushu_frac": 0.25, "epochs": 6}'

Writes /tmp/pv2/NAME (model), experiments/punct_v2/logs/NAME.log, a row in results.jsonl.
"""
import json
import sys
import time

import torch
from common import ROOT, NeuralSegmenter, dev_table, short

from pipeline.train.segment import train_segmenter

name, overrides = sys.argv[1], json.loads(sys.argv[2])
out = __import__("pathlib").Path("/tmp/pv2") / name
logdir = ROOT / "experiments/punct_v2/logs"
logdir.mkdir(exist_ok=True)
logf = open(logdir / f"{name}.log", "w", encoding="utf-8")  # noqa: SIM115 (open for the whole run)


def log(msg):
    print(msg, flush=True)
    logf.write(msg + "\n")
    logf.flush()


log(f"{name} {json.dumps(overrides, ensure_ascii=False)} {time.strftime('%H:%M:%S')}")
t0 = time.time()
cfg = train_segmenter(out, log=log, **overrides)
log(f"trained in {time.time() - t0:.0f}s")
seg = NeuralSegmenter.load(out)
row = dev_table(seg, name, ROOT / "experiments/punct_v2/results.jsonl")
row_cfg = {"train_seconds": cfg["train_seconds"], "threshold": seg.threshold, "overrides": overrides,
           "size_mb": round(sum(f.stat().st_size for f in out.iterdir()) / 1e6, 2)}
log(json.dumps(row_cfg, ensure_ascii=False))
log(short(row))
torch.set_num_threads(1)
