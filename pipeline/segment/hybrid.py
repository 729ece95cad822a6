"""The hybrid segmenter: the BiLSTM and a Stanza tokenizer, two model families, voting on where
the breaks go.

P(no mark) at each position is a weighted mean of the BiLSTM's and Stanza's; where that is under
the threshold there is a break, and the mark is the BiLSTM's most probable one (Stanza tells a
clause end from a sentence end only). Weight and threshold are tuned on the tune juan.

Why two families: seed-varied BiLSTMs make correlated errors (their average gains 0.5 points of
dev seg F1), while Stanza's tokenizer errs elsewhere — averaged with it the BiLSTM gains 2.6
(docs/segmentation.md). It was the most accurate configuration on the 集釋 until stop 36 (dev seg F1 0.774; the default
0.779 since), and it reads base / note only, at about a third of the BiLSTM's speed, so it is an option (`zhushu train segmenter --type hybrid`), not the default.

Folder layout: config.json {"type": "hybrid", "bilstm": "bilstm", "stanza": "stanza.pt",
"weight": w, "threshold": t} and the Stanza model file; "bilstm" is the BiLSTM model folder,
relative to this one (its own subfolder, or e.g. "../segmenter" for models/segmenter-hybrid).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pipeline.segment.bilstm import NeuralSegmenter, decode
from pipeline.segment.stanza import StanzaBreaker


def mixed_none(bilstm: np.ndarray, stanza: np.ndarray, weight: float) -> np.ndarray:
    """P(no mark) per position: the weighted mean of both models'."""
    return weight * bilstm[:, 0] + (1 - weight) * stanza[:, 0]


def combine(bilstm: np.ndarray, stanza: np.ndarray, weight: float) -> np.ndarray:
    """The BiLSTM's (n, labels) distribution with P(no mark) replaced by mixed_none and the marks
    rescaled to fill the rest."""
    out = bilstm.copy()
    p_none = mixed_none(bilstm, stanza, weight)
    scale = (1 - p_none) / np.maximum(1 - bilstm[:, 0], 1e-9)
    out[:, 1:] = bilstm[:, 1:] * scale[:, None]
    out[:, 0] = p_none
    return out


class HybridSegmenter:
    name = "hybrid"

    def __init__(self, bilstm: NeuralSegmenter, stanza: StanzaBreaker, weight: float = 0.5,
                 threshold: float = 0.5, config: dict | None = None):
        self.bilstm = bilstm
        self.stanza = stanza
        self.weight = weight
        self.threshold = threshold
        self.config = config or {}

    def member_probs(self, texts: list[str], kinds: list[str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        return self.bilstm.probs(texts, kinds), self.stanza.probs(texts)

    def probs(self, texts: list[str], kinds: list[str]) -> list[np.ndarray]:
        ours, theirs = self.member_probs(texts, kinds)
        return [combine(a, b, self.weight) for a, b in zip(ours, theirs)]

    def predict(self, texts: list[str], kinds: list[str]) -> list[dict[int, str]]:
        return [decode(p, len(t), self.threshold) for p, t in zip(self.probs(texts, kinds), texts)]

    def save(self, folder: str | Path, bilstm_dir: str, stanza_file: str) -> dict:
        """Write config.json (the members are written by their own trainers); return it."""
        cfg = dict(self.config, type="hybrid", bilstm=bilstm_dir, stanza=stanza_file,
                   weight=self.weight, threshold=self.threshold)
        (Path(folder) / "config.json").write_text(json.dumps(cfg, ensure_ascii=False, indent=1), encoding="utf-8")
        return cfg

    @classmethod
    def load(cls, folder: str | Path) -> "HybridSegmenter":
        folder = Path(folder)
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        return cls(NeuralSegmenter.load(folder / cfg["bilstm"]), StanzaBreaker(folder / cfg["stanza"]),
                   cfg["weight"], cfg["threshold"], cfg)


