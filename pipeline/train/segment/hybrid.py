"""Tuning the hybrid segmenter's weight and threshold (pipeline/segment/hybrid.py) on the tune juan."""

from __future__ import annotations

import numpy as np

from pipeline.segment.bilstm import NeuralSegmenter
from pipeline.segment.hybrid import HybridSegmenter, mixed_none
from pipeline.segment.stanza import StanzaBreaker
from pipeline.train.segment.bilstm import break_f1


def tune_hybrid(bilstm: NeuralSegmenter, stanza: StanzaBreaker, tune_recs: list[dict]) -> HybridSegmenter:
    """Pick weight and threshold on the tune records (seg F1, positions 1..n-1)."""
    texts, kinds = [r["text"] for r in tune_recs], [r["kind"] for r in tune_recs]
    hybrid = HybridSegmenter(bilstm, stanza)
    ours, theirs = hybrid.member_probs(texts, kinds)
    best = (-1.0, 0.5, 0.5)
    for weight in np.arange(0.3, 0.91, 0.1):
        p_none = [mixed_none(a, b, weight) for a, b in zip(ours, theirs)]
        for threshold in np.arange(0.3, 0.76, 0.025):
            f1 = break_f1(p_none, tune_recs, threshold)
            if f1 > best[0] + 1e-9:
                best = (f1, round(float(weight), 2), round(float(threshold), 3))
    hybrid.weight, hybrid.threshold = best[1], best[2]
    return hybrid
