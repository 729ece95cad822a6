"""Checkpoint averaging: a BiLSTM folder whose weights are the mean of several epochs' checkpoints
of one run (the same run's late epochs lie in one basin, so their mean is a model; no speed cost).

    python experiments/punct_v5/average_epochs.py LIKE_DIR OUT_DIR CKPT [CKPT ...] [--layers N]

LIKE_DIR: a model folder trained on the same data (its vocabulary and settings are copied; --layers
overrides the depth when LIKE_DIR is a sibling run of another depth). The thresholds are tuned as
training tunes them (`tune_threshold` on the 集釋 tune juan, `tune_final_threshold` on every tune
juan), then the model alone is scored on the tune juan as the training log scores it (threshold 0.5)
and at its tuned thresholds. Reads no dev juan.
"""
import argparse
import json
import shutil
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment.bilstm import NeuralSegmenter, Tagger, Vocab  # noqa: E402
from pipeline.train.segment import tune_sets  # noqa: E402
from pipeline.train.segment.bilstm import tune_final_threshold, tune_threshold  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("like")
    ap.add_argument("out")
    ap.add_argument("ckpts", nargs="+")
    ap.add_argument("--layers", type=int)
    a = ap.parse_args()
    torch.set_num_threads(1)
    cfg = json.loads((Path(a.like) / "config.json").read_text(encoding="utf-8"))
    if a.layers:
        cfg["arch"]["layers"] = a.layers
    states = [torch.load(c, map_location="cpu", weights_only=False)["model"] for c in a.ckpts]
    mean = {k: sum(s[k].float() for s in states) / len(states) for k in states[0]}
    vocab = Vocab(cfg["chars"], cfg["bigrams"], cfg.get("trigrams"), cfg.get("fold"))
    model = Tagger(len(cfg["chars"]) + 2, vocab.n_ngrams, **cfg["arch"])
    model.load_state_dict(mean)
    small = {k: v for k, v in cfg.items() if k not in ("chars", "bigrams", "trigrams", "fold")}
    small["averaged"] = [Path(c).name for c in a.ckpts]
    out = Path(a.out)
    if out.exists():
        shutil.rmtree(out)
    NeuralSegmenter(model.eval(), vocab, cfg["threshold"], small).save(out)
    seg = NeuralSegmenter.load(out)  # as the pipeline reads it (half-precision embeddings)
    sets = tune_sets()
    for name, recs in sets.items():
        seg.threshold, seg.final_threshold = 0.5, None
        r = score(recs, seg.predict([x["text"] for x in recs], [x["kind"] for x in recs],
                                    books=[x.get("book") for x in recs]))
        print(f"{name} at 0.5: seg {r['seg']['f1']:.4f} punct {r['punct']['f1']:.4f}", flush=True)
    seg.threshold = tune_threshold(seg, sets["集釋"])
    seg.final_threshold = tune_final_threshold(seg, sets["集釋"] + sets["注疏"])
    cfg_out = json.loads((out / "config.json").read_text(encoding="utf-8"))
    cfg_out.update(threshold=seg.threshold, final_threshold=seg.final_threshold)
    (out / "config.json").write_text(json.dumps(cfg_out, ensure_ascii=False), encoding="utf-8")
    for name, recs in sets.items():
        r = score(recs, seg.predict([x["text"] for x in recs], [x["kind"] for x in recs],
                                    books=[x.get("book") for x in recs]))
        print(f"{name} at {seg.threshold} / {seg.final_threshold}: seg {r['seg']['f1']:.4f} "
              f"sentence {r['sentence']['f1']:.4f} punct {r['punct']['f1']:.4f}", flush=True)


if __name__ == "__main__":
    main()
