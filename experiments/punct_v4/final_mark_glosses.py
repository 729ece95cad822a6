"""What choosing the sentence-final mark by final_threshold does to the glosses (silver, the tune
juan, before dev is read): glosses read with v2's own marks (what the 注 gloss reader reads),
the marks chosen by argmax and by the model's final_threshold, each against the glosses read with
the edition's marks; then every span that differs.

    python experiments/punct_v4/final_mark_glosses.py [--train]
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


def main() -> None:
    seg = load_segmenter(paths.SEGMENTER_MODEL)
    backend = seg.backend
    tuned = backend.final_threshold
    counts = {}
    pairs = list(passage_pairs(tune="--train" not in sys.argv))
    by = {}
    for settings in (None, tuned):
        backend.final_threshold = settings
        for p in pairs:
            book = p["book"]
            kind = "note" if book == "KR1d0030" else "注"
            kw = {} if book == "KR1d0030" else {"books": [book]}
            marks = seg.predict([p["text"]], [kind], **kw)[0]
            z = book != "KR1d0030"
            gold = set(spans(align_block(p["passage"], p["text"], p["marks"], zhushu=z)))
            got = set(spans(align_block(p["passage"], p["text"], marks, zhushu=z)))
            c = counts.setdefault((book, str(settings)), [0, 0, 0])
            c[0] += len(got & gold)
            c[1] += len(got)
            c[2] += len(gold)
            by.setdefault(p["id"], []).append((got, gold, p))
    backend.final_threshold = tuned
    for (book, name), c in sorted(counts.items()):
        print(json.dumps({"book": book, "final_threshold": name, **prf(*c)}, ensure_ascii=False))
    for pid, ((a, gold, p), (b, _, _)) in by.items():
        if a != b:
            print(json.dumps({"id": pid, "argmax_only": [p["passage"][s:e] + ("✓" if (s, e) in gold else "✗") for s, e in sorted(a - b)],
                              "final_threshold_only": [p["passage"][s:e] + ("✓" if (s, e) in gold else "✗") for s, e in sorted(b - a)]},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
