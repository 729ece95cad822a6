"""Fixtures shared by more than one test file."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def v2_alone_ensemble(tmp_path):
    """An ensemble folder ("ens") whose only member is the shipped v2 (referred to, as
    models/segmenter-ensemble refers to its members) at v2's own thresholds, written by the
    ensemble's own save: it must mark every unit exactly as v2 does."""
    from pipeline import paths
    from pipeline.segment.bilstm import NeuralSegmenter
    from pipeline.segment.ensemble import EnsembleSegmenter

    folder = tmp_path / "ens"
    folder.mkdir()
    v2 = NeuralSegmenter.load(paths.SEGMENTER_MODEL)
    EnsembleSegmenter([v2], v2.threshold, final_threshold=v2.final_threshold).save(folder, [os.path.relpath(paths.SEGMENTER_MODEL, folder)])
    return folder
