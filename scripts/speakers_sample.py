"""A seeded sample of commentary units of a print-grammar book, for the hand check of attributions.

    python scripts/speakers_sample.py ../shared/corpus/KR1d0057 --n 50 --seed 20

Draws from the commentary units of the juan (front matter left out), and prints a Markdown
table: unit id, the printed line the unit starts on (as in the source), the marker, source and
source_name read, and the first characters of the text. The verdict column is left for the
reader to fill (docs/ingest.md holds the filled table).
"""

from __future__ import annotations

import argparse

from units_sample import draw  # (scripts/ is on the path of a script run from it)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("book")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    print("| # | unit | printed line it starts on | marker | source | source_name | text | verdict |")
    print("|---:|---|---|---|---|---|---|---|")
    for i, (uid, doc, k) in enumerate(draw(args.book, {"commentary"}, args.n, args.seed), start=1):
        u = doc.units[k]
        line_start = doc.source.rfind("\n", 0, u.start) + 1
        printed = doc.source[line_start : doc.source.find("\n", u.start)].rstrip("¶")
        print(f"| {i} | {uid} | {printed} | {u.marker or ''} | {u.source or ''} | {u.source_name or ''} | {u.text[:12]}… | |")


if __name__ == "__main__":
    main()
