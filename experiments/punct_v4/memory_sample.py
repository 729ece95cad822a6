"""Where the phrase memory changes the default segmenter's marks on the tune juan (never in the
memory): every change counted against the edition, and a seeded sample printed for a hand check
(docs/segmentation.md, "Stop 34").

    python experiments/punct_v4/memory_sample.py [--seed 34] [--n 24]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import read_records, record_kind  # noqa: E402
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--n", type=int, default=24)
    args = ap.parse_args()
    seg = load_segmenter()
    bare = seg.without_memory()
    changes, counts = [], Counter()
    for book, juan in (("KR1d0003", TUNE_JUAN_ZHUSHU), ("KR1d0053", TUNE_JUAN_ZHUSHU), ("KR1d0030", TUNE_JUAN)):
        recs = [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl")
                if r["id"].split("#")[0] in juan and r["text"] and r.get("aligned", 1.0) >= 0.9]
        args_ = ([r["text"] for r in recs], [record_kind(r) for r in recs])
        kw = {"books": [book] * len(recs), "passages": record_passages(recs)}
        for r, a, b in zip(recs, bare.predict(*args_, **kw), seg.predict(*args_, **kw)):
            n = len(r["text"])
            gold = {int(k): v for k, v in r["marks"].items()}
            for k in sorted(set(a) | set(b)):
                if k >= n or (k in a) == (k in b) and (k not in a or a[k] == b[k]):
                    continue
                kind = record_kind(r)
                what = "added" if k in b and k not in a else "removed" if k in a and k not in b else "mark changed"
                agree = (k in gold) == (k in b) and (k not in b or what != "mark changed" or gold[k] == b[k])
                counts[(book, kind, what, "edition agrees" if agree else "edition differs")] += 1
                t = r["text"]
                changes.append((r["id"], kind, what, t[max(0, k - 10):k] + "｜" + t[k:k + 10],
                                a.get(k, "·"), b.get(k, "·"), gold.get(k, "·")))
    for key in sorted(counts):
        print(" / ".join(key), counts[key])
    print()
    for i, c in enumerate(sorted(random.Random(args.seed).sample(changes, min(args.n, len(changes)))), 1):
        print(i, *c, sep=" | ")


if __name__ == "__main__":
    main()
