"""Every `注` left inside a 注 unit of the three 注疏 (embedded and ../shared juan), with the eight
characters before and after it: each is the 注's own word (注猶聚也, 下及注同) or a marker the reader
did not read — a 經 that ran on in the 注 and was not found in the plain text (docs/ingest.md, stops 50
and 62). Prints one line each and the count by book.

    PYTHONPATH=. python experiments/ingest/inner_zhu.py [--book KR1d0053]   # ~10 s
"""
import argparse
import glob
import re
from collections import Counter
from pathlib import Path

from pipeline.ingest import read_document

ZHUSHU = ("KR1d0003", "KR1d0028", "KR1d0053")


def zhushu_files(books=ZHUSHU) -> list[str]:
    """Each juan of the books once: the embedded file, else ../shared's."""
    files, seen = [], set()
    for book in books:
        for root in ("data/corpus", "../shared/corpus"):
            for f in sorted(glob.glob(f"{root}/{book}/*.txt")):
                if Path(f).name not in seen:
                    seen.add(Path(f).name)
                    files.append(f)
    return files


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--book", action="append", help="KR1d0003, KR1d0028, KR1d0053 (default: all three)")
    books = ap.parse_args().book or ZHUSHU
    count = Counter()
    files = zhushu_files(books)
    for f in files:
        for u in read_document(f).units:
            if u.kind == "commentary" and u.marker == "注":
                for m in re.finditer("注", u.text[1:]):
                    k = m.start() + 1
                    print(Path(f).stem, u.text[max(0, k - 8) : k], "|注|", u.text[k + 1 : k + 9], sep=" ")
                    count[Path(f).name[:8]] += 1
    print(dict(count), sum(count.values()), f"in {len(files)} files")


if __name__ == "__main__":
    main()
