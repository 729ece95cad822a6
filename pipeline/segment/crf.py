"""Baseline segmenter: a linear-chain CRF (python-crfsuite) over character n-gram features.

Kept for the comparison in docs/segmentation.md; the project's default model is the BiLSTM
(pipeline/segment/bilstm.py). Label of character i = the mark after it ("O" for none).
"""

from __future__ import annotations

from pathlib import Path

import pycrfsuite

from pipeline.segment.data import MARKS

BOUND = "#"


def features(text: str, kind: str) -> list[list[str]]:
    n = len(text)
    pad = BOUND * 3 + text + BOUND * 3
    out = []
    for i in range(n):
        j = i + 3  # index in pad
        f = [f"k={kind}"]
        for d in range(-3, 4):
            f.append(f"c{d}={pad[j + d]}")
        for d in range(-2, 3):
            f.append(f"b{d}={pad[j + d]}{pad[j + d + 1]}")
        for d in (-2, -1, 0, 1):
            f.append(f"t{d}={pad[j + d]}{pad[j + d + 1]}{pad[j + d + 2]}")
        f.append(f"kc0={kind}{pad[j]}")
        f.append(f"kb0={kind}{pad[j]}{pad[j + 1]}")
        if i == n - 1:
            f.append("END")
        out.append(f)
    return out


class CRFSegmenter:
    name = "crf"

    def __init__(self, model_file: str | Path):
        self.tagger = pycrfsuite.Tagger()
        self.tagger.open(str(model_file))

    def predict(self, texts: list[str], kinds: list[str]) -> list[dict[int, str]]:
        out = []
        for text, kind in zip(texts, kinds):
            if not text:
                out.append({})
                continue
            tags = self.tagger.tag(features(text, "note" if kind == "commentary" else kind))
            marks = {i + 1: t for i, t in enumerate(tags[:-1]) if t in MARKS}
            marks[len(text)] = tags[-1] if tags[-1] in MARKS else "。"
            out.append(marks)
        return out


