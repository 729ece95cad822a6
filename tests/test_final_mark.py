"""How a break's mark is chosen (pipeline/segment/bilstm.py `marks_at`): sentence-final when the
three final marks' summed probability reaches the model's `final_threshold` (tuned on the tune
juan for sentence F1, stored in its config.json), else the likeliest of ，、：；. Models without
it take the argmax over the seven marks, as before (docs/segmentation.md, "Stop 31").

The tune juan (集釋 juan 7, 27; 注疏 juan 7) are train-split juan held out of the model's gradient
steps; the dev split is not read here."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline import paths
from pipeline.evaluate.segment import score
from pipeline.segment import load_segmenter
from pipeline.segment.bilstm import LABELS, NeuralSegmenter, decode, marks_at


def _row(**p):
    row = np.zeros(len(LABELS), dtype=np.float32)
    for mark, v in p.items():
        row[LABELS.index({"none": "", "comma": "，", "dun": "、", "full": "。", "q": "？"}[mark])] = v
    return row


def test_the_final_group_is_decided_by_its_summed_probability():
    # 。 is the single likeliest mark, but the non-final marks together are likelier
    split_commas = _row(none=0.1, full=0.35, comma=0.3, dun=0.25)
    # ， is the single likeliest mark, but 。 and ？ together pass the threshold
    two_finals = _row(none=0.1, comma=0.4, full=0.3, q=0.2)
    probs = np.stack([split_commas, two_finals, _row(none=1.0)])
    idx = np.array([0, 1])
    assert marks_at(probs, idx, 3) == {1: "。", 2: "，", 3: "。"}  # the argmax (no final_threshold)
    assert marks_at(probs, idx, 3, final_threshold=0.45) == {1: "，", 2: "。", 3: "。"}
    # the breaks themselves are the threshold's alone
    assert decode(probs, 3, 0.5, final_threshold=0.45).keys() == decode(probs, 3, 0.5).keys()


@pytest.fixture(scope="module")
def tune():
    from pipeline.train.segment import tune_sets

    sets = tune_sets()
    return sets["集釋"] + sets["注疏"]


def test_the_shipped_final_threshold_is_the_tune_juans_and_beats_the_argmax_there(tune):
    from pipeline.train.segment.bilstm import tune_final_threshold

    v2 = NeuralSegmenter.load(paths.SEGMENTER_MODEL)
    cfg = json.loads((paths.SEGMENTER_MODEL / "config.json").read_text(encoding="utf-8"))
    assert v2.final_threshold == cfg["final_threshold"] == tune_final_threshold(v2, tune)
    probs = v2.probs([r["text"] for r in tune], [r["kind"] for r in tune], books=[r.get("book") for r in tune])

    def sentence_f1(final_threshold):
        pred = [decode(p, len(r["text"]), v2.threshold, final_threshold=final_threshold) for p, r in zip(probs, tune)]
        return score(tune, pred)["sentence"]["f1"]

    assert sentence_f1(v2.final_threshold) > sentence_f1(None) + 0.005


def test_the_default_chooses_its_marks_at_its_bilstms_tuned_final_threshold():
    """The default (an ensemble folder over one BiLSTM, with its priors) marks a break as its BiLSTM
    was tuned to, not by the argmax."""
    default = load_segmenter()
    bilstm = NeuralSegmenter.load(paths.SEGMENTER_V7)
    assert bilstm.final_threshold is not None
    assert default.backend.final_threshold == bilstm.final_threshold



def test_train_segmenter_refuses_the_v2_options_where_they_mean_nothing(tmp_path, monkeypatch):
    """--zhushu-frac (stop 32: the v2 recipe draws the 注疏 at 0.5), --outside-frac (v3 only) and --seed are read by the
    BiLSTM recipes with the 注疏 only: elsewhere a usage error (exit 2) before anything trains."""
    from click.testing import CliRunner

    import pipeline.train.segment as training
    from pipeline.cli import main

    trained = []
    monkeypatch.setattr(training, "train_segmenter", lambda *a, **kw: trained.append(kw) or {})
    run = lambda *args: CliRunner().invoke(main, ["train", "segmenter", "--out", str(tmp_path / "m"), *args])
    for args in (["--recipe", "v1", "--zhushu-frac", "0.5"], ["--type", "ensemble", "--zhushu-frac", "0.5"],
                 ["--type", "ensemble", "--seed", "14"], ["--recipe", "v2", "--zhushu-frac", "1.5"],
                 ["--recipe", "v2", "--outside-frac", "0.1"], ["--recipe", "v3", "--outside-frac", "0"],
                 ["--type", "ensemble", "--recipe", "v3", "--outside-frac", "0.1"]):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
    assert not trained
    assert run("--recipe", "v2", "--zhushu-frac", "0.3", "--seed", "14").exit_code == 0
    assert trained[-1]["zhushu_frac"] == 0.3 and trained[-1]["seed"] == 14 and trained[-1]["epochs"] == 8
    assert training.V2_OVERRIDES["zhushu_frac"] == 0.5  # (the shipped v2's recipe)
    assert run("--recipe", "v3", "--outside-frac", "0.1").exit_code == 0
    assert trained[-1]["outside_frac"] == 0.1 and trained[-1]["fold"] == "t2s"
    assert training.V3_OVERRIDES["outside_frac"] == 0.05  # (v5 was trained with it; v6 with --outside-frac 0.25)
    # v3's recipe still rebuilds the shipped v3 (its DVC stage): the 注疏 share it was trained with
    v3 = json.loads((paths.MODELS / "segmenter-v3" / "config.json").read_text(encoding="utf-8"))
    assert training.V3_OVERRIDES["zhushu_frac"] == v3["zhushu_frac"] == 0.2
