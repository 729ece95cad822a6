"""The ritual-term lexicon: provenance of every entry and the guideline's conventions."""

import pytest

from pipeline.errors import InputError
from pipeline.tag.lexicon import LEXICON_PATH, LexEntry, Lexicon, load_lexicon, project, read_tsv
from pipeline.train.tag.lexicon import shigong_heads

SOURCES = ("guideline", "review", "shigong:", "zheng:", "zhouli:")


def spans(text):
    return [(text[s:e], lab) for s, e, lab in project(text)]


def test_every_entry_names_its_source():
    entries = read_tsv(LEXICON_PATH)
    assert len(entries) > 250
    for e in entries:
        assert e.label in ("ROLE", "OBJECT", "PLACE", "ACT", "MUSIC"), e
        assert e.source.startswith(SOURCES), e
        assert e.note.strip(), e
    surfaces = [e.surface for e in entries]
    assert len(surfaces) == len(set(surfaces))


def test_corpus_sources_are_used():
    entries = read_tsv(LEXICON_PATH)
    zheng = {e.surface: e for e in entries if e.source.startswith("zheng:") or "zheng:" in e.note}
    assert "嗇夫" in zheng and "司馬" not in [e.surface for e in entries if e.label != "ROLE" and e.surface == "司馬"]
    assert "之屬" in zheng["嗇夫"].note
    places = {e.surface for e in entries if e.source.startswith("shigong:")}
    assert {"楣", "闑", "塾"} <= places
    assert not any(e.source.startswith("zheng:KR1d0030_010") for e in entries), "dev juan mined"


def test_shigong_heads_are_read_from_the_treatise():
    heads = shigong_heads()
    assert "堂角有坫" in heads
    assert "升堂兩階其東階曰阼階" in heads


def test_coordinations_are_not_entries():
    lex = load_lexicon()
    for coord in ("卿大夫", "公卿", "決拾", "諸公卿"):
        assert coord not in lex


def test_longest_name_and_coordination_split():
    # KR1d0030_004 / _005 (鄉飲酒, 鄉射) base text
    assert spans("介席西階上東面") == [("介", "ROLE"), ("席", "OBJECT"), ("西階", "PLACE")]
    assert ("大射正", "ROLE") in spans("大射正執弓")
    assert spans("諸公卿大夫") == [("諸公", "ROLE"), ("卿", "ROLE"), ("大夫", "ROLE")]


def test_words_by_use():
    # 中: tally holder vs "to hit" (KR1d0030_005#352, #362)
    assert ("中", "OBJECT") in spans("命釋獲者設中遂視之")
    assert ("中", "OBJECT") not in spans("乃射若中則釋獲者坐而釋獲")
    # 拾: "by turns" in 拾取矢, the arm guard in 決拾
    assert ("拾", "OBJECT") not in spans("遂命三耦拾取矢司射反位")
    assert spans("射器弓矢決拾")[-2:] == [("決", "OBJECT"), ("拾", "OBJECT")]
    # 遂: the armlet only in 決遂
    got = spans("司射適堂西袒決遂取弓于階西")
    assert ("遂", "OBJECT") in got and ("堂", "PLACE") in got
    assert ("遂", "OBJECT") not in spans("公許遂適西階")
    # 洗: the basin (設洗) vs the verb (降洗, 洗觶)
    assert ("洗", "OBJECT") in spans("設洗于阼階東南")
    assert ("洗", "OBJECT") not in spans("主人坐取爵于篚降洗")
    assert ("洗", "OBJECT") not in spans("司正洗觶升自西階")


def test_bad_tsv_names_file_and_line(tmp_path):
    bad = tmp_path / "lex.tsv"
    bad.write_text("surface\tlabel\tsource\tnote\n弓\tOBJECT\tguideline\tok\n矢\tOBJECT\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_tsv(bad)
    assert err.value.line == 3 and str(bad) in str(err.value)


def test_rejections_veto():
    lex = Lexicon([LexEntry("坐", "NONE", "review", "verb"), LexEntry("弓", "OBJECT", "guideline", "x")])
    assert "坐" not in lex and "坐" in lex.rejected
    assert lex.longest_matches("坐取弓") == [(2, 3, "OBJECT")]


def test_direction_formula_and_mat_verb():
    # KR1d0030_005 (鄉射禮): 北面東上，工坐 — 上 belongs to the formula 東上
    assert spans("北面東上工坐相者坐授瑟乃降") == [("工", "ROLE"), ("相者", "ROLE"), ("瑟", "OBJECT")]
    # 席 as the verb "to lay a mat for" vs the mat
    assert ("席", "OBJECT") not in spans("席于尊東")
    assert ("席", "OBJECT") not in spans("席工于西階上少東")
    assert ("席", "OBJECT") in spans("衆賓皆升就席")


def test_music_is_tagged_but_not_a_scored_label():
    assert ("鹿鳴", "MUSIC") in spans("工歌鹿鳴四牡皇皇者華")


def test_more_words_by_use():
    # KR1d0030_021 (士喪禮) and _006 (鄉射禮)
    assert ("算", "OBJECT") not in spans("主人西面馮尸踊無算")
    assert ("服不", "ROLE") not in spans("商祝布絞衾散衣祭服祭服不倒")
    assert ("中", "OBJECT") not in spans("兩胉亞脊肺在于中")
    assert ("中", "OBJECT") in spans("司射命釋獲者退中與算而俟")
    assert ("席", "OBJECT") in spans("卒觶授執爵者反就席大夫飲")
    assert spans("東面設薦俎")[-2:] == [("薦", "OBJECT"), ("俎", "OBJECT")]


def test_productive_name_patterns():
    # names the lexicon need not list: an office + 正 / 師, an agent 「V X 者」 (KR1d0030_021, _023)
    lex = Lexicon([LexEntry("小臣", "ROLE", "review", "n"), LexEntry("爵", "OBJECT", "review", "n")])
    assert project("小臣師執爵", lex) == [(0, 3, "ROLE"), (4, 5, "OBJECT")]
    assert project("執爵者興", lex) == [(0, 3, "ROLE")]  # the vessel inside gives way
    assert project("羞膳者從而入", lex) == [(0, 3, "ROLE")]
    assert project("不勝者皆襲", lex) == [(0, 3, "ROLE")]
    assert project("所獲者", lex) == []  # 所: "what is got", no agent
    assert project("主人正立", Lexicon([LexEntry("主人", "ROLE", "review", "n")])) == [(0, 2, "ROLE")]
    assert project("執之者", lex) == [] and project("執者", lex) == []
    assert project("小臣師", lex, patterns=False) == [(0, 2, "ROLE")]
