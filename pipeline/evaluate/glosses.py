"""`zhushu eval glosses`: score gloss extraction and lemma alignment against gold.

Implements ../shared/guidelines/glosses.md. For each gold record the pipeline runs as it would
on a document: the project's segmenter restores the note's punctuation
(`load_segmenter().predict([note], ["note"])`, one note per call; a record of a 注疏 —
id KR1d0003_…, KR1d0053_…, KR1d0028_… — as the pipeline segments a 注 unit of that book:
`predict([note], ["注"], books=[book])`), then `align_block(base, note, marks)`.

- lemma: micro P/R/F1 over the distinct (record, start, end) lemma spans of glosses that have a
  span (unanchored glosses, system or gold, are not scored);
- type_accuracy: among system spans that match a gold span, the share whose type (any system
  gloss at that span) is one of the gold types at that span;
- by_confidence: the precision of the system spans in each band of 0.1 of their confidence (the
  highest of the glosses at the span), where the system's glosses carry one.
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.errors import InputError
from pipeline.evaluate.common import ConfidenceBands, prf
from pipeline.jsonlines import read_jsonl
from pipeline.model import GLOSS_TYPES


def read_gold(path: str | Path) -> list[dict]:
    """Gold records, each gloss checked (guidelines/glosses.md); a malformed line raises
    InputError naming the file and line, and so does a file with no records."""
    path = str(path)
    recs = []
    for lineno, rec in read_jsonl(path):
        for key, typ in (("id", str), ("base", str), ("note", str), ("glosses", list)):
            if not isinstance(rec.get(key), typ):
                raise InputError(path, lineno, f"gold record needs {key!r} ({typ.__name__})")
        for i, g in enumerate(rec["glosses"]):
            _check_gloss(g, len(rec["base"]), path, lineno, i)
        recs.append(rec)
    if not recs:
        raise InputError(path, None, "no gold records")
    return recs


def _check_gloss(g, n: int, path: str, lineno: int, i: int) -> None:
    where = f"gloss {i}"
    if not isinstance(g, dict):
        raise InputError(path, lineno, f"{where} must be an object with lemma, start, end, type")
    for key in ("lemma", "start", "end", "type"):
        if key not in g:
            raise InputError(path, lineno, f"{where} has no {key!r} (null for an unanchored lemma)")
    if g["type"] not in GLOSS_TYPES:
        raise InputError(path, lineno, f"{where}: unknown type {g['type']!r}")
    s, e = g["start"], g["end"]
    if (s is None) != (e is None):
        raise InputError(path, lineno, f"{where}: start and end must both be null or both integers")
    if s is not None:
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (s, e)) or not 0 <= s < e <= n:
            raise InputError(path, lineno, f"{where}: span {s}..{e} outside the base text (length {n})")


# Books of the 注疏 layout: their gold records are 注 units, segmented as the pipeline segments a
# 注 unit of that book (kind 注, the book id for the segmenter's book embedding).
ZHUSHU_BOOKS = frozenset(("KR1d0003", "KR1d0053", "KR1d0028"))


def _call(record_id: str | None) -> tuple[str, list[str] | None]:
    """(kind, books) for the segmenter call of one gold record."""
    book = (record_id or "").split("_")[0]
    if book in ZHUSHU_BOOKS:
        return "注", [book]
    return "note", None  # the 集釋's 鄭注 blocks, as the 集釋 gold has always been scored


def note_marks(notes: list[str], segmenter="auto", ids: list[str] | None = None,
               bases: list[str] | None = None) -> tuple[list[dict[int, str]], str]:
    """Restored marks for the notes, from the project's segmenter.

    segmenter: "auto" (load pipeline.segment's default model), None (no marks), or an object
    with .predict(texts, kinds). ids: the records' ids (a 注疏 record, KR1d0003_…, is segmented
    as a 注 unit of its book). bases: each note's base text, given as its passage as the pipeline
    gives a 注 its 經 unit (read by the model folder's passage prior). The marks are those the
    pipeline's gloss reader reads: the model's own where its passage prior changed them
    (Segmenter.predict_both; model.Unit.model_marks). Returns (marks per note, description of
    what was used).
    """
    if segmenter is None:
        return [{} for _ in notes], "none"
    used = "pipeline.segment" if segmenter == "auto" else getattr(segmenter, "name", "pipeline.segment")
    if segmenter == "auto":
        from pipeline.segment import load_segmenter

        segmenter = load_segmenter()  # StageLoadError (exit 2) when the model cannot be loaded
    # one note per call, exactly as the guideline's pipeline does it: a batched call may pad
    # and round differently (observed: 2 of 47 dev notes differ in a mark)
    calls = [_call(i) for i in (ids or [None] * len(notes))]
    import inspect

    from pipeline.segment import marks_and_own

    takes_passages = bases is not None and "passages" in inspect.signature(segmenter.predict).parameters
    marks = []
    for j, (note, (kind, books)) in enumerate(zip(notes, calls)):
        extra = {"passages": [bases[j]]} if takes_passages else {}
        if books:
            extra["books"] = books
        published, own = marks_and_own(segmenter, [note], [kind], **extra)[0]
        marks.append(own if own is not None else published)
    return [{int(k): v for k, v in m.items()} for m in marks], used


def spans(glosses) -> dict[tuple[int, int], set[str]]:
    out: dict[tuple[int, int], set[str]] = {}
    for g in glosses:
        s = g["start"] if isinstance(g, dict) else g.lemma_start
        e = g["end"] if isinstance(g, dict) else g.lemma_end
        t = g["type"] if isinstance(g, dict) else g.type
        if s is None or e is None:
            continue
        out.setdefault((s, e), set()).add(t)
    return out


def score(records: list[dict], system: list[list]) -> dict:
    tp = n_sys = n_gold = 0
    type_ok = 0
    by_type: dict[str, list[int]] = {}
    bands = ConfidenceBands()
    for rec, glosses in zip(records, system, strict=True):
        g = spans(rec["glosses"])
        s = spans(glosses)
        n_sys += len(s)
        n_gold += len(g)
        for sp, conf in span_confidences(glosses).items():
            bands.add(conf, sp in g)
        for sp, types in s.items():
            if sp in g:
                tp += 1
                if types & g[sp]:
                    type_ok += 1
        for sp, types in g.items():
            for t in types:
                c = by_type.setdefault(t, [0, 0])
                c[1] += 1
                if sp in s:
                    c[0] += 1
    lemma = prf(tp, n_sys, n_gold)
    lemma["system"] = lemma.pop("pred")  # named for what it counts: distinct system spans
    out = {
        "records": len(records),
        "lemma": lemma,
        "type_accuracy": round(type_ok / tp, 4) if tp else 0.0,
        "recall_by_gold_type": {t: round(c[0] / c[1], 4) for t, c in sorted(by_type.items())},
    }
    if bands.bands:
        out["by_confidence"] = bands.result()
    return out


def span_confidences(glosses) -> dict[tuple[int, int], float]:
    """The confidence of each anchored system span: the highest of the glosses at it (glosses
    without one — the gold format's, a reader's of its own — give none)."""
    out: dict[tuple[int, int], float] = {}
    for g in glosses:
        conf = None if isinstance(g, dict) else getattr(g, "confidence", None)
        if conf is None or g.lemma_start is None or g.lemma_end is None:
            continue
        sp = (g.lemma_start, g.lemma_end)
        out[sp] = max(out.get(sp, 0.0), conf)
    return out


def evaluate(gold_path: str | Path, segmenter="auto", details: bool = False) -> dict:
    from pipeline.align import align_block

    records = read_gold(gold_path)
    t0 = time.perf_counter()
    marks, used = note_marks([r["note"] for r in records], segmenter, [r["id"] for r in records],
                             [r["base"] for r in records])
    t1 = time.perf_counter()
    system = [align_block(r["base"], r["note"], m, zhushu=r["id"].split("_")[0] in ZHUSHU_BOOKS)
              for r, m in zip(records, marks)]
    t2 = time.perf_counter()
    result = score(records, system)
    result["segmenter"] = used
    result["seconds"] = {"segment": round(t1 - t0, 3), "align": round(t2 - t1, 3)}
    if details:
        rows = []
        for r, m, gl in zip(records, marks, system):
            g, s = spans(r["glosses"]), spans(gl)
            rows.append({
                "id": r["id"],
                "marks": {str(k): v for k, v in sorted(m.items())},
                "missed": [[a, b, r["base"][a:b], sorted(t)] for (a, b), t in g.items() if (a, b) not in s],
                "spurious": [[a, b, r["base"][a:b], sorted(t)] for (a, b), t in s.items() if (a, b) not in g],
                "wrong_type": [[a, b, r["base"][a:b], sorted(t), sorted(g[(a, b)])]
                               for (a, b), t in s.items() if (a, b) in g and not t & g[(a, b)]],
            })
        result["details"] = rows
    return result
