"""音義 notes into readings. The notes are real: KR1d0003_001.txt (周禮注疏 juan 1, train)
lines 54–55 and 157, and the fixture tests/fixtures/zhushu/KR1d0053_001.txt (禮記註疏 juan 1,
train, lines 1–104)."""

from __future__ import annotations

from pathlib import Path

from pipeline.ingest import read_document
from pipeline.align.readings import document_readings, parse_note

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
