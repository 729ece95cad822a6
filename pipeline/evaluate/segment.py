"""`zhushu eval segment`: score the segmenter against gold punctuation.

Implements ../shared/guidelines/segmentation.md: the project's segmenter runs on each record's
text (one unit at a time, with its kind); positions 1 .. n-1 are compared (the unit end k = n
is never scored); micro-averaged over all records:

- seg      — a break at k, whatever the mark;
- punct    — a break at k with exactly the gold mark;
- sentence — breaks whose mark is sentence-final (。？！), in gold and in prediction.
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.errors import InputError
from pipeline.evaluate.common import prf
from pipeline.model import SENTENCE_FINAL

METRICS = ("seg", "punct", "sentence")


class _Counts:
    def __init__(self):
        self.c = {m: [0, 0, 0] for m in METRICS}  # tp, pred, gold

    def add(self, n: int, gold: dict[int, str], pred: dict[int, str]) -> None:
        g = {k: v for k, v in gold.items() if 0 < k < n}
        p = {k: v for k, v in pred.items() if 0 < k < n}
        c = self.c
        c["seg"][0] += len(g.keys() & p.keys())
        c["seg"][1] += len(p)
        c["seg"][2] += len(g)
        c["punct"][0] += sum(1 for k, v in p.items() if g.get(k) == v)
        c["punct"][1] += len(p)
        c["punct"][2] += len(g)
        gs = {k for k, v in g.items() if v in SENTENCE_FINAL}
        ps = {k for k, v in p.items() if v in SENTENCE_FINAL}
        c["sentence"][0] += len(gs & ps)
        c["sentence"][1] += len(ps)
        c["sentence"][2] += len(gs)

    def result(self) -> dict:
        return {m: prf(*self.c[m]) for m in METRICS}


def score(records: list[dict], predictions: list[dict[int, str]]) -> dict:
    """Score predictions (one marks dict per record) against the records' gold marks."""
    total, by_kind = _Counts(), {}
    chars = 0
    for rec, pred in zip(records, predictions, strict=True):
        n = len(rec["text"])
        gold = {int(k): v for k, v in rec["marks"].items()}
        pred = {int(k): v for k, v in pred.items()}
        total.add(n, gold, pred)
        by_kind.setdefault(rec.get("kind", "base"), _Counts()).add(n, gold, pred)
        chars += n
    out = {"records": len(records), "chars": chars}
    out.update(total.result())
    out["by_kind"] = {k: by_kind[k].result() for k in sorted(by_kind)}
    return out


def evaluate_segment(gold_path: str | Path, segmenter=None, split: str | None = None) -> dict:
    """Run the segmenter on every non-empty record of a gold file and score it.

    `split` keeps only records whose "split" field equals it (punct-data files); records with an
    empty text are skipped. chars_per_second = characters of the scored records / predict time.
    """
    from pipeline.segment import load_segmenter
    from pipeline.segment.data import read_records

    records = [r for r in read_records(gold_path, split=split) if r["text"]]
    if not records:
        which = f' with "split": {split!r}' if split is not None else ""
        raise InputError(str(gold_path), None, f"no records with text{which} to score")
    seg = segmenter if segmenter is not None else load_segmenter()
    if records:  # warm-up (lazy initialisation of the backend), not timed
        seg.predict([records[0]["text"]], [records[0]["kind"]])
    t0 = time.perf_counter()
    preds = seg.predict([r["text"] for r in records], [r["kind"] for r in records])
    elapsed = time.perf_counter() - t0
    out = score(records, preds)
    out["chars_per_second"] = round(out["chars"] / elapsed, 1) if elapsed > 0 else 0.0
    out["gold"] = str(gold_path)
    if split is not None:
        out["split"] = split
    out["model"] = getattr(seg, "name", type(seg).__name__)
    return out
