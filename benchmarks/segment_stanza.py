"""A Stanza tokenizer trained here as a punctuation restorer, scored against zhushu's segmenter.

    pip install -e ".[stanza]"
    python benchmarks/segment_stanza.py --work /tmp/stanza-seg [--steps 8000] [--stanza-args "..."] [--json]

The Stanza member of the hybrid segmenter on its own (`pipeline/segment/stanza.py`: labels,
training, prediction). Prediction 1 (clause end) becomes "，" and 2 (sentence end) "。": Stanza
cannot name the other five marks, so its seg F1 is the comparable figure and its punct F1 a
lower bound. Same data as `zhushu train segmenter`: the train split (aligned ≥ 0.75) less the
tune juan, plus the 禮記/周禮 extra text; the tune juan (7, 27) are Stanza's dev set for checkpoint
selection and the learning-rate schedule. Juan 10 (dev) is only predicted.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

# seg_bench first: it puts the repository root on sys.path for the pipeline imports
from seg_bench import print_table, scored_records, summary_row, timed_score, zhushu_predict  # isort: skip
from pipeline.segment.data import PUNCT_FILE
from pipeline.segment.stanza import StanzaBreaker
from pipeline.train.segment.stanza import STANZA_ARGS, train_stanza
from pipeline.train.segment import training_data


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, help="folder for the Stanza model")
    ap.add_argument("--gold", default=str(PUNCT_FILE))
    ap.add_argument("--split", default="dev")
    ap.add_argument("--steps", type=int, default=STANZA_ARGS["steps"])
    ap.add_argument("--hidden", type=int, default=STANZA_ARGS["hidden_dim"])
    ap.add_argument("--emb", type=int, default=STANZA_ARGS["emb_dim"])
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--stanza-args", default="", help='more options for stanza.models.tokenizer, e.g. "--dropout 0.2"')
    ap.add_argument("--model", help="a trained tokenizer .pt: skip training")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    logging.getLogger("stanza").setLevel(logging.INFO)
    train_s = None
    model = Path(args.model) if args.model else Path(args.work) / "tokenizer.pt"
    if not args.model:
        train, tune, extra = training_data()
        t0 = time.perf_counter()
        train_stanza(train + extra, tune, model, seed=args.seed, steps=args.steps, hidden_dim=args.hidden,
                     emb_dim=args.emb, extra_args=args.stanza_args.split())
        train_s = time.perf_counter() - t0

    records = scored_records(args.gold, args.split)
    results = {"zhushu": timed_score(records, zhushu_predict()),
               "stanza": timed_score(records, StanzaBreaker(model).predict)}
    summary = {"records": len(records), "chars": sum(len(r["text"]) for r in records), "split": args.split,
               "stanza_train_seconds": None if train_s is None else round(train_s),
               "stanza_model_mb": round(model.stat().st_size / 2**20, 1)}
    summary.update({name: summary_row(r) for name, r in results.items()})
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{summary['records']} records, {summary['chars']} chars (split {args.split}); "
              f"stanza model {summary['stanza_model_mb']} MB"
              + ("" if train_s is None else f", trained in {summary['stanza_train_seconds']} s"))
        print_table(summary, ["zhushu", "stanza"])
    return summary


if __name__ == "__main__":
    main()
