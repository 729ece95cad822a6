"""What the passage prior costs the segment stage: chars/s of the default segmenter
(paths.SEGMENTER_DEFAULT, today models/segmenter-v7-passage: its network + the priors, each 注 / note given the base record before it, as
the pipeline gives it its 經 unit) against v2 alone (models/segmenter-v2, no passages), one
thread, the dev split of each book, best of 3 predict calls each, alternately in one run (the
ratio is the measure on a shared machine).

    python benchmarks/segment_prior_speed.py [--model DIR] [BOOK ...]   # default: KR1d0030 KR1d0003 KR1d0053
        # --model: another segmenter folder in the default's place (e.g. an ensemble with its priors)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.data import read_records, record_kind  # noqa: E402


def main(books: list[str], model: Path = paths.SEGMENTER_DEFAULT) -> None:
    import torch

    torch.set_num_threads(1)
    v2 = read_segmenter(paths.SEGMENTER_MODEL)
    default = read_segmenter(model)
    out = {"model": str(model), "load": [round(x, 2) for x in os.getloadavg()[:1]], "books": {}}
    for book in books:
        recs = [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl", split="dev") if r["text"]]
        texts = [r["text"] for r in recs]
        kinds = [record_kind(r) for r in recs]  # as `eval segment` reads them (the 集釋's notes carry no marker)
        bs = [book] * len(texts)
        passages = record_passages(recs)
        n = sum(map(len, texts))
        best = {"v2": 0.0, "default": 0.0}
        for _ in range(3):
            for name, call in (("v2", lambda: v2.predict(texts, kinds, books=bs)),
                               ("default", lambda: default.predict_both(texts, kinds, books=bs, passages=passages))):
                t0 = time.perf_counter()
                call()
                best[name] = max(best[name], n / (time.perf_counter() - t0))
        out["books"][book] = {"chars": n, "with_passage": sum(p is not None for p in passages),
                              "chars_per_second": {k: round(v) for k, v in best.items()},
                              "ratio_default_to_v2": round(best["default"] / best["v2"], 3)}
    out["load"].append(round(os.getloadavg()[0], 2))
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("books", nargs="*", default=["KR1d0030", "KR1d0003", "KR1d0053"])
    ap.add_argument("--model", type=Path, default=paths.SEGMENTER_DEFAULT,
                    help="a segmenter folder in the default's place (e.g. an ensemble with its priors)")
    args = ap.parse_args()
    main(args.books, args.model)
