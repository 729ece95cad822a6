"""Stop 81: the 疏 reading its passage through the network's passage channel (issue 22, item 3) — v8.

A 疏 quotes the 經 and 注 it follows («云X者»); its passage is every 經 and 注 printed since the 疏 before it
(segment/passage.py, commentary_passages). A model whose Tagger lists the 疏 among its `passage_kinds` reads
it as v7 reads a 注's. Two ways to train one from v7's weights:

    zhushu train segmenter --recipe v8 --out DIR [--epochs 5]    # v7's draw: every 注 / note chunk, 0.3 of the rest
    python experiments/punct_v8/shu_channel.py train DIR --epochs 2 --lr 0.003   # every 疏 chunk, 0.3 of the rest

then, as for every candidate, its priors and memory refitted and the tune juan read (stop 49's rule):
`zhushu train passage-prior --segmenter DIR --out DIR-passage`, `zhushu train context-prior --segmenter DIR-passage`,
`zhushu train segment-memory --out MEM --segmenter DIR-passage`, `python experiments/punct_v4/memory_tune.py MEM
--segmenter DIR-passage`.

    python experiments/punct_v8/shu_channel.py ablate DIR [DIR …]

reads the network alone (its own threshold, no priors) on the 疏 of the two tune juan (juan 7 of each 注疏,
records aligned ≥ 0.9) with and without their passages: seg F1, what the channel adds.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from pipeline.segment.data import read_records, record_kind  # noqa: E402

TUNE = ("KR1d0003_007", "KR1d0053_007")


def train(out: str, epochs: int, lr: float) -> None:
    from pipeline.train.segment import V8_OVERRIDES, train_segmenter

    train_segmenter(out, "bilstm", log=lambda m: print(m, flush=True),
                    **{**V8_OVERRIDES, "every_kinds": ["疏"], "epochs": epochs, "lr": lr, "checkpoint": f"{out}.ckpt"})


def ablate(folder: str) -> None:
    from pipeline.segment.bilstm import NeuralSegmenter

    model = NeuralSegmenter.load(folder, quantize=False)
    for juan in TUNE:
        book = juan.split("_")[0]
        recs = [r for r in read_records(ROOT / "data" / "punct" / f"{book}.punct.jsonl") if r["id"].startswith(juan + "#") and r["text"]]
        passages = record_passages(recs)
        keep = [i for i, r in enumerate(recs) if record_kind(r) == "疏" and r.get("aligned", 1) >= 0.9]
        texts = [recs[i]["text"] for i in keep]
        row = {}
        for name, given in (("with", [passages[i] for i in keep]), ("without", None)):
            pred = model.predict(texts, ["疏"] * len(texts), books=[book] * len(texts), passages=given)
            row[name] = score([recs[i] for i in keep], pred)["seg"]["f1"]
        print(f"{Path(folder).name}\t{juan} 疏\twith its passage {row['with']:.4f}\twithout {row['without']:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("out")
    t.add_argument("--epochs", type=int, default=2)
    t.add_argument("--lr", type=float, default=3e-3)
    a = sub.add_parser("ablate")
    a.add_argument("folders", nargs="+")
    args = ap.parse_args()
    if args.cmd == "train":
        train(args.out, args.epochs, args.lr)
    else:
        for f in args.folders:
            ablate(f)


if __name__ == "__main__":
    main()
