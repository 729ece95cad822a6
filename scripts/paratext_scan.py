"""List the units not filed as header or title whose text reads like one: a juan title (`X卷N`,
`…卷N考證`), 欽定四庫全書, the SBCK's character counts (`經八百四十四字注…`), an author line (`…撰`, `…編`,
`…述` — these also end ordinary sentences: read each), `卷N終`. Candidates for reading by hand, not
a pass / fail check (stop 56 found with it the SBCK counts read as 注, 表記集傳's appendix title and author
line read as comments, and `禮記卷二十三考證` read as a 考證 entry; after the fixes it lists 23 sentences of
text ending in 編 / 述 / 撰 / 纂, and nothing else):

    python scripts/paratext_scan.py data/corpus ../shared/corpus [--all]
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pipeline.errors import InputError  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.ingest.wyg_print import NUMERALS as _NUM  # noqa: E402

PATTERNS = {
    "juan title": re.compile(rf"^.{{0,10}}[卷巻]第?[{_NUM}]+(?:考證|上|下|之[{_NUM}]+)?$"),
    "欽定四庫全書": re.compile(r"欽定四庫全書"),
    "counts": re.compile(rf"[經注][{_NUM}千萬万]+字?[注疏]"),
    "author line": re.compile(r"(?:撰|編|輯|纂|[^言]述)$"),
    "juan end": re.compile(rf"[卷巻][{_NUM}]+終$"),
}
MAX_LEN = 40  # a header is short; a longer unit is text that happens to hold the words


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--all", action="store_true", help="print every candidate (default: 15 of each kind)")
    args = ap.parse_args()
    files = sorted(f for folder in args.folders for f in glob.glob(os.path.join(folder, "**", "*.txt"), recursive=True))
    found: dict[str, list[tuple]] = collections.defaultdict(list)
    for f in files:
        try:
            doc = read_document(f)
        except InputError:
            continue  # refused input makes no units
        for unit in doc.units:
            text = unit.text.strip("\u3000 ")
            if unit.kind in ("header", "title") or len(text) >= MAX_LEN:
                continue
            for name, pattern in PATTERNS.items():
                if pattern.search(text):
                    found[name].append((os.path.relpath(f), unit.seq, unit.kind, unit.marker, text))
    print(f"{len(files)} files")
    for name in PATTERNS:
        print(f"{name}: {len(found[name])}")
        for item in found[name] if args.all else found[name][:15]:
            print("   ", *item)


if __name__ == "__main__":
    main()
