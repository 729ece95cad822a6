"""`zhushu train segmenter`: rebuild the segmenter (models/segmenter-v2, or the v1 models/segmenter) from the data, deterministically.

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

from pipeline import paths
from pipeline.segment.data import (
    N_BOOKS,
    N_KINDS,
    PUNCT_FILE,
    PUNCT_FILES_V2,
    book_of,
    read_extra,
    read_records,
    record_kind,
)

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
    # float inference: the same unit gets the same marks in any batch (int8 dynamic quantization
    # scales activations per batch: 23 of 322 dev units changed with their batch)
    "quantize": False,
}

# Punctuation v2 (issue 15; docs/segmentation.md "Punctuation v2"): DEFAULTS + the 注疏 with a kind
# per marker and a book embedding, float inference (batch-invariant). `zhushu train segmenter
# --recipe v2` (models/segmenter-v2). The 注疏 drawn at half their chunks an epoch since stop 32
# (0.2 before: the model underfitted them; on the tune juan 0.5 gained +2.1 seg F1 on the 注疏 and
# +0.7 on the 集釋, docs/segmentation.md "Stop 32").
V2_OVERRIDES = {
    "zhushu": True,
    "quantize": False,
    "epochs": 8,
    "zhushu_frac": 0.5,
}

# Punctuation v3 (issue 22): v2 + the outside punctuated prose (19.4 M characters, simplified),
# every text read through the per-character t2s fold; a fresh 5 % of the outside chunks an epoch
# (the probe before the issue: +1.5 points on the tune juan at that rate, 6 epochs).
# The 注疏 at 0.2 an epoch, as models/segmenter-v3 was trained (v2's 0.5 came at stop 32).
V3_OVERRIDES = {**V2_OVERRIDES, "zhushu_frac": 0.2, "fold": "t2s", "outside": True, "outside_frac": 0.05,
                "outside_weight": 1.0}
OUTSIDE_FILE = paths.OUTSIDE_PROSE

# Punctuation v7 (stops 77-78; issue 22 item 3): v6 reading the passage. v6's weights and recipe, with the passage
# channel (segment/passage.py, passage_ids) added to its BiLSTM's input at zero — at the start the same model — and
# trained on: every chunk of a 注 / note with its passage, a fresh 0.3 of the rest of our own text and of the TLS text,
# the outside prose at 0.01 of its chunks, five epochs at lr 3e-3 (about 31 minutes on one core). Three epochs missed
# stop 49's rule by 0.003 with its priors and the memory; five met it on the tune juan: the BiLSTM of the default
# since stop 78 (docs/segmentation.md "Stop 77", "Stop 78").
V7_OVERRIDES = {**V3_OVERRIDES, "zhushu_frac": 1.0, "outside_frac": 0.01, "other_frac": 0.3, "epochs": 5,
                "lr": 3e-3, "batch_chars": 6000, "arch": {"layers": 2, "passage_emb": 8},
                "init_from": str(paths.MODELS / "segmenter-v6")}

# Punctuation v8 (stop 81; issue 22 item 3): v7 whose channel reads the 疏 too — a 疏's passage is every 經 and 注
# since the 疏 before it (segment/passage.py, commentary_passages), which it quotes («云X者»). From v7's weights,
# v7's draw (every 注 / note chunk, a fresh 0.3 of the rest — the 疏 now with their passages), three epochs.
V8_OVERRIDES = {**V7_OVERRIDES, "epochs": 3,
                "arch": {"layers": 2, "passage_emb": 8, "passage_kinds": ["note", "注", "疏"]},
                "init_from": str(paths.MODELS / "segmenter-v7")}

# Punctuation v2, distilled (issue 22, "a large teacher distilled into a fast student"): the v2
# recipe and shape (1x192, not folded: v2's speed), each character of our own text trained towards
# the teacher's distribution (weight DISTIL_WEIGHT) and its gold mark (the rest). The teacher is
# models/segmenter-ensemble: the mean of v2 and the 2x192 folded v3 (on the tune juan +1.4 seg F1
# over either alone; docs/segmentation.md).
DISTIL_WEIGHT = 0.5
# (the 注疏 at 0.2, as the v2d students of stops 27-28 were measured)
V2D_OVERRIDES = {**V2_OVERRIDES, "zhushu_frac": 0.2, "teacher": str(paths.MODELS / "segmenter-ensemble"),
                 "distil_weight": DISTIL_WEIGHT}


def with_passages(records: list[dict]) -> list[dict]:
    """The records of one punct file, each commentary record right after a base record of its juan
    with that record's text as its "passage" (the passage a 注 glosses, as the pipeline gives it: read
    by a model with a passage channel)."""
    from pipeline.evaluate.segment import record_passages

    for r, passage in zip(records, record_passages(records)):
        if passage:
            r["passage"] = passage
    return records


def training_data(punct_file: str | Path = PUNCT_FILE, use_extra: bool = True, min_aligned: float = MIN_ALIGNED,
                  tune_juan: tuple[str, ...] = TUNE_JUAN):
    """(train, tune, extra) records. Train records with min_aligned <= aligned < 0.9 get
    weight = aligned; the tune records are those of TUNE_JUAN with aligned >= 0.9."""
    recs = with_passages(read_records(punct_file))
    train = [r for r in recs if r.get("split") == "train" and r.get("aligned", 1.0) >= min_aligned and r["text"]]
    tune = [r for r in train if r["id"].split("#")[0] in tune_juan and r.get("aligned", 1.0) >= CLEAN_ALIGNED]
    train = [r for r in train if r["id"].split("#")[0] not in tune_juan]
    for r in train:
        a = r.get("aligned", 1.0)
        r["weight"] = 1.0 if a >= CLEAN_ALIGNED else round(a, 3)
    extra = read_extra() if use_extra else []
    return train, tune, extra


# Punctuation v2: the punctuated 注疏 (data/punct/KR1d0003, KR1d0053). Juan 7 of each is held out
# of the gradient steps as their tune juan (logged; the dev juan 10, 20, … are never used).
TUNE_JUAN_ZHUSHU = ("KR1d0003_007", "KR1d0053_007")


def zhushu_data(punct_dir: str | Path | None = None, min_aligned: float = MIN_ALIGNED,
                tune_juan: tuple[str, ...] = TUNE_JUAN_ZHUSHU) -> tuple[list[dict], list[dict]]:
    """(train, tune) records of the 注疏 punct data: split train, juan 0 (prefaces, poorly aligned)
    left out, aligned ≥ min_aligned with the same weights as the 集釋; "kind" is the marker's
    (經 → base, 注, 疏, 音義, 小注) and "book" the book id."""
    punct_dir = Path(punct_dir) if punct_dir else PUNCT_FILE.parent
    train, tune = [], []
    for name in PUNCT_FILES_V2:
        for r in with_passages(read_records(punct_dir / name, split="train")):  # (a juan is all one split)
            juan = r["id"].split("#")[0]
            a = r.get("aligned", 1.0)
            if not r["text"] or juan.endswith("_000") or a < min_aligned:
                continue
            r = dict(r, kind=record_kind(r), book=book_of(r["id"]))
            if juan in tune_juan:
                if a >= CLEAN_ALIGNED:
                    tune.append(r)
                continue
            r["weight"] = 1.0 if a >= CLEAN_ALIGNED else round(a, 3)
            train.append(r)
    return train, tune


def outside_data(path: str | Path = OUTSIDE_FILE, min_chars: int = 4) -> list[dict]:
    """The outside punctuated prose (one JSON record a line, gzip; the record shape of data/punct,
    simplified characters) as training records of kind "ext", book "ext". Read at training time
    from ../shared (41 MB): CI never trains, and the run-time model carries nothing of it but
    its weights."""
    import gzip

    from pipeline.errors import InputError

    path = Path(path)
    if not path.exists():
        raise InputError(str(path), None, "the outside punctuated prose is not there (--outside FILE)")
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            obj = json.loads(line)
            text = obj.get("text")
            if not isinstance(text, str) or len(text) < min_chars:
                continue
            marks = {int(k): m for k, m in obj.get("marks", {}).items()}
            if any(not 0 < k <= len(text) for k in marks):
                raise InputError(str(path), lineno, "a mark outside its text")
            out.append({"id": obj.get("id", f"out#{lineno}"), "kind": "ext", "book": "ext", "text": text, "marks": marks})
    return out


def v2_records(train: list[dict], tune: list[dict], extra: list[dict]) -> None:
    """Tag the 集釋 and extra records with their v2 kind (鄭注 → 注) and book, in place."""
    for r in train + tune:
        r["kind"] = "注" if r["kind"] == "note" else r["kind"]
        r["book"] = "KR1d0030"
    for r in extra:
        r["book"] = "ext"


def tune_sets() -> dict[str, list[dict]]:
    """The tune juan as the v2 models read them: {"集釋": juan 7 + 27, "注疏": juan 7 of both books}
    (held out of every model's gradient steps; thresholds and priors are chosen on them)."""
    _, tune, _ = training_data()
    v2_records([], tune, [])
    _, ztune = zhushu_data()
    return {"集釋": tune, "注疏": ztune}


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
    params = {**DEFAULTS, **overrides}
    # on a GPU some ops have no deterministic kernel: warn there rather than stop (a GPU run is not
    # bit-reproducible across machines anyway; the CPU runs are)
    torch.use_deterministic_algorithms(True, warn_only=params.get("device", "cpu") != "cpu")
    params["arch"] = {**DEFAULTS["arch"], **overrides.get("arch", {})}
    data = {"punct": str(Path(punct_file).name), "min_aligned": MIN_ALIGNED,
            "clean_aligned": CLEAN_ALIGNED, "tune_juan": list(tune_juan), "extra": use_extra}
    seeds = params.pop("seeds")
    outside = params.pop("outside", False)
    outside_file = params.pop("outside_file", OUTSIDE_FILE)
    if params.pop("zhushu", False):  # punctuation v2: + the 注疏, kinds per marker, a book embedding
        zs_train, zs_tune = zhushu_data()
        v2_records(train, tune, extra)
        params.update(zhushu_recs=zs_train, tune_zhushu=zs_tune)
        params["arch"] = {"n_kinds": N_KINDS, "n_books": N_BOOKS, **params["arch"]}
        data.update(zhushu=list(PUNCT_FILES_V2), tune_juan_zhushu=list(TUNE_JUAN_ZHUSHU))
        log(f"zhushu train {len(zs_train)} records ({sum(len(r['text']) for r in zs_train)} chars), tune {len(zs_tune)}")
    if outside:  # punctuation v3: the outside prose, read through the fold
        params["outside_recs"] = outside_data(outside_file)
        data.update(outside=Path(outside_file).name, fold=params.get("fold"))
        log(f"outside {len(params['outside_recs'])} records ({sum(len(r['text']) for r in params['outside_recs'])} chars)")
    teacher_dir = params.pop("teacher", None)
    if teacher_dir:  # distillation: the teacher's distributions over every chunk of our own text
        from pipeline.segment import read_segmenter

        params["teacher"] = read_segmenter(Path(teacher_dir)).backend
        params["teacher_name"] = Path(teacher_dir).name
        data["teacher"] = Path(teacher_dir).name
    members_from = params.pop("members_from", None)
    t0 = time.time()
    if model_type == "ensemble":  # the mean of its members; only the threshold is tuned (on tune)
        from pipeline.train.segment.ensemble import tune_ensemble

        if members_from:  # trained folders, referred to (not copied)
            names = [os.path.relpath(m, out_dir) for m in members_from]
            members = [NeuralSegmenter.load(m) for m in members_from]
            config = {"data": data}
        else:  # one member per seed, each a complete BiLSTM folder
            members, names = [], []
            for seed in seeds:
                log(f"member seed {seed}")
                seg = train_nn(train, tune, extra, log=log, **{**params, "seed": seed})
                seg.config.update(type="bilstm", data=data)
                names.append(f"seed{seed}")
                seg.save(out_dir / names[-1])
                members.append(NeuralSegmenter.load(out_dir / names[-1]))  # as used: int8
            config = {"seeds": list(seeds), "train_seconds": round(time.time() - t0, 1), "data": data}
        ens = tune_ensemble(members, tune, tune + params.get("tune_zhushu", []))
        ens.config = config
        log(f"ensemble of {names}: threshold {ens.threshold}, final_threshold {ens.final_threshold}")
        out_dir.mkdir(parents=True, exist_ok=True)
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

