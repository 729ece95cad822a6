"""Tuning an ensemble of BiLSTM segmenters (pipeline/segment/ensemble.py)."""

from __future__ import annotations

from pipeline.segment.bilstm import NeuralSegmenter
from pipeline.segment.ensemble import EnsembleSegmenter
from pipeline.train.segment.bilstm import tune_final_threshold, tune_threshold


def tune_ensemble(members: list[NeuralSegmenter], tune_recs: list[dict],
                  final_recs: list[dict] | None = None) -> EnsembleSegmenter:
    """Build the ensemble and pick its threshold on the tune records (seg F1) and its
    final_threshold (sentence F1) on `final_recs` (default: the tune records)."""
    ens = EnsembleSegmenter(members)
    ens.threshold = tune_threshold(ens, tune_recs) if tune_recs else 0.5
    final_recs = tune_recs if final_recs is None else final_recs
    ens.final_threshold = tune_final_threshold(ens, final_recs) if final_recs else None
    return ens
