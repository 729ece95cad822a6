"""Stop 82: a 疏 of a book the model does not know, read under the 集釋's book embedding (before) or the mean of the two
注疏's (now) — the 儀禮注疏 (no punctuated edition here: a book the model does not know). Prints a blind A/B of every
position where the two readings differ (a seeded sample of 30, each shown ±14 characters, A / B in a seeded random order)
and writes the key (which letter is today's reading) beside it; and, with --tune, both readings of the tune juan of the two
注疏 (juan 7, train split, held out of the segmenter's training) as if their book were unknown, scored on their gold.

    python experiments/unknown_book/ab.py [--juan 003] [--seed 821] [--key FILE] [--tune]
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pipeline.segment.bilstm as bilstm  # noqa: E402
from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from experiments.blind_ab import print_round, windows  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import load_segmenter, passages_of, unit_kind  # noqa: E402
from pipeline.segment.data import BOOK_OF, book_id, read_records, record_kind  # noqa: E402

TODAY = bilstm.book_index


def before(book, kind):  # an unknown book read as the 集釋 whatever the kind (the code before stop 82)
    return book_id(book) if book is None or book in BOOK_OF else 0


def read(seg, texts, kinds, books, passages, old):
    bilstm.book_index = before if old else TODAY
    try:
        return seg.predict(texts, kinds, books=books, passages=passages)
    finally:
        bilstm.book_index = TODAY



def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--juan", default="003")
    ap.add_argument("--seed", type=int, default=821)
    ap.add_argument("--key", default=None)
    ap.add_argument("--tune", action="store_true")
    args = ap.parse_args()
    seg = load_segmenter()
    if args.tune:
        for own in ("KR1d0003", "KR1d0053"):
            allr = [r for r in read_records(ROOT / "data" / "punct" / f"{own}.punct.jsonl", split="train")
                    if r["text"] and r["id"].startswith(own + "_007#")]
            pas = record_passages(allr)
            keep = [i for i, r in enumerate(allr) if r.get("aligned", 1) >= 0.9]
            recs, ps = [allr[i] for i in keep], [pas[i] for i in keep]
            for name, book, old in ((own, own, False), ("unknown, before", "KR1d0028", True), ("unknown, now", "KR1d0028", False)):
                s = score(recs, read(seg, [r["text"] for r in recs], [record_kind(r) for r in recs], [book] * len(recs), ps, old))
                bm = s["by_marker"]
                print(own, "juan 7 read as", f"{name:16s}", {m: s[m]["f1"] for m in ("seg", "punct", "sentence")},
                      {k: bm[k]["seg"]["f1"] for k in ("經", "注", "疏", "音義")})
        return
    doc = read_document(ROOT / "data" / "corpus" / "KR1d0028" / f"KR1d0028_{args.juan}.txt")
    us = [u for u in doc.units if u.text and u.kind in ("base", "commentary")]
    shu = [(u.text, p) for u, p in zip(us, passages_of(doc, us)) if unit_kind(u) == "疏"]
    texts, ps = [t for t, _ in shu], [p for _, p in shu]
    new = read(seg, texts, ["疏"] * len(texts), [doc.book] * len(texts), ps, old=False)
    old = read(seg, texts, ["疏"] * len(texts), [doc.book] * len(texts), ps, old=True)
    items = windows(texts, new, old)
    print(f"# {doc.id}: {len(texts)} 疏 units, {sum(map(len, texts))} chars, {len(items)} positions read otherwise")
    print_round(items, args.seed, args.key)


if __name__ == "__main__":
    main()
