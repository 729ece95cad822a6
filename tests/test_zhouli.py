"""The office miner of the 周禮 (pipeline/train/tag/zhouli.py) and its entries in the lexicon.

Fixtures: records of the TLS 周禮 (data/extra/KR1d0001.punct.jsonl: 天官 序官 and 職, 春官
序官 and 職) and 經 records of train juan 1, 2 and 17 of 周禮注疏 (data/punct/KR1d0003.punct.jsonl),
copied unchanged into tests/fixtures/zhouli_tls.jsonl and zhouli_zhushu.jsonl.
"""

from pathlib import Path

import pytest

from pipeline.tag.lexicon import LEXICON_PATH, load_lexicon, project, read_tsv
from pipeline.train.tag.zhouli import fold, mine_offices, mine_zhouli, read_records, xuguan_titles

FIX = Path(__file__).parent / "fixtures"
TLS = FIX / "zhouli_tls.jsonl"
ZHUSHU = FIX / "zhouli_zhushu.jsonl"


@pytest.fixture(scope="module")
def offices():
    return {o.title: o for o in mine_offices(TLS, ZHUSHU)}


def test_fixtures_come_from_train_juan():
    assert all(r["split"] == "train" for r in read_records(ZHUSHU))


def test_xuguan_titles_of_tianguan():
    recs = [r for r in read_records(TLS) if r["id"].startswith("KR1d0001_001")]
    titles = [t for t, *_ in xuguan_titles(recs)]
    # 大宰，卿一人；小宰，中大夫二人；宰夫，下大夫四人，上士八人 …
    assert titles[:5] == ["大宰", "小宰", "宰夫", "宮正", "宮伯"]
    # a record cut inside a title (𨵽|人，王宮每門四人) is joined; a title alone (九嬪。); a title
    # with its count (女祝四人，奚八人)
    assert {"𨵽人", "九嬪", "女祝", "女史", "內小臣", "寺人", "內豎"} <= set(titles)
    # ranks and staff grades are never titles
    assert not {"府", "史", "胥", "徒", "奄", "奚", "女酒", "女漿", "上士", "中士", "下大夫"} & set(titles)
    assert not any(t.startswith(("上", "中", "下", "旅")) and t.endswith(("士", "大夫")) for t in titles)


def test_titles_need_a_zhi_or_a_rank(offices):
    # 男巫無數，女巫無數，其師，中士四人: 男巫 / 女巫 open their 職 (男巫掌望祀 …); 其師 is no title
    assert "男巫" in offices and "女巫" in offices
    assert "其師" not in offices
    assert offices["男巫"].zhi == "KR1d0001_003#116"
    assert offices["大宰"].zhi == "KR1d0001_001#63"  # 大宰之職，掌建邦之六典
    assert offices["宮正"].zhi == "KR1d0001_001#66"  # 宮正掌王宮之戒令
    assert offices["𨵽人"].zhi == "KR1d0001_001#109"  # 𨵽 | 人掌守王宮之中門之禁 across two records


def test_the_zhushu_form_is_found(offices):
    assert offices["宮正"].forms == {"宫正": "KR1d0003_001#37"}
    assert offices["內宰"].forms == {"内宰": "KR1d0003_001#174"}
    assert offices["𨵽人"].forms == {"閽人": "KR1d0003_001#180"}
    assert offices["大宰"].forms == {"大宰": "KR1d0003_001#25"}
    assert fold("宫正") == fold("宮正") and fold("稾人") == fold("槀人")


def test_entries_carry_source_and_note():
    entries = {e.surface: e for e in mine_zhouli(TLS, ZHUSHU)}
    e = entries["宫正"]
    assert e.label == "ROLE"
    assert e.source == "zhouli:職 KR1d0001_001#66"
    assert "宮正，上士二人" in e.note and "KR1d0003_001#37" in e.note
    assert "宮正" not in entries  # the TLS form, unattested in the fixture's 注疏 records
    assert entries["閽人"].note.startswith("周禮序官 KR1d0001_001#45「𨵽人，王宮每門四人")
    # the TLS form is kept too when other text attests it
    assert "宮正" in {e.surface for e in mine_zhouli(TLS, ZHUSHU, attested="王宮正")}
    assert not {"府", "史", "徒", "奄", "上士"} & set(entries)


def test_the_built_lexicon_lists_the_offices():
    entries = {e.surface: e for e in read_tsv(LEXICON_PATH)}
    zhouli = [e for e in entries.values() if e.source.startswith("zhouli:")]
    assert len(zhouli) > 300
    assert entries["宫正"].source == "zhouli:職 KR1d0001_001#66"
    assert entries["閽人"].label == "ROLE" and entries["司儀"].label == "ROLE"
    assert "府" not in entries and "徒" not in entries  # staff grades (reviewed.tsv: NONE)
    assert "zhouli:" in entries["膳夫"].note  # a reviewed entry notes the 周禮 office too
    assert entries["膳夫"].source == "review"


def test_zhouli_offices_take_no_head_and_the_bell_hangings_are_no_office():
    lex = load_lexicon()
    spans = lambda t: [t[s:e] for s, e, _ in project(t, lex)]  # noqa: E731
    assert spans("小胥正樂縣之位") == ["小胥"]  # 正 the verb (周禮 小胥)
    assert spans("大僕正王之服位") == ["大僕", "王"]
    assert spans("小臣正辭") == ["小臣正"]  # the 儀禮 head stays
    assert spans("卿大夫判縣士特縣") == ["卿", "大夫", "士"]  # not 縣士
    assert spans("縣士掌野") == ["縣士"]
