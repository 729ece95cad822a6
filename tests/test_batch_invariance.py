"""The same unit gets the same marks whatever else is in its batch, in every entry point (issue 12):
`zhushu run` (a document a batch), `eval segment` (all records of the split at once), `eval
glosses` (one note a call), and any other composition. The shipped default segmenter runs in
float; with int8 dynamic quantization (the old default) 23 of 322 dev units changed with their
batch. Units of juan 1 and 2 (train) and the dev juan, which is what the evaluators read."""

from __future__ import annotations

import random

import pytest

from pipeline import paths
from pipeline.evaluate.glosses import note_marks
from pipeline.ingest import read_document
from pipeline.segment import load_segmenter, passages_of, segment_document

JUAN = [paths.CORPUS / f"KR1d0030_{n:03d}.txt" for n in (1, 2, 10)]


@pytest.fixture(scope="module")
def units():
    out = []
    for path in JUAN:
        doc = read_document(path)
        out += [(doc, u) for u in doc.units if u.kind in ("base", "commentary") and u.text]
    return out


@pytest.mark.parametrize("model", [paths.SEGMENTER_MODEL, paths.SEGMENTER_V1], ids=["default (v2)", "v1"])
def test_marks_do_not_depend_on_the_batch(units, model):
    seg = load_segmenter(model)
    texts = [u.text for _, u in units]
    kinds = ["base" if u.kind == "base" else "note" for _, u in units]
    together = seg.predict(texts, kinds)
    alone = [seg.predict([t], [k])[0] for t, k in zip(texts, kinds)]
    assert together == alone
    order = list(range(len(texts)))
    random.Random(7).shuffle(order)
    for lo in range(0, len(order), 37):  # other compositions: shuffled slices of 37 units
        part = order[lo : lo + 37]
        got = seg.predict([texts[i] for i in part], [kinds[i] for i in part])
        assert got == [alone[i] for i in part]


def test_run_eval_segment_and_eval_glosses_agree(units):
    seg = load_segmenter()
    docs = {d.id: d for d, _ in units}
    by_run = {(d.id, u.seq): u.marks for d in docs.values() for u in segment_document(d, seg).units if u.marks}
    # what align reads: the segmenter's own marks where its passage prior changed them
    read = {(d.id, u.seq): u.model_marks if u.model_marks is not None else u.marks for d in docs.values() for u in d.units}
    # eval glosses reads the 鄭注 (the gold's notes), eval segment the base units and 鄭注 of
    # data/punct: the run reads a 鄭注 as a 注 (釋曰 as a 疏, which neither evaluator scores)
    # each with its passage, the base unit before it (the gold's `base`, data/punct's record before)
    before = {(d.id, u.seq): p for d in docs.values() for u, p in zip(d.units, passages_of(d, d.units))}
    notes = [(d.id, u.seq, u.text) for d, u in units if u.marker == "鄭注"]
    by_glosses, _ = note_marks([t for _, _, t in notes], seg, bases=[before[(d, s)] for d, s, _ in notes])
    for (doc_id, seq, _), marks in zip(notes, by_glosses):
        assert marks == read[(doc_id, seq)], (doc_id, seq)
    # eval segment: every record of the split in one call, with its kind and book
    recs = [(d.id, u) for d, u in units if d.id == paths.DEV_JUAN and (u.kind == "base" or u.marker == "鄭注")]
    by_eval = seg.predict([u.text for _, u in recs], ["base" if u.kind == "base" else "note" for _, u in recs],
                          books=[paths.DEV_JUAN.split("_")[0]] * len(recs), passages=[before[(d, u.seq)] for d, u in recs])
    assert by_eval == [by_run[(d, u.seq)] for d, u in recs]


def test_two_one_way_passes_give_the_packed_bilstm_output(units):
    # inference runs the BiLSTM as two one-way LSTMs over padded batches (bilstm._two_passes);
    # training and the packed path are the reference
    import numpy as np

    seg = load_segmenter(paths.SEGMENTER_MODEL).backend
    assert "_directions" in seg.model.__dict__
    texts = [u.text for _, u in units][:400]
    kinds = ["base" if u.kind == "base" else "note" for _, u in units][:400]
    two_passes = seg.probs(texts, kinds)
    directions = seg.model.__dict__.pop("_directions")
    try:
        packed = seg.probs(texts, kinds)
    finally:
        seg.model.__dict__["_directions"] = directions
    assert len(two_passes) == len(packed) and all(a.shape == b.shape for a, b in zip(two_passes, packed))
    assert max(float(np.abs(a - b).max()) for a, b in zip(two_passes, packed) if len(a)) < 1e-5


def test_the_one_way_passes_follow_the_bilstms_weights(units):
    # they share the BiLSTM's Parameters: a model whose weights change after loading (training
    # on) must not keep reading the old ones
    import numpy as np
    import torch

    from pipeline.segment.bilstm import NeuralSegmenter

    seg = NeuralSegmenter.load(paths.SEGMENTER_MODEL)  # a fresh copy, not the cached one
    texts = [u.text for _, u in units][:60]
    kinds = ["base"] * len(texts)
    before = seg.probs(texts, kinds)
    with torch.no_grad():
        seg.model.rnn.weight_hh_l0_reverse.mul_(0.5)
    two_passes = seg.probs(texts, kinds)
    directions = seg.model.__dict__.pop("_directions")
    packed = seg.probs(texts, kinds)
    seg.model.__dict__["_directions"] = directions
    assert max(float(np.abs(a - b).max()) for a, b in zip(before, two_passes)) > 1e-3  # the change shows
    assert max(float(np.abs(a - b).max()) for a, b in zip(two_passes, packed)) < 1e-5
