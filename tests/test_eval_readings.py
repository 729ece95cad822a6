"""`zhushu eval readings`: the scorer on a gold record written by hand from a train juan
(KR1d0053_022, 禮運, the 音義 note 惡烏路反…弟弟上如字下音悌…爭爭鬬之爭 and the 經 it follows),
the checks of a gold file, and the shipped dev gold's shape (its scores are measured in
docs/readings.md, not asserted here)."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from pipeline import paths
from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.evaluate.readings import evaluate, read_gold
from pipeline.ingest import read_document

NOTE = "惡烏路反下皆同弟弟上如字下音悌長竹丈反爭爭鬬之爭"


def _record() -> dict:
    doc = read_document(paths.DATA / "corpus" / "KR1d0053" / "KR1d0053_022.txt")
    [unit] = [u for u in doc.units if u.marker == "音義" and u.text == NOTE]
    base = doc.units[unit.seq - 2]  # the 經 何謂人情…; then its 注 極言人事
    assert base.kind == "base" and "兄良弟弟" in base.text
    text = base.text

    def reading(head, at, anchor, sounds, scope=None):
        return {"head": head, "head_start": at, "head_end": at + len(head),
                "anchor": {"seq": base.seq, "start": anchor, "end": anchor + len(head)},
                "sounds": [dict(dict.fromkeys(("upper", "lower", "homophone", "authority")), **s) for s in sounds],
                "scope": scope}

    return {"id": f"KR1d0053_022#{unit.seq}", "note": NOTE,
            "targets": [{"seq": u.seq, "kind": u.kind, "text": u.text} for u in doc.units[unit.seq - 2 : unit.seq]],
            "readings": [
                reading("惡", 0, text.index("愛惡") + 1, [{"kind": "fanqie", "text": "烏路反", "upper": "烏", "lower": "路"}], "下皆同"),
                reading("弟", 7, text.index("弟弟"), [{"kind": "ruzi", "text": "如字"}]),
                reading("弟", 8, text.index("弟弟") + 1, [{"kind": "homophone", "text": "音悌", "homophone": "悌"}]),
                reading("長", 15, text.index("長惠"), [{"kind": "fanqie", "text": "竹丈反", "upper": "竹", "lower": "丈"}]),
                reading("爭", 19, text.index("爭奪"), [{"kind": "word", "text": "爭鬬之爭"}]),
            ]}


def _write(tmp_path, records) -> str:
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_right_parse_scores_one_and_each_kind_of_error_lowers_its_own_measure(tmp_path):
    rec = _record()
    res = evaluate(_write(tmp_path, [rec]))
    assert (res["head_accuracy"], res["anchor_accuracy"], res["parse_accuracy"], res["head_precision"]) == (1.0, 1.0, 1.0, 1.0)

    wrong_anchor = copy.deepcopy(rec)
    wrong_anchor["readings"][2]["anchor"]["start"] -= 1  # the second 弟 put on the first
    wrong_anchor["readings"][2]["anchor"]["end"] -= 1
    res = evaluate(_write(tmp_path, [wrong_anchor]))
    assert (res["head_accuracy"], res["anchor_accuracy"], res["parse_accuracy"]) == (1.0, 0.8, 1.0)

    wrong_parse = copy.deepcopy(rec)
    wrong_parse["readings"][0]["scope"] = None
    wrong_parse["readings"][3]["sounds"][0]["authority"] = "徐"
    res = evaluate(_write(tmp_path, [wrong_parse]))
    assert (res["head_accuracy"], res["anchor_accuracy"], res["parse_accuracy"]) == (1.0, 1.0, 0.6)

    missing = copy.deepcopy(rec)
    del missing["readings"][4]  # the parser's 爭 is then a head the gold does not have
    res = evaluate(_write(tmp_path, [missing]))
    assert res["head_accuracy"] == 1.0 and res["head_precision"] == 0.8 and res["by_book"]["KR1d0053"]["readings"] == 4


def test_a_head_the_parser_misses_counts_against_head_anchor_and_parse(tmp_path):
    rec = _record()
    moved = copy.deepcopy(rec)
    moved["readings"][1].update(head="弟弟", head_end=9)  # a gold head the parser does not give
    moved["readings"][1]["anchor"]["end"] += 1
    res = evaluate(_write(tmp_path, [moved]))
    assert res["counts"] == {"head": 4, "anchor": 4, "parse": 4} and res["head_accuracy"] == 0.8


def test_bad_gold_is_refused_with_its_line(tmp_path):
    rec = _record()
    bad = copy.deepcopy(rec)
    bad["readings"][1]["head_start"] = 3  # the note has 烏 there, not 弟
    path = _write(tmp_path, [rec, bad])
    with pytest.raises(InputError, match=r"gold\.jsonl:2: reading 1: head '弟' is not the note's text"):
        read_gold(path)
    result = CliRunner().invoke(main, ["eval", "readings", "--gold", path, "--json"])
    assert result.exit_code == 2 and "gold.jsonl:2:" in result.output


def test_cli_prints_one_json_object(tmp_path):
    result = CliRunner().invoke(main, ["eval", "readings", "--gold", _write(tmp_path, [_record()]), "--json"])
    assert result.exit_code == 0, result.output
    res = json.loads(result.output)
    assert {"head_accuracy", "anchor_accuracy", "parse_accuracy", "head_precision", "by_book"} <= set(res)


def test_the_dev_gold_is_valid_and_from_dev_juan_only():
    recs = read_gold(paths.GOLD / "readings.dev.jsonl")
    assert sum(len(r["readings"]) for r in recs) >= 100
    assert all(int(r["id"].split("#")[0].split("_")[1]) % 10 == 0 for r in recs)
    assert all(r["id"].split("#")[0] in paths.DEV_DOCS for r in recs)
