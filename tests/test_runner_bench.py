"""Pieces of `zhushu bench` that need no long run."""

from __future__ import annotations

from pathlib import Path

from pipeline.runner.bench import _same_tree, copies_corpus, stage_rates

FIX = Path(__file__).resolve().parent / "fixtures" / "export"


def test_copies_have_distinct_document_ids(tmp_path):
    files = copies_corpus([str(FIX / "KR1d0030_001.txt"), str(FIX / "KR1d0030_010.txt")], tmp_path, 3)
    stems = [Path(f).stem for f in files]
    assert len(stems) == len(set(stems)) == 6 and "KR1d0030_010_c02" in stems
    assert Path(files[0]).read_bytes() == (FIX / "KR1d0030_001.txt").read_bytes()


def test_stage_rates_and_tree_comparison(tmp_path):
    rates = stage_rates({"chars": 1000, "seconds": {"tag": 0.5, "ingest": 0.1}})
    assert rates == {"ingest": {"seconds": 0.1, "chars_per_second": 10000}, "tag": {"seconds": 0.5, "chars_per_second": 2000}}
    (tmp_path / "a" / "x").mkdir(parents=True)
    (tmp_path / "b" / "x").mkdir(parents=True)
    (tmp_path / "a" / "x" / "f").write_bytes(b"1")
    (tmp_path / "b" / "x" / "f").write_bytes(b"1")
    assert _same_tree(tmp_path / "a", tmp_path / "b") == (True, [])
    (tmp_path / "b" / "x" / "f").write_bytes(b"2")
    assert _same_tree(tmp_path / "a", tmp_path / "b") == (False, ["x/f"])
