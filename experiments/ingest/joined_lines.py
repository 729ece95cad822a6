"""Stop 51: a copy whose printed lines were joined, four ways, for a train juan of every layout: the
units read against the file's ("same", "N / M" units, or "refused": an InputError). The table in
docs/ingest.md "Printed lines joined" (run it on the commit before and after to see both columns).

    python experiments/ingest/joined_lines.py      (needs ../shared/corpus; about 20 s)
"""

import os
import re
import tempfile

from pipeline.errors import InputError
from pipeline.ingest import read_document

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared", "corpus")
EDITS = {
    "a page a line, ¶ kept": lambda t: re.sub("¶\n(?!<pb|#)", "¶", t),
    "the juan on one line, ¶ kept": lambda t: re.sub("¶\n(?!#)", "¶", t),
    "a page a line, ¶ dropped": lambda t: re.sub("¶\n(?!<pb|#)", "", t),
    "the juan on one line, ¶ dropped": lambda t: re.sub("¶\n(?!#)", "", t),
}
JUAN = ["KR1d0030_005", "KR1d0003_005", "KR1d0028_005", "KR1d0053_005", "KR1d0026_003", "KR1d0057_002",
        "KR1d0040_003", "KR1d0063_001", "KR1d0031_000"]


def units(path: str) -> list[tuple]:
    return [(u.kind, u.marker, u.text) for u in read_document(path).units]


for juan in JUAN:
    src = os.path.join(SHARED, juan.split("_")[0], juan + ".txt")
    ref = units(src)
    row = []
    for edit in EDITS.values():
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, juan + ".txt")
            with open(src, encoding="utf-8") as fh, open(copy, "w", encoding="utf-8", newline="") as out:
                out.write(edit(fh.read()))
            try:
                got = units(copy)
                row.append("same" if got == ref else f"{len(got)} / {len(ref)}")
            except InputError:
                row.append("refused")
    print(juan, " | ".join(f"{name}: {r}" for name, r in zip(EDITS, row)))
