"""The phrase memory (pipeline/segment/memory.py): the editions' breaks inside a stretch of six
characters seen in training, laid over the segmenter's marks (docs/segmentation.md, "Stop 34").

The fixture is a 注 of a TRAIN juan of 周禮注疏 (KR1d0003_002#48 in data/punct, aligned 1.0 to
the edition); the gain is measured on the tune juan, which the shipped memory leaves out."""

from __future__ import annotations

import gzip
import json

import pytest

from pipeline import paths
from pipeline.evaluate.segment import record_passages, score
from pipeline.segment import load_segmenter
from pipeline.segment.data import read_records, record_kind
from pipeline.segment.memory import CONFIG, PhraseMemory
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU
from pipeline.train.segment.memory import build_memory

# KR1d0003_002#48: 長，謂公卿大夫、王子弟食采邑者。兩，謂兩卿，不言三卿者，不足于諸侯。鄭司農云：兩，謂兩丞。
TEXT = "長謂公卿大夫王子弟食采邑者兩謂兩卿不言三卿者不足于諸侯鄭司農云兩謂兩丞"
MARKS = {1: "，", 6: "、", 13: "。", 17: "，", 22: "，", 27: "。", 31: "：", 35: "。"}


def inline(text: str, marks: dict[int, str]) -> str:
    return "".join(ch + marks.get(i + 1, "") for i, ch in enumerate(text))


def test_a_remembered_stretch_gets_the_editions_breaks():
    mem = PhraseMemory([inline(TEXT, MARKS)], [], n=6, fold=None)
    inner = {k: v for k, v in MARKS.items() if k < len(TEXT)}
    assert mem.apply(TEXT, "注", {}) == inner  # every break restored, with its mark
    wrong = {3: "，", 13: "，", 20: "。"}  # a spurious break, a final mark given as mid-sentence, another
    assert mem.apply(TEXT, "注", wrong) == inner
    # a stretch of it inside another text: only the positions its remembered windows cover
    other = "故" + TEXT[14:27] + "也"  # 兩謂兩卿不言三卿者不足于諸侯 …
    dec = mem.decisions(other, "注")
    assert dec[4] == "，" and dec[9] == "，" and 3 not in dec.values() and dec[2] is None
    assert 1 not in dec and len(other) - 1 not in dec  # 故 and 也 are in no remembered window


def test_a_stretch_remembered_with_two_patterns_decides_nothing():
    other = dict(MARKS)
    other.pop(17)  # 兩謂兩卿不言三卿者 without the comma after 兩卿
    mem = PhraseMemory([inline(TEXT, MARKS), inline(TEXT, other)], [], n=6, fold=None)
    dec = mem.decisions(TEXT, "注")
    assert 17 not in dec  # every window over 17 is ambiguous ...
    assert dec[16] is None and dec[18] is None  # ... its neighbours have a window that is not
    assert dec[1] == "，" and dec[31] == "："  # the rest agree


def test_base_text_reads_only_the_classics_editions_and_yinyi_notes_keep_their_grammar():
    commentary_only = PhraseMemory([inline(TEXT, MARKS)], [], n=6, fold=None)
    assert commentary_only.decisions(TEXT, "base") == {}
    assert commentary_only.decisions(TEXT, "音義") == {}
    both = PhraseMemory([inline(TEXT, MARKS)], [inline(TEXT, MARKS)], n=6, fold=None)
    assert both.decisions(TEXT, "base")[13] == "。"


def test_the_fold_lets_a_variant_graph_match():
    from pipeline.variants import CharFold

    fold = CharFold("t2s")
    mem = PhraseMemory([inline(fold(TEXT), MARKS)], [], n=6, fold="t2s")  # stored folded, as built
    assert fold(TEXT) != TEXT
    assert mem.decisions(TEXT, "注")[1] == "，"
    assert mem.decisions(TEXT.replace("長", "长"), "注")[1] == "，"  # the simplified graph folds alike
    assert PhraseMemory([inline(fold(TEXT), MARKS)], [], n=6, fold=None).decisions(TEXT, "注").get(1) is None


@pytest.fixture(scope="module")
def tune_records():
    out = []
    for book, juan in (("KR1d0003", TUNE_JUAN_ZHUSHU), ("KR1d0053", TUNE_JUAN_ZHUSHU), ("KR1d0030", TUNE_JUAN)):
        recs = [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl")
                if r["id"].split("#")[0] in juan and r["text"] and r.get("aligned", 1.0) >= 0.9]
        out.append((book, recs))
    return out


def test_the_default_segmenter_reads_the_memory_and_gains_on_the_tune_juan(tune_records):
    seg = load_segmenter()
    assert seg.memory is not None
    without = seg.without_memory()  # a copy: the cached default keeps its memory
    assert without.memory is None and load_segmenter().memory is not None
    gains = {}
    for book, recs in tune_records[:2]:
        args = ([r["text"] for r in recs], [record_kind(r) for r in recs])
        kw = {"books": [book] * len(recs), "passages": record_passages(recs)}
        a = score(recs, without.predict(*args, **kw))["by_marker"]["注"]["seg"]["f1"]
        b = score(recs, seg.predict(*args, **kw))["by_marker"]["注"]["seg"]["f1"]
        gains[book] = b - a
    # measured +0.026 (周禮) and +0.034 (禮記) on the 注 of the tune juan
    assert gains["KR1d0003"] > 0.015 and gains["KR1d0053"] > 0.015, gains


def test_the_shipped_memory_is_rebuilt_byte_identical_and_holds_no_tune_or_dev_record(tmp_path, tune_records):
    shipped = paths.SEGMENT_MEMORY
    cfg = json.loads((shipped / CONFIG).read_text(encoding="utf-8"))
    build_memory(tmp_path)
    for name in (CONFIG, cfg["file"]):
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), name
    with gzip.open(shipped / cfg["file"], "rt", encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t", 1) for line in fh]
    # (the TLS 經 of data/extra hold whole books, the 經 of the dev juan among them, as in v2's training)
    lines = {text for src, text in rows if src not in cfg["base_sources"]}
    from pipeline.variants import CharFold

    fold = CharFold("t2s")
    held = [r for _b, recs in tune_records for r in recs]
    for book in ("KR1d0030", "KR1d0003", "KR1d0053"):
        held += [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl", split="dev") if r["text"]]
    long_held = [r for r in held if len(r["text"]) >= 30]
    assert len(long_held) > 1000
    assert not [r["id"] for r in long_held
                if inline(fold(r["text"]), {int(k): v for k, v in r["marks"].items()}) in lines]
    # … while a train record of the fixture's juan is there
    assert inline(fold(TEXT), MARKS) in lines


def test_attaching_the_memory_says_so_in_the_folders_note_once(tmp_path):
    # the DVC stage refits the priors (which rewrite config.json) and then attaches the memory: the
    # shipped folders' config.json must come out of that byte for byte, note included
    from pipeline.train.segment.memory import attach_memory

    model, memory = tmp_path / "seg-passage", tmp_path / "segment-memory"
    model.mkdir()
    memory.mkdir()
    (model / "config.json").write_text(json.dumps({"type": "ensemble", "note": "the segmenter `of`"}), encoding="utf-8")
    attach_memory(model, memory)
    attach_memory(model, memory)
    cfg = json.loads((model / "config.json").read_text(encoding="utf-8"))
    assert cfg["memory"] == "../segment-memory"
    assert cfg["note"] == ("the segmenter `of`; the phrase memory of ../segment-memory laid over them "
                           "(pipeline/segment/memory.py)")
    for folder in (paths.SEGMENTER_V7_PASSAGE, paths.SEGMENTER_PASSAGE):  # what the shipped folders say
        assert json.loads((folder / "config.json").read_text(encoding="utf-8"))["note"].endswith(
            "; the phrase memory of ../segment-memory laid over them (pipeline/segment/memory.py)")
