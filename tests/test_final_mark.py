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
    from pipeline.train.segment import training_data, v2_records, zhushu_data

    _, jishi, _ = training_data()
    v2_records([], jishi, [])
    _, zhushu = zhushu_data()
    return jishi + zhushu


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


def test_the_default_chooses_its_marks_as_v2_does():
    default = load_segmenter()
    assert default.backend.final_threshold == NeuralSegmenter.load(paths.SEGMENTER_MODEL).final_threshold


# -- the final prior (pipeline/segment/final.py): the default folder's final_prior.json ---------


def _tune_records(book: str) -> list[dict]:
    from pipeline.segment.data import read_records
    from pipeline.train.segment import TUNE_JUAN_ZHUSHU

    return [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl")
            if r["id"].split("#")[0] in TUNE_JUAN_ZHUSHU and r["text"]]


def test_the_default_has_a_final_prior_for_the_注疏_only():
    from pipeline.segment.final import FILE

    default = load_segmenter()
    assert (paths.SEGMENTER_DEFAULT / FILE).exists() and set(default.final_prior.groups) == {"注疏"}
    assert default.final_prior.group("KR1d0003") == default.final_prior.group("KR1d0053") == "注疏"
    assert default.final_prior.group("KR1d0030") is None and default.final_prior.group(None) is None


@pytest.mark.parametrize("book", ["KR1d0003", "KR1d0053"])
def test_the_final_prior_raises_sentence_f1_on_the_注疏_tune_juan(book):
    """The tune juan (juan 7) were held out of the prior's fit; with it set aside the marks are
    the model's own choice (final_threshold)."""
    from pipeline.evaluate.segment import record_passages
    from pipeline.segment import read_segmenter

    recs = _tune_records(book)
    kinds = ["base" if r["kind"] == "base" else r.get("marker") or "注" for r in recs]
    seg = read_segmenter(paths.SEGMENTER_DEFAULT)
    args = ([r["text"] for r in recs], kinds)
    kw = {"books": [book] * len(recs), "passages": record_passages(recs)}
    with_prior = score(recs, seg.predict(*args, **kw))
    seg.final_prior = None
    without = score(recs, seg.predict(*args, **kw))
    assert with_prior["seg"] == without["seg"]  # the breaks are not its to decide
    assert with_prior["sentence"]["f1"] > without["sentence"]["f1"] + 0.01


def test_a_集釋_unit_is_marked_as_without_the_final_prior():
    from pipeline.segment import read_segmenter

    recs = [json.loads(x) for x in open(paths.DATA / "punct" / "KR1d0030.punct.jsonl", encoding="utf-8")]
    recs = [r for r in recs if r["id"].startswith("KR1d0030_001#") and r["text"]][:60]
    args = ([r["text"] for r in recs], [r["kind"] for r in recs])
    seg = read_segmenter(paths.SEGMENTER_DEFAULT)
    got = seg.predict(*args)
    seg.final_prior = None
    assert got == seg.predict(*args)


def test_a_final_prior_of_other_features_is_refused(tmp_path):
    from pipeline.segment.final import FILE, FinalPrior

    body = json.loads((paths.SEGMENTER_DEFAULT / FILE).read_text(encoding="utf-8"))
    body["numeric_features"] = body["numeric_features"][:-1]
    (tmp_path / FILE).write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(ValueError, match="other features"):
        FinalPrior.load(tmp_path)


def test_fitting_a_final_prior_is_deterministic_and_keeps_a_group_only_where_it_beats_the_rule(monkeypatch):
    """A small fit (a slice of the train and tune records: CI never trains the shipped one): the
    same weights twice; each group kept only when its tune sentence F1 beats final_threshold's."""
    from pipeline.segment import read_segmenter
    from pipeline.train.segment import final as fit

    full = fit.group_records()
    small = {g: (train[:400], tune[:150]) for g, (train, tune) in full.items()}
    monkeypatch.setattr(fit, "group_records", lambda: small)
    seg = read_segmenter(paths.SEGMENTER_DEFAULT, with_prior=False)
    a, b = fit.fit_final_prior(seg, log=lambda m: None), fit.fit_final_prior(seg, log=lambda m: None)
    assert a.groups == b.groups and a.meta == b.meta
    for group, rep in a.meta["tune"].items():
        assert rep["kept"] == (group in a.groups)
        assert rep["kept"] == (rep["tune_sentence_f1_prior"] > rep["tune_sentence_f1_rule"] + fit.MARGIN)
