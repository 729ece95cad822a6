"""音義 notes into readings. The notes are real: KR1d0003_001.txt (周禮注疏 juan 1, train)
lines 54–55 and 157, and the fixture tests/fixtures/zhushu/KR1d0053_001.txt (禮記註疏 juan 1,
train, lines 1–104)."""

from __future__ import annotations

from pathlib import Path

from pipeline.ingest import read_document
from pipeline.readings import document_readings, parse_note

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "zhushu"

# KR1d0003_001.txt line 54–55: the 音義 of 辨方正位, with the 經 and the start of its 注
BIAN = "辨本亦作辯徐邈劉昌宗皆方免反別也一音平勉反別彼列反下同縣音𤣥下同𣙗魚列反下同"
BIAN_TARGETS = ["辨方正位", "辨别也鄭司農云别四方正君臣之位君南面臣北面之屬𤣥謂考工匠人建國水地以縣置𣙗以縣視"]
# line 157: the 音義 of 胥十有二人徒百有二十人
XU = "胥鄭徐劉思敘反戚思餘反下皆同徭音遥諝劉思敘反"
XU_TARGETS = ["胥十有二人徒百有二十人", "此民給徭役者若今衛士矣胥讀如諝謂其有才知為什長"]


def _sounds(reading):
    return [(s.kind, s.upper, s.lower, s.homophone, s.authority) for s in reading.sounds]


def test_fanqie_with_authorities_a_variant_remark_and_an_alternative():
    first = parse_note(BIAN, BIAN_TARGETS)[0]
    assert (first.head, first.head_start, first.head_end) == ("辨", 0, 1)  # not 辯 of 本亦作辯
    assert _sounds(first) == [
        ("fanqie", "方", "免", None, ("徐邈", "劉昌宗", "皆")),
        ("fanqie", "平", "勉", None, ("一",)),  # 別也一音平勉反: 音 before a 反切; the gloss does not end the entry
    ]
    assert (first.target, first.anchor_start, first.anchor_end) == (0, 0, 1)


def test_homophone_scope_and_anchor_in_the_zhu():
    readings = parse_note(BIAN, BIAN_TARGETS)
    assert [r.head for r in readings] == ["辨", "別", "縣", "𣙗"]
    xian = readings[2]
    assert _sounds(xian) == [("homophone", None, None, "𤣥", ())] and xian.scope == "下同"
    assert xian.target == 1 and BIAN_TARGETS[1][xian.anchor_start] == "縣"
    assert readings[1].target is None  # 別 is printed 别 in the 注: no anchor rather than a wrong one


def test_fold_anchors_a_head_on_its_variant_form():
    from pipeline.variants import fold

    bie = parse_note(BIAN, BIAN_TARGETS, fold=fold)[1]
    assert bie.head == "別" and bie.target == 1 and BIAN_TARGETS[1][bie.anchor_start] == "别"


def test_one_word_in_two_forms_anchors_either_way_through_the_fold():
    # stop 62 (train juan 14, 28): the fold's 曁/暨 and 麏/麕/麇 — a head printed 暨 anchors on the 注's 曁 (a
    # readings.tsv row goes one way only), and 「麏爲九倫反」 reads the 經's 麕爲 whole instead of a head 爲 on 「魚爲菹」
    text, readings, targets = _note("KR1d0003_014", "馭音御徳行下孟反")
    [ji] = [r for r in readings if r.head == "暨"]
    assert _anchored(ji, targets) == "曁"
    text, readings, targets = _note("KR1d0053_028", "麏爲九倫反")
    assert (readings[0].head, _anchored(readings[0], targets)) == ("麏爲", "麕爲")


def test_authorities_before_the_first_reading_and_in_order_anchors():
    readings = parse_note(XU, XU_TARGETS)
    assert [(r.head, r.scope) for r in readings] == [("胥", "下皆同"), ("徭", None), ("諝", None)]
    assert _sounds(readings[0]) == [("fanqie", "思", "敘", None, ("鄭", "徐", "劉")), ("fanqie", "思", "餘", None, ("戚",))]
    assert [(r.target, r.anchor_start) for r in readings] == [(0, 0), (1, 3), (1, 14)]
    assert readings[2].alternatives == [] and readings[2].reading.authority == ("劉",)


def test_ruzi_head_at_the_start_is_not_an_authority():
    readings = parse_note("王如字干寳云王天子之號三代所稱雒音洛水名也", ["惟王建國", "建立也使居雒邑"])
    assert [(r.head, r.reading.kind, r.target) for r in readings] == [("王", "ruzi", 0), ("雒", "homophone", 1)]


def test_document_readings_glosses_the_jing_and_zhu_before_the_note():
    doc = read_document(FIXTURES / "KR1d0053_001.txt", base_text=None)
    notes = {unit.text: (readings, targets) for unit, readings, targets in document_readings(doc.units)}
    readings, targets = notes["儼魚檢反本亦作嚴同矜莊貌思如字徐息嗣反矜居氷反"]
    assert [t.text for t in targets] == ["儼若思", "儼矜莊貌人之坐思貌必儼然"]
    by_seq = {t.seq: t for t in targets}
    got = [(r.head, by_seq[r.target].kind, r.anchor_start, [s.kind for s in r.sounds]) for r in readings]
    assert got == [("儼", "base", 0, ["fanqie"]), ("思", "base", 2, ["ruzi", "fanqie"]), ("矜", "commentary", 1, ["fanqie"])]
    assert readings[1].alternatives[0].authority == ("徐",)


# --- the error classes of issue 21 (item 4), on whole train juan of data/corpus (juan not
# divisible by 10), parsed as the align stage parses them (variant folding and the reading
# alternates of models/variants/readings.tsv)

import functools

from pipeline import paths
from pipeline.variants import fold, reading_alternates


@functools.lru_cache(maxsize=None)
def _juan(doc_id: str) -> dict:
    """{note text: (readings, {seq: glossed unit})} of one train juan."""
    doc = read_document(paths.DATA / "corpus" / doc_id.split("_")[0] / f"{doc_id}.txt")
    return {unit.text: (readings, {t.seq: t for t in targets})
            for unit, readings, targets in document_readings(doc.units, fold, reading_alternates)}


def _note(doc_id: str, start: str):
    [(text, (readings, targets))] = [(k, v) for k, v in _juan(doc_id).items() if k.startswith(start)]
    return text, readings, targets


def _anchored(r, targets) -> str | None:
    return None if r.target is None else targets[r.target].text[r.anchor_start : r.anchor_end]


def test_a_note_on_two_characters_gives_one_reading_each():
    # KR1d0053_022 (禮運): 兄良弟弟 — 弟弟上如字下音悌; also 爭爭鬬之爭 (爭 as in 爭鬬)
    text, readings, targets = _note("KR1d0053_022", "惡烏路反下皆同弟弟上如字下音悌")
    got = [(r.head, r.head_start, [(s.kind, text[s.start:s.end], s.authority) for s in r.sounds]) for r in readings]
    assert got[1:3] == [("弟", 7, [("ruzi", "如字", ())]), ("弟", 8, [("homophone", "音悌", ())])]
    assert readings[1].target == readings[2].target and readings[2].anchor_start == readings[1].anchor_start + 1
    assert got[4] == ("爭", 19, [("word", "爭鬬之爭", ())]) and _anchored(readings[4], targets) == "爭"
    # KR1d0053_037 (樂記): 簠簋上音甫下居洧反
    text, readings, targets = _note("KR1d0053_037", "伸音申綴丁劣反")
    assert [(r.head, r.reading.homophone or r.reading.upper) for r in readings[2:4]] == [("簠", "甫"), ("簋", "居")]


def test_bing_after_a_scope_is_a_head_and_scopes_of_several_clauses():
    # KR1d0053_022: …治直吏反注同下以自治注身治成治皆放此並歩頂反 — 並 is 竝 of 竝於鬼神
    text, readings, targets = _note("KR1d0053_022", "所樂音岳又音洛又五孝反")
    zhi, bing = readings[-2:]
    assert zhi.scope == "注同下以自治注身治成治皆放此"
    assert (bing.head, bing.reading.authority, _anchored(bing, targets)) == ("並", (), "竝")
    # 後文注除…皆同 (KR1d0053_022), 下除…皆同 (KR1d0053_003), 後皆放此 (KR1d0003_029)
    assert _note("KR1d0053_022", "則君則音明")[1][1].scope == "後文注除三分去一三分益一皆同"
    assert _note("KR1d0053_003", "乗繩證反下除")[1][0].scope == "下除乗君不乗奇車乗路馬皆同"
    assert _note("KR1d0003_029", "饁于輙反")[1][-1].scope == "後皆放此"


def test_a_remark_between_head_and_reading():
    # KR1d0053_051: 其命依注音基 — the head is 其命, not 注 of 依注
    text, readings, targets = _note("KR1d0053_051", "其命依注音基")
    assert (readings[0].head, _anchored(readings[0], targets)) == ("其命", "其命")
    # KR1d0053_007: 衡依注音横華彭反 — 華彭反 spells 横: an alternative of 衡
    text, readings, targets = _note("KR1d0053_007", "縮所六反縫音逢")
    heng = readings[2]
    assert heng.head == "衡" and [text[s.start:s.end] for s in heng.sounds] == ["音横", "華彭反"]
    # stop 62 — X依注讀為Y: the 注 reads X as Y (KR1d0053_038 「賁依注讀為憤扶粉反」, KR1d0053_039 「報依注讀曰襃」,
    # train): the head is X of the 經, not the 注 of 依注 (which anchored nowhere, or on a 注 character)
    for doc_id, start, head in (("KR1d0053_038", "噍子遥反殺色界反", "賁"), ("KR1d0053_039", "銷音消報依注讀曰襃", "報")):
        text, readings, targets = _note(doc_id, start)
        [r] = [r for r in readings if text[r.head_start:].startswith(head + "依注讀")]
        assert (r.head, _anchored(r, targets), targets[r.target].kind) == (head, head, "base")


def test_a_remark_naming_the_character_the_head_stands_for():
    # KR1d0053_035 and KR1d0053_059 (train): 圂與豢同音患, 鷙與摯同音至 — the head is the first
    # character, 與X同 a remark (it was read as a head 同)
    assert [(r.head, r.head_start) for r in parse_note("圂與豢同音患濊本又作穢紆廢反一音烏外反")] == [("圂", 0), ("濊", 6)]
    got = parse_note("沮在呂反注同鷙與摯同音至攫俱縛反")
    assert [r.head for r in got] == ["沮", "鷙", "攫"] and got[0].scope == "注同"
    # after a variant remark too (KR1d0053_049, train): 齊盛本亦作齍與粢同音咨 — as 齊盛本亦作齍音咨
    assert [r.head for r in parse_note("齊盛本亦作齍與粢同音咨")] == [r.head for r in parse_note("齊盛本亦作齍音咨")]


def test_an_authority_followed_by_more_characters():
    # KR1d0003_024: 舋舊許鄞反沈一依聶氏音問 — 沈 reads 問 for the same head, 氏 is no head
    text, readings, targets = _note("KR1d0003_024", "󰪃音兆亦作兆舋")
    xin = readings[1]
    assert xin.head == "舋" and [s.authority for s in xin.sounds] == [("舊",), ("沈",)]
    # KR1d0003_012: 椵音加沈一音瑕 — 沈's other reading (一音) of 椵
    text, readings, targets = _note("KR1d0003_012", "楅音福")
    assert [(r.head, [s.authority for s in r.sounds]) for r in readings if r.head == "椵"] == [("椵", [(), ("沈", "一")])]


def test_an_authority_of_two_characters_or_two_joined_by_ji_is_no_head():
    # stop 62, train juan: 聶氏 (聶 alone was known), the 隱義 (a book on the 禮記), 李及聶氏 (two readers, one reading):
    # alternatives of the head before them, not heads 氏 / 義 of their own
    for doc_id, start, head, names in (("KR1d0003_013", "上時掌反鬴房甫反", "㽦", ("聶氏",)),
                                       ("KR1d0053_049", "謖所六反起也", "卑", ("隠義",)),
                                       ("KR1d0003_016", "麻如字一本作麋", "麻", ("李", "聶氏"))):
        text, readings, targets = _note(doc_id, start)
        assert not any(r.head in ("氏", "義", "及") for r in readings), doc_id
        [r] = [r for r in readings if r.head == head]
        assert names in [s.authority for s in r.sounds], (doc_id, [s.authority for s in r.sounds])


def test_jin_as_in_the_word_fujin_is_a_reading():
    # KR1d0003_015: 近附近之近下及注同 — read as the 近 of 附近; no reading at all before
    text, readings, targets = _note("KR1d0003_015", "近附近之近下及注同")
    jin = readings[0]
    assert (jin.head, jin.reading.kind, text[jin.reading.start:jin.reading.end], jin.scope) == ("近", "word", "附近之近", "下及注同")
    assert _anchored(jin, targets) == "近"


def test_heads_printed_in_a_variant_character_anchor_through_the_variant_table():
    # the text prints 蓄 / 娶 / 災 where the 音義 reads 畜 / 取 / 烖 (models/variants/readings.tsv)
    for doc_id, note, head, form in (("KR1d0003_035", "共如字賈音古畜勅六反", "畜", "蓄"),
                                     ("KR1d0053_022", "頒音班當丁浪反媒音梅取音娶", "取", "娶"),
                                     ("KR1d0053_022", "烖音災妖孽", "烖", "災"),
                                     # stop 61 (train juan 24, 41, 39): 郤 for 卻 and 卻 for 郤, 墜 for 隊
                                     ("KR1d0003_024", "繹音亦果魯火反", "郤", "卻"),
                                     ("KR1d0003_041", "卻羌畧反", "卻", "郤"),
                                     ("KR1d0053_039", "工時掌反抗苦浪反墜", "墜", "隊"),
                                     # stop 62 (train juan 5, 29, 25): the print's slips 廖 for 瘳, 圛 for 圜; 難 for
                                     # the 注's 儺 (before, the remark's 儺 was read into the next head: 「儺索」)
                                     ("KR1d0003_005", "瞑眠見反徐亡千反", "廖", "瘳"),
                                     ("KR1d0053_029", "荼音舒詘丘勿反", "圛", "圜"),
                                     ("KR1d0053_025", "禓音傷鬼名也", "難", "儺"),
                                     ("KR1d0053_054", "好呼報反下同郷許亮反", "己", "已"),
                                     # stop 63 (train juan): the print's slips 睢 for 雎, 卯 for 卵; the 詩's 薺 for 齊
                                     ("KR1d0028_004", "睢七徐反", "睢", "雎"),
                                     ("KR1d0053_027", "濡音而下同", "卯", "卵"),
                                     ("KR1d0003_032", "薺才私反", "薺", "齊"),
                                     # and the heads of a 上…下 pair (the pair's own lookup took no alternates)
                                     ("KR1d0053_035", "氾埽上芳", "氾", "汜"),
                                     ("KR1d0053_035", "苴子余反", "褥", "蓐"),
                                     ("KR1d0053_043", "共音恭姿", "姿", "粢")):
        text, readings, targets = _note(doc_id, note)
        [r] = [r for r in readings if r.head == head]
        assert _anchored(r, targets) == form, (doc_id, head)
    _, readings, _ = _note("KR1d0053_025", "禓音傷鬼名也")
    assert [r.head for r in readings][:4] == ["禓", "强", "難", "索"]
    # without the table the same head stays unanchored rather than anchored elsewhere
    text = "共如字賈音古畜勅六反積子賜反又如字出尺遂反劉勅類反又如字坐才卧反"
    _, _, targets = _note("KR1d0003_035", text)
    plain = parse_note(text, [t.text for t in targets.values()], fold)
    assert [r.target for r in plain if r.head == "畜"] == [None]


def test_variant_remarks_glosses_and_scopes_between_entries():
    # KR1d0053_002: 遺于季反與也注同弛本又作施同式是反謂不張也注同隤本又作頽徒回反順貎
    text, readings, targets = _note("KR1d0053_002", "遺于季反與也注同弛本又作施同")
    assert [(r.head, r.scope, _anchored(r, targets)) for r in readings] == [
        ("遺", "注同", "遺"), ("弛", "注同", "弛"), ("隤", None, "隤")]


def test_a_gloss_then_another_authority_is_an_alternative():
    # KR1d0003_033: 鄔徐於據反縣名屬太原劉烏古反 — 劉's reading of 鄔, not a head 原
    text, readings, targets = _note("KR1d0003_033", "虖喚胡反")
    wu = [r for r in readings if r.head == "鄔"][0]
    assert [s.authority for s in wu.sounds] == [("徐",), ("劉",)] and "原" not in [r.head for r in readings]


def test_heads_ahead_of_the_cursor_and_two_fanqie_at_once():
    # KR1d0053_023: 摩本又作麾毁皮反齊人謂快為麾蚤音早 — 摩 on the 經's 麾, then 蚤 right after
    # it (not 麾蚤, which stands before the cursor)
    text, readings, targets = _note("KR1d0053_023", "摩本又作麾")
    (mo, zao) = readings
    assert (mo.head, _anchored(mo, targets), zao.head, zao.anchor_start) == ("摩", "麾", "蚤", mo.anchor_start + 1)
    # KR1d0003_041: …徑也好呼報呼老二反注同 — 好 (not 徑也好) read 呼報反 and 呼老反
    text, readings, targets = _note("KR1d0003_041", "羨以善反延也")
    hao = readings[1]
    assert hao.head == "好" and [(s.upper, s.lower) for s in hao.sounds] == [("呼", "報"), ("呼", "老")]
    assert hao.scope == "注同"


def test_what_the_zhu_prints_is_a_remark_not_a_head():
    """`X注作Y(同)` and `X依注作Y同`: the 注 prints the head X as Y; the remark stands between the head
    and its reading (train juan: KR1d0003_035#292, KR1d0053_049#128; the 儀禮注疏's KR1d0028_012#102,
    found in stop 40's hand check). The head was read as 注."""
    for note, head, sounds in (("諜音牒搏注作膊同普博反磔", "搏", ["普博反"]),
                               ("與也煇依注作韗同况萬反又音運下同", "煇", ["况萬反", "音運"]),
                               ("綪注作䋫側庚反沔音緬", "綪", ["側庚反"])):
        got = {r.head: [note[s.start:s.end] for s in r.sounds] for r in parse_note(note)}
        assert "注" not in got and got.get(head) == sounds, got
    # the head 依 of 「依本又作扆同」 (斧依, KR1d0053_005 / _031, train) stays a head
    assert "依" in {r.head for r in parse_note("斧音甫依本又作扆同於豈反注同")}


def test_what_ends_in_tong_before_a_reading_is_said_of_the_entry_before():
    """Stop 63 (train juan): `…呂沈同劉當定反`, `…字林同劉昨雖反`, `…與下瑳字同倉我反` — "… the same",
    then another reading of the same head; `誑夲或作□注同九況反`, `祈及注禨同巨旣反`: a remark ending in
    同 between a head and its reading. Each was read as a head 同, anchored nowhere."""
    for doc_id, note, head, sound, at in (("KR1d0003_032", "枉紆徃反", "訂", "當定反", "訂"),
                                          ("KR1d0003_033", "華如字劉胡化反", "溠", "昨雖反", "溠"),
                                          ("KR1d0003_008", "褘音暉", "玼", "倉我反", "玼"),
                                          ("KR1d0003_039", "枳占氏反", "鸛", "其俱反", "鸜"),  # the 經 prints 鸜
                                          ("KR1d0053_001", "視音示誑", "誑", "九況反", "誑"),
                                          ("KR1d0003_019", "祈及注禨同", "祈", "巨旣反", "祈")):
        text, readings, targets = _note(doc_id, note)
        assert "同" not in [r.head for r in readings], (doc_id, [r.head for r in readings])
        [r] = [r for r in readings if r.head == head]
        assert sound in [text[s.start:s.end] for s in r.sounds] and _anchored(r, targets) == at, (doc_id, head)


def test_yin_yu_x_tong_and_yin_jin_x_read_x_and_the_han_shu_yinyi_is_a_source():
    """Stop 63 (train juan 41, 33, 35): `音與燿同` ("read as 燿") is the homophone 燿, not 與 with a
    head 同 after it; `漢書音義服䖍音近蠻應劭音近文鄭氏音旻` gives three more readings of 閩 (not
    heads 書, 䖍, 劭, 氏); `三家姜奉反一家居辱反` two readings of 拲 (not heads 家)."""
    text, readings, _ = _note("KR1d0003_041", "弇於檢反")
    [shao] = [r for r in readings if r.head == "哨"]
    assert [(s.homophone, s.authority) for s in shao.sounds] == [("稍", ()), ("燿", ("劉", "李")), (None, ("沈",))]
    text, readings, targets = _note("KR1d0003_033", "閩亡巾反")
    assert [r.head for r in readings][:2] == ["閩", "貉"]
    assert [s.homophone for s in readings[0].sounds][-3:] == ["蠻", "文", "旻"]
    assert readings[0].sounds[-3].authority == ("漢書音義", "服䖍")
    text, readings, targets = _note("KR1d0003_035", "梏古毒反")
    [gong] = [r for r in readings if r.head == "拲"]
    assert [(text[s.start:s.end], s.authority) for s in gong.sounds] == [
        ("姜奉反", ("劉云", "三家")), ("居辱反", ("一家",)), ("音拱", ("漢書音義", "韋昭"))]
    assert "家" not in [r.head for r in readings] and "書" not in [r.head for r in readings]


def test_the_upper_or_lower_character_of_a_two_character_head():
    """Stop 63 (train juan): after a two-character head, 上 / 下 name its first / second character —
    `長殤丁丈反下式羊反` is 殤 read 式羊反 (it was read as another reading of 長殤), `大皥上音太` 大 read
    太 (it was a head 上, anchored nowhere); `好惡並如字上呼報反下烏路反` one reading each. 上 read
    時掌反 is the word 上 itself (`以上以或作已上時掌反`)."""
    text, readings, targets = _note("KR1d0053_006", "長殤丁丈反下式羊反")
    chang, shang = readings[:2]
    assert (chang.head, [text[s.start:s.end] for s in chang.sounds]) == ("長殤", ["丁丈反"])
    assert (shang.head, [text[s.start:s.end] for s in shang.sounds]) == ("殤", ["式羊反"])
    assert (shang.target, shang.anchor_start) == (chang.target, chang.anchor_start + 1)
    text, readings, targets = _note("KR1d0053_016", "詰去吉反好惡並如字")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings] == [
        ("詰", ["去吉反"]), ("好惡", ["如字"]), ("好", ["呼報反"]), ("惡", ["烏路反"])]
    assert _anchored(readings[2], targets) == "好" and _anchored(readings[3], targets) == "惡"
    # stop 68 (train juan 51): the same after the alternative's marker — `…好惡並如字一音上呼報反下烏路反`, "another
    # reading: the upper 呼報反, the lower 烏路反"; 音上 was read as a homophone of 好惡
    text, readings, targets = _note("KR1d0053_051", "哀樂音洛")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds], _anchored(r, targets)) for r in readings[2:]] == [
        ("好惡", ["如字"], "好惡"), ("好", ["呼報反"], "好"), ("惡", ["烏路反"], "惡")]
    assert readings[3].sounds[0].authority == ("一",)
    text, readings, targets = _note("KR1d0053_014", "大皥上音太")
    da = readings[0]
    assert (da.head, text[da.sounds[0].start:da.sounds[0].end], _anchored(da, targets)) == ("大", "音太", "大")
    [mang] = [r for r in readings if r.head == "芒"]
    assert [text[s.start:s.end] for s in mang.sounds] == ["音亡"] and _anchored(mang, targets) == "芒"
    # the authority who reads it so before 上 / 下 (`劉下`, `徐上`): 徐 is no head (it was), 蜩范's 范
    # is no 范宣 (the pair stands in the text)
    text, readings, targets = _note("KR1d0028_014", "祝祝劉下之又反")
    [zhu] = readings
    assert (zhu.head, zhu.sounds[0].authority, zhu.anchor_start) == ("祝", ("劉",), 1)
    assert targets[zhu.target].text[:2] == "祝祝"
    text, readings, targets = _note("KR1d0053_006", "左右徐上音佐下音佑")
    assert [(r.head, r.sounds[0].homophone, r.sounds[0].authority, _anchored(r, targets)) for r in readings[:2]] == [
        ("左", "佐", ("徐",), "左"), ("右", "佑", (), "右")]
    text, readings, targets = _note("KR1d0053_026", "既蜡而收絶句積聚並如字徐上音兹賜反下才樹反")
    assert [(r.head, text[r.sounds[0].start:r.sounds[0].end]) for r in readings] == [
        ("積聚", "如字"), ("積", "音兹賜反"), ("聚", "才樹反")]
    text, readings, targets = _note("KR1d0053_027", "蜩范上音條下音犯")
    assert [(r.head, r.sounds[0].homophone, r.sounds[0].authority, _anchored(r, targets)) for r in readings[:2]] == [
        ("蜩", "條", (), "蜩"), ("范", "犯", (), "范")]
    # the head's gloss between the head and 上
    text, readings, targets = _note("KR1d0053_007", "離羣羣朋友也上音詈")
    assert (readings[0].head, _anchored(readings[0], targets)) == ("離", "離")
    for doc_id, note in (("KR1d0003_011", "徧音遍七人以上時掌反"),  # not 人 (of 七人) read 時掌反
                         ("KR1d0003_023", "䃂古本反")):  # `…形大下大厚同舊菟佐反上時掌反`: not 形 (of 形大)
        text, readings, _ = _note(doc_id, note)
        assert [r.head[-1] for r in readings if text[r.sounds[0].start:r.sounds[0].end] == "時掌反"] == ["上"]


def test_a_name_read_as_the_word_it_also_is_opens_an_entry():
    """Stop 63 (train juan): `徴張里反王往況反` is 王 "to rule" (the text has it), not 王肅's reading of
    徴; so 孫音遜 (遜 "to yield"), 何胡可反 (荷 "to carry"), 范音犯 (the chariot's 范)."""
    for doc_id, note, prev, name, sound in (("KR1d0003_005", "易以豉反", "徴", "王", "往況反"),
                                            ("KR1d0053_036", "箧古協反孫音遜", "箧", "孫", "音遜"),
                                            ("KR1d0003_009", "牧牧養之牧", "牧", "何", "胡可反"),
                                            ("KR1d0053_035", "軌媿美反范音犯", "軌", "范", "音犯")):
        text, readings, targets = _note(doc_id, note)
        [before] = [r for r in readings if r.head == prev]
        [r] = [r for r in readings if r.head == name]
        assert sound not in [text[s.start:s.end] for s in before.sounds], (doc_id, name)
        assert text[r.sounds[0].start:r.sounds[0].end] == sound and _anchored(r, targets) == name, (doc_id, name)
    # a name before another reading stays the authority (徐音目, 劉音茂)
    text, readings, _ = _note("KR1d0003_009", "牧牧養之牧")
    assert readings[0].sounds[1].authority == ("徐",)


def test_x_zi_the_character_x_is_the_head():
    """Stop 63 (train juan): `下祝字之又反` ("the lower character 祝"), `樂樂下字音洛`, `縿字音所咸反` were read with
    the head 字, anchored nowhere; and `业此古丘字王于况反`: 王 "to rule" after the remark 「此古丘字」, whose 于况反
    went to 夫 before it."""
    text, readings, targets = _note("KR1d0053_004", "皆祝辭本或作皆祝祝辭也下祝字")
    [zhu] = [r for r in readings if text[r.sounds[0].start:r.sounds[0].end] == "之又反"]
    assert zhu.head == "祝" and _anchored(zhu, targets) == "祝"
    text, readings, targets = _note("KR1d0028_005", "樂樂下字音洛")
    [le] = [r for r in readings if text[r.sounds[0].start:r.sounds[0].end] == "音洛"]
    assert le.head == "樂" and targets[le.target].text[le.anchor_start - 1 : le.anchor_end] == "樂樂"
    assert "字" not in [r.head for r in readings]
    text, readings, targets = _note("KR1d0053_046", "禦魚吕反菑音哉")
    [wang] = [r for r in readings if r.head == "王"]
    assert text[wang.sounds[0].start:wang.sounds[0].end] == "于况反" and _anchored(wang, targets) == "王"
    [fu] = [r for r in readings if r.head == "夫"]
    assert [text[s.start:s.end] for s in fu.sounds] == ["音扶"]
    # the head printed with the word before it stays whole: 謂王 (the finder's own reading)
    text, readings, _ = _note("KR1d0053_054", "聿尹必反謂王于况反")
    assert [r.head for r in readings] == ["聿", "謂王"]
    # stop 68 (train juan 54): so at a note's start, after a remark with no reading — `道有至義依注讀為道有至有義王于况反`
    # is 王 of 「至道以王」, not a head 有至有義 that 王肅 reads 于况反
    text, readings, targets = _note("KR1d0053_054", "道有至義依注讀為")
    assert [(r.head, _anchored(r, targets)) for r in readings] == [("王", "王"), ("脫", "脱")]  # 脱 as the 注 prints it
    assert readings[0].sounds[0].authority == ()


def test_every_head_is_the_text_at_its_span():
    """A head's span in the note is where its text stands, whatever stands between it and its reading: a 及 between
    two authorities (`靡李及聶氏亡皮反`: the span was one character late, on 李), a remark and an alternative marker
    before an authority-less formula (stop 63; a seeded sample of random notes over the grammar's own words)."""
    [r] = parse_note("靡李及聶氏亡皮反")
    assert (r.head, r.head_start, r.sounds[0].authority) == ("靡", 0, ("李", "聶氏"))
    import random

    words = list("上下字王孫何范徐劉李同音反如也作本又亦一並注及與近之祝樂長殤好惡書義云家曰於況遜犯時掌")
    rng = random.Random(63)
    for _ in range(3000):
        note = "".join(rng.choice(words) for _ in range(rng.randint(1, 24)))
        for r in parse_note(note, ["長殤好惡王孫祝祝樂樂", "王何范孫注同上下"]):
            assert note[r.head_start : r.head_end] == r.head, (note, r)


def test_yi_between_two_readings_is_the_prints_you():
    """Stop 63 (train juan): `酳音引乂士刃反`, `蜺五兮反乂五歴反又五結反` — 乂 printed for 又 between two readings
    (an alternative of the head before), not a head 乂 anchored nowhere; a head 乂 with its remark stays a head."""
    for doc_id, note, head, sounds in (("KR1d0028_016", "酳音引乂士刃反", "酳", ["音引", "士刃反"]),
                                       ("KR1d0003_041", "卻羌畧反", "蜺", ["五兮反", "五歴反", "五結反"])):
        text, readings, _ = _note(doc_id, note)
        assert "乂" not in [r.head for r in readings]
        [r] = [r for r in readings if r.head == head]
        assert [text[s.start:s.end] for s in r.sounds] == sounds and r.sounds[1].authority == ("乂",)
    note = "創初亮反又初良反乂或又作艾魚廢反"
    chuang = parse_note(note)[0]
    assert [note[s.start:s.end] for s in chuang.sounds] == ["初亮反", "初良反"]  # 魚廢反 is not 創's


def test_yin_fei_the_reading_is_wrong_is_no_homophone():
    """Stop 63 (train juan): 音非 after 云 + a name, after 諸, or before 也 says a reading is wrong (`沈云劉音非`,
    `諸音非`, `以作無音非也`); they were readings of a head 云 / 諸 / 以. 扉音非 and 劉音非隱也 read 非."""
    for doc_id, note in (("KR1d0003_041", "卻羌畧反"), ("KR1d0053_001", "毋音無説文云止之")):
        text, readings, _ = _note(doc_id, note)
        assert not [r for r in readings if any(text[s.start:s.end] == "音非" for s in r.sounds)], doc_id
    [r] = parse_note("扉音非")
    assert r.sounds[0].homophone == "非"
    [r] = parse_note("厞扶未反劉音非隱也")  # KR1d0028_014: 劉's reading 非, then the gloss 隱也
    assert [(s.homophone, s.authority) for s in r.sounds] == [(None, ()), ("非", ("劉",))]


def test_a_long_list_of_where_else_ends_a_note_as_its_scope():
    # KR1d0053_033 (train): 爲于僞反下其妻爲母之爲妻禫爲庶母爲祖庶母皆同 — the list is where else 爲 is so read
    assert _note("KR1d0053_033", "爲于僞反下其妻")[1][-1].scope == "下其妻爲母之爲妻禫爲庶母爲祖庶母皆同"
    # KR1d0053_026: 下之種也同 (a 也 inside); KR1d0003_017: 後不音者同 ("later ones not read: the same")
    assert _note("KR1d0053_026", "種之勇反下之種也同")[1][-1].scope == "下之種也同"
    text, readings, _targets = _note("KR1d0003_017", "甸音電")
    assert readings[-1].scope == "後不音者同"
    # … and between two entries (KR1d0003_029: …陳直覲反下之陳可陳陳前狥陳行陳廵陳皆同餘以意求之蒐所留反)
    readings = _note("KR1d0003_029", "中音仲下放此陳直覲反")[1]
    assert [(r.head, r.scope) for r in readings[1:3]] == [("陳", "下之陳可陳陳前狥陳行陳廵陳皆同"), ("蒐", None)]
    # a variant remark at a note's end is no scope: 本又作稚同 (KR1d0053_009)
    assert [r.scope for r in _note("KR1d0053_009", next(k for k in _juan("KR1d0053_009") if k.endswith("本又作稚同")))[1]][-1] is None


def test_a_word_printed_with_the_ye_after_it_in_the_text_is_a_head():
    # KR1d0053_047 (train): …賔客也下客以逺同容也羊凶反 — 容 of the 注's 容也, read 羊凶反; not another reading of 漆
    text, readings, targets = _note("KR1d0053_047", "贛音貢濟子禮反下同漆依注音切")
    rong = next(r for r in readings if text[r.sounds[0].start : r.sounds[0].end] == "羊凶反")
    assert (rong.head, text[rong.head_start : rong.head_end], _anchored(rong, targets)) == ("容", "容", "容")
    # KR1d0053_021: …染如豔反又如琰反樂也音洛 — 樂 read 洛, not a third reading of 染
    text, readings, targets = _note("KR1d0053_021", "祝之六反徐之又反注同殽")
    ran = next(r for r in readings if r.head == "染")
    assert [text[s.start : s.end] for s in ran.sounds] == ["如豔反", "如琰反"]
    le = next(r for r in readings if r.head == "樂")
    assert [text[s.start : s.end] for s in le.sounds] == ["音洛"] and _anchored(le, targets) == "樂"


def _entries(text, readings):
    return [(r.head, [text[s.start : s.end] for s in r.sounds], r.scope) for r in readings]


def test_two_fanqie_at_once_hold_no_authority_or_marker():
    # KR1d0003_013 (train): 如比徐方二反 — 徐邈 reads 比 方二反, not two 反切 如比 and 徐方
    text, readings, _targets = _note("KR1d0003_013", next(k for k in _juan("KR1d0003_013") if "如比徐方二反" in k)[:6])
    assert ("如比", ["方二反"], None) in _entries(text, readings)
    # KR1d0003_041 (train): 肉柔又柔育二反 — two 反切 that share their upper character, 又 notwithstanding
    text, readings, _targets = _note("KR1d0003_041", next(k for k in _juan("KR1d0003_041") if "柔又柔育二反" in k)[:6])
    assert ("肉", ["柔又", "柔育二反"], "下同") in _entries(text, readings)


def test_a_scope_after_chu_zhu_or_throughout_the_chapter_is_kept():
    # KR1d0053_029 (train): 端音冕出注下諸侯𤣥端同朝直遙反篇内除下注朝之餘皆同闔胡獵反…
    text, readings, _targets = _note("KR1d0053_029", "端音冕出注")
    assert [(r.head, r.scope) for r in readings[:3]] == [
        ("端", "出注下諸侯𤣥端同"), ("朝", "篇内除下注朝之餘皆同"), ("闔", None)]


def test_xia_read_as_itself_after_a_reading_is_a_head():
    # KR1d0003_021 (train): 適丁厯反下遐嫁反 — the 經's 下 (則下其君之禮) read 遐嫁反, not a second reading of 適
    text, readings, targets = _note("KR1d0003_021", "適丁厯反下遐嫁反")
    xia = readings[1]
    assert _entries(text, readings)[:2] == [("適", ["丁厯反"], None), ("下", ["遐嫁反"], None)]
    assert _anchored(xia, targets) == "下" and targets[xia.target].text[xia.anchor_start - 1] == "則"
    # …but the head's next occurrence read otherwise stays the head's (樂音洛下音岳)
    text, readings, _targets = _note("KR1d0053_059", next(k for k in _juan("KR1d0053_059") if "樂音洛又音岳下戸嫁反" in k)[:6])
    assert ("樂", ["音洛", "音岳"], None) in _entries(text, readings) and ("下", ["戸嫁反"], None) in _entries(text, readings)


def test_an_editions_reading_and_a_commentators_name_open_no_entry():
    # KR1d0053_029 (train): 為于偽反本又如字 — an edition reads 為 如字; no head 本
    text, readings, _targets = _note("KR1d0053_029", "為于偽反本又如字")
    assert _entries(text, readings)[0] == ("為", ["于偽反", "如字"], None) and "本" not in [r.head for r in readings]
    assert readings[0].sounds[1].authority == ("本", "又")
    # KR1d0003_009 (train): 遺維季反注饋遺同司農音維 — 鄭司農's reading of 遺 after the scope, not a head 司農
    text, readings, _targets = _note("KR1d0003_009", next(k for k in _juan("KR1d0003_009") if "司農音維" in k)[:6])
    assert ("遺", ["維季反", "音維"], "注饋遺同") in _entries(text, readings)


def test_a_book_cited_for_its_reading_is_an_authority_not_a_head():
    # KR1d0053_053 (train): 載依注讀曰栽音災生也詩音再 — the 詩 reads 載 再: another reading of 載, no head 詩
    text, readings, _targets = _note("KR1d0053_053", next(k for k in _juan("KR1d0053_053") if "詩音再" in k)[:6])
    zai = next(r for r in readings if r.head == "載")
    assert [text[s.start : s.end] for s in zai.sounds] == ["音災", "音再"] and zai.sounds[1].authority == ("詩",)
    assert "詩" not in [r.head for r in readings]
    # KR1d0028_014 (儀禮注疏, where the stop-65 hand check found the class): 報禮記音芳付反下同 — 報 of the 注's 小記曰報葬者, not 記
    text, readings, targets = _note("KR1d0028_014", "報禮記音芳付反")
    assert (readings[0].head, _anchored(readings[0], targets), readings[0].sounds[0].authority) == ("報", "報", ("禮記",))


def test_scopes_opened_by_fan_or_ending_tong_ci_yin_or_ten_characters_long():
    # KR1d0003_003 (train, read whole at stop 65): 㑹古外反凡要會㑹計之字皆放此卒子忽反 — "wherever 要會 / 會計: the same"
    text, readings, _targets = _note("KR1d0003_003", "政鄭音征")
    assert ("㑹", ["古外反"], "凡要會㑹計之字皆放此") in _entries(text, readings)
    # 治直吏反注及下之治贊治官掌其治皆同朝直遥反 — a list of ten characters before 皆同
    text, readings, _targets = _note("KR1d0003_003", "治直吏反注及下")
    assert _entries(text, readings)[0] == ("治", ["直吏反"], "注及下之治贊治官掌其治皆同")
    # 積子賜反此二字相連皆同此音飲鄭徐於鴆反 — "…the same, this reading"; then the head 飲, read by 鄭 and 徐 (no head 此, 音飲)
    text, readings, targets = _note("KR1d0003_003", "委於偽反積子賜反")
    got = _entries(text, readings)
    assert got[1] == ("積", ["子賜反"], "此二字相連皆同此音") and got[2] == ("飲", ["於鴆反"], "注同")
    assert readings[2].sounds[0].authority == ("鄭", "徐") and _anchored(readings[2], targets) == "飲"


def test_a_head_printed_in_four_characters_is_read_whole():
    # KR1d0053_029 (train, read whole at stop 65): 深衣三袪起魚反 — the head as printed, not its last three (衣三袪)
    text, readings, targets = _note("KR1d0053_029", "朝直遙反深衣三袪起魚反")
    assert _entries(text, readings)[1] == ("深衣三袪", ["起魚反"], None) and _anchored(readings[1], targets) == "深衣三袪"
    # KR1d0053_004 (train): 使音史射市夜反則辭以疾如字 — 則辭以疾, not 辭以疾
    text, readings, _targets = _note("KR1d0053_004", "使音史射市夜反則辭以疾如字")
    assert _entries(text, readings)[2][:2] == ("則辭以疾", ["如字"])
    # …while four characters before another authority's reading that anchor nowhere are still a gloss of the head before
    # (KR1d0003_033, train: 汧徐口千反劉苦見友李一音空定反 — 「劉苦見友」, the print's 友 for 反, is no head)
    text, readings, _targets = _note("KR1d0003_033", next(k for k in _juan("KR1d0003_033") if "汧徐口千反" in k)[:5])
    assert [r.head for r in readings if r.head_start >= text.index("汧")][:1] == ["汧"] and "友" not in [r.head for r in readings]


def test_an_old_edition_and_a_variant_after_yi_ben():
    # KR1d0053_005 (train, read whole at stop 66): 榛側巾反字林云仕巾反木叢也古本又作亲音壯巾反 — the old edition (古本) writes 亲
    # and reads it 壯巾反: another reading of 榛, not a head 古
    text, readings, _targets = _note("KR1d0053_005", "椇俱羽反榛側巾反")
    assert _entries(text, readings)[1] == ("榛", ["側巾反", "仕巾反", "音壯巾反"], None)
    assert "古" not in [r.head for r in readings]
    # 牷音全一本作純 — the glossed 注 prints the edition's 純: the head anchors there
    text, readings, targets = _note("KR1d0053_005", "索所百反注同求也牷音全")
    assert [(r.head, _anchored(r, targets)) for r in readings][1] == ("牷", "純")


def test_some_say_then_and_a_chapter_scope():
    """Stop 68, a whole train juan read by hand (周禮注疏 juan 36): `夫方符反或云司農音符` is another reading of 夫 ("some say
    司農 reads 符"), not a head 云 anchored on the 注's 鄭司農云; `…案如杜義則音姑` ("by 杜子春's sense, then read 姑") a reading
    of 橭, not of a head 則; and `聒古活反銜枚氏放此` ends with where else the reading holds (the chapter 銜枚氏)."""
    text, readings, targets = _note("KR1d0003_036", "夫方符反")
    fu = readings[0]
    assert (fu.head, [text[s.start:s.end] for s in fu.sounds]) == ("夫", ["方符反", "音符"])
    assert fu.sounds[1].authority == ("或云", "司農") and "云" not in [r.head for r in readings]
    assert _anchored(readings[1], targets) == "齍" and targets[readings[1].target].kind == "base"
    text, readings, targets = _note("KR1d0003_036", "橭劉音沽")
    assert [(r.head, len(r.sounds)) for r in readings] == [("橭", 3), ("梓", 1), ("樗", 1)]
    assert text[readings[0].sounds[2].start:readings[0].sounds[2].end] == "音姑"
    text, readings, _ = _note("KR1d0003_036", "去起吕反注去之同")
    assert (readings[-1].head, readings[-1].scope) == ("聒", "銜枚氏放此")
    # the character before 則 where a remark precedes (`一本作治國之要治則如字`, KR1d0053_052, train); 則 printed as the head
    # stays (`則君則音明`: 則 of the 經's 則君, KR1d0053_022, train)
    text, readings, targets = _note("KR1d0053_052", "示依注音寘")
    assert (readings[-1].head, _anchored(readings[-1], targets)) == ("治", "治")
    text, readings, targets = _note("KR1d0053_022", "則君則音明")
    assert (readings[0].head, _anchored(readings[0], targets)) == ("則", "則")


def test_remarks_between_readings_are_no_heads():
    """Stop 68, a second whole train juan read by hand (禮記註疏 juan 55, 緇衣), one note: `清舊才性反一云此詩協韻宜如字上先正當
    音征…勞力報反注勞來同詩依字讀長丁丈反` — 「一云…宜如字」 is another reading of 清 (not a head 宜), 「上先正當音征」 reads 先正
    (當 "should be read", not a head 當), and 長 after the remark 「詩依字讀」 is a head (its 丁丈反 went to 勞, read by 詩)."""
    text, readings, targets = _note("KR1d0053_055", "昔吾有先正")
    got = {r.head: [text[s.start:s.end] for s in r.sounds] for r in readings}
    assert got["清"] == ["才性反", "如字"] and got["先正"] == ["音征"] and got["勞"] == ["力報反"]
    assert got["長"] == ["丁丈反"] and "宜" not in got and "當" not in got
    # 出注 "as the 注 has it" before the 反切 of the same head (`吉音誥出注羔報反`, the same juan)
    text, readings, _ = _note("KR1d0053_055", "吉音誥出注")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings[:2]] == [
        ("吉", ["音誥", "羔報反"]), ("天", ["音先", "西田反"])]
    # 當 the word keeps its own reading (`迕違也當丁浪反`, KR1d0053_050); after a gloss, "should be read" is said of the head
    # before (`箈音迨…司農云水中魚衣也當徒来反`, KR1d0003_006, train)
    text, readings, _ = _note("KR1d0053_050", "好呼報反厭於豔反")
    assert "當" in [r.head for r in readings]
    text, readings, _ = _note("KR1d0003_006", "芹音勤")
    [tai] = [r for r in readings if r.head == "箈"]
    assert [text[s.start:s.end] for s in tai.sounds] == ["音迨", "徒来反"]


def test_a_name_read_as_its_word_after_ruzi():
    """Stop 68 (禮記註疏 juan 55, train): `赫許百反王如字徐于況反` — 王 of the 經's 成王之孚, 如字 and by 徐 于況反 ("to rule"),
    not 王肅 reading 赫 如字; `犧尊鄭素何反王如字` (KR1d0053_023, train) stays 王肅's 如字 of 犧尊."""
    text, readings, targets = _note("KR1d0053_055", "赫許百反")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings] == [
        ("赫", ["許百反"]), ("王", ["如字", "于況反"])]
    assert _anchored(readings[1], targets) == "王"
    text, readings, _ = _note("KR1d0053_023", "琢字又作瑑")
    [xi] = [r for r in readings if r.head == "犧尊"]
    assert [(text[s.start:s.end], s.authority) for s in xi.sounds] == [("素何反", ("鄭",)), ("如字", ("王",))]


def test_upper_and_lower_of_a_word_of_three_that_repeats_a_character():
    """Stop 68 (禮記註疏 juan 55, train): `衣緇衣上於既反下如字` — 衣 "to wear" (於既反) and 衣 "robe" (如字), the first and
    last character of 衣緇衣; 緇 was read 於既反. So `數榖數上所主反下所具反` (KR1d0003_020, dev: listed, not read for the rule)."""
    text, readings, targets = _note("KR1d0053_055", "好呼報反注同緇")
    yi = [r for r in readings if text[r.sounds[0].start:r.sounds[0].end] in ("於既反",)]
    [upper] = yi
    assert upper.head == "衣" and targets[upper.target].text[upper.anchor_start:upper.anchor_start + 3] == "衣緇衣"
    [lower] = [r for r in readings if r.head_start == upper.head_start + 2]
    assert lower.head == "衣" and lower.anchor_start == upper.anchor_start + 2
    # the repeat first (`先先柩上如字下西見反後後柩上如字下户豆反`, 儀禮注疏 juan 13, train, read whole at stop 68): the two 先
    # of the 注's 先先柩, not 柩, and not the 經's 先 before it
    text, readings, targets = _note("KR1d0028_013", "先先柩上如字")
    assert [(r.head, text[r.sounds[0].start:r.sounds[0].end], targets[r.target].text[r.anchor_start:r.anchor_start + 3])
            for r in readings] == [("先", "如字", "先先柩"), ("先", "西見反", "先柩者"), ("後", "如字", "後後柩"),
                                   ("後", "户豆反", "後柩者")]


def test_the_prints_ze_for_the_fan_of_a_fanqie():
    """Stop 68 (儀禮注疏 juan 13, train, read whole): `幠火吾仄去起呂反` — 幠 read 火吾反, the print's 仄 for 反 (7 such in the
    three books); 幠 had no reading. 仄 itself as a head stays (`…劉去逆反仄音側`, KR1d0003_041, train)."""
    text, readings, targets = _note("KR1d0028_013", "幠火吾仄")
    assert [(r.head, text[r.sounds[0].start:r.sounds[0].end]) for r in readings] == [("幠", "火吾仄"), ("去", "起呂反")]
    assert (readings[0].sounds[0].upper, readings[0].sounds[0].lower) == ("火", "吾") and _anchored(readings[0], targets) == "幠"
    text, readings, _ = _note("KR1d0003_041", "卻羌畧反")
    assert ("仄", "音側") in [(r.head, text[r.sounds[0].start:r.sounds[0].end]) for r in readings]


def test_phrases_about_a_reading_are_no_formulas():
    """Stop 68 (周禮注疏 juan 33, train, read whole): `…劉昨雖反云與音大不同` ("劉 says: it differs much from the reading") has
    no homophone 大 and no head 與; `政音征本亦作政音下同` no second reading 音下; and after `今依書讀` ("now read as the 書 has
    it") 睢 is the head of `睢音綏` (the remark took it, and 今 was read)."""
    text, readings, _ = _note("KR1d0003_033", "華如字劉胡化反")
    assert "與" not in [r.head for r in readings]
    text, readings, _ = _note("KR1d0003_033", "政音征")
    assert [text[s.start:s.end] for s in readings[0].sounds] == ["音征"]
    text, readings, targets = _note("KR1d0003_033", "沂魚祈反")
    [sui] = [r for r in readings if text[r.sounds[0].start:r.sounds[0].end] == "音綏"]
    assert (sui.head, _anchored(sui, targets)) == ("睢", "睢")


def test_a_name_standing_right_after_the_head_before_is_a_head():
    """Stop 68 (周禮注疏 juan 33, train, read whole): `泲子禮反盧音雷` — 盧 of the 經's 「其川河泲其浸盧維」 read 雷, not 盧植's
    reading of 泲; so `貍亡皆反劉莫拜反沈如字劉直蔭反` (貍沈, KR1d0003_018, train). 又 stays an alternative's marker, and a name
    the text does not have next stays its authority (`犧尊鄭素何反王如字`)."""
    text, readings, targets = _note("KR1d0003_033", "野如字劉音與")
    got = [(r.head, [text[s.start:s.end] for s in r.sounds], _anchored(r, targets)) for r in readings[:3]]
    assert got == [("野", ["如字", "音與"], "野"), ("泲", ["子禮反"], "泲"), ("盧", ["音雷"], "盧")]
    text, readings, targets = _note("KR1d0003_018", "貍亡皆反")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings[:2]] == [
        ("貍", ["亡皆反", "莫拜反"]), ("沈", ["如字", "直蔭反"])]
    # a name that ends the head, before 並 (`蒲盧並如字`: the 經's 蒲盧, "both" 如字 — 禮記註疏 juan 52, train, read whole)
    text, readings, targets = _note("KR1d0053_052", "蒲盧並如字")
    assert (readings[0].head, _anchored(readings[0], targets), readings[0].sounds[0].authority) == ("蒲盧", "蒲盧", ("並",))
    # 或一讀 "some read (it) otherwise" is another reading of the head before (`行行皆下孟反注聖人之行同或一讀皆如字`, the same juan)
    text, readings, _ = _note("KR1d0053_052", "行行皆下孟反")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings] == [("行行", ["下孟反", "如字"])]
    text, readings, _ = _note("KR1d0053_026", "笠音立使使")
    [cuo] = [r for r in readings if r.head == "撮"]
    assert [text[s.start:s.end] for s in cuo.sounds][:2] == ["七活反", "七括反"]


def test_another_whole_juan_notes_in_the_zhu_a_sentence_end_a_variant_of_the_lower():
    """Stop 68, 禮記註疏 juan 28 (内則, train) read whole: `和户卧反注皆同注又如字` — "in the 注 also 如字", a reading of 和 (a head
    注 before); `烝皇絶句之丞反` — 皇侃 ends the sentence at 烝, which reads 之丞反 (a head 句 before); `魄莫上普伯反或普博反下亦作膜
    武博反` — the lower 莫 (also printed 膜) reads 武博反 (it went to 魄); `閒徐閒厠之閒` — 徐's 閒厠之閒 (the formula took 徐 in)."""
    text, readings, _ = _note("KR1d0053_028", "和户卧反注皆同")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings][:2] == [("和", ["户卧反", "如字"]), ("醯", ["呼兮反"])]
    text, readings, targets = _note("KR1d0053_028", "魴鱮上音房")
    [zheng] = [r for r in readings if text[r.sounds[0].start:r.sounds[0].end] == "之丞反"]
    assert (zheng.head, _anchored(zheng, targets), zheng.sounds[0].authority) == ("烝", "烝", ("皇",))
    text, readings, targets = _note("KR1d0053_028", "炮歩交反")
    [po] = [r for r in readings if r.head == "魄"]
    [mo] = [r for r in readings if r.head == "莫"]
    assert [text[s.start:s.end] for s in po.sounds] == ["普伯反", "普博反"] and [text[s.start:s.end] for s in mo.sounds] == ["武博反"]
    assert mo.anchor_start == po.anchor_start + 1
    text, readings, _ = _note("KR1d0053_028", "閒徐閒厠之閒")
    assert [(text[s.start:s.end], s.authority) for s in readings[0].sounds] == [("閒厠之閒", ("徐",)), ("如字", ("皇",))]


def test_a_name_with_an_editions_also_written_is_a_word_of_the_text():
    """Stop 68 (禮記註疏 juan 28, train, read whole): `…先丁反聶本又作攝又作䐑皆之渉反下同` — 聶 of the 注's 「聶而切之」 ("some
    editions also write 攝, 䐑"), read 之渉反; it was 聶氏, and 之渉反 went to 腥. An edition's own reading stays an alternative
    (`洗悉禮反劉本作淬七對反`: 劉's edition, no 又 / 亦 / 或)."""
    text, readings, targets = _note("KR1d0053_028", "腥音星字林作胜")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds], _anchored(r, targets)) for r in readings] == [
        ("腥", ["音星", "先丁反"], "腥"), ("聶", ["之渉反"], "聶")]
    text, readings, _ = _note("KR1d0028_013", "供九用反")
    [xi] = [r for r in readings if r.head == "洗"]
    assert [text[s.start:s.end] for s in xi.sounds] == ["悉禮反", "七對反"]


def test_yi_zuo_by_its_sense_is_no_head():
    # KR1d0053_022#48, KR1d0003_039#53 (train; stop 69's whole juan 39): `竭義作揭其列反` "竭, by its sense written 揭, 其列反" and
    # `爍徐劉余灼反義當作鑠始灼反` — 義 "by its sense" was read as a head (unanchored); the head is 竭, and 爍 (with 始灼反)
    text, readings, targets = _note("KR1d0053_022", "迭大計反又田結反竭義作揭其列反")
    [r] = [r for r in readings if text[r.head_start] in "竭義"]
    assert (r.head, _anchored(r, targets), [text[s.start:s.end] for s in r.sounds]) == ("竭", "竭", ["其列反"])
    text, readings, targets = _note("KR1d0003_039", "爍徐劉余灼反義當作鑠始灼反")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds]) for r in readings] == [("爍", ["余灼反", "始灼反"])]


def test_a_name_following_another_after_an_editions_form_is_no_head():
    # KR1d0003_039#162, KR1d0003_015#20 (train; stop 69's whole juan 39): `稹之忍反本又作稹劉依司農音奠一音眞` — 劉, following
    # 司農, reads 稹 奠; `絘音次夲或作次總劉依杜音儳鄭音惣` — the edition's 次, then the head 總 that 劉 (after 杜子春) and 鄭 read
    text, readings, targets = _note("KR1d0003_039", "稹之忍反本又作稹劉依司農音奠")
    assert [(r.head, [(text[s.start:s.end], s.authority) for s in r.sounds]) for r in readings[:1]] == [
        ("稹", [("之忍反", ()), ("音奠", ("劉",)), ("音眞", ("一",))])]
    text, readings, targets = _note("KR1d0003_015", "絘音次夲或作次總劉依杜音儳")
    assert [(r.head, _anchored(r, targets)) for r in readings[:2]] == [("絘", "絘"), ("總", "總")]


def test_the_same_throughout_the_juan_is_a_scope():
    # KR1d0003_039#173 (train; stop 69's whole juan 39): `令力呈反卷内皆同厚胡豆反後放此` — 卷内皆同 "the same throughout the juan" is
    # 令's scope, as 篇内同 is (it was dropped)
    text, readings, targets = _note("KR1d0003_039", "令力呈反卷内皆同")
    assert [(r.head, r.scope) for r in readings] == [("令", "卷内皆同"), ("厚", "後放此")]


def test_the_prints_yi_for_you_and_the_yupian_with_zheng_zhong_are_no_heads():
    # KR1d0053_041#106 (train; stop 70's whole juan 41): `縞古老反义古報反注同` — the print's 义 for 又, as its 乂: another reading
    # of 縞, no head 义
    text, readings, targets = _note("KR1d0053_041", "縞古老反义古報反注同")
    assert [(r.head, [text[s.start:s.end] for s in r.sounds], r.scope) for r in readings[:1]] == [
        ("縞", ["古老反", "古報反"], "注同")]
    # KR1d0053_041#144: `㧁字林戸臘反閉也纂文云古闔字玉篇羌據公答二反` — the 玉篇's two readings of 㧁, no head 篇
    text, readings, targets = _note("KR1d0053_041", "帷位悲反下同肂以二反")
    assert [r.head for r in readings] == ["帷", "肂", "㧁"] and len(readings[2].sounds) == 3
    # KR1d0003_039#151 (train; stop 69's whole juan): `綆依注音餅李必善反又姑杏反玉篇云鄭衆音補管反` — 鄭衆 as the 玉篇 cites him
    text, readings, targets = _note("KR1d0003_039", "綆依注音餅李必善反又姑杏反")
    assert readings[0].head == "綆" and [text[s.start:s.end] for s in readings[0].sounds][-1] == "音補管反"
    assert "衆" not in [r.head for r in readings]


def test_so_in_the_rest_of_the_juan_is_a_scope():
    # KR1d0003_028#13 (train; stop 70's whole juan 28): `卒長丁丈反卷内不出者放此` "so in the rest of the juan where it is not
    # noted" is 卒長's scope, as 卷内皆同 is (stop 69); it was dropped
    text, readings, targets = _note("KR1d0003_028", "軍將子匠反")
    assert [(r.head, r.scope) for r in readings if r.head == "卒長"] == [("卒長", "卷内不出者放此")]
