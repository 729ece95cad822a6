"""Tuning an ensemble of BiLSTM segmenters (pipeline/segment/ensemble.py)."""

from __future__ import annotations

from pipeline.segment.bilstm import NeuralSegmenter
from pipeline.segment.ensemble import EnsembleSegmenter
from pipeline.train.segment.bilstm import tune_threshold


def tune_ensemble(members: list[NeuralSegmenter], tune_recs: list[dict]) -> EnsembleSegmenter:
    """Build the ensemble and pick its threshold on the tune records (seg F1)."""
    ens = EnsembleSegmenter(members)
    ens.threshold = tune_threshold(ens, tune_recs) if tune_recs else 0.5
    return ens
