"""Every `zhushu eval` validates its gold file: FILE:LINE errors, exit 2, and no score from an
empty selection (issue 12). Records are cut from juan 1 (train) of data/punct."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pipeline import paths
from pipeline.cli import main

with open(paths.PUNCT_FILE, encoding="utf-8") as fh:
    BASE, NOTE = next((a, b) for a, b in (map(json.loads, pair) for pair in zip(fh, fh))
                      if a["id"].startswith("KR1d0030_001") and a["kind"] == "base" and b["kind"] == "note")


def gloss_record(**gloss) -> str:
    g = {"lemma": BASE["text"][:2], "start": 0, "end": 2, "type": "definition", **gloss}
    g = {k: v for k, v in g.items() if v != "DROP"}
    return json.dumps({"id": NOTE["id"], "base": BASE["text"], "note": NOTE["text"], "glosses": [g]}, ensure_ascii=False)


def run_eval(tmp_path, kind: str, lines: list[str], *extra: str):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return gold, CliRunner().invoke(main, ["eval", kind, "--gold", str(gold), "--json", *extra])


@pytest.mark.parametrize("bad,message", [
    (gloss_record(start="DROP"), "has no 'start'"),
    (gloss_record(start=0, end=999), "outside the base text"),
    (gloss_record(start=None), "both be null"),
    (gloss_record(type="synonym"), "unknown type"),
])
def test_a_bad_gloss_is_named_by_file_and_line(tmp_path, bad, message):
    gold, result = run_eval(tmp_path, "glosses", [gloss_record(), bad])
    assert result.exit_code == 2 and f"{gold}:2: " in result.output and message in result.output, result.output


@pytest.mark.parametrize("kind", ["glosses", "entities", "segment"])
def test_an_empty_gold_file_is_refused(tmp_path, kind):
    gold, result = run_eval(tmp_path, kind, [])
    assert result.exit_code == 2 and str(gold) in result.output, result.output


def test_a_mistyped_split_is_refused(tmp_path):
    record = json.dumps({**BASE, "split": "train"}, ensure_ascii=False)
    gold, result = run_eval(tmp_path, "segment", [record], "--split", "deev")
    assert result.exit_code == 2 and "no records" in result.output and "'deev'" in result.output, result.output


def test_a_good_gold_file_is_scored(tmp_path):
    _gold, result = run_eval(tmp_path, "glosses", [gloss_record()])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["records"] == 1



def test_gloss_precision_is_reported_by_confidence_band():
    """What a user keeping only the glosses above a confidence gets: each anchored system span in
    the band of its most confident gloss, right when gold has the span (a train block of the 集釋,
    its first two base characters as the gold lemma)."""
    from pipeline.evaluate.glosses import score
    from pipeline.model import Gloss

    rec = json.loads(gloss_record())

    def gloss(start, end, conf):
        return Gloss(0, 2, NOTE["text"][:2], "definition", BASE["text"][start:end], 0, start, end, confidence=conf)

    # the gold span twice (0.93, 0.42: counted once, in the 0.9 band), another at 0.42 (wrong), one unanchored
    system = [gloss(0, 2, 0.93), gloss(0, 2, 0.42), gloss(2, 3, 0.42),
              Gloss(0, 2, NOTE["text"][:2], "definition", "?", 0, None, None, confidence=0.2)]
    out = score([rec], [system])
    assert out["lemma"]["tp"] == 1 and out["lemma"]["system"] == 2
    assert out["by_confidence"] == {"0.4-0.5": {"predicted": 1, "precision": 0.0},
                                    "0.9-1.0": {"predicted": 1, "precision": 1.0}}
    assert "by_confidence" not in score([rec], [rec["glosses"]])  # gold-format glosses carry no confidence
