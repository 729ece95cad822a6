"""A seeded sample of commentary units of a print-grammar book, for the hand check of attributions.

    python scripts/speakers_sample.py ../shared/corpus/KR1d0057 --n 50 --seed 20

Draws from the commentary units of the juan (front matter left out), and prints a Markdown
table: unit id, the printed line the unit starts on (as in the source), the marker, source and
source_name read, and the first characters of the text. The verdict column is left for the
reader to fill (docs/ingest.md holds the filled table).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.ingest.wyg_print import is_front_matter  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("book")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    pool = []
    for path in sorted(Path(args.book).glob("*.txt")):
        doc = read_document(path)
        for u in doc.units:
            if u.kind != "commentary" or is_front_matter(doc.source[: u.start].rsplit("JUAN", 1)[-1].split("\n", 1)[0].strip()):
                continue
            line_start = doc.source.rfind("\n", 0, u.start) + 1
            line_end = doc.source.find("\n", u.start)
            printed = doc.source[line_start:line_end].rstrip("¶")
            pool.append((doc.unit_id(u), printed, u))
    random.Random(args.seed).shuffle(pool)
    print("| # | unit | printed line it starts on | marker | source | source_name | text | verdict |")
    print("|---:|---|---|---|---|---|---|---|")
    for i, (uid, printed, u) in enumerate(sorted(pool[: args.n], key=lambda x: x[0]), start=1):
        print(f"| {i} | {uid} | {printed} | {u.marker or ''} | {u.source or ''} | {u.source_name or ''} | {u.text[:12]}… | |")


if __name__ == "__main__":
    main()
