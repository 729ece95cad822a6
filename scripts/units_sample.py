"""A seeded sample of a book's text units, each printed whole with the units before and after it, for
a hand check of what ingest read (is this unit the whole comment, the right kind, the right break?).

    python scripts/units_sample.py ../shared/corpus/KR1d0063 --n 30 --seed 53 [--kinds base,commentary]

Draws from the base and commentary units (front matter left out; scripts/speakers_sample.py draws its
commentary units with `draw`, so `--kinds commentary` gives its draw); prints for each the kind, marker and
source of the unit and of its neighbours, the unit's text (long ones cut in the middle) and the ends of
the neighbours' (docs/ingest.md, "Stop 53").
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.ingest.wyg_print import is_front_matter  # noqa: E402


def describe(unit) -> str:
    return f"[{unit.kind} {unit.marker or ''}|{unit.source or ''}]"


def draw(book: str, kinds: set[str], n: int, seed: int) -> list[tuple[str, object, int]]:
    """(unit id, document, unit index) of n units of these kinds outside the front matter, drawn with
    the seed from every *.txt of the book folder, in unit-id order (scripts/speakers_sample.py too)."""
    pool = []
    for path in sorted(Path(book).glob("*.txt")):
        doc = read_document(path)
        for i, u in enumerate(doc.units):
            if u.kind not in kinds or is_front_matter(doc.source[: u.start].rsplit("JUAN", 1)[-1].split("\n", 1)[0].strip()):
                continue
            pool.append((doc.unit_id(u), doc, i))
    random.Random(seed).shuffle(pool)
    return sorted(pool[:n], key=lambda x: x[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("book")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=53)
    ap.add_argument("--kinds", default="base,commentary")
    args = ap.parse_args()
    for k, (uid, doc, i) in enumerate(draw(args.book, set(args.kinds.split(",")), args.n, args.seed), start=1):
        u = doc.units[i]
        print(f"## {k} {uid} {describe(u)} {len(u.text)} characters")
        if i:
            print("  before:", describe(doc.units[i - 1]), "…" + doc.units[i - 1].text[-20:])
        print("  text:  ", u.text if len(u.text) <= 90 else u.text[:60] + "…" + u.text[-30:])
        if i + 1 < len(doc.units):
            print("  after: ", describe(doc.units[i + 1]), doc.units[i + 1].text[:20] + "…")


if __name__ == "__main__":
    main()
