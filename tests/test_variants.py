"""Variant folding (pipeline/variants.py): a view built (pipeline/train/variants.py) from OpenCC's dictionaries + a reviewed supplement."""

import shutil
from pathlib import Path

import pytest

from pipeline.variants import TABLE_PATH, fold, load_table, same
from pipeline.train import variants as builder


@pytest.mark.parametrize(
    "a,b",
    [("于", "於"), ("荅", "答"), ("毎", "每"), ("\U0002B74A", "傳"), ("乗", "乘"), ("㝛", "宿"),
     ("爲", "為"), ("卽", "即"), ("黃", "黄"), ("竝", "並")],
)
def test_corpus_variant_pairs_fold_together(a, b):
    assert same(a, b)
    assert fold(a) == fold(b)


def test_distinct_characters_stay_distinct():
    for a, b in [("于", "干"), ("宿", "寢"), ("答", "荅拜"), ("梱", "魁"), ("維", "絹")]:
        assert fold(a) != fold(b)


def test_fold_is_one_to_one_in_length_and_keeps_unknown_characters():
    text = "拜荅于阼階上\U000F04D2𫝊"  # a Kanripo entity (plane-15 PUA) passes through untouched
    f = fold(text)
    assert len(f) == len(text)
    assert f[6] == "\U000F04D2"
    assert fold("abc。") == "abc。"


def test_table_names_its_provenance():
    head = TABLE_PATH.read_text(encoding="utf-8").splitlines()[:2]
    assert "OpenCC" in head[1] and "TSCharacters" in head[1] and "SUPPLEMENT" in head[1]
    # every supplement entry says where it comes from
    assert all(len(ev) > 10 for _v, _s, ev in builder.SUPPLEMENT)


def test_committed_table_matches_a_rebuild_from_opencc():
    try:
        tool = builder._opencc_dir().parent.parent / "bin" / "opencc_dict"
    except ImportError:  # pragma: no cover
        pytest.skip("opencc not installed")
    if not Path(tool).exists() and not shutil.which("opencc_dict"):
        pytest.skip("opencc_dict tool not shipped")
    head = TABLE_PATH.read_text(encoding="utf-8").splitlines()[1]
    if f"OpenCC {builder._opencc_version()} " not in head:
        pytest.skip("the table was built from another OpenCC release")
    rebuilt = builder.build_table()
    committed = {chr(k): v for k, v in load_table().items()}
    assert rebuilt == committed
