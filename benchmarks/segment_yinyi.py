"""The 音義 grammar over the segmenter (pipeline/segment/yinyi.py): seg / sentence / punct F1 of
the 音義 notes of both 注疏 books, with the grammar off (the plain segmenter) and on, by book and
juan set, and its speed cost as a ratio against the plain segmenter on the same text, one run.

    PYTHONPATH=. python benchmarks/segment_yinyi.py                 # train juan and the tune juan 7 (~1 min)
    PYTHONPATH=. python benchmarks/segment_yinyi.py --sets dev      # the dev juan (10, 20, …): score ONCE
    PYTHONPATH=. python benchmarks/segment_yinyi.py --speed         # + chars/s, plain vs grammar (best of 5)
    PYTHONPATH=. python benchmarks/segment_yinyi.py --ablate        # + seg F1 with each rule left out

Sets: train = the train split less juan 0 (prefaces) and the tune juan 7, tune = juan 7 (held out
of the v2 segmenter's training), dev = the split "dev". `clean` rows keep records aligned >= 0.99
(the gold there lost no marks to the alignment; see docs/segmentation.md).
"""

from __future__ import annotations

import argparse
import json
import time

from pipeline import paths
from pipeline.evaluate.segment import score
from pipeline.segment import load_segmenter
from pipeline.segment.data import book_of, record_kind
from pipeline.segment.yinyi import RULES, punctuate

BOOKS = ("KR1d0003", "KR1d0053")
TUNE = 7  # pipeline.train.segment.TUNE_JUAN_ZHUSHU: juan 7 of each book


def juan_set(rec: dict) -> str | None:
    juan = int(rec["id"].split("#")[0].split("_")[1])
    if rec["split"] == "dev":
        return "dev"
    if juan == TUNE:
        return "tune"
    return "train" if juan > 0 else None


def records(book: str, marker: str | None = "音義") -> list[dict]:
    out = []
    with open(paths.DATA / "punct" / f"{book}.punct.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["text"] and (marker is None or r.get("marker") == marker):
                r["set"] = juan_set(r)
                out.append(r)
    return out


def predict(seg, recs: list[dict], grammar: bool) -> list[dict[int, str]]:
    seg.yinyi_grammar = grammar
    return seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[book_of(r["id"]) for r in recs])


def f1s(res: dict) -> str:
    return " / ".join(f"{res[m]['f1']:.4f}" for m in ("seg", "sentence", "punct"))


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def subsets(sets: list[str]):
    """(book, set name, records) for each book and set: all its 音義 records, then the clean ones
    (aligned >= 0.99: the gold kept every mark)."""
    for book in BOOKS:
        recs = records(book)
        for s in sets:
            for clean in (False, True):
                rs = [r for r in recs if r["set"] == s and (not clean or r.get("aligned", 1.0) >= 0.99)]
                yield book, s + (" clean" if clean else ""), rs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="train,tune")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--ablate", action="store_true")
    args = ap.parse_args()
    sets = args.sets.split(",")
    seg = load_segmenter()
    print("| book | set | records | chars | plain seg / sent / punct | grammar seg / sent / punct |")
    print("|---|---|---|---|---|---|")
    for book, name, rs in subsets(sets):
        plain, gram = score(rs, predict(seg, rs, False)), score(rs, predict(seg, rs, True))
        print(f"| {book} | {name} | {len(rs)} | {plain['chars']} | {f1s(plain)} | {f1s(gram)} |", flush=True)
    if args.ablate:
        print("\nseg F1 (sentence F1) with one rule left out, plain → all rules → without the rule:")
        for book, name, rs in subsets(sets):
            plain = predict(seg, rs, False)
            cols = []
            for left_out in (None,) + RULES:
                rules = tuple(x for x in RULES if x != left_out)
                res = score(rs, [punctuate(r["text"], p, book, rules) for r, p in zip(rs, plain)])
                cols.append(f"{left_out or 'all'} {res['seg']['f1']:.4f} ({res['sentence']['f1']:.4f})")
            base = score(rs, plain)
            print(f"{book} {name}: plain {base['seg']['f1']:.4f} ({base['sentence']['f1']:.4f}); "
                  + "; ".join(cols), flush=True)
    if args.speed:
        for what, marker in (("音義 notes", "音義"), ("whole juan", None)):
            rs = [r for b in BOOKS for r in records(b, marker) if r["set"] == "tune"]
            n = sum(len(r["text"]) for r in rs)
            best = {}
            for _ in range(5):
                for grammar in (False, True):
                    t0 = time.perf_counter()
                    predict(seg, rs, grammar)
                    dt = time.perf_counter() - t0
                    best[grammar] = min(best.get(grammar, dt), dt)
            plain = predict(seg, rs, False)
            notes = [(r["text"], p, book_of(r["id"])) for r, p in zip(rs, plain) if r.get("marker") == "音義"]
            alone = min(_timed(lambda: [punctuate(*x) for x in notes]) for _ in range(5))
            print(f"speed, tune juan 7 ({what}, {n} chars): plain {n / best[False]:,.0f} chars/s, "
                  f"grammar {n / best[True]:,.0f} chars/s, ratio {best[False] / best[True]:.3f}; "
                  f"the grammar alone {alone:.4f} s = {alone / best[False]:.1%} of the plain segmenter's time")


if __name__ == "__main__":
    main()
