"""`zhushu eval quotations`: score the 疏 quotation reader against data/quotes (issue 21).

Scores exactly as data/quotes/README.md says — exact spans in the 疏:

- a prediction is right when it equals a gold `quotes` span;
- one that equals an `other` span (quoted by the edition, but not from this passage) is not wrong;
- one that overlaps an `uncertain` stretch is left out (neither right nor wrong);
- precision = (right + other) / predictions counted; recall = right / gold quotes;
- anchor accuracy = of the right ones, the share whose target segment and span agree.

Micro-averaged over all records, and by book (`by_book`). The reader sees each record's 疏 text
and its passage exactly as the align stage gives them: the 經 segments as the passage, the 注
segments as the notes, each with its index in `passage` as its seq; and, for a reader of the
segmenter's punctuation (the span reader), the marks the segment stage would give them
(`record_marks`: the default segmenter, a 注 read with the 經 before it).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from pipeline.errors import InputError
from pipeline.evaluate.common import ConfidenceBands
from pipeline.jsonlines import read_jsonl

MARKERS = ("經", "注")
FIELDS = ("id", "text", "passage", "quotes", "other", "uncertain")


def read_gold(path: str | Path, split: str | None = None) -> list[dict]:
    """The records of a quotes file (of `split` only, when given); a malformed one is an InputError."""
    out = []
    for lineno, rec in read_jsonl(path):
        missing = [f for f in FIELDS if f not in rec]
        if missing:
            raise InputError(str(path), lineno, f"not a quotations record: no {', '.join(missing)}")
        bad = [p.get("marker") for p in rec["passage"] if p.get("marker") not in MARKERS]
        if bad:
            raise InputError(str(path), lineno, f"passage marker {bad[0]!r} is neither 經 nor 注")
        n = len(rec["text"])
        for q in rec["quotes"] + rec["other"] + rec["uncertain"]:
            if not 0 <= q["start"] < q["end"] <= n:
                raise InputError(str(path), lineno, f"span {q['start']}-{q['end']} outside the text ({n} chars)")
        if split is None or rec.get("split") == split:
            rec["_line"] = lineno
            out.append(rec)
    return out


def reader_inputs(rec: dict) -> tuple[str, list[tuple[int, str]], list[tuple[int, str]]]:
    """(疏 text, 經 segments, 注 segments) as the align stage passes them; seq = index in passage."""
    passage = [(i, p["text"]) for i, p in enumerate(rec["passage"]) if p["marker"] == "經"]
    notes = [(i, p["text"]) for i, p in enumerate(rec["passage"]) if p["marker"] == "注"]
    return rec["text"], passage, notes


def record_marks(records: list[dict], segmenter) -> list[tuple[dict[int, dict[int, str]], dict[int, str]]]:
    """Per record, the punctuation `segmenter` gives its passage segments (by index) and its 疏, as
    the segment stage gives a document's units: a 經 as base text, a 注 with the last 經 before it
    as its passage, the 疏 as a 疏 with the record's 經 and 注 as its (segment/passage.py; one predict call
    for all: the marks do not depend on the batch)."""
    from pipeline.segment.passage import commentary_passages

    texts, kinds, books, passages = [], [], [], []
    for rec in records:
        last_jing = None
        for p in rec["passage"]:
            jing = p["marker"] == "經"
            texts.append(p["text"])
            kinds.append("base" if jing else "注")
            passages.append(None if jing else last_jing)
            last_jing = p["text"] if jing else last_jing
        texts.append(rec["text"])
        kinds.append("疏")
        units = [({"經": "base"}.get(p["marker"], p["marker"]), p["text"], None) for p in rec["passage"]]
        passages.append(commentary_passages(units + [("疏", rec["text"], None)])[-1])
        books += [book_of(rec)] * (len(rec["passage"]) + 1)
    marks = iter(segmenter.predict(texts, kinds, books=books, passages=passages))
    out = []
    for rec in records:
        passage = {i: next(marks) for i in range(len(rec["passage"]))}
        out.append((passage, next(marks)))
    return out


def book_of(rec: dict) -> str:
    return rec.get("book") or rec["id"].split("_")[0]


class _Counts:
    __slots__ = ("right", "other", "counted", "left_out", "gold", "anchored")

    def __init__(self):
        self.right = self.other = self.counted = self.left_out = self.gold = self.anchored = 0

    def result(self) -> dict:
        p = (self.right + self.other) / self.counted if self.counted else 0.0
        r = self.right / self.gold if self.gold else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4),
                "anchor_accuracy": round(self.anchored / self.right, 4) if self.right else 0.0,
                "right": self.right, "other": self.other, "predicted": self.counted,
                "left_out": self.left_out, "gold": self.gold, "anchored": self.anchored}


def judge(rec: dict, predicted) -> list[tuple[object, str]]:
    """Each prediction with its verdict: right / anchor (right span, wrong target) / other /
    left_out / wrong. `predicted` holds objects with shu_start, shu_end, seq, start, end."""
    gold = {(q["start"], q["end"]): q for q in rec["quotes"]}
    other = {(o["start"], o["end"]) for o in rec["other"]}
    out = []
    for p in predicted:
        span = (p.shu_start, p.shu_end)
        g = gold.get(span)
        if g is not None:
            ok = (p.seq, p.start, p.end) == (g["target"], g["target_start"], g["target_end"])
            out.append((p, "right" if ok else "anchor"))
        elif span in other:
            out.append((p, "other"))
        elif any(u["start"] < span[1] and span[0] < u["end"] for u in rec["uncertain"]):
            out.append((p, "left_out"))
        else:
            out.append((p, "wrong"))
    return out


def score(records: list[dict], predictions: list[list]) -> dict:
    """Score one list of predicted quotations per record (a pure function). Where the reader gives
    each prediction its probability (`p`), also `by_confidence`: the precision of the predictions in
    each band of 0.1 ("0.3-0.4" …), what a user filtering the quotations by confidence gets."""
    total, by_book = _Counts(), {}
    bands = ConfidenceBands()
    for rec, predicted in zip(records, predictions, strict=True):
        book = by_book.setdefault(book_of(rec), _Counts())
        for c in (total, book):
            c.gold += len(rec["quotes"])
        for q, verdict in judge(rec, predicted):
            for c in (total, book):
                if verdict == "left_out":
                    c.left_out += 1
                    continue
                c.counted += 1
                if verdict in ("right", "anchor"):
                    c.right += 1
                    c.anchored += verdict == "right"
                elif verdict == "other":
                    c.other += 1
            p = getattr(q, "p", None)
            if p is not None and verdict != "left_out":
                bands.add(p, verdict in ("right", "anchor", "other"))
    out = {"records": len(records)}
    out.update(total.result())
    out["by_book"] = {b: by_book[b].result() for b in sorted(by_book)}
    if bands.bands:
        out["by_confidence"] = bands.result()
    return out


def evaluate(gold_paths: list[str], reader: Callable | None = None, split: str | None = None,
             reader_name: str = "default", segmenter=None) -> dict:
    """Run the reader on every record of the gold files (of `split`) and score it; with a
    `segmenter`, the reader is given the units' marks from it (`record_marks`)."""
    if reader is None:
        from pipeline.align.subcommentary import quotations as reader
    records = []
    for path in gold_paths:
        records += read_gold(path, split)
    if not records:
        which = f' with "split": {split!r}' if split is not None else ""
        raise InputError(", ".join(map(str, gold_paths)), None, f"no records{which} to score")
    marks = record_marks(records, segmenter) if segmenter is not None else None
    t0 = time.perf_counter()
    if marks is None:
        predictions = [reader(*reader_inputs(rec)) for rec in records]
    else:
        predictions = [reader(*reader_inputs(rec), marks=m) for rec, m in zip(records, marks)]
    elapsed = time.perf_counter() - t0
    out = score(records, predictions)
    out["reader"] = reader_name
    out["chars"] = sum(len(r["text"]) for r in records)
    out["chars_per_second"] = round(out["chars"] / elapsed, 1) if elapsed > 0 else 0.0
    out["marks"] = segmenter.name if segmenter is not None else None
    out["gold_files"] = [str(p) for p in gold_paths]
    if split is not None:
        out["split"] = split
    return out
