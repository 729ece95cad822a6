"""The span reader with the segmenter's punctuation (its marked weights) against the same reader
without it (its plain weights), on the train split only (the dev split is never read):

    python experiments/quote_marks/measure.py crossfit [--folds 5] [--seed 0] [--dump FILE] [--threshold T ...]
        5 folds by juan, each scored by models trained on the other four; the training and the
        scored records read the default segmenter's marks without its phrase memory (which knows
        the train juan by heart); the two readers paired record by record, a bootstrap over
        records of the F1 difference (1,000 draws); --dump: every record's two readings as JSON lines
        (id, plain, marked: [shu_start, shu_end, seq, start, end] each), for reading the errors;
        --threshold: also the marked reader's F1 at each of these thresholds (the model's own: 0.3)
    python experiments/quote_marks/measure.py holdout [--juan 7]
        the juan held out of training (7: never seen by the segmenter either), scored with the
        marks the pipeline would give them (the default segmenter, its memory included)

docs/quotations.md, "Stop 42".
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.align.quote_spans import SpanModel, span_quotations  # noqa: E402
from pipeline.evaluate.quotations import reader_inputs, record_marks, score  # noqa: E402
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.train.quotations import train_records, train_spans  # noqa: E402

READERS = ("plain", "marked")


def juan_of(rec: dict) -> str:
    return rec["id"].split("#")[0]


def read_all(model: SpanModel, records: list[dict], marks: list) -> dict[str, list]:
    """Each reader's predictions for every record (plain: no marks given)."""
    return {"plain": [span_quotations(*reader_inputs(r), model=model) for r in records],
            "marked": [span_quotations(*reader_inputs(r), model=model, marks=m) for r, m in zip(records, marks)]}


def counts(rec: dict, preds) -> tuple[int, int, int, int]:
    """(right spans, other, counted, gold) of one record, as `score` counts them."""
    r = score([rec], [preds])
    return r["right"], r["other"], r["predicted"], r["gold"]


def f1(rows) -> float:
    r, o, c, g = (sum(x[i] for x in rows) for i in range(4))
    p, rc = (r + o) / c if c else 0.0, r / g if g else 0.0
    return 2 * p * rc / (p + rc) if p + rc else 0.0


def crossfit(folds: int, seed: int, dump: Path | None = None, thresholds: tuple[float, ...] = ()) -> dict:
    recs = train_records()
    marks = record_marks(recs, read_segmenter(paths.SEGMENTER_DEFAULT).without_memory())
    by_id = {r["id"]: m for r, m in zip(recs, marks)}
    juan = sorted({juan_of(r) for r in recs})
    random.Random(seed).shuffle(juan)
    fold_of = {j: i % folds for i, j in enumerate(juan)}
    rows: dict[str, list] = {k: [] for k in READERS}
    books: list[str] = []
    dumped: list[str] = []
    at: dict[float, list] = {t: [] for t in thresholds}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(folds):
            hold = frozenset(j for j in juan if fold_of[j] == k)
            test = [r for r in recs if juan_of(r) in hold]
            train_spans(Path(tmp) / "spans.json", log=lambda m: None, hold_out=hold, marks_by_id=by_id)
            model = SpanModel(Path(tmp) / "spans.json")
            for t in thresholds:
                model.threshold = t
                at[t] += [counts(r, span_quotations(*reader_inputs(r), model=model, marks=by_id[r["id"]])) for r in test]
            model = SpanModel(Path(tmp) / "spans.json")
            preds = read_all(model, test, [by_id[r["id"]] for r in test])
            for name in READERS:
                rows[name] += [counts(r, p) for r, p in zip(test, preds[name])]
            dumped += [json.dumps({"id": r["id"], **{n: [[q.shu_start, q.shu_end, q.seq, q.start, q.end] for q in preds[n][i]]
                                                     for n in READERS}}) for i, r in enumerate(test)]
            books += [r["book"] for r in test]
            print(f"fold {k}: {len(test)} records; " + ", ".join(f"{n} {f1(rows[n]):.4f}" for n in READERS),
                  file=sys.stderr, flush=True)
    out: dict = {"folds": folds, "seed": seed, "records": len(books), **{n: round(f1(rows[n]), 4) for n in READERS}}
    for bk in sorted(set(books)):
        out[bk] = {n: round(f1([x for x, b in zip(rows[n], books) if b == bk]), 4) for n in READERS}
    rng = random.Random(1)
    diffs = []
    for _ in range(1000):
        idx = [rng.randrange(len(books)) for _ in books]
        diffs.append(f1([rows["marked"][i] for i in idx]) - f1([rows["plain"][i] for i in idx]))
    diffs.sort()
    out["diff"] = round(out["marked"] - out["plain"], 4)
    if thresholds:
        out["marked_at"] = {str(t): round(f1(v), 4) for t, v in at.items()}
        # by book too: whether one book's best threshold is another's (stop 57)
        out["marked_at_by_book"] = {bk: {str(t): round(f1([x for x, b in zip(v, books) if b == bk]), 4)
                                         for t, v in at.items()} for bk in sorted(set(books))}
    out["diff_95"] = [round(diffs[25], 4), round(diffs[974], 4)]
    if dump is not None:
        dump.write_text("".join(line + "\n" for line in dumped), encoding="utf-8")
    return out


def holdout(juan: list[int]) -> dict:
    hold = frozenset(f"{b}_{n:03d}" for b in ("KR1d0003", "KR1d0053") for n in juan)
    test = [r for r in train_records() if juan_of(r) in hold]
    with tempfile.TemporaryDirectory() as tmp:
        train_spans(Path(tmp) / "spans.json", log=lambda m: None, hold_out=hold)
        preds = read_all(SpanModel(Path(tmp) / "spans.json"), test,
                         record_marks(test, read_segmenter(paths.SEGMENTER_DEFAULT)))
    return {"held_out": sorted(hold), **{n: score(test, preds[n]) for n in READERS}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("crossfit")
    c.add_argument("--folds", type=int, default=5)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--dump", type=Path, default=None)
    c.add_argument("--threshold", type=float, action="append", default=[])
    h = sub.add_parser("holdout")
    h.add_argument("--juan", type=int, nargs="+", default=[7])
    args = ap.parse_args()
    out = crossfit(args.folds, args.seed, args.dump, tuple(args.threshold)) if args.cmd == "crossfit" else holdout(args.juan)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
