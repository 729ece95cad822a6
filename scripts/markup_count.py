"""What the print of each book shows, counted from the markup alone, beside what ingest read.

    python scripts/markup_count.py ../shared/corpus/KR1d0057 ../shared/corpus/KR1d0040 ../shared/corpus/KR1d0063

For each folder (a book) or file: the characters the print sets flush left, indented and in
small notes (pipeline/ingest/printcount.py, which reads the raw text with a few regular
expressions and nothing of the readers), the commentary share that makes under the layout's
grammar, and the share ingest read (pipeline/ingest/check.py), whole book. `--layout` reads
with a named layout instead of the detected one (the check then only reports).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.errors import InputError  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.ingest.check import disagreements  # noqa: E402
from pipeline.ingest.printcount import count_print  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--layout", default="auto")
    args = ap.parse_args()
    print("| book | files | layout | flush | indented | small | of which collation-like | commentary read | by the print | gap | refused |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for item in args.inputs:
        p = Path(item)
        files = sorted(p.glob("*.txt")) if p.is_dir() else [p]
        tot = {"flush": 0, "indented": 0, "small": 0, "collation_like": 0}
        read = {"num": 0.0, "den": 0.0, "pnum": 0.0, "pden": 0.0}
        layouts, refused = set(), []
        for f in files:
            c = count_print(f.read_text(encoding="utf-8"))
            for k in tot:
                tot[k] += getattr(c, k)
            try:
                doc = read_document(f, layout=args.layout)
            except InputError as err:
                refused.append(f"{f.name}: {err.message}")
                continue
            ev = doc.evidence
            layouts.add(ev["layout"])
            # the book's share from its characters (not the mean of its juan)
            read["num"] += ev["commentary_read"]
            read["den"] += ev["text_read"]
            read["pnum"] += ev["commentary_print"]
            read["pden"] += ev["text_print"]
            if args.layout != "auto" and disagreements(ev):
                refused.append(f"{f.name} (would be): {'; '.join(disagreements(ev))}")
        r = read["num"] / read["den"] if read["den"] else 0.0
        q = read["pnum"] / read["pden"] if read["pden"] else 0.0
        print(f"| {p.name} | {len(files)} | {', '.join(sorted(layouts))} | {tot['flush']} | {tot['indented']} | "
              f"{tot['small']} | {tot['collation_like']} | {r:.3f} | {q:.3f} | {r - q:+.3f} | {len(refused)} |")
        for line in refused:
            print(f"<!-- {line} -->")


if __name__ == "__main__":
    main()
