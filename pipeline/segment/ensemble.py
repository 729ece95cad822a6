"""An ensemble of BiLSTM segmenters: the mean of their per-character mark distributions.

Members were first seed-varied copies of one model; members of different shape also work (the
shipped models/segmenter-ensemble: the 1x192 v2 and the 2x192 folded v3, each reading the text
its own way), and the members' folders may be siblings ("../segmenter-v2"). Averaging cancels part of each model's idiosyncratic
errors, which matters here: the dev juan (大射) uses archery vocabulary that no training text
has, so single models disagree a lot there (docs/segmentation.md has the numbers).

Folder layout: config.json {"type": "ensemble", "members": ["seed13", …], "threshold": t} and
one BiLSTM model folder per member. The threshold is tuned for the averaged distribution.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pipeline.segment.bilstm import SCORE_BATCH_CHARS, NeuralSegmenter, decode


class EnsembleSegmenter:
    name = "ensemble"

    def __init__(self, members: list[NeuralSegmenter], threshold: float = 0.5, config: dict | None = None,
                 final_threshold: float | None = None):
        self.members = members
        self.threshold = threshold
        self.config = config or {}
        # how a break's mark is chosen (bilstm.marks_at; None: the argmax)
        self.final_threshold = final_threshold if final_threshold is not None else self.config.get("final_threshold")

    def probs(self, texts: list[str], kinds: list[str], books: list[str] | None = None,
              max_chars: int = SCORE_BATCH_CHARS, passages: list[str | None] | None = None) -> list[np.ndarray]:
        per_member = [m.probs(texts, kinds, books=books, max_chars=max_chars, passages=passages) for m in self.members]
        return [np.mean([p[i] for p in per_member], axis=0) for i in range(len(texts))]

    def predict(self, texts: list[str], kinds: list[str], books: list[str] | None = None,
                passages: list[str | None] | None = None) -> list[dict[int, str]]:
        return [decode(p, len(t), self.threshold, final_threshold=self.final_threshold)
                for p, t in zip(self.probs(texts, kinds, books=books, passages=passages), texts)]

    def save(self, folder: str | Path, member_names: list[str]) -> dict:
        """Write config.json (the member folders are written by their own save); return it."""
        cfg = dict(self.config, type="ensemble", members=member_names, threshold=self.threshold)
        if self.final_threshold is not None:
            cfg["final_threshold"] = self.final_threshold
        (Path(folder) / "config.json").write_text(json.dumps(cfg, ensure_ascii=False, indent=1), encoding="utf-8")
        return cfg

    @classmethod
    def load(cls, folder: str | Path) -> "EnsembleSegmenter":
        folder = Path(folder)
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        members = [NeuralSegmenter.load(folder / name) for name in cfg["members"]]
        return cls(members, cfg["threshold"], cfg)


