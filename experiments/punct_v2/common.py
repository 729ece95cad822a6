"""Shared helpers of the punctuation-v2 experiments (not part of the package)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.evaluate.segment import evaluate_segment
from pipeline.segment.bilstm import NeuralSegmenter

__all__ = ["DEV", "ROOT", "NeuralSegmenter", "dev_table", "evaluate_segment", "short"]

DEV = {"jishi": ROOT / "data/punct/KR1d0030.punct.jsonl",
       "zhouli": ROOT / "data/punct/KR1d0003.punct.jsonl",
       "liji": ROOT / "data/punct/KR1d0053.punct.jsonl"}


def dev_table(seg, name: str, out: Path | None = None) -> dict:
    """Dev scores of one model on the three books: seg F1 by kind / marker, sentence, punct, chars/s."""
    torch.set_num_threads(1)
    row = {"model": name}
    for book, path in DEV.items():
        r = evaluate_segment(path, seg, split="dev")
        row[book] = {"seg": r["seg"]["f1"], "punct": r["punct"]["f1"], "sentence": r["sentence"]["f1"],
                     "chars_per_second": r["chars_per_second"],
                     "by_kind": {k: v["seg"]["f1"] for k, v in r["by_kind"].items()},
                     "by_marker": {k: v["seg"]["f1"] for k, v in r.get("by_marker", {}).items()},
                     "sentence_by_marker": {k: v["sentence"]["f1"] for k, v in r.get("by_marker", {}).items()}}
    if out:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return row


def short(row: dict) -> str:
    j, z, l = row["jishi"], row["zhouli"], row["liji"]
    bm = lambda r: " ".join(f"{k}:{v:.3f}" for k, v in r["by_marker"].items())
    return (f"{row['model']}: 集釋 base {j['by_kind'].get('base', 0):.3f} note {j['by_kind'].get('note', 0):.3f} "
            f"sent {j['sentence']:.3f} punct {j['punct']:.3f} {j['chars_per_second']:.0f}c/s | 周禮 {bm(z)} sent {z['sentence']:.3f}"
            f" | 禮記 {bm(l)} sent {l['sentence']:.3f}")
