"""A Stanza tokenizer trained here as a punctuation restorer, scored against zhushu's segmenter.

    pip install -e ".[bench]"          # stanza (CPU; torch is the project's pinned CPU wheel)
    python benchmarks/segment_stanza.py --work /tmp/stanza-seg [--steps 6000] [--json]

Stanza's tokenizer (Qi et al. 2018: conv + BiLSTM character tagger, "hierarchical" second
RNN) labels each character 0 (inside), 1 (token end) or 2 (sentence end). Here a "token" is a
clause: a character followed by a sentence-final mark (。？！) is labelled 2, one followed by any
other mark 1, the rest 0. Each unit is one paragraph, so Stanza never sees across units (as
the guideline's "one unit at a time" asks). Prediction 1 becomes "，" and 2 "。" — Stanza cannot
name the other five marks, so its seg F1 is the comparable figure and its punct F1 a lower bound.

Same data as `zhushu train segmenter`: the train split (aligned ≥ 0.75) less the tune juan,
plus the 禮記/周禮 extra text; the tune juan (7, 27) are Stanza's dev set for early stopping
and the learning-rate schedule. Juan 10 (dev) is only predicted. Nothing is downloaded:
Stanza trains from the files written under --work and is loaded from there.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

# seg_bench first: it puts the repository root on sys.path for the pipeline imports
from seg_bench import print_table, scored_records, summary_row, timed_score, zhushu_predict  # isort: skip
from pipeline.segmenter_data import PUNCT_FILE
from pipeline.segmenter_train import training_data

SENTENCE_FINAL = set("。？！")
LABEL_MARK = {1: "，", 2: "。"}


def stanza_labels(text: str, marks: dict) -> str:
    labels = ["0"] * len(text)
    for k, mark in marks.items():
        k = int(k)
        if 1 <= k <= len(text):
            labels[k - 1] = "2" if mark in SENTENCE_FINAL else "1"
    return "".join(labels)


def write_split(records: list[dict], stem: Path) -> None:
    """One unit a paragraph ("\\n\\n" between them), as Stanza's DataLoader reads them."""
    stem.with_suffix(".txt").write_text("\n\n".join(r["text"] for r in records) + "\n", encoding="utf-8")
    stem.with_suffix(".toklabels").write_text(
        "\n\n".join(stanza_labels(r["text"], r["marks"]) for r in records) + "\n", encoding="utf-8")


def train(work: Path, steps: int, seed: int, extra_args: list[str]) -> tuple[Path, float]:
    from stanza.models import tokenizer

    train_recs, tune_recs, extra = training_data()
    # Stanza splits paragraphs on blank lines and strips whitespace: units must have none.
    train_recs = [r for r in train_recs + extra if r["text"].strip() == r["text"] and "\n" not in r["text"]]
    write_split(train_recs, work / "train")
    write_split(tune_recs, work / "tune")
    (work / "mwt.json").write_text("[]\n", encoding="utf-8")  # no multi-word tokens; Stanza wants the file
    t0 = time.perf_counter()
    tokenizer.main(["--mode", "train", "--lang", "lzh", "--shorthand", "lzh_zhushu",
                    "--txt_file", str(work / "train.txt"), "--label_file", str(work / "train.toklabels"),
                    "--dev_txt_file", str(work / "tune.txt"), "--dev_label_file", str(work / "tune.toklabels"),
                    "--save_dir", str(work), "--save_name", "tokenizer.pt", "--no_use_mwt",
                    "--mwt_json_file", str(work / "mwt.json"),
                    "--steps", str(steps), "--eval_steps", "500", "--seed", str(seed), "--device", "cpu", *extra_args])
    return work / "tokenizer.pt", time.perf_counter() - t0


def stanza_predict(model: Path):
    """A predict(texts, kinds) over the trained tokenizer, loaded once: per-character labels from
    Stanza's own prediction loop, one paragraph a unit (kinds are not used: Stanza has no such input)."""
    from stanza.models.tokenization.data import TokenizationDataset
    from stanza.models.tokenization.trainer import Trainer
    from stanza.models.tokenization.utils import predict

    trainer = Trainer(model_file=str(model), device="cpu")
    args = dict(trainer.args)

    def predict_marks(texts: list[str], kinds: list[str]) -> list[dict[int, str]]:
        batches = TokenizationDataset(args, input_text="\n\n".join(texts), vocab=trainer.vocab,
                                      evaluation=True, dictionary=trainer.dictionary)
        all_preds, _ = predict(trainer, batches, args["batch_size"], max(1000, args["max_seqlen"]),
                               use_regex_tokens=False, num_workers=0)
        if len(all_preds) != len(texts):
            raise RuntimeError(f"stanza returned {len(all_preds)} paragraphs for {len(texts)} units")
        out = []
        for text, preds in zip(texts, all_preds):
            if len(preds) != len(text):
                raise RuntimeError(f"stanza returned {len(preds)} labels for a unit of {len(text)} characters")
            out.append({i + 1: LABEL_MARK.get(int(p), "，") for i, p in enumerate(preds) if int(p) > 0})
        return out

    return predict_marks


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, help="folder for Stanza's training files and model")
    ap.add_argument("--gold", default=str(PUNCT_FILE))
    ap.add_argument("--split", default="dev")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--stanza-args", default="", help='more options for stanza.models.tokenizer, e.g. "--hidden_dim 128"')
    ap.add_argument("--model", help="a trained tokenizer.pt: skip training")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    logging.getLogger("stanza").setLevel(logging.INFO)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    train_s = None
    model = Path(args.model) if args.model else None
    if model is None:
        model, train_s = train(work, args.steps, args.seed, args.stanza_args.split())

    records = scored_records(args.gold, args.split)
    results = {"zhushu": timed_score(records, zhushu_predict()),
               "stanza": timed_score(records, stanza_predict(model))}
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
