"""A seeded sample of the 疏's sentences as the default segmenter punctuates them, with the edition's
marks beside them, for judging by hand (docs/segmentation.md, "The 疏's sentences by hand, stop 41").

    python experiments/punct_v5/shu_sentence_sample.py [--n 30] [--seed 41] [--marker 注]

Records: the 疏 of the tune juan (juan 7 of 周禮注疏 and 禮記註疏: held out of the segmenter's and the
priors' training), aligned >= 0.95 to the edition. A sentence: our text from one sentence-final mark
(。？！) to the next, or to the record's end. Each record is one `predict` call of the pipeline's
segmenter (kind 疏, its book), as `zhushu eval segment` calls it. `--marker 注` (stop 45): the 注
instead, each with its 經 passage, as the pipeline and `eval segment` give it (the passage prior).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--marker", default="疏", choices=("疏", "注"))
    args = ap.parse_args()

    from pipeline.model import SENTENCE_FINAL
    from pipeline.segment import load_segmenter
    from pipeline.segment.data import book_of, read_records, record_kind
    from pipeline.train.segment import TUNE_JUAN_ZHUSHU

    from pipeline.evaluate.segment import record_passages

    recs, passages = [], []
    for book in ("KR1d0003", "KR1d0053"):
        allrecs = [r for r in read_records(ROOT / "data" / "punct" / f"{book}.punct.jsonl") if r["text"]]
        for r, passage in zip(allrecs, record_passages(allrecs)):
            if r.get("marker") == args.marker and r["id"].split("#")[0] in TUNE_JUAN_ZHUSHU and r["aligned"] >= 0.95:
                recs.append(r)
                passages.append(passage if args.marker == "注" else None)
    seg = load_segmenter()
    pred = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[book_of(r["id"]) for r in recs],
                       passages=passages)
    sentences = []
    for r, marks in zip(recs, pred):
        text, start = r["text"], 0
        for k in sorted(marks):
            if marks[k] in SENTENCE_FINAL or k == len(text):
                sentences.append((r, marks, start, k))
                start = k
    for r, marks, s, e in random.Random(args.seed).sample(sentences, args.n):
        text, edition = r["text"], {int(k): v for k, v in r["marks"].items()}
        print(r["id"], s, e)
        print("  ours:", "".join(text[i] + marks.get(i + 1, "") for i in range(s, e)))
        print("  edit:", "".join(text[i] + edition.get(i + 1, "") for i in range(s, e)))
    print(f"# {args.n} of {len(sentences)} sentences in {len(recs)} records (seed {args.seed})")


if __name__ == "__main__":
    main()
