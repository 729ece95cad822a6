"""What the passage prior does to the glosses on the tune juan (silver, before dev is read).

Glosses read with v2's marks and with the prior's marks (models/segmenter-v2-passage), each
against the glosses read with the edition's own marks, on the tune juan's 注 / notes; then every
span the prior's marks add that the edition's marks do not give.

    python experiments/punct_v3/passage_prior_glosses.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline import paths  # noqa: E402
from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import spans  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402


def punctuated(text: str, marks: dict) -> str:
    return "".join(c + marks.get(i + 1, "") for i, c in enumerate(text))


def main() -> None:
    seg = load_segmenter(paths.SEGMENTER_PASSAGE)
    counts = {}
    added = []
    for p in passage_pairs(tune=True):
        book = p["book"]
        kind = "note" if book == "KR1d0030" else "注"
        kw = {} if book == "KR1d0030" else {"books": [book]}
        alone = seg.predict([p["text"]], [kind], **kw)[0]
        prior = seg.predict([p["text"]], [kind], passages=[p["passage"]], **kw)[0]
        z = book != "KR1d0030"
        gold = set(spans(align_block(p["passage"], p["text"], p["marks"], zhushu=z)))
        sa = set(spans(align_block(p["passage"], p["text"], alone, zhushu=z)))
        sb = set(spans(align_block(p["passage"], p["text"], prior, zhushu=z)))
        for name, s in (("v2", sa), ("prior", sb)):
            c = counts.setdefault((book, name), [0, 0, 0])
            c[0] += len(s & gold)
            c[1] += len(s)
            c[2] += len(gold)
        wrong = (sb - sa) - gold
        if wrong:
            added.append({"id": p["id"], "spans": [p["passage"][s:e] for s, e in sorted(wrong)],
                          "prior": punctuated(p["text"], prior)[:60], "edition": punctuated(p["text"], p["marks"])[:60]})
    for (book, name), c in sorted(counts.items()):
        print(json.dumps({"book": book, "marks": name, **prf(*c)}, ensure_ascii=False))
    for a in added:
        print(json.dumps(a, ensure_ascii=False))


if __name__ == "__main__":
    main()
