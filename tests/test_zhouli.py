"""The office miner of the 周禮 (pipeline/train/tag/zhouli.py) and its entries in the lexicon.

Fixtures: records of the TLS 周禮 (data/extra/KR1d0001.punct.jsonl: 天官 序官 and 職, 春官
序官 and 職) and 經 records of train juan 1, 2 and 17 of 周禮注疏 (data/punct/KR1d0003.punct.jsonl),
copied unchanged into tests/fixtures/zhouli_tls.jsonl and zhouli_zhushu.jsonl.
"""

from pathlib import Path

import pytest

from pipeline.tag.lexicon import LEXICON_PATH, load_lexicon, project, read_tsv
from pipeline.train.tag.zhouli import (
    fold,
    mine_offices,
    mine_zhouli,
    read_records,
    xuguan_titles,
)

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
    spans = lambda t: [t[s:e] for s, e, _ in project(t, lex)]
    assert spans("小胥正樂縣之位") == ["小胥"]  # 正 the verb (周禮 小胥)
    assert spans("大僕正王之服位") == ["大僕", "王"]
    assert spans("小臣正辭") == ["小臣正"]  # the 儀禮 head stays
    assert spans("卿大夫判縣士特縣") == ["卿", "大夫", "士"]  # not 縣士
    assert spans("縣士掌野") == ["縣士"]


def test_kaogongji_artisans(offices):
    # the 考工記 stands for the lost 冬官: each paragraph opens with its office (輪人為輪, 鮑人之事,
    # 段氏 alone); 國有六職 and 畫繢之事 open none
    kao = {t for t, o in offices.items() if o.kaogong}
    assert kao == {"輪人", "段氏", "鮑人"}
    e = {e.surface: e for e in mine_zhouli(TLS, ZHUSHU)}["輪人"]
    assert e.source == "zhouli:考工記 KR1d0001_006#1" and "輪人為輪" in e.note and "KR1d0003_039#114" in e.note


def _lex(*rows):
    from pipeline.tag.lexicon import LexEntry, Lexicon

    return Lexicon([LexEntry(s, lab, src, "test") for s, lab, src in rows])


SMALL = (
    ("士", "ROLE", "guideline"), ("大夫", "ROLE", "guideline"), ("祝", "ROLE", "review"), ("宰", "ROLE", "review"),
    ("遂士", "ROLE", "zhouli:職 KR1d0001_005#65"), ("鄉大夫", "ROLE", "zhouli:職 KR1d0001_002#65"),
    ("小祝", "ROLE", "zhouli:職 x"), ("史", "ROLE", "review"), ("外史", "ROLE", "zhouli:職 y"),
    ("酒", "OBJECT", "review"), ("鼓", "OBJECT", "review"),
    ("酒人", "ROLE", "zhouli:職 KR1d0001_001#84"),
)


def test_office_shapes_learned_from_the_listed_offices():
    lex = _lex(*SMALL)
    spans = lambda t: [(t[s:e], lab) for s, e, lab in project(t, lex)]  # noqa: E731
    # 4. modifier + head: 遂 (of 遂士) + 大夫 (of 鄉大夫); 鄉 + 士
    assert ("遂大夫", "ROLE") in spans("遂大夫各掌其遂之政令")
    assert ("鄉士", "ROLE") in spans("命鄉士")
    # 外 (of 外史) + 祝 (of 小祝) → 外祝, but not after a relational character (門外祝), nor a
    # modifier no listed office shows (上大夫)
    assert ("外祝", "ROLE") in spans("命外祝")
    assert ("祝", "ROLE") in spans("門外祝代之") and ("外祝", "ROLE") not in spans("門外祝代之")
    assert spans("上大夫") == [("大夫", "ROLE")]
    # 5. a listed implement + 人, as 酒人: 鼓人; the implement alone stays
    assert ("鼓人", "ROLE") in spans("以鼓人為之")
    assert ("鼓", "OBJECT") in spans("擊鼓")
    # without any 周禮 office in the lexicon nothing of this happens
    plain = _lex(*[r for r in SMALL if not r[2].startswith("zhouli:")])
    assert [(t, s, e) for t in ("遂大夫",) for s, e, _ in project(t, plain)] == [("遂大夫", 1, 3)]


def test_frames_of_the_zhouli_at_the_start_of_a_text():
    lex = _lex(*SMALL)
    spans = lambda t: [(t[s:e], lab) for s, e, lab in project(t, lex)]  # noqa: E731
    # 3. the opening of a 職 and a line of a 序官 name an office the lexicon lacks
    assert spans("縣師掌邦國都鄙稍甸郊里之地域")[0] == ("縣師", "ROLE")
    assert spans("掌舍掌王之會同之舍")[0] == ("掌舍", "ROLE")
    assert spans("縣師上士二人中士四人")[0] == ("縣師", "ROLE")
    # only at the start, and not an event (小祭祀掌事) or a clause with a function word
    assert ("縣師", "ROLE") not in spans("以告縣師掌之")
    assert spans("小祭祀掌事") == []
    assert spans("凡祭祀掌其事") == []
