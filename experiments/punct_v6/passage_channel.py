"""The passage as the network's own input (stop 77; issue 22 item 3, docs/segmentation.md "Stop 77").

The passage prior re-decides a 注's breaks after the network, from its break logit and eleven passage-match features (a
logistic regression). Here the network reads the passage itself: every character of a 注 (or a 集釋 note) carries the
length of the longest stretch of its passage ending at it and starting at it (0-4, an embedding of 8 dimensions added to
the BiLSTM's input; 0 for every other unit). v6's weights start it — the new input columns at zero, so before training it
is v6 exactly — and it trains on for a few short epochs on our own text (the outside prose at a small share, to keep the
rest of what v6 knows).

    python experiments/punct_v6/passage_channel.py train OUT.pt [--epochs 2] [--other-frac 0.3] [--outside-frac 0.01]
    python experiments/punct_v6/passage_channel.py score OUT.pt     # the tune juan: v6 alone, v6 + its passage prior, this

Scores the tune juan only (held out of v6 and of this training); reads no dev juan.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.segment.bilstm import PAD, NeuralSegmenter, encode_batch  # noqa: E402
from pipeline.segment.data import PUNCT_FILE, read_records  # noqa: E402
from pipeline.segment.passage import PASSAGE_IDS, PassagePrior, group_of, passage_ids  # noqa: E402
from pipeline.train.segment import outside_data, training_data, v2_records, zhushu_data  # noqa: E402
from pipeline.train.segment.bilstm import _bucket, _chunks  # noqa: E402

V6 = ROOT / "models" / "segmenter-v6"
PRIOR = ROOT / "models" / "segmenter-v6-passage"
NOTE_KINDS = ("注", "note")
N_IDS = PASSAGE_IDS  # the channel's ids (pipeline/segment/passage.py, passage_ids: the prototype's own copy moved there)
PEMB = 8


class PassageTagger(nn.Module):
    """v6's Tagger with the passage embedding added to the BiLSTM's input (zero columns at the start)."""

    def __init__(self, base):
        super().__init__()
        self.base = base
        self.pemb = nn.Embedding(N_IDS, PEMB)
        old = base.rnn
        self.rnn = nn.LSTM(old.input_size + PEMB, old.hidden_size, num_layers=old.num_layers, bidirectional=True,
                           batch_first=True, dropout=old.dropout)
        with torch.no_grad():
            for name, p in self.rnn.named_parameters():
                q = getattr(old, name)
                if name.startswith("weight_ih_l0"):
                    p.zero_()
                    p[:, : q.shape[1]] = q
                else:
                    p.copy_(q)
        del base.rnn

    def forward(self, chars, bigrams, kinds, lengths, books, pids):
        b = self.base
        T = chars.shape[1]
        x = [b.char(chars), b.bigram(bigrams), b.kind(kinds).unsqueeze(1).expand(-1, T, -1),
             b.book(books).unsqueeze(1).expand(-1, T, -1)]
        x = b.drop(torch.cat(x, dim=-1))
        x = torch.cat([x, self.pemb(pids)], dim=-1)
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        h, _ = self.rnn(packed)
        h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True, total_length=T)
        return b.out(b.drop(h))


def load(path: Path | None):
    seg = NeuralSegmenter.load(V6, quantize=False)
    model = PassageTagger(seg.model)
    if path is not None:
        model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    model.eval()
    return seg, model


def passages_by_id() -> dict[str, str]:
    out = {}
    for name in ("KR1d0003.punct.jsonl", "KR1d0053.punct.jsonl", PUNCT_FILE.name):
        recs = read_records(PUNCT_FILE.parent / name)
        for r, p in zip(recs, record_passages(recs)):
            if p:
                out[r["id"]] = p
    return out


def with_ids(recs: list[dict], passages: dict[str, str]) -> list[dict]:
    for r in recs:
        p = passages.get(r["id"]) if r["kind"] in NOTE_KINDS else None
        r["pids"] = passage_ids(r["text"], p)
    return recs


def chunks(r: dict) -> list[dict]:
    out, at = [], 0
    for c in _chunks(r):
        c["pids"] = r["pids"][at : at + len(c["text"])]
        at += len(c["text"])
        out.append(c)
    return out


def batch_tensors(batch, vocab, n_kinds, unk_p=0.0, rng=None):
    chars, bigs, kk, lengths, labels, weights, bb = encode_batch(batch, vocab, unk_p, rng, n_kinds)
    pids = torch.zeros_like(chars)
    for i, it in enumerate(batch):
        pids[i, : len(it["pids"])] = torch.tensor(it["pids"])
    return chars, bigs, kk, lengths, labels, weights, bb, pids


def probs(model, vocab, recs, n_kinds, use_passage=True):
    out = []
    with torch.no_grad():
        for i in range(0, len(recs), 32):
            b = [dict(r, marks={}) if use_passage else dict(r, marks={}, pids=[0] * len(r["text"])) for r in recs[i : i + 32]]
            chars, bigs, kk, lengths, _l, _w, bb, pids = batch_tensors(b, vocab, n_kinds)
            p = torch.softmax(model(chars, bigs, kk, lengths, bb, pids), -1).numpy()
            out += [p[j, : len(r["text"])] for j, r in enumerate(b)]
    return out


def tune_records():
    _, tune, _ = training_data()
    v2_records([], tune, [])
    _, ztune = zhushu_data()
    return with_ids(tune + ztune, passages_by_id())


def f1(pred: set, gold: set) -> tuple[int, int, int]:
    return len(pred & gold), len(pred), len(gold)


def score(args) -> None:
    torch.set_num_threads(1)
    recs = tune_records()
    passages = passages_by_id()
    v6 = NeuralSegmenter.load(V6, quantize=False)
    _, new = load(Path(args.model))
    prior = PassagePrior.load(PRIOR)
    base_p = v6.probs([r["text"] for r in recs], [r["kind"] for r in recs], books=[r["book"] for r in recs])
    new_p = probs(new, v6.vocab, recs, v6.model.n_kinds)
    new_p0 = probs(new, v6.vocab, recs, v6.model.n_kinds, use_passage=False)
    rows = {}
    for thr in (0.5, 0.55, 0.6, 0.65):
        for r, bp, np_, np0 in zip(recs, base_p, new_p, new_p0):
            n = len(r["text"])
            gold = {k for k in map(int, r["marks"]) if 0 < k < n}
            group = "集釋" if r["book"] == "KR1d0030" else "注疏"
            kind = "注" if r["kind"] in NOTE_KINDS else "other"
            views = {"v6": bp, "new": np_, "new, no passage": np0}
            for name, p in views.items():
                pred = set((np.nonzero(p[: n - 1, 0] < thr)[0] + 1).tolist())
                c = rows.setdefault((thr, name, group, kind), [0, 0, 0])
                for i, v in enumerate(f1(pred, gold)):
                    c[i] += v
            if kind == "注" and r["id"] in passages and thr == 0.6:
                br = prior.breaks(bp, passages[r["id"]], r["text"], group_of(r["book"]))
                pred = set((np.nonzero(br)[0] + 1).tolist())
                c = rows.setdefault((thr, "v6 + its passage prior", group, kind), [0, 0, 0])
                for i, v in enumerate(f1(pred, gold)):
                    c[i] += v
    from pipeline.segment import load_segmenter

    notes = [r for r in recs if r["kind"] in NOTE_KINDS and r["id"] in passages]
    default = load_segmenter()
    for name, sg in (("the default (priors, memory)", default), ("the default without its memory", default.without_memory())):
        pred = sg.predict([r["text"] for r in notes], [r["kind"] for r in notes], books=[r["book"] for r in notes],
                          passages=[passages[r["id"]] for r in notes])
        for r, m in zip(notes, pred):
            n = len(r["text"])
            gold = {k for k in map(int, r["marks"]) if 0 < k < n}
            c = rows.setdefault((0.0, name, "集釋" if r["book"] == "KR1d0030" else "注疏", "注"), [0, 0, 0])
            for i, v in enumerate(f1({int(k) for k in m if 0 < int(k) < n}, gold)):
                c[i] += v
    for key in sorted(rows):
        tp, pr, go = rows[key]
        print(*key, f"seg F1 {2 * tp / (pr + go):.4f} ({go} breaks)")


def train(args) -> None:
    torch.manual_seed(77)
    torch.set_num_threads(1)
    rng = random.Random(77)
    seg, model = load(None)
    vocab, n_kinds = seg.vocab, seg.model.n_kinds
    passages = passages_by_id()
    train_recs, _tune, extra = training_data()
    v2_records(train_recs, [], extra)
    zs, _ = zhushu_data()
    own = [c for r in with_ids(train_recs + zs, passages) for c in chunks(r)]
    notes = [c for c in own if c["kind"] in NOTE_KINDS and any(c["pids"])]
    others = [c for c in own if not (c["kind"] in NOTE_KINDS and any(c["pids"]))]
    ext = [c for r in with_ids(extra, {}) for c in chunks(r)]
    outside = [c for r in with_ids(outside_data(), {}) for c in chunks(r)] if args.outside_frac else []
    print(f"notes {len(notes)} chunks ({sum(len(c['text']) for c in notes)} chars), others {len(others)}, ext {len(ext)},"
          f" outside {len(outside)}", flush=True)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    total, step = None, 0
    for ep in range(args.epochs):
        model.train()
        items = notes + [c for c in others + ext if rng.random() < args.other_frac] + \
            [c for c in outside if rng.random() < args.outside_frac]
        batches = _bucket(items, 6000, rng)
        total = total or len(batches) * args.epochs
        losses = []
        for b in batches:
            for g in opt.param_groups:
                g["lr"] = args.lr * max(0.05, 1 - step / total)
            chars, bigs, kk, lengths, labels, weights, bb, pids = batch_tensors(b, vocab, n_kinds, 0.02, rng)
            logits = model(chars, bigs, kk, lengths, bb, pids)
            lt = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), reduction="none",
                                             ignore_index=-100)
            w = weights.reshape(-1) * (labels.reshape(-1) != -100)
            loss = (lt * w).sum() / w.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            losses.append(float(loss.detach()))
            step += 1
        model.eval()
        torch.save(model.state_dict(), args.model)
        print(f"epoch {ep + 1}: {len(items)} chunks, {sum(len(c['text']) for c in items)} chars, loss {np.mean(losses):.4f},"
              f" {time.time() - t0:.0f}s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("train", "score"))
    ap.add_argument("model")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--other-frac", type=float, default=0.3)
    ap.add_argument("--outside-frac", type=float, default=0.01)
    args = ap.parse_args()
    (train if args.what == "train" else score)(args)


if __name__ == "__main__":
    main()
