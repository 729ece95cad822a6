"""What the side-by-side segmentation benchmarks share: the records, a timed and scored run of
one system, and the summary table. Used by segment_vs_udkanbun.py and segment_stanza.py."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment.data import read_records  # noqa: E402

Predict = Callable[[list[str], list[str]], list[dict[int, str]]]


def scored_records(gold: str, split: str | None) -> list[dict]:
    return [r for r in read_records(gold, split=split or None) if r["text"]]


def timed_score(records: list[dict], predict: Predict, warm_up: bool = True) -> dict:
    """The guideline's scores for `predict` over all records, plus chars/s of the scored call
    (after a warm-up call on a few units, so that lazy loading is not timed)."""
    texts, kinds = [r["text"] for r in records], [r["kind"] for r in records]
    if warm_up:
        predict(texts[:8], kinds[:8])
    t0 = time.perf_counter()
    pred = predict(texts, kinds)
    dt = time.perf_counter() - t0
    return dict(score(records, pred), chars_per_second=round(sum(map(len, texts)) / dt, 1))


def zhushu_predict() -> Predict:
    from pipeline.segment import load_segmenter

    return load_segmenter(threads=1).predict


def summary_row(result: dict) -> dict:
    if "error" in result:
        return result
    by_kind = result["by_kind"]
    return {"seg_f1": result["seg"]["f1"], "punct_f1": result["punct"]["f1"], "sentence_f1": result["sentence"]["f1"],
            "seg_f1_base": by_kind.get("base", {}).get("seg", {}).get("f1"),
            "seg_f1_note": by_kind.get("note", {}).get("seg", {}).get("f1"),
            "chars_per_second": result["chars_per_second"]}


def print_table(summary: dict, systems: list[str]) -> None:
    print(f"{'system':10s} {'seg F1':>7s} {'base':>7s} {'note':>7s} {'punct':>7s} {'sent':>7s} {'chars/s':>10s}")
    for name in systems:
        s = summary[name]
        if "error" in s:
            print(f"{name:10s} {s['error']}")
            continue
        print(f"{name:10s} {s['seg_f1']:7.4f} {s['seg_f1_base']:7.4f} {s['seg_f1_note']:7.4f} "
              f"{s['punct_f1']:7.4f} {s['sentence_f1']:7.4f} {s['chars_per_second']:10.0f}")
