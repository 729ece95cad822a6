"""Score the 疏 quotation readers on the tune juan: train juan 1-3 of each book, left out of a training run.

    python benchmarks/quotation_tune.py [--reader spans|tagger] [--threshold T ...]

Trains the reader on the train split without the tune juan (into a temporary folder), then scores
it on the tune juan exactly as `zhushu eval quotations` scores (docs/quotations.md, "Measured").
The dev split is never read. Prints one JSON object per threshold (the span reader; the model's
own threshold when none is given). The span reader is read on the text alone (its plain weights);
experiments/quote_marks/measure.py measures it with the segmenter's marks (stop 42).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.evaluate.quotations import reader_inputs, score  # noqa: E402
from pipeline.train.quotations import train, train_records, train_spans  # noqa: E402

TUNE = frozenset(f"{b}_{n:03d}" for b in ("KR1d0003", "KR1d0053") for n in (1, 2, 3))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reader", choices=("spans", "tagger"), default="spans")
    ap.add_argument("--threshold", type=float, action="append", default=[])
    args = ap.parse_args()
    tune = [r for r in train_records() if r["id"].split("#")[0] in TUNE]
    log = lambda m: print(m, file=sys.stderr)  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        if args.reader == "spans":
            from pipeline.align.quote_spans import SpanModel, span_quotations

            train_spans(Path(tmp) / "spans.json", log=log, hold_out=TUNE, marked=False)
            model = SpanModel(Path(tmp) / "spans.json")
            runs = []
            for t in args.threshold or [model.threshold]:
                model.threshold = t
                runs.append((t, [span_quotations(*reader_inputs(r), model=model) for r in tune]))
        else:
            from pipeline.align.quote_tagger import QuoteTagger, tagged_quotations

            train(Path(tmp) / "model.crfsuite", log=log, hold_out=TUNE, marked=False)
            tagger = QuoteTagger(Path(tmp) / "model.crfsuite")
            runs = [(None, [tagged_quotations(*reader_inputs(r), tagger=tagger) for r in tune])]
    for t, preds in runs:
        out = {"reader": args.reader, "threshold": t, "tune_juan": sorted(TUNE)}
        out.update(score(tune, preds))
        print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
