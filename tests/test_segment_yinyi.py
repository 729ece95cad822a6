"""音義 notes punctuated from their grammar (pipeline/segment/yinyi.py). Every rule has a note
cut from a TRAIN juan record of data/punct (id given; aligned 1.0, the gold mark shown) where the
segmenter v2 alone (the default's BiLSTM until stop 34) puts the wrong mark and the rule puts the edition's (five were re-cut at
stop 32, whose v2 gets the old ones right alone; the 笠 case is cut short of its record's end): each test fails
when its rule is taken out of RULES (checked: docs/segmentation.md, "音義 notes from their
grammar")."""

from __future__ import annotations

import copy

import pytest

from pipeline import paths
from pipeline.segment import load_segmenter
from pipeline.segment.yinyi import RULES, grammar_marks, punctuate

ZHOULI, LIJI = "KR1d0003", "KR1d0053"

# (rule, book, train record, note, k, the edition's mark after the k-th character (None: none))
CASES = [
    # 言言，魚斤反，注同。 — the segmenter alone (stop 32's v2): 言言魚斤反
    ("head_fanqie", LIJI, "KR1d0053_029#144", "言言魚斤反注同", 2, "，"),
    # 使，所吏反。介，音界。 (周禮注疏 commas a head before 音X) — alone: 介音界
    ("head_book", ZHOULI, "KR1d0003_008#29", "使所吏反介音界", 5, "，"),
    # 徭役音遙 (禮記註疏 does not) — alone: 徭役，音遙
    ("head_book", LIJI, "KR1d0053_016#134", "徭役音遙", 2, None),
    # 捧，衆家並扶恭反。 — alone: 衆家並，扶恭反
    ("authority", ZHOULI, "KR1d0003_033#122", "捧衆家並扶恭反", 4, None),
    # 縵，莫半反，杜音慢。 — alone: 莫半反。杜…
    ("alternative", ZHOULI, "KR1d0003_024#5", "縵莫半反杜音慢操七曹反", 4, "，"),
    # 笠，音立。使使，上音史… — alone: 音立，使使
    ("next_entry", LIJI, "KR1d0053_026#93", "笠音立使使上音史下及下使者皆色吏反", 3, "。"),
    # 何爲，于僞反，盡篇末文注皆同。 — alone: 于僞反。盡篇末…
    ("scope", LIJI, "KR1d0053_056#161", "何爲于僞反盡篇末文注皆同", 5, "，"),
]


@pytest.mark.parametrize("rule, book, rid, note, k, mark", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_rule_gives_the_editions_mark_where_the_model_alone_does_not(rule, book, rid, note, k, mark):
    assert rule in RULES
    assert grammar_marks(note, book).get(k, "absent") == mark  # the rule decides k
    seg = load_segmenter(paths.SEGMENTER_PASSAGE)  # v2: the model the rules were written against
    plain = seg.backend.predict([note], ["音義"], books=[book])[0]
    assert plain.get(k) != mark  # the model alone is wrong here …
    assert seg.predict([note], ["音義"], books=[book])[0].get(k) == mark  # … the stage is right


def test_a_book_without_a_rule_of_its_own_keeps_the_models_mark_before_yin_x():
    # the two editions disagree on `X，音Y` / `X音Y`: for another book the model decides
    assert 1 not in grammar_marks("搏音博下同", None)
    assert grammar_marks("腴以朱反", None)[1] == "，"  # a 反切 head takes one in both editions
    assert grammar_marks("好音呼報反", LIJI)[1] is None  # 音 + 反切: as 音X (嚌音才細反, train juan)


def test_only_yinyi_units_are_touched_and_the_unit_end_keeps_the_models_mark():
    seg = load_segmenter()
    note = "搏音博下同"
    for kind in ("注", "疏", "base"):
        assert seg.predict([note], [kind], books=[ZHOULI]) == seg.backend.predict([note], [kind], books=[ZHOULI])
    assert punctuate(note, {5: "。"}, ZHOULI) == {1: "，", 3: "，", 5: "。"}


def test_switched_off_the_stage_gives_the_models_marks():
    seg = load_segmenter()
    note = "搏音博下同"
    seg.yinyi_grammar = False
    try:
        assert seg.predict([note], ["音義"], books=[ZHOULI]) == seg.backend.predict([note], ["音義"], books=[ZHOULI])
    finally:
        seg.yinyi_grammar = True


def test_yinyi_marks_do_not_depend_on_the_batch():
    """The rules read one note and its book: the same marks alone, batched, shuffled."""
    notes = [c[3] for c in CASES] * 3 + ["召上照反相息亮反", "昵女乙反又音職"]
    books = [c[1] for c in CASES] * 3 + [ZHOULI, LIJI]
    kinds = ["音義", "注"] * (len(notes) // 2) + ["音義"] * (len(notes) % 2)
    seg = load_segmenter()
    together = seg.predict(notes, kinds, books=books)
    alone = [seg.predict([n], [k], books=[b])[0] for n, k, b in zip(notes, kinds, books)]
    assert together == alone
    rev = seg.predict(notes[::-1], kinds[::-1], books=books[::-1])
    assert rev[::-1] == alone


def test_segment_document_gives_yinyi_units_the_grammars_marks():
    """The stage's marks are what every export reads (Unit.marks): a 周禮注疏 juan 1 excerpt."""
    from pipeline import paths
    from pipeline.ingest import read_document
    from pipeline.segment import segment_document

    doc = segment_document(read_document(paths.REPO / "tests" / "fixtures" / "zhushu" / "KR1d0003_001.txt"))
    notes = [u for u in doc.units if u.marker == "音義"]
    assert notes
    # the grammar's marks over the segmenter's own (its model, priors and memory: since stop 36 the
    # default's context prior decides the 注疏's sentence ends, 音義 notes' among them)
    seg = copy.copy(load_segmenter())
    seg.yinyi_grammar = False
    for u in notes:
        plain = seg.predict([u.text], ["音義"], books=[ZHOULI])[0]
        assert u.marks == punctuate(u.text, plain, ZHOULI)
        assert u.punctuated().count("。") == len(u.sentences)
