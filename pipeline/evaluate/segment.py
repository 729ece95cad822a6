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


MARKER_NAMES = {"": "經"}  # the 注疏 data's marker "" is base text (經)


def score(records: list[dict], predictions: list[dict[int, str]]) -> dict:
    """Score predictions (one marks dict per record) against the records' gold marks.

    A pure function. Adds `by_marker` (經 / 注 / 疏 / 音義 / 小注 …) over the records that carry a
    `marker` (the 注疏 punct data; marker "" is 經) when any does."""
    total, by_kind, by_marker = _Counts(), {}, {}
    chars = 0
    for rec, pred in zip(records, predictions, strict=True):
        n = len(rec["text"])
        gold = {int(k): v for k, v in rec["marks"].items()}
        pred = {int(k): v for k, v in pred.items()}
        total.add(n, gold, pred)
        by_kind.setdefault(rec.get("kind", "base"), _Counts()).add(n, gold, pred)
        if rec.get("marker") is not None:
            m = MARKER_NAMES.get(rec["marker"], rec["marker"])
            by_marker.setdefault(m, _Counts()).add(n, gold, pred)
        chars += n
    out = {"records": len(records), "chars": chars}
    out.update(total.result())
    out["by_kind"] = {k: by_kind[k].result() for k in sorted(by_kind)}
    if by_marker:
        out["by_marker"] = {k: by_marker[k].result() for k in sorted(by_marker)}
    return out


def record_passages(records: list[dict]) -> list[str | None]:
    """Per record, its passage as the pipeline gives a unit's (segment/passage.py,
    commentary_passages): a 注 (any commentary but a 疏) the base record right before it in its juan,
    a 疏 the base and 注 records since the 疏 before it; None for base text."""
    from pipeline.segment.data import record_kind
    from pipeline.segment.passage import commentary_passages

    return commentary_passages([(record_kind(r), r.get("text", ""), str(r.get("id", "")).split("#")[0])
                                for r in records])


def evaluate_segment(gold_path: str | Path, segmenter=None, split: str | None = None, passages: bool = True) -> dict:
    """Run the segmenter on every non-empty record of a gold file and score it.

    `split` keeps only records whose "split" field equals it (punct-data files); records with an
    empty text are skipped. chars_per_second = characters of the scored records / predict time.
    `passages`: give each commentary record the base record before it (the pipeline gives a 注
    its 經 unit; read by a model folder's passage prior); False scores each record alone.
    """
    from pipeline.segment import load_segmenter
    from pipeline.segment.data import book_of, read_records, record_kind

    records = [r for r in read_records(gold_path, split=split) if r["text"]]
    if not records:
        which = f' with "split": {split!r}' if split is not None else ""
        raise InputError(str(gold_path), None, f"no records with text{which} to score")
    seg = segmenter if segmenter is not None else load_segmenter()
    # the model's kind: the marker where the records carry one (注疏 data), else base / note
    kinds = [record_kind(r) for r in records]
    books = [book_of(r.get("id")) for r in records]
    predict = seg.predict
    try:
        import inspect

        params = inspect.signature(predict).parameters
        with_books, with_passages = "books" in params, "passages" in params and passages
    except (TypeError, ValueError):
        with_books = with_passages = False
    before = record_passages(records) if with_passages else None

    def run(ts, ks, bs, ps):
        if with_passages:
            return predict(ts, ks, books=bs, passages=ps)
        return predict(ts, ks, books=bs) if with_books else predict(ts, ks)

    if records:  # warm-up (lazy initialisation of the backend), not timed
        run([records[0]["text"]], [kinds[0]], books[:1], [None])
    t0 = time.perf_counter()
    preds = run([r["text"] for r in records], kinds, books, before)
    elapsed = time.perf_counter() - t0
    out = score(records, preds)
    out["chars_per_second"] = round(out["chars"] / elapsed, 1) if elapsed > 0 else 0.0
    out["gold"] = str(gold_path)
    if split is not None:
        out["split"] = split
    out["model"] = getattr(seg, "name", type(seg).__name__)
    out["passages"] = bool(with_passages and getattr(seg, "prior", None) is not None)
    return out
