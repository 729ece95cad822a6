"""The context prior (pipeline/segment/context.py, the default folder's context_prior.json):
logistic regressions over v2's probabilities and the characters around a position, fitted on the
train juan of a book group, deciding the breaks where the model alone decides (the 注疏's 疏 / 經 /
小注) and whether each break is sentence-final.

The tune juan (注疏 juan 7, 集釋 juan 7 and 27) were held out of the fit; the dev split is not read."""

from __future__ import annotations

import json

import pytest

from pipeline import paths
from pipeline.evaluate.segment import record_passages, score
from pipeline.segment import load_segmenter, read_segmenter
from pipeline.segment.context import FILE, ContextPrior
from pipeline.segment.data import read_records
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU


def _tune(book: str) -> list[dict]:
    juan = TUNE_JUAN_ZHUSHU if book != "KR1d0030" else TUNE_JUAN
    return [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl")
            if r["id"].split("#")[0] in juan and r["text"] and r.get("aligned", 1.0) >= 0.9]


def _kinds(recs: list[dict]) -> list[str]:
    from pipeline.segment.data import record_kind

    return [record_kind(r) for r in recs]  # (as eval segment gives them)


def _with_and_without(recs: list[dict], book: str) -> tuple[dict, dict]:
    seg = read_segmenter(paths.SEGMENTER_PASSAGE)
    args = ([r["text"] for r in recs], _kinds(recs))
    kw = {"books": [book] * len(recs), "passages": record_passages(recs)}
    on = score(recs, seg.predict(*args, **kw))
    seg.context_prior = None
    return on, score(recs, seg.predict(*args, **kw))


def test_the_default_has_a_context_prior():
    default = load_segmenter(paths.SEGMENTER_PASSAGE)
    assert (paths.SEGMENTER_PASSAGE / FILE).exists() and default.context_prior is not None
    cp = default.context_prior
    assert cp.break_group("疏", "KR1d0003") == cp.break_group("base", "KR1d0053") == "注疏"
    assert cp.break_group("注", "KR1d0003") is None and cp.break_group("音義", "KR1d0053") is None  # not its to read
    assert cp.note_group("注", "KR1d0003") == "注疏" and cp.note_group("note", "KR1d0030") == "集釋"
    # finals: kept for the 集釋, not for the 注疏 (v2 of stop 32 places them as well alone: the rule)
    assert cp.final_group("KR1d0030") == "集釋" and cp.final_group("KR1d0003") is None


def test_the_context_prior_raises_seg_f1_on_the_注疏_tune_juan():
    """Both books' tune juan together, as the fit decides (per book group)."""
    ons, offs = [], []
    for book in ("KR1d0003", "KR1d0053"):
        on, off = _with_and_without(_tune(book), book)
        ons.append(on["by_marker"])
        offs.append(off["by_marker"])

    def f1(parts, marker):  # pooled over the two books
        tp = sum(p[marker]["seg"]["tp"] for p in parts)
        return 2 * tp / sum(p[marker]["seg"]["pred"] + p[marker]["seg"]["gold"] for p in parts)

    assert f1(ons, "疏") > f1(offs, "疏") + 0.005  # breaks
    assert f1(ons, "注") > f1(offs, "注") + 0.005  # notes
    assert all(a["音義"]["seg"] == b["音義"]["seg"] for a, b in zip(ons, offs))  # (the reading grammar's)


def test_the_context_prior_raises_sentence_f1_on_the_集釋_tune_juan():
    on, off = _with_and_without(_tune("KR1d0030"), "KR1d0030")
    assert on["sentence"]["f1"] > off["sentence"]["f1"] + 0.005  # breaks and finals
    assert on["by_kind"]["base"]["seg"]["f1"] > off["by_kind"]["base"]["seg"]["f1"] + 0.01  # breaks


def test_the_context_prior_does_not_depend_on_the_batch():
    recs = _tune("KR1d0053")[:120]
    seg = load_segmenter(paths.SEGMENTER_PASSAGE)
    args = ([r["text"] for r in recs], _kinds(recs))
    books, passages = ["KR1d0053"] * len(recs), record_passages(recs)
    together = seg.predict(*args, books=books, passages=passages)
    alone = [seg.predict([t], [k], books=[b], passages=[p])[0] for t, k, b, p in zip(*args, books, passages)]
    assert together == alone


def test_a_context_prior_of_other_features_is_refused(tmp_path):
    body = json.loads((paths.SEGMENTER_PASSAGE / FILE).read_text(encoding="utf-8"))
    body["features"]["slots"] = body["features"]["slots"][:-1]  # (fitted on other slots)
    (tmp_path / FILE).write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(ValueError, match="other features"):
        ContextPrior.load(tmp_path)


def test_fitting_a_context_prior_is_deterministic_and_keeps_a_decision_only_where_it_beats_the_model(monkeypatch):
    """A small fit (a slice of the train and tune records: CI never trains the shipped one): the
    same weights twice; each decision of each group kept only when its tune score beats the
    model's own by the margin."""
    from pipeline.train.segment import context as fit

    small = {g: (train[:300], tune[:120]) for g, (train, tune) in fit.group_records().items()}
    pairs = {g: (train[:200], tune[:80]) for g, (train, tune) in fit.note_pairs().items()}
    monkeypatch.setattr(fit, "group_records", lambda: small)
    monkeypatch.setattr(fit, "note_pairs", lambda: pairs)
    seg = read_segmenter(paths.SEGMENTER_PASSAGE, with_prior=False)
    a, b = fit.fit_context_prior(seg, log=lambda m: None), fit.fit_context_prior(seg, log=lambda m: None)
    assert a.groups == b.groups and a.meta == b.meta
    for decision, groups in a.meta["tune"].items():
        for group, rep in groups.items():
            assert rep["kept"] == (group in a.groups[decision])
            assert rep["kept"] == (rep["tune_f1_prior"] > rep["tune_f1_model"] + fit.MARGIN)


def test_a_book_it_was_not_fitted_on_keeps_the_models_own_decisions():
    """The characters of one book say little of another's: a unit of 儀禮釋宮 (KR1d0031, in the 集釋's
    group for the passage prior) or of no known book is marked as without the context prior."""
    cp = load_segmenter(paths.SEGMENTER_PASSAGE).context_prior
    assert cp.break_group("base", "KR1d0031") is None and cp.break_group("base", None) is None
    assert cp.final_group("KR1d0031") is None
    recs = [r for r in _tune("KR1d0030") if r["kind"] == "base"][:40]
    args = ([r["text"] for r in recs], ["base"] * len(recs))
    seg = read_segmenter(paths.SEGMENTER_PASSAGE)
    with_prior = {b: seg.predict(*args, books=[b] * len(recs)) for b in ("KR1d0030", "KR1d0031")}
    seg.context_prior = None
    assert with_prior["KR1d0031"] == seg.predict(*args, books=["KR1d0031"] * len(recs))
    assert with_prior["KR1d0030"] != seg.predict(*args, books=["KR1d0030"] * len(recs))  # (its own book: read)


def test_a_passage_prior_without_a_books_group_leaves_its_notes_to_the_model():
    # a passage prior fitted for the 注疏 alone: the 集釋's notes are scored with the model's own
    # breaks, as the pipeline reads them (PassagePrior.group gives None), not refused with a KeyError
    import numpy as np

    from pipeline.segment.passage import FEATURES, PassagePrior
    from pipeline.train.segment.context import _score

    text = "罟罔也以罔搏所當田之獸"
    probs = np.full((len(text), 3), 0.0)
    probs[:, 0] = 1.0  # no break anywhere ...
    probs[1, 0], probs[1, 1] = 0.0, 1.0  # ... but after 罟罔 (index 1: a break before position 2)
    rec = {"text": text, "passage": "獸人掌罟田獸辨其名物", "book": "KR1d0030", "kind": "note", "marks": {2: "，"}}
    backend = type("B", (), {"threshold": 0.5, "final_threshold": None})()
    only_zhushu = PassagePrior({"注疏": {"coef": [0.0] * len(FEATURES), "intercept": 0.0, "threshold": 0.5}})
    assert _score("notes", [rec], [probs], [], None, backend, only_zhushu) == \
        _score("notes", [rec], [probs], [], None, backend, None)
