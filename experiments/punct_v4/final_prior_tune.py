"""The default segmenter with and without its final prior on the tune juan (never fitted on):
sentence / punct F1 of the 注疏 tune juan as `eval segment` reads them (each 注 with its passage),
and the glosses read with the segmenter's own marks (what align's 注 gloss reader reads) against the
glosses read with the edition's marks. Before dev is read.

    python experiments/punct_v4/final_prior_tune.py [--train]
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
from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from pipeline.segment import load_segmenter, marks_and_own  # noqa: E402
from pipeline.segment.data import read_records  # noqa: E402
from pipeline.train.segment import TUNE_JUAN_ZHUSHU  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402


def main() -> None:
    seg = load_segmenter(paths.SEGMENTER_DEFAULT)
    fp = seg.final_prior
    train = "--train" in sys.argv
    pairs = list(passage_pairs(tune=not train))
    for name in ("KR1d0003", "KR1d0053"):
        if train:
            break
        recs = [r for r in read_records(paths.DATA / "punct" / f"{name}.punct.jsonl")
                if r["id"].split("#")[0] in TUNE_JUAN_ZHUSHU and r["text"]]
        kinds = ["base" if r["kind"] == "base" else r.get("marker") or "注" for r in recs]
        for label, prior in (("without", None), ("with", fp)):
            seg.final_prior = prior
            pred = seg.predict([r["text"] for r in recs], kinds, books=[name] * len(recs), passages=record_passages(recs))
            r = score(recs, pred)
            print(json.dumps({"book": name, "final_prior": label, "sentence": r["sentence"]["f1"], "punct": r["punct"]["f1"],
                              "by_marker": {k: v["sentence"]["f1"] for k, v in r.get("by_marker", {}).items()}}, ensure_ascii=False))
    counts = {}
    for label, prior in (("without", None), ("with", fp)):
        seg.final_prior = prior
        for p in pairs:
            book = p["book"]
            if book == "KR1d0030":
                continue
            marks, own = marks_and_own(seg, [p["text"]], ["注"], books=[book], passages=[p["passage"]])[0]
            gold = set(spans(align_block(p["passage"], p["text"], p["marks"], zhushu=True)))
            got = set(spans(align_block(p["passage"], p["text"], own or marks, zhushu=True)))
            c = counts.setdefault((book, label), [0, 0, 0])
            c[0] += len(got & gold)
            c[1] += len(got)
            c[2] += len(gold)
    seg.final_prior = fp
    for (book, label), c in sorted(counts.items()):
        print(json.dumps({"glosses": book, "final_prior": label, **prf(*c)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
