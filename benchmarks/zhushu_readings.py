"""音義 readings of 周禮注疏 and 禮記註疏: how many, how many anchored, and a sample to check.

    PYTHONPATH=. python3 benchmarks/zhushu_readings.py [--fold] [--sample 50 --seed 13 [--split dev --exclude-gold FILE]]
    PYTHONPATH=. python3 benchmarks/zhushu_readings.py --fold --book KR1d0028 --sample 30 --seed 40 --split all

Counts run over every juan of both books (read with the TLS 經 text, so that a 經 passage
that runs on from a 注 is a base unit); the sample is drawn from train juan (juan not divisible
by 10, juan 0 excluded) or, with --split dev, from the dev juan (10, 20, …), leaving out the notes
of a gold file. `--book KR1d0028 --split all`: the 儀禮注疏 (its 經 text the SBCK 儀禮, as the pipeline
reads it), a book the reading grammar was never written or tuned on; every juan but 0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.ingest import read_document
from pipeline.readings import document_readings

CORPUS = ROOT.parent / "shared" / "corpus"
BOOKS = {"KR1d0003": "KR1d0001", "KR1d0053": "KR1d0052"}
OTHER_BOOKS = {"KR1d0028": "KR1d0026"}  # 儀禮注疏: its 經 from the SBCK 儀禮 (paths.BASE_TEXT_OF)
ALL_BOOKS = {**BOOKS, **OTHER_BOOKS}


def collect(corpus: Path = CORPUS, base: bool = True, fold=None, alternates=None, books=None):
    """(doc id, 音義 unit, reading, glossed units) for every reading of the books (default both)."""
    for book, plain in (books or BOOKS).items():
        for path in sorted((corpus / book).glob("*.txt")):
            doc = read_document(path, base_text=corpus / plain if base else None)
            for unit, readings, targets in document_readings(doc.units, fold, alternates):
                for reading in readings:
                    yield doc.id, unit, reading, targets


def show(doc_id, unit, r, targets) -> dict:
    anchored = None
    if r.target is not None:
        t = next(t for t in targets if t.seq == r.target)
        anchored = f"{'經' if t.kind == 'base' else t.marker or t.kind}#{t.seq}:{r.anchor_start} " \
                   f"{t.text[max(0, r.anchor_start - 6):r.anchor_start]}[{t.text[r.anchor_start:r.anchor_end]}]" \
                   f"{t.text[r.anchor_end:r.anchor_end + 6]}"
    sounds = [(s.authority and "".join(s.authority) + ":" or "") + unit.text[s.start:s.end] for s in r.sounds]
    return {"unit": f"{doc_id}#{unit.seq}", "entry": unit.text[r.head_start:r.sounds[-1].end],
            "head": r.head, "sounds": sounds, "scope": r.scope, "anchor": anchored}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--book", action="append", choices=sorted(ALL_BOOKS),
                    help="the books to read (default KR1d0003 and KR1d0053)")
    ap.add_argument("--split", choices=("train", "dev", "all"), default="train",
                    help="juan the sample is drawn from: train (not divisible by 10, juan 0 excluded) or dev (10, 20, …)")
    ap.add_argument("--exclude-gold", default=None, help="leave out the notes of this readings gold file (annotations/gold/)")
    ap.add_argument("--no-base", action="store_true", help="markers only: no TLS 經 text")
    ap.add_argument("--fold", action="store_true",
                    help="anchor heads on variant forms too (pipeline.variants.fold and reading_alternates, as the align stage does)")
    args = ap.parse_args()
    fold = alternates = None
    if args.fold:
        from pipeline.variants import fold, reading_alternates as alternates
    books = {b: ALL_BOOKS[b] for b in args.book} if args.book else None
    rows = list(collect(base=not args.no_base, fold=fold, alternates=alternates, books=books))
    total = len(rows)
    anchored = sum(r.target is not None for _, _, r, _ in rows)
    kinds: dict[str, int] = {}
    for _, _, r, _ in rows:
        kinds[r.reading.kind] = kinds.get(r.reading.kind, 0) + 1
    alts = sum(len(r.alternatives) for _, _, r, _ in rows)
    print(json.dumps({"readings": total, "anchored": anchored, "anchored_share": round(anchored / total, 4),
                      "by_kind": kinds, "alternatives": alts,
                      "with_scope": sum(r.scope is not None for _, _, r, _ in rows)}, ensure_ascii=False))
    if args.sample:
        gold = set()
        if args.exclude_gold:
            gold = {json.loads(line)["id"] for line in open(args.exclude_gold, encoding="utf-8") if line.strip()}
        dev = args.split == "dev"
        pool = [row for row in rows if int(row[0].split("_")[1]) != 0
                and (args.split == "all" or (int(row[0].split("_")[1]) % 10 == 0) == dev)
                and f"{row[0]}#{row[1].seq}" not in gold]
        for row in random.Random(args.seed).sample(pool, args.sample):
            print(json.dumps(show(*row), ensure_ascii=False))


if __name__ == "__main__":
    main()
