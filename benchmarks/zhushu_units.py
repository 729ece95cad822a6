"""Units of the embedded 注疏 by kind and marker, markers alone (docs/ingest.md, the 注疏 tables).

    python3 benchmarks/zhushu_units.py
"""

from __future__ import annotations

import glob
from collections import Counter

from pipeline import paths
from pipeline.ingest import read_document


def main() -> None:
    for books in (("KR1d0003", "KR1d0053"), ("KR1d0028",)):
        n: Counter = Counter()
        chars: Counter = Counter()
        for book in books:
            for path in sorted(glob.glob(str(paths.DATA / "corpus" / book / "*.txt"))):
                for u in read_document(path, base_text=None).units:
                    n[u.kind, u.marker] += 1
                    chars[u.kind, u.marker] += len(u.text)
        print(" + ".join(books))
        for key in sorted(n, key=str):
            print(f"  {key[0]:<10} {key[1] or '-':<4} {n[key]:>6,} units {chars[key]:>10,} chars")


if __name__ == "__main__":
    main()
