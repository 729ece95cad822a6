"""Where the span reader with the segmenter's marks (stop 42) and without them read a 疏 differently:
a seeded sample of the quotations only one of them reads, for a hand check.

    python experiments/quote_marks/diff_sample.py [--book KR1d0028] [--n 20] [--seed 42]

Each juan of the book is ingested and punctuated by the default segmenter, as `zhushu run` does;
each 疏 unit is read by the align stage's reader twice (its plain weights on the text alone, its
marked weights with the units' marks). A quotation only one reading has is listed with the 疏
around it (the quotation in 【】) and its anchor in the passage; overlapping quotations of the
other reading beside it. The 儀禮注疏 (KR1d0028) has no quotation data: no reader was trained or
tuned on it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.align import quotation_inputs  # noqa: E402
from pipeline.align.quote_spans import span_quotations  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import read_segmenter, segment_document  # noqa: E402


def readings(doc):
    """Per 疏 unit: (unit, passage units by seq, 經 and 注 (seq, text) as the reader reads them,
    plain quotations, marked quotations)."""
    start = 0
    for unit in doc.units:
        if unit.marker != "疏":
            continue
        between = doc.units[start : unit.seq]
        start = unit.seq + 1
        passage, notes, marks = quotation_inputs(between, unit)
        plain = span_quotations(unit.text, passage, notes)
        marked = span_quotations(unit.text, passage, notes, marks=marks)
        yield unit, {u.seq: u for u in between}, (passage, notes), plain, marked


def book_readings(book: str):
    """`readings` over every juan of a book, each punctuated by the default segmenter as `zhushu run`
    does: (juan, unit, units by seq, (passage, notes), plain, marked)."""
    seg = read_segmenter(paths.SEGMENTER_DEFAULT)
    for f in sorted((paths.DATA / "corpus" / book).glob("*.txt")):
        for reading in readings(segment_document(read_document(f), seg)):
            yield (f.stem, *reading)


def sample_args(doc: str) -> argparse.Namespace:
    """--book / --n / --seed of the hand-check samples."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--book", default="KR1d0028")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=42)
    return ap.parse_args()


def show(unit, units, q, other) -> str:
    t = unit.text
    ctx = t[max(0, q.shu_start - 12) : q.shu_start] + "【" + t[q.shu_start : q.shu_end] + "】" + t[q.shu_end : q.shu_end + 8]
    target = units[q.seq].text
    anchor = target[max(0, q.start - 8) : q.start] + "【" + target[q.start : q.end] + "】" + target[q.end : q.end + 8]
    beside = [t[o.shu_start : o.shu_end] for o in other if o.shu_start < q.shu_end and q.shu_start < o.shu_end]
    return f"{ctx} → {q.target} #{q.seq}: {anchor}" + (f"  (the other reads: {'、'.join(beside)})" if beside else "")


def main() -> None:
    args = sample_args(__doc__)
    diffs, n_plain, n_marked, n_units = [], 0, 0, 0
    key = lambda q: (q.shu_start, q.shu_end, q.seq, q.start, q.end)  # noqa: E731
    for juan, unit, units, _inputs, plain, marked in book_readings(args.book):
        n_units += 1
        n_plain += len(plain)
        n_marked += len(marked)
        pk, mk = set(map(key, plain)), set(map(key, marked))
        diffs += [("marked only", f"{juan}#{unit.seq}", show(unit, units, q, plain)) for q in marked if key(q) not in pk]
        diffs += [("plain only", f"{juan}#{unit.seq}", show(unit, units, q, marked)) for q in plain if key(q) not in mk]
    print(f"{args.book}: {n_units} 疏 units; quotations plain {n_plain}, marked {n_marked}; "
          f"{sum(d[0] == 'marked only' for d in diffs)} only with marks, {sum(d[0] == 'plain only' for d in diffs)} only without")
    for i, (which, where, text) in enumerate(random.Random(args.seed).sample(diffs, min(args.n, len(diffs))), 1):
        print(f"{i}. {which} | {where} | {text}")


if __name__ == "__main__":
    main()
