"""Stop 78: 「言X者…」 explanations where no mark follows the 者 — 「言死者必皆於正處也」 ("it says that the dead …",
a paraphrase of the passage, read as a gloss of 死 in the seed-78 hand check) beside 「言世婦者，眀尊卑同也」 (the
passage's 世婦 quoted). Every such gloss the reader gives on the TRAIN juan of the three books, read with the edition's
own marks (records aligned >= 0.9; the 注 of a 注疏, the 鄭注 of the 集釋), listed for a hand check with a fixed seed:

    python experiments/glosses/yan_midclause.py [--seed 78] [--n 30]
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from gloss_silver import pairs  # noqa: E402

from pipeline.align import align_block  # noqa: E402

YAN = re.compile(r"^(?:[^言，。]{0,4})言")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=78)
    ap.add_argument("--n", type=int, default=30)
    args = ap.parse_args()
    found = {"closed": 0, "open": []}
    for book in ("KR1d0030", "KR1d0003", "KR1d0053"):
        for rid, base, note, marks in pairs(book):
            for g in align_block(base, note, marks, zhushu=book != "KR1d0030"):
                if g.type != "explanation" or g.lemma_start is None:
                    continue
                m = YAN.match(g.text)
                if not m or not g.text[m.end():].startswith(g.lemma + "者"):
                    continue
                zhe = g.note_start + m.end() + len(g.lemma)  # the offset of 者 in the note
                if marks.get(zhe + 1) or zhe + 1 >= g.note_end:
                    found["closed"] += 1
                else:
                    found["open"].append((rid, g.lemma, g.text, base))
    print(f"言X者 explanations: 者 then a mark {found['closed']}, 者 inside its clause {len(found['open'])}")
    for rid, lemma, text, base in random.Random(args.seed).sample(found["open"], min(args.n, len(found["open"]))):
        print(f"{rid}\t{lemma}\t{text}\t| {base[:40]}")


if __name__ == "__main__":
    main()
