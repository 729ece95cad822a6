"""Fit a segmenter's passage prior (pipeline/segment/passage.py) on the train juan.

Pairs: each 注 record of the punctuated 注疏 (and each note record of the 集釋) with the 經 (base)
record right before it in the same juan, aligned >= 0.9, juan 0 left out. The tune juan of the
segmenter recipes are held out and scored; the dev juan are never read. Per book group one
scikit-learn logistic regression over FEATURES (a fixed solver and data order: the same file from
run to run); its threshold is the best seg F1 on the train pairs, on a 0.025 grid.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pipeline.evaluate.segment import record_passages
from pipeline.segment.data import PUNCT_FILE, read_records
from pipeline.segment.passage import FEATURES, PassagePrior, features, group_of
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU

BOOK_FILES = ("KR1d0003.punct.jsonl", "KR1d0053.punct.jsonl", PUNCT_FILE.name)
CLEAN = 0.9
THRESHOLDS = tuple(round(0.3 + 0.025 * i, 3) for i in range(17))  # 0.3 .. 0.7


def passage_pairs(punct_dir: str | Path | None = None, tune: bool = False) -> list[dict]:
    """Train (or tune-juan) pairs: {id, book, kind, passage, text, marks}."""
    punct_dir = Path(punct_dir) if punct_dir else PUNCT_FILE.parent
    tune_juan = set(TUNE_JUAN) | set(TUNE_JUAN_ZHUSHU)
    out = []
    for name in BOOK_FILES:
        recs = read_records(punct_dir / name)
        # the passage as eval segment gives it: the base record right before, in the same juan
        for b, passage in zip(recs, record_passages(recs)):
            juan = b["id"].split("#")[0]
            if b["split"] != "train" or juan.endswith("_000") or (juan in tune_juan) != tune:
                continue
            if not passage or b["kind"] != "note" or b.get("marker", "注") != "注" \
                    or b.get("aligned", 1.0) < CLEAN or not b["text"]:
                continue
            out.append({"id": b["id"], "book": juan.split("_")[0], "kind": "注" if "marker" in b else "note",
                        "passage": passage, "text": b["text"], "marks": b["marks"]})
    return out


def _design(segmenter, pairs: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, gold breaks and book group of every break position of the pairs."""
    from pipeline.segment import run_time_probs

    probs = run_time_probs(segmenter.backend, [p["text"] for p in pairs], [p["kind"] for p in pairs],
                           books=[None if p["book"] == "KR1d0030" else p["book"] for p in pairs],
                           passages=[p["passage"] for p in pairs])
    X, y, g = [], [], []
    for pair, pr in zip(pairs, probs):
        n = len(pair["text"])
        if n < 2:
            continue
        X.append(features(1 - pr[:, 0], pair["passage"], pair["text"]))
        y.append(np.array([k in pair["marks"] for k in range(1, n)]))
        g.extend([group_of(pair["book"])] * (n - 1))
    return np.vstack(X), np.concatenate(y), np.array(g)


def _f1(pred: np.ndarray, gold: np.ndarray) -> float:
    tp = int((pred & gold).sum())
    return 0.0 if tp == 0 else round(2 * tp / (int(pred.sum()) + int(gold.sum())), 4)


def fit_prior(segmenter, punct_dir: str | Path | None = None, log=print) -> PassagePrior:
    from sklearn.linear_model import LogisticRegression

    Xtr, ytr, gtr = _design(segmenter, passage_pairs(punct_dir))
    Xtu, ytu, gtu = _design(segmenter, passage_pairs(punct_dir, tune=True))
    cut = np.log((1 - segmenter.backend.threshold) / segmenter.backend.threshold)
    groups, report = {}, {}
    for group in ("注疏", "集釋"):
        m, mu = gtr == group, gtu == group
        lr = LogisticRegression(C=1.0, max_iter=2000, solver="lbfgs").fit(Xtr[m], ytr[m])
        ptr = lr.predict_proba(Xtr[m])[:, 1]
        threshold = max(THRESHOLDS, key=lambda t: (_f1(ptr > t, ytr[m]), -t))
        coef = [round(float(c), 6) for c in lr.coef_[0]]
        intercept = round(float(lr.intercept_[0]), 6)
        groups[group] = {"coef": coef, "intercept": intercept, "threshold": threshold}
        z = Xtu[mu].astype(np.float64) @ np.asarray(coef) + intercept
        report[group] = {"train_breaks": int(m.sum()), "tune_breaks": int(mu.sum()),
                         "tune_seg_f1_model": _f1(Xtu[mu][:, 0] > cut, ytu[mu]),
                         "tune_seg_f1_prior": _f1(1 / (1 + np.exp(-z)) > threshold, ytu[mu])}
        log(f"passage prior {group}: threshold {threshold}, tune seg F1 {report[group]['tune_seg_f1_model']} -> "
            f"{report[group]['tune_seg_f1_prior']} ({report[group]['tune_breaks']} positions)")
    return PassagePrior(groups, {"segmenter": segmenter.path.name, "tune": report})


def train_passage_prior(model_dir: str | Path, out: str | Path | None = None, punct_dir: str | Path | None = None,
                        log=print) -> Path:
    """Fit the prior of the segmenter in `model_dir`. Written to model_dir/passage_prior.json, or,
    with `out`, to a folder of its own that refers to the model (an ensemble of the model's members
    at the model's own threshold — one member for a BiLSTM: it marks every unit as the model does) and adds the
    prior; `out` is what the project ships (models/segmenter-v2-passage, models/segmenter-ensemble-passage),
    options."""
    import os

    from pipeline.atomic import write_text
    from pipeline.segment import read_segmenter

    model_dir = Path(model_dir)
    seg = read_segmenter(model_dir, with_prior=False)  # the model alone: a stale fit is replaced
    if seg.type not in ("bilstm", "ensemble"):
        raise ValueError(f"{model_dir}: a passage prior needs a BiLSTM or ensemble segmenter (its probabilities), not {seg.type}")
    prior = fit_prior(seg, punct_dir, log=log)
    if out is None or Path(out).resolve() == model_dir.resolve():
        return prior.save(model_dir)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if seg.type == "bilstm":
        members = [model_dir.resolve()]
    else:  # an ensemble: its members, as its own folder names them
        cfg = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        members = [(model_dir / m).resolve() for m in cfg["members"]]
    cfg = {"type": "ensemble", "members": [os.path.relpath(m, out.resolve()) for m in members],
           "threshold": seg.backend.threshold, "of": os.path.relpath(model_dir.resolve(), out.resolve()),
           "note": "the segmenter `of` (its members at its own threshold) with the passage prior of passage_prior.json"}
    if seg.backend.final_threshold is not None:  # its marks chosen as `of` chooses them
        cfg["final_threshold"] = seg.backend.final_threshold
    old = out / "config.json"
    if old.exists() and "memory" in json.loads(old.read_text(encoding="utf-8")):
        # the phrase memory the folder reads (`zhushu train segment-memory`) is not the prior's to drop
        cfg["memory"] = json.loads(old.read_text(encoding="utf-8"))["memory"]
    write_text(out / "config.json", json.dumps(cfg, ensure_ascii=False, indent=1) + "\n")
    return prior.save(out)
