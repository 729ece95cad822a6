"""The passage prior (pipeline/segment/passage.py): a 注 read with the 經 unit before it, the
default segmenter since stop 30 (models/segmenter-v2-passage: v2 referred to, with the prior); the
注 gloss reader reads v2's own marks (Unit.model_marks).

Fixtures are 注 blocks of TRAIN juan of 周禮注疏 (KR1d0003_002, _004 in data/punct), where the
shipped v2 misses the break after a head of the passage and the edition has it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from pipeline import paths
from pipeline.evaluate.segment import evaluate_segment, record_passages
from pipeline.ingest import read_document
from pipeline.segment import load_segmenter, read_segmenter, segment_document
from pipeline.segment.passage import FEATURES, FILE, PassagePrior, features, group_of

# (passage, 注, the break the edition has after the head): KR1d0003_004#157, KR1d0003_002#61
# (KR1d0003_001#18's 極，中也 until stop 32: the v2 of stop 32 finds that break alone)
GU = ("獸人掌罟田獸辨其名物", "罟罔也以罔搏所當田之獸", 1)  # 罟，罔也
JI = ("以為民極", "極中也令天下之人各得其中不失其所", 1)  # 極，中也 (KR1d0003_001#18)
QIANQI = ("前期十日帥執事而卜曰遂戒", "前期前所諏之日也十日容散齊七日致齊三日執事宗伯大卜之屬既卜又戒百官以始齊", 2)  # 前期，前所諏之日也


@pytest.fixture(scope="module")
def seg():
    # the prior without the phrase memory, which knows these train blocks' marks by heart
    # (tests/test_segment_memory.py)
    s = read_segmenter(paths.SEGMENTER_PASSAGE)
    s.memory = None
    return s


def test_v2_passage_and_the_default_have_a_fitted_prior(seg):
    assert seg.prior is not None
    assert set(seg.prior.groups) == {"注疏", "集釋"}
    assert (paths.SEGMENTER_PASSAGE / FILE).exists()
    # the default since stop 78: v7 with a prior of its own (v6 from stop 49, v5 from stop 36)
    assert load_segmenter().prior is not None and load_segmenter().path == paths.SEGMENTER_V7_PASSAGE
    assert (paths.SEGMENTER_V7_PASSAGE / FILE).read_bytes() != (paths.SEGMENTER_PASSAGE / FILE).read_bytes()
    assert load_segmenter(paths.SEGMENTER_MODEL).prior is None  # v2's own folder: the model alone


def test_outside_the_注_the_prior_marks_as_v2_does(seg):
    """Outside the 注 the passage prior leaves the breaks to others: with the context prior set
    aside (tests/test_context_prior.py), and the phrase memory (tests/test_segment_memory.py),
    every mark is v2's."""
    recs = [json.loads(line) for line in open(paths.DATA / "punct" / "KR1d0003.punct.jsonl", encoding="utf-8")]
    recs = [r for r in recs if r["id"].startswith("KR1d0003_001#") and r["text"] and r.get("marker") != "注"][:80]
    texts = [r["text"] for r in recs]
    kinds = ["base" if r["kind"] == "base" else r["marker"] for r in recs]
    books = ["KR1d0003"] * len(recs)
    passages = record_passages(recs)
    v2 = load_segmenter(paths.SEGMENTER_MODEL).predict(texts, kinds, books=books)
    assert seg.predict(texts, kinds, books=books, passages=passages) != v2  # (the context prior's)
    alone = read_segmenter(paths.SEGMENTER_PASSAGE)
    alone.context_prior = None
    alone.memory = None
    assert alone.predict(texts, kinds, books=books, passages=passages) == v2


@pytest.mark.parametrize("case", [GU, QIANQI], ids=["罟罔也", "前期前所諏之日也"])
def test_a_head_of_the_passage_gets_its_break(seg, case):
    passage, note, k = case
    alone = seg.predict([note], ["注"], books=["KR1d0003"])[0]
    read = seg.predict([note], ["注"], books=["KR1d0003"], passages=[passage])[0]
    assert k not in alone  # the model alone misses it ...
    assert k in read  # ... the passage gives it


def test_without_a_passage_or_for_other_kinds_the_model_decides_alone(seg):
    passage, note, _ = GU
    alone = seg.predict([note], ["注"], books=["KR1d0003"])[0]
    assert seg.predict([note], ["注"], books=["KR1d0003"], passages=[None])[0] == alone
    shu = seg.predict([note], ["疏"], books=["KR1d0003"])[0]
    assert seg.predict([note], ["疏"], books=["KR1d0003"], passages=[passage])[0] == shu


def test_marks_with_passages_do_not_depend_on_the_batch(seg):
    recs = [json.loads(line) for line in open(paths.DATA / "punct" / "KR1d0003.punct.jsonl", encoding="utf-8")]
    recs = [r for r in recs if r["id"].startswith(("KR1d0003_001#", "KR1d0003_002#")) and r["text"]][:160]
    passages = record_passages(recs)
    texts = [r["text"] for r in recs]
    kinds = ["base" if r["kind"] == "base" else r["marker"] for r in recs]
    books = ["KR1d0003"] * len(recs)
    together = seg.predict(texts, kinds, books=books, passages=passages)
    alone = [seg.predict([t], [k], books=[b], passages=[p])[0] for t, k, b, p in zip(texts, kinds, books, passages)]
    assert together == alone
    order = list(range(len(texts)))
    random.Random(3).shuffle(order)
    shuffled = seg.predict([texts[i] for i in order], [kinds[i] for i in order], books=books,
                           passages=[passages[i] for i in order])
    assert [shuffled[order.index(i)] for i in range(len(texts))] == together
    assert sum(p is not None for p in passages) > 20


def test_segment_document_gives_a_commentary_unit_the_base_unit_before_it(seg):
    passage, note, k = GU
    doc = read_document(paths.DATA / "corpus" / "KR1d0003" / "KR1d0003_004.txt")
    i = next(i for i, u in enumerate(doc.units) if u.text == note)
    assert doc.units[i - 1].kind == "base" and doc.units[i - 1].text == passage
    segment_document(doc, seg)
    assert k in doc.units[i].marks
    assert doc.units[i].marks == seg.predict([note], ["注"], books=["KR1d0003"], passages=[passage])[0]


def test_segment_document_keeps_v2s_own_marks_where_the_prior_changed_them(seg):
    passage, note, k = GU
    doc = read_document(paths.DATA / "corpus" / "KR1d0003" / "KR1d0003_004.txt")
    segment_document(doc, seg)
    unit = next(u for u in doc.units if u.text == note)
    v2 = load_segmenter(paths.SEGMENTER_MODEL)
    assert k in unit.marks and k not in unit.model_marks  # published: the prior's; kept: v2's own
    assert unit.model_marks == v2.predict([note], ["注"], books=["KR1d0003"])[0]
    changed = [u for u in doc.units if u.model_marks is not None]
    assert all(u.model_marks != u.marks and u.marker == "注" for u in changed)
    assert len(changed) < sum(u.marker == "注" for u in doc.units)  # None where the prior changed nothing


def test_the_注_glosses_are_read_with_v2s_own_marks(seg):
    """The gloss grammar was built on v2's marks: with the prior's it reads the subject a prior
    break sets off as a head (「舜，征有苗而死」; docs/glosses.md, "Stop 28"), so align reads the
    model's own marks, and `eval glosses` scores what align reads."""
    from pipeline.align import align_block, align_document
    from pipeline.evaluate.glosses import note_marks

    def read(glosses):
        return [(g.note_start, g.note_end, g.type, g.lemma_start, g.lemma_end) for g in glosses]

    doc = read_document(paths.DATA / "corpus" / "KR1d0003" / "KR1d0003_001.txt")
    align_document(segment_document(doc, seg))
    differ = 0
    for u in (u for u in doc.units if u.model_marks is not None):
        base = doc.base_before(u)
        own = align_block(base.text, u.text, u.model_marks, zhushu=True)
        assert read(u.glosses) == read(own)
        differ += read(own) != read(align_block(base.text, u.text, u.marks, zhushu=True))
        marks, _used = note_marks([u.text], seg, ids=[f"{doc.id}#{u.seq}"], bases=[base.text])
        assert marks[0] == u.model_marks
    assert differ  # (this juan has 注 whose glosses the prior's marks would change)


def test_features_see_the_passage():
    p = np.full(len(JI[1]), 0.1)
    with_passage = features(p, JI[0], JI[1])
    without = features(p, "", JI[1])
    assert with_passage.shape == (len(JI[1]) - 1, len(FEATURES))
    word = FEATURES.index("word")
    assert with_passage[0, word] == 1.0  # 極 opens the unit and is a whole word of 以為民極
    assert not without[:, 1:].any()


def test_group_of_books():
    assert group_of("KR1d0003") == group_of("KR1d0053") == "注疏"
    assert group_of("KR1d0030") == group_of(None) == group_of("KR1d9999") == "集釋"


def test_a_prior_fitted_on_other_features_is_refused(tmp_path):
    (tmp_path / FILE).write_text(json.dumps({"features": ["logit"], "groups": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="other features"):
        PassagePrior.load(tmp_path)


def test_eval_segment_gives_records_their_passage_unless_told_not_to(tmp_path, seg):
    passage, note, k = GU
    rec = {"split": "dev", "kind": "note", "marker": "注", "text": note, "marks": {str(k): "，"}, "aligned": 1.0}
    gold = tmp_path / "g.jsonl"
    gold.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in (
        {"id": "KR1d0003_004#156", "split": "dev", "kind": "base", "marker": "", "text": passage, "marks": {}, "aligned": 1.0},
        dict(rec, id="KR1d0003_004#157"))) + "\n", encoding="utf-8")
    on = evaluate_segment(gold, seg, split="dev")
    off = evaluate_segment(gold, seg, split="dev", passages=False)
    assert on["passages"] and not off["passages"]
    assert on["by_marker"]["注"]["seg"]["tp"] == off["by_marker"]["注"]["seg"]["tp"] + 1


def test_a_folder_read_without_its_prior_reads_as_v2(tmp_path):
    seg = read_segmenter(paths.SEGMENTER_PASSAGE, with_prior=False)
    assert seg.prior is None
    passage, note, k = GU
    assert k not in seg.predict([note], ["注"], books=["KR1d0003"], passages=[passage])[0]


def test_a_run_with_the_option_says_so_in_the_dataset_card(tmp_path):
    from pipeline.runner import run

    src = paths.REPO / "tests" / "fixtures" / "zhushu" / "KR1d0003_001.txt"
    summary = run([str(src)], tmp_path / "out", steps=("ingest", "segment", "export"), formats=["jsonl", "card"],
                  models={"segment": str(paths.SEGMENTER_PASSAGE)}, progress=False)
    assert summary.ok
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "| segment | ran (model models/segmenter-v2-passage) |" in card


def test_train_never_adds_a_prior_to_a_model_folder_unasked():
    from click.testing import CliRunner

    from pipeline.cli import main

    before = sorted(p.name for p in paths.SEGMENTER_MODEL.iterdir())
    res = CliRunner().invoke(main, ["train", "passage-prior", "--segmenter", str(paths.SEGMENTER_MODEL)])
    assert res.exit_code == 2 and "--out is required" in res.output
    assert sorted(p.name for p in paths.SEGMENTER_MODEL.iterdir()) == before


def test_segment_document_takes_a_segmenter_with_predict_alone():
    """A caller's own segmenter (predict(texts, kinds, books=…, passages=…) only) marks the units;
    its marks are what the gloss reader reads too (no model_marks)."""

    class EveryThird:
        def predict(self, texts, kinds, books=None, passages=None):
            return [{k: "，" for k in range(3, len(t), 3)} | {len(t): "。"} for t in texts]

    doc = read_document(paths.DATA / "corpus" / "KR1d0003" / "KR1d0003_001.txt")
    segment_document(doc, EveryThird())
    note = next(u for u in doc.units if u.marker == "注" and len(u.text) > 6)
    assert note.marks[3] == "，" and note.model_marks is None


def test_the_priors_are_fitted_on_probabilities_computed_as_at_run_time(seg, monkeypatch):
    # the pipeline reads with one torch thread; the machine's thread count moves the probabilities
    # in the 7th decimal, enough to flip a prior's near-tied choice of C (stop 37): the fits pin it
    import torch

    from pipeline.train.segment.context import _rows
    from pipeline.train.segment.passage import _design

    seen, real = [], seg.backend.probs

    def spy(*args, **kwargs):
        seen.append(torch.get_num_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(seg.backend, "probs", spy)
    old = torch.get_num_threads()
    torch.set_num_threads(2)  # as on a machine with more than one core
    try:
        X, y, _g = _design(seg, [{"book": "KR1d0003", "kind": "注", "passage": GU[0], "text": GU[1],
                                  "marks": {GU[2]: "，"}}])
        _rows("breaks", seg.backend, [{"text": QIANQI[1], "kind": "疏", "book": "KR1d0003", "marks": {2: "，"}}])
        after = torch.get_num_threads()
    finally:
        torch.set_num_threads(old)
    assert seen == [1, 1]
    assert after == 2  # the caller's setting is given back
    assert len(X) == len(GU[1]) - 1 and y.sum() == 1


def test_the_passage_channel_says_how_far_the_passage_reaches_at_each_character():
    """The passage channel's ids (a model's own input, docs/segmentation.md "Stop 77"): 1 + 5 x (the longest stretch of
    the passage ending at the character, ≤ 4) + (the longest starting at it, ≤ 4); 0 without a passage. 周禮注疏 juan 7
    #195 (a tune juan: train split, held out of the segmenter) with its 經 「大祭祀喪紀之事設門燎蹕宫門廟門」."""
    from pipeline.segment.passage import passage_ids

    text, passage = "燎地燭也蹕止行者廟在中門之外", "大祭祀喪紀之事設門燎蹕宫門廟門"
    ids = passage_ids(text, passage)
    assert ids[0] == 1 + 5 * 1 + 1  # 燎: a one-character stretch (燎地 is not in the passage)
    assert ids[4] == 1 + 5 * 1 + 1  # 蹕
    assert ids[5] == 1  # 止: not in the passage
    assert ids[8] == 1 + 5 * 1 + 1 and ids[9] == 1  # 廟 in it, 在 not
    assert ids[11] == 1 + 5 * 1 + 1  # 門 (中門 is not in it)
    assert passage_ids("燎蹕宫門廟門", passage) == [1 + 5 * e + s for e, s in ((1, 4), (2, 4), (3, 4), (4, 3), (4, 2), (4, 1))]
    assert passage_ids(text, None) == [0] * len(text)


def test_the_default_network_reads_each_注_with_its_passage():
    """The default's BiLSTM is v7 (stop 78): it has the passage channel, and its probabilities on a 注 depend on the
    經 it glosses, while a 疏 (no channel) reads the same with or without one. 周禮注疏 juan 1, a train juan."""
    from pipeline.segment.data import read_records, record_kind

    recs = [r for r in read_records(paths.DATA / "punct" / "KR1d0003.punct.jsonl", split="train")
            if r["text"] and str(r.get("id", "")).startswith("KR1d0003_001#")]
    passages = record_passages(recs)
    notes = [(r, p) for r, p in zip(recs, passages) if p and record_kind(r) == "注"][:20]
    assert len(notes) == 20
    backend = load_segmenter().backend
    assert json.loads((paths.SEGMENTER_V7 / "config.json").read_text(encoding="utf-8"))["arch"]["passage_emb"] == 8
    texts, kinds, books = [r["text"] for r, _ in notes], ["注"] * len(notes), ["KR1d0003"] * len(notes)
    with_p = backend.probs(texts, kinds, books=books, passages=[p for _, p in notes])
    without = backend.probs(texts, kinds, books=books)
    assert sum(not np.allclose(a, b, atol=1e-3) for a, b in zip(with_p, without)) >= 10
    as_疏 = backend.probs(texts, ["疏"] * len(notes), books=books, passages=[p for _, p in notes])
    assert all(np.array_equal(a, b) for a, b in zip(as_疏, backend.probs(texts, ["疏"] * len(notes), books=books)))
