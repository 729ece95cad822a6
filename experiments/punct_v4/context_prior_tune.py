"""The default segmenter with and without its context prior on the tune juan (never fitted on):
seg / sentence / punct F1 of the tune juan as `eval segment` reads them (each 注 with its
passage), and the 注疏's glosses read with the segmenter's own marks (what align's 注 gloss reader
reads) against the glosses read with the edition's marks. Before dev is read.

    python experiments/punct_v4/context_prior_tune.py [--train] [--model DIR]
        # --train: the glosses of the train juan; --model: another folder with a context prior
        # (default models/segmenter-v2-passage)
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
from pipeline.segment.data import read_records, record_kind  # noqa: E402
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402


def tune_records(name: str) -> list[dict]:
    """The tune juan's records of a book (aligned >= 0.9), as eval segment reads them."""
    juan = TUNE_JUAN if name == "KR1d0030" else TUNE_JUAN_ZHUSHU
    return [r for r in read_records(paths.DATA / "punct" / f"{name}.punct.jsonl")
            if r["id"].split("#")[0] in juan and r["text"] and r.get("aligned", 1.0) >= 0.9]


def segment_row(seg, name: str, recs: list[dict]) -> dict:
    """seg / sentence / punct F1 of the records, each 注 with its passage, by kind."""
    kinds = [record_kind(r) for r in recs]  # (as eval segment gives them)
    pred = seg.predict([r["text"] for r in recs], kinds, books=[name] * len(recs), passages=record_passages(recs))
    r = score(recs, pred)
    parts = r.get("by_marker") or r["by_kind"]
    return {"book": name, "seg": r["seg"]["f1"], "sentence": r["sentence"]["f1"], "punct": r["punct"]["f1"],
            "seg_by": {k: v["seg"]["f1"] for k, v in parts.items()},
            "sentence_by": {k: v["sentence"]["f1"] for k, v in parts.items()}}


def gloss_counts(seg, pairs, counts: dict, label: str) -> None:
    """Add the 注疏's 注 glosses read with the segmenter's (own) marks against those read with the
    edition's to counts[(book, label)] = [right, read, silver]."""
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


def main() -> None:
    args = sys.argv[1:]
    model = Path(args[args.index("--model") + 1]) if "--model" in args else paths.SEGMENTER_DEFAULT
    seg = load_segmenter(model)
    fp = seg.context_prior
    train = "--train" in sys.argv
    pairs = list(passage_pairs(tune=not train))
    for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
        if train:
            break
        recs = tune_records(name)
        for label, prior in (("without", None), ("with", fp)):
            seg.context_prior = prior
            row = segment_row(seg, name, recs)
            print(json.dumps({"book": name, "context_prior": label, **{k: v for k, v in row.items() if k != "book"}},
                             ensure_ascii=False))
    counts = {}
    for label, prior in (("without", None), ("with", fp)):
        seg.context_prior = prior
        gloss_counts(seg, pairs, counts, label)
    seg.context_prior = fp
    for (book, label), c in sorted(counts.items()):
        print(json.dumps({"glosses": book, "context_prior": label, **prf(*c)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
