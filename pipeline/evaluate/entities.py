"""`zhushu eval entities`: score the tagger against gold entity spans.

Implements ../shared/guidelines/entities.md: the project's own tagger runs on each record's
`text`; exact (start, end, label) matches are counted, micro-averaged over ROLE, OBJECT and
PLACE together and per label (other labels the tagger may emit, ACT and MUSIC, are not scored).
`unseen_recall` is the recall on gold spans whose surface is not in the project's lexicon
(`models/lexicon/lexicon.tsv`); `unseen_spans` is how many there are (null recall if none).
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.errors import InputError
from pipeline.evaluate.common import prf
from pipeline.jsonlines import read_jsonl

SCORED = ("ROLE", "OBJECT", "PLACE")


def read_gold(path: str | Path) -> list[dict]:
    """Gold records; any malformed line raises InputError naming the file and line."""
    path = str(path)
    records = []
    for lineno, rec in read_jsonl(path):
        if not isinstance(rec.get("text"), str):
            raise InputError(path, lineno, 'a record needs a "text" string')
        spans = rec.get("spans")
        if not isinstance(spans, list):
            raise InputError(path, lineno, 'a record needs a "spans" list')
        n = len(rec["text"])
        clean = []
        for sp in spans:
            if not isinstance(sp, dict):
                raise InputError(path, lineno, "a span must be an object with start, end, label")
            s, e, lab = sp.get("start"), sp.get("end"), sp.get("label")
            if not (isinstance(s, int) and isinstance(e, int) and not isinstance(s, bool) and not isinstance(e, bool)):
                raise InputError(path, lineno, "span start/end must be integers")
            if not (0 <= s < e <= n):
                raise InputError(path, lineno, f"span {s}..{e} outside the text (length {n})")
            if not isinstance(lab, str) or not lab:
                raise InputError(path, lineno, "span label must be a non-empty string")
            clean.append((s, e, lab))
        records.append({"id": rec.get("id", f"line{lineno}"), "text": rec["text"], "spans": clean})
    if not records:
        raise InputError(path, None, "no records")
    return records


def score(records: list[dict], predictions: list[list[tuple[int, int, str]]], lexicon=None) -> dict:
    """Score predicted (start, end, label) spans against the records' gold spans."""
    counts = {lab: [0, 0, 0] for lab in SCORED}
    unseen_tp = unseen_n = 0
    errors = []
    for rec, pred in zip(records, predictions, strict=True):
        text = rec["text"]
        gold = {(s, e, lab) for s, e, lab in rec["spans"] if lab in SCORED}
        pred = {(s, e, lab) for s, e, lab in pred if lab in SCORED}
        for lab in SCORED:
            g = {x for x in gold if x[2] == lab}
            p = {x for x in pred if x[2] == lab}
            counts[lab][0] += len(g & p)
            counts[lab][1] += len(p)
            counts[lab][2] += len(g)
        for s, e, lab in gold:
            if lexicon is not None and text[s:e] not in lexicon:
                unseen_n += 1
                unseen_tp += (s, e, lab) in pred
        for s, e, lab in sorted(gold - pred):
            errors.append({"id": rec["id"], "type": "missed", "span": [s, e], "label": lab, "text": text[s:e]})
        for s, e, lab in sorted(pred - gold):
            errors.append({"id": rec["id"], "type": "spurious", "span": [s, e], "label": lab, "text": text[s:e]})
    tp = sum(c[0] for c in counts.values())
    npred = sum(c[1] for c in counts.values())
    ngold = sum(c[2] for c in counts.values())
    result = {"records": len(records), "micro": prf(tp, npred, ngold)}
    for lab in SCORED:
        result[lab] = prf(*counts[lab])
    result["unseen_recall"] = round(unseen_tp / unseen_n, 4) if unseen_n else None
    result["unseen_spans"] = unseen_n
    result["errors"] = errors
    return result


def evaluate(gold_path: str | Path, tagger=None, lexicon=None) -> dict:
    """Run the project's tagger (or `tagger`) over the gold texts and score it."""
    from pipeline.tag.lexicon import load_lexicon
    from pipeline.tag import kept_entities, load_tagger

    records = read_gold(gold_path)
    tagger = tagger or load_tagger()
    lexicon = lexicon if lexicon is not None else load_lexicon()
    texts = [r["text"] for r in records]
    t0 = time.perf_counter()
    ents = [kept_entities(text, None, row, tagger.lexicon) for text, row in zip(texts, tagger.tag(texts))]  # as the stage keeps them
    dt = time.perf_counter() - t0
    preds = [[(x.start, x.end, x.label) for x in row] for row in ents]
    result = score(records, preds, lexicon)
    chars = sum(len(t) for t in texts)
    result["chars_per_s"] = round(chars / dt) if dt > 0 else None
    return result


def format_report(result: dict) -> str:
    lines = [f"records {result['records']}"]
    for key in ("micro",) + SCORED:
        m = result[key]
        lines.append(f"{key:<7} P {m['p']:.4f}  R {m['r']:.4f}  F1 {m['f1']:.4f}  (tp {m['tp']}, pred {m['pred']}, gold {m['gold']})")
    ur = result["unseen_recall"]
    lines.append(f"unseen  recall {'n/a' if ur is None else f'{ur:.4f}'} over {result['unseen_spans']} gold spans not in the lexicon")
    if result.get("chars_per_s"):
        lines.append(f"speed   {result['chars_per_s']} chars/s")
    errs = result.get("errors", [])
    if errs:
        lines.append(f"errors ({len(errs)}):")
        for e in errs[:40]:
            lines.append(f"  {e['type']:<8} {e['label']:<6} {e['text']}  {e['id']} {e['span']}")
    return "\n".join(lines)
