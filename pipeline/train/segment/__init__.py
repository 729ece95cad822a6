"""`zhushu train segmenter`: rebuild models/segmenter from the data, deterministically.

Training data: the train split of data/punct/KR1d0030.punct.jsonl, records with aligned ≥ 0.75
(weight 1 from 0.9 up, weight = aligned below: there the carried-over marks are sometimes
misplaced, mostly the alignment only missed variant characters), plus the punctuated TLS 禮記 and 周禮
in data/extra/ (kind "ext", its own kind embedding). Juan TUNE_JUAN of the train split are held
out of the gradient steps and used to pick the decision threshold (never the dev juan 10).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from pipeline.segment.data import PUNCT_FILE, read_extra, read_records

TUNE_JUAN = ("KR1d0030_007", "KR1d0030_027")
CLEAN_ALIGNED = 0.9  # at and above: weight 1
MIN_ALIGNED = 0.75  # below: dropped (measured: keeping 0.75-0.9 with weight = aligned helps, see docs)
DEFAULTS = {
    "epochs": 10,
    "seed": 13,
    "seeds": (13, 14, 15),  # ensemble members (--type ensemble)
    "lr": 2e-3,
    "batch_chars": 3000,
    "extra_weight": 1.0,
    "unk_p": 0.02,
    "arch": {"emb": 128, "bemb": 64, "kemb": 16, "hidden": 192, "layers": 1, "dropout": 0.3},
}


def training_data(punct_file: str | Path = PUNCT_FILE, use_extra: bool = True, min_aligned: float = MIN_ALIGNED,
                  tune_juan: tuple[str, ...] = TUNE_JUAN):
    """(train, tune, extra) records. Train records with min_aligned <= aligned < 0.9 get
    weight = aligned; the tune records are those of TUNE_JUAN with aligned >= 0.9."""
    recs = read_records(punct_file)
    train = [r for r in recs if r.get("split") == "train" and r.get("aligned", 1.0) >= min_aligned and r["text"]]
    tune = [r for r in train if r["id"].split("#")[0] in tune_juan and r.get("aligned", 1.0) >= CLEAN_ALIGNED]
    train = [r for r in train if r["id"].split("#")[0] not in tune_juan]
    for r in train:
        a = r.get("aligned", 1.0)
        r["weight"] = 1.0 if a >= CLEAN_ALIGNED else round(a, 3)
    extra = read_extra() if use_extra else []
    return train, tune, extra


def train_segmenter(out_dir: str | Path, model_type: str = "bilstm", punct_file: str | Path = PUNCT_FILE,
                    use_extra: bool = True, log=print, **overrides) -> dict:
    """Train and write a model folder; returns its config (with train_seconds)."""
    out_dir = Path(out_dir)
    tune_juan = tuple(overrides.pop("tune_juan", TUNE_JUAN))
    train, tune, extra = training_data(punct_file, use_extra, tune_juan=tune_juan)
    if model_type == "crf":  # crfsuite has no per-sequence weights: keep the clean records only
        train = [r for r in train if r["weight"] == 1.0]
    log(f"train {len(train)} records, tune {len(tune)}, extra {len(extra)}")
    if model_type == "crf":
        from pipeline.train.segment.crf import train_crf

        out_dir.mkdir(parents=True, exist_ok=True)
        info = train_crf(train + tune + extra, out_dir / "crf.model", log=log)
        cfg = {"type": "crf", "file": "crf.model", **info,
               "data": {"punct": str(Path(punct_file).name), "min_aligned": CLEAN_ALIGNED, "extra": use_extra}}
        (out_dir / "config.json").write_text(json.dumps(cfg, indent=1), encoding="utf-8")
        return cfg
    import torch

    from pipeline.segment.bilstm import NeuralSegmenter
    from pipeline.train.segment.bilstm import train as train_nn

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    params = {**DEFAULTS, **overrides}
    params["arch"] = {**DEFAULTS["arch"], **overrides.get("arch", {})}
    data = {"punct": str(Path(punct_file).name), "min_aligned": MIN_ALIGNED,
            "clean_aligned": CLEAN_ALIGNED, "tune_juan": list(tune_juan), "extra": use_extra}
    seeds = params.pop("seeds")
    t0 = time.time()
    if model_type == "ensemble":  # one member per seed, each a complete BiLSTM folder; the ensemble threshold on tune
        from pipeline.train.segment.ensemble import tune_ensemble

        members, names = [], []
        for seed in seeds:
            log(f"member seed {seed}")
            seg = train_nn(train, tune, extra, log=log, **{**params, "seed": seed})
            seg.config.update(type="bilstm", data=data)
            names.append(f"seed{seed}")
            seg.save(out_dir / names[-1])
            members.append(NeuralSegmenter.load(out_dir / names[-1]))  # as used: int8
        ens = tune_ensemble(members, tune)
        ens.config = {"seeds": list(seeds), "train_seconds": round(time.time() - t0, 1), "data": data}
        log(f"ensemble threshold {ens.threshold}")
        return ens.save(out_dir, names)
    if model_type == "hybrid":  # the BiLSTM (trained here, or the folder bilstm_from) + a Stanza tokenizer
        return _train_hybrid(out_dir, train, tune, extra, params, data, t0, log)
    seg = train_nn(train, tune, extra, log=log, **params)
    seg.config["type"] = "bilstm"
    seg.config["train_seconds"] = round(time.time() - t0, 1)
    seg.config["data"] = data
    seg.save(out_dir)
    return seg.config


def _train_hybrid(out_dir: Path, train: list[dict], tune: list[dict], extra: list[dict], params: dict,
                  data: dict, t0: float, log) -> dict:
    from pipeline.train.segment.hybrid import tune_hybrid
    from pipeline.segment.bilstm import NeuralSegmenter
    from pipeline.train.segment.bilstm import train as train_nn
    from pipeline.segment.stanza import StanzaBreaker
    from pipeline.train.segment.stanza import train_stanza

    out_dir.mkdir(parents=True, exist_ok=True)
    bilstm_from = params.pop("bilstm_from", None)
    if bilstm_from:  # a trained BiLSTM folder (e.g. models/segmenter), referred to, not copied
        bilstm_dir = os.path.relpath(bilstm_from, out_dir)
        log(f"bilstm: {bilstm_from}")
    else:
        bilstm_dir = "bilstm"
        seg = train_nn(train, tune, extra, log=log, **params)
        seg.config.update(type="bilstm", data=data)
        seg.save(out_dir / bilstm_dir)
    log("stanza tokenizer")
    train_stanza(train + extra, tune, out_dir / "stanza.pt")
    hybrid = tune_hybrid(NeuralSegmenter.load(out_dir / bilstm_dir), StanzaBreaker(out_dir / "stanza.pt"), tune)
    hybrid.config = {"train_seconds": round(time.time() - t0, 1), "data": data}
    log(f"hybrid weight {hybrid.weight}, threshold {hybrid.threshold}")
    return hybrid.save(out_dir, bilstm_dir, "stanza.pt")

