"""Training the CRF baseline segmenter (pipeline/segment/crf.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pycrfsuite

from pipeline.segment.crf import features


def _labels(text: str, marks: dict[int, str]) -> list[str]:
    return [marks.get(i + 1, "O") for i in range(len(text))]


def train_crf(records: list[dict], model_file: str | Path, c1: float = 0.05, c2: float = 0.01,
              max_iterations: int = 150, log=print) -> dict:
    t0 = time.time()
    trainer = pycrfsuite.Trainer(verbose=False)
    for r in records:
        if r["text"]:
            trainer.append(features(r["text"], r["kind"]), _labels(r["text"], r["marks"]))
    trainer.set_params({"c1": c1, "c2": c2, "max_iterations": max_iterations,
                        "feature.possible_transitions": True})
    Path(model_file).parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(model_file))
    info = {"train_seconds": round(time.time() - t0, 1), "c1": c1, "c2": c2, "max_iterations": max_iterations}
    Path(str(model_file) + ".json").write_text(json.dumps(info), encoding="utf-8")
    log(f"crf trained in {info['train_seconds']}s")
    return info
