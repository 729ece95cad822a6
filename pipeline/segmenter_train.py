"""`zhushu train segmenter`: rebuild models/segmenter from the data, deterministically.

Training data: the train split of data/punct/KR1d0030.punct.jsonl, records with aligned ≥ 0.9
(below that the carried-over marks are often misplaced), plus the punctuated TLS 禮記 and 周禮
in data/extra/ (kind "ext", its own kind embedding). Juan TUNE_JUAN of the train split are held
out of the gradient steps and used to pick the decision threshold (never the dev juan 10).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from pipeline.segmenter_data import PUNCT_FILE, read_extra, read_records

TUNE_JUAN = ("KR1d0030_007", "KR1d0030_027")
MIN_ALIGNED = 0.9
DEFAULTS = {
    "epochs": 10,
    "seed": 13,
    "lr": 2e-3,
    "batch_chars": 3000,
    "extra_weight": 1.0,
    "unk_p": 0.02,
    "arch": {"emb": 128, "bemb": 64, "kemb": 16, "hidden": 160, "layers": 2, "dropout": 0.3},
}


def training_data(punct_file: str | Path = PUNCT_FILE, use_extra: bool = True):
    recs = read_records(punct_file)
    train = [r for r in recs if r.get("split") == "train" and r.get("aligned", 1.0) >= MIN_ALIGNED and r["text"]]
    tune = [r for r in train if r["id"].split("#")[0] in TUNE_JUAN]
    train = [r for r in train if r["id"].split("#")[0] not in TUNE_JUAN]
    extra = read_extra() if use_extra else []
    return train, tune, extra


def train_segmenter(out_dir: str | Path, model_type: str = "bilstm", punct_file: str | Path = PUNCT_FILE,
                    use_extra: bool = True, log=print, **overrides) -> dict:
    """Train and write a model folder; returns its config (with train_seconds)."""
    out_dir = Path(out_dir)
    train, tune, extra = training_data(punct_file, use_extra)
    log(f"train {len(train)} records, tune {len(tune)}, extra {len(extra)}")
    if model_type == "crf":
        from pipeline.segmenter_crf import train_crf

        out_dir.mkdir(parents=True, exist_ok=True)
        info = train_crf(train + tune, out_dir / "crf.model", log=log)
        cfg = {"type": "crf", "file": "crf.model", **info}
        (out_dir / "config.json").write_text(json.dumps(cfg, indent=1), encoding="utf-8")
        return cfg
    import torch

    from pipeline.segmenter_nn import train

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    params = {**DEFAULTS, **overrides}
    params["arch"] = {**DEFAULTS["arch"], **overrides.get("arch", {})}
    t0 = time.time()
    seg = train(train, tune, extra, log=log, **params)
    seg.config["type"] = "bilstm"
    seg.config["train_seconds"] = round(time.time() - t0, 1)
    seg.config["data"] = {"punct": str(Path(punct_file).name), "min_aligned": MIN_ALIGNED,
                          "tune_juan": list(TUNE_JUAN), "extra": use_extra}
    seg.save(out_dir)
    return seg.config
