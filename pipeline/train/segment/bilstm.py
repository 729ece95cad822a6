"""Training the BiLSTM segmenter (pipeline/segment/bilstm.py): vocabulary, chunking, the loop, the threshold."""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch
from torch import nn

from pipeline.segment.bilstm import (BOS_EOS, NeuralSegmenter, Tagger, Vocab, decode, encode_batch, item_passage_ids,
                                     passage_batch)
from pipeline.segment.data import LABELS
from pipeline.segment.passage import KINDS as PASSAGE_KINDS


def build_vocab(records: list[dict], min_char: int = 1, min_bigram: int = 2, use_bigrams: bool = True,
                use_trigrams: bool = False, min_trigram: int = 2, fold: str | None = None,
                outside: list[dict] | None = None, outside_min_char: int = 5, outside_min_bigram: int = 50) -> Vocab:
    """Characters and bigrams of `records` (our own text) at min_char / min_bigram, plus those of
    the `outside` prose at their own, higher thresholds: its 19.4 M characters hold 1.09 M bigrams
    seen twice, which would make the bigram table 7x today's (a 150 MB model, and Adam's dense
    update of it the main cost of a training step)."""
    folder = Vocab([], [], fold=fold).fold

    def count(recs, trigrams: bool):
        cc, bc, tc = Counter(), Counter(), Counter()
        for r in recs:
            t = folder(r["text"]) if folder is not None else r["text"]
            cc.update(t)
            if use_bigrams:
                bc.update(a + b for a, b in zip(t, t[1:] + BOS_EOS))
            if trigrams:
                p = BOS_EOS + t + BOS_EOS + BOS_EOS
                tc.update(p[i:i + 3] for i in range(len(t) + 1))
        return cc, bc, tc

    cc, bc, tc = count(records, use_trigrams)
    chars = {c for c, n in cc.items() if n >= min_char}
    bigram_set = {b for b, n in bc.items() if n >= min_bigram} if use_bigrams else set()
    if outside:
        occ, obc, _ = count(outside, False)  # no trigrams are taken from the outside prose
        chars |= {c for c, n in occ.items() if n >= outside_min_char}
        bigram_set |= {b for b, n in obc.items() if n >= outside_min_bigram} if use_bigrams else set()
    chars = sorted(chars)
    bigrams = sorted(bigram_set)
    trigrams = sorted(b for b, n in tc.items() if n >= min_trigram) if use_trigrams and use_bigrams else []
    return Vocab(chars, bigrams, trigrams, fold)


def _chunks(rec: dict, limit: int = 200) -> list[dict]:
    """Cut long records at gold marks into pieces of at most ~limit chars (training only)."""
    text, marks = rec["text"], rec["marks"]
    if len(text) <= limit:
        return [dict(rec)]  # a copy: the teacher's distributions are written into the chunks, not the caller's records
    out, start = [], 0
    cuts = sorted(k for k in marks if 0 < k < len(text))
    pids = rec.get("pids")  # the passage channel's ids, read on the whole record: cut with it

    def piece(a: int, b: int | None) -> dict:
        c = {**rec, "text": text[a:b], "marks": {k - a: v for k, v in marks.items() if a < k and (b is None or k <= b)}}
        if pids is not None:
            c["pids"] = pids[a:b]
        return c

    while len(text) - start > limit:
        cands = [k for k in cuts if start < k <= start + limit]
        end = cands[-1] if cands else start + limit
        out.append(piece(start, end))
        start = end
    out.append(piece(start, None))
    return out


def break_f1(p_none: list[np.ndarray], records: list[dict], threshold: float) -> float:
    """Seg F1 over positions 1..n-1 when a break goes where P(no mark) < threshold."""
    tp = npred = ngold = 0
    for p, r in zip(p_none, records):
        n = len(r["text"])
        pred = set((np.nonzero(p[: n - 1] < threshold)[0] + 1).tolist())
        gold = {k for k in map(int, r["marks"]) if 0 < k < n}
        tp += len(pred & gold)
        npred += len(pred)
        ngold += len(gold)
    return 2 * tp / (npred + ngold) if npred + ngold else 0.0


def tune_threshold(seg: NeuralSegmenter, records: list[dict]) -> float:
    """The P(none) threshold maximising seg F1 on records (a held-out slice of train)."""
    p_none = [p[:, 0] for p in seg.probs([r["text"] for r in records], [r["kind"] for r in records],
                                         books=[r.get("book") for r in records], passages=_passages(records))]
    best, best_f = 0.5, -1.0
    for t in np.arange(0.2, 0.81, 0.025):
        f = break_f1(p_none, records, t)
        if f > best_f + 1e-9:
            best, best_f = float(t), f
    return round(best, 3)


def tune_final_threshold(seg, records: list[dict]) -> float:
    """The final_threshold (bilstm.marks_at) maximising sentence F1 on records (held-out train
    juan), the breaks where `seg`'s own threshold puts them. `seg`: a BiLSTM or an ensemble."""
    from pipeline.evaluate.segment import score

    probs = seg.probs([r["text"] for r in records], [r["kind"] for r in records],
                      books=[r.get("book") for r in records], passages=_passages(records))
    best, best_f = 0.5, -1.0
    for t in np.arange(0.3, 0.61, 0.025):
        pred = [decode(p, len(r["text"]), seg.threshold, final_threshold=float(t)) for p, r in zip(probs, records)]
        f = score(records, pred)["sentence"]["f1"]
        if f > best_f + 1e-9:
            best, best_f = float(t), f
    return round(best, 3)


def _passages(records: list[dict]) -> list[str | None]:
    """Each record's passage (training_data / zhushu_data set it on commentary after a base record)."""
    return [r.get("passage") for r in records]


def _bucket(phase_items: list[dict], batch_chars: int, rng: random.Random) -> list[list[dict]]:
    """Bucket by length: sort with jitter, cut into batches of ~batch_chars, shuffle batches."""
    keyed = sorted(phase_items, key=lambda it: len(it["text"]) + rng.random() * 8)
    batches, cur, cur_max = [], [], 0
    for it in keyed:
        m = max(cur_max, len(it["text"]))
        if cur and m * (len(cur) + 1) > batch_chars:
            batches.append(cur)
            cur, m = [], len(it["text"])
        cur.append(it)
        cur_max = m
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def _tune_log(seg: NeuralSegmenter, tune_sets: dict[str, list[dict]]) -> str:
    from pipeline.evaluate.segment import score

    out = []
    seg.threshold = 0.5
    for name, recs in tune_sets.items():
        if not recs:
            continue
        r = score(recs, seg.predict([x["text"] for x in recs], [x["kind"] for x in recs],
                                    books=[x.get("book") for x in recs], passages=_passages(recs)))
        out.append(f"{name} seg {r['seg']['f1']:.4f} punct {r['punct']['f1']:.4f} "
                   + " ".join(f"{k}:{v['seg']['f1']:.4f}" for k, v in r["by_kind"].items()))
    return " | ".join(out)


def train(train_recs: list[dict], tune_recs: list[dict], extra_recs: list[dict] | None = None, *,
          epochs: int = 8, seed: int = 13, arch: dict | None = None, lr: float = 2e-3,
          batch_chars: int = 3000, extra_weight: float = 1.0, unk_p: float = 0.02,
          finetune_epochs: int = 0, finetune_lr: float = 0.25,
          zhushu_recs: list[dict] | None = None, zhushu_weight: float = 1.0, zhushu_frac: float = 1.0,
          pretrain_epochs: int = 0, pretrain_zhushu_frac: float = 1.0, tune_zhushu: list[dict] | None = None,
          outside_recs: list[dict] | None = None, outside_weight: float = 1.0, outside_frac: float = 0.05,
          outside_min_bigram: int = 50, fold: str | None = None, checkpoint: str | Path | None = None,
          teacher=None, teacher_name: str | None = None, distil_weight: float = 0.5,
          init_from: str | Path | None = None, device: str = "cpu", stop_after: int | None = None,
          quantize: bool = True, log=print, time_limit: float | None = None,
          other_frac: float | None = None, every_kinds: list[str] | None = None) -> NeuralSegmenter:
    """Train a tagger. Deterministic for a given seed (one thread, fixed shuffles).

    Records carry "kind" (base / note / ext, or 注疏 kinds 注 / 疏 / 音義 / 小注: see
    segmenter_data.record_kind) and optionally "book" (segmenter_data.BOOK_OF) and "weight".

    Punctuation v2 sources: `zhushu_recs` (the 注疏 records) take part with weight
    `zhushu_weight`; each epoch draws a fresh `zhushu_frac` share of their chunks (a sampling
    rate: the 注疏 are 1.6 M characters, six times the rest). With `pretrain_epochs`, a first
    phase runs on everything (注疏 at `pretrain_zhushu_frac`, weight 1) before the main phase.
    `tune_zhushu` (held-out 注疏 juan) is logged beside the 集釋 tune juan; the threshold is tuned
    on `tune_recs` (the 集釋).

    Punctuation v3 sources: `outside_recs` (the outside punctuated prose, simplified: give `fold`
    "t2s" so that every text is read through the same per-character fold) take part in every
    phase but the fine-tuning, each epoch a fresh `outside_frac` share of their chunks, weight
    `outside_weight`.

    `checkpoint`: a file written (atomically) after every epoch with the model, the optimiser and
    every random state; when it exists, training resumes after its last epoch, and the model is
    the same bytes as an uninterrupted run's. A checkpoint of other data or settings is refused.

    Distillation: with `teacher` (a segmenter with `probs`, e.g. an ensemble of larger models),
    every chunk of our own text (not the outside prose) carries the teacher's per-character mark
    distribution, computed once before the first epoch, and each of its characters is trained
    towards `distil_weight` x the teacher's distribution + (1 - distil_weight) x the gold mark.
    The teacher's distribution says how sure a break is where the carried-over gold marks are
    noisy or a matter of taste, which a hard label cannot.

    `init_from`: a trained BiLSTM folder of the same shape and vocabulary (the same data and
    settings build the same vocabulary) whose weights the training starts from instead of random
    ones: training on, with a learning rate and schedule of its own (a fresh optimiser).

    `device`: where the network trains ("cuda" on a lent GPU machine; the batches are built on the
    CPU either way). The model returned is on the CPU. A GPU run is not bit-reproducible across
    machines as a CPU run is; its checkpoints carry the CUDA random state too.

    `stop_after`: end the joint phase after this many of its `epochs` (the learning rate's
    warm-down still planned over all of them) — what a run stopped by `time_limit` did, repeatable.

    The passage channel (`arch["passage_emb"]`): each 注 / note record with a "passage" carries the
    channel's ids (segment/passage.py, passage_ids), read on the whole record and cut with its
    chunks. `other_frac` (the passage fine-tune, recipe v7): each epoch of the joint phase is every
    chunk of our own text that has a passage, a fresh `other_frac` share of the rest of our own text
    and of the TLS text, and the outside prose at `outside_frac` — a model that already reads the
    rest (`init_from`) learns the passage where it is. `every_kinds`: the kinds whose chunks with a
    passage are drawn every epoch there (default the 注 and notes; a 疏-channel run may draw its 疏).
    """
    torch.manual_seed(seed)
    rng = random.Random(seed)
    arch = dict(arch or {})
    use_bigrams = arch.pop("use_bigrams", True)
    use_trigrams = arch.pop("use_trigrams", False)
    extra_recs = extra_recs or []
    zhushu_recs = zhushu_recs or []
    outside_recs = outside_recs or []
    vocab = build_vocab(train_recs + extra_recs + zhushu_recs, use_bigrams=use_bigrams,
                        use_trigrams=use_trigrams, fold=fold, outside=outside_recs,
                        outside_min_bigram=outside_min_bigram)
    log(f"vocabulary: {len(vocab.chars)} characters, {len(vocab.bigrams)} bigrams")
    if vocab.trigrams:
        arch["ngram_slots"] = 3
    model = Tagger(len(vocab.chars) + 2, vocab.n_ngrams, **arch)
    if model.passage is not None:  # the channel's ids on each whole record (its chunks cut them), on copies: the caller's stay as given
        train_recs = [dict(r, pids=item_passage_ids(r, model.passage_kinds)) for r in train_recs]
        zhushu_recs = [dict(r, pids=item_passage_ids(r, model.passage_kinds)) for r in zhushu_recs]
    if init_from is not None:
        _init_weights(model, vocab, Path(init_from))
        log(f"weights from {init_from}")
    model.to(device)
    n_kinds = model.n_kinds
    own = [c for r in train_recs for c in _chunks(r)]
    ext = [dict(c, weight=extra_weight) for r in extra_recs for c in _chunks(r)]
    zs = [c for r in zhushu_recs for c in _chunks(r)]
    outside = [c for r in outside_recs for c in _chunks(r)]
    if teacher is not None:
        t1 = time.time()
        _attach_teacher(teacher, own + ext + zs, device)
        log(f"teacher {teacher_name}: {sum(len(c['text']) for c in own + ext + zs)} characters in {time.time() - t1:.0f}s")
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    config = {"arch": {**arch, "n_labels": len(LABELS)}, "use_bigrams": use_bigrams,
              "seed": seed, "epochs": epochs, "lr": lr, "extra_weight": extra_weight,
              "finetune_epochs": finetune_epochs, "finetune_lr": finetune_lr, "quantize": quantize}
    if zhushu_recs:
        config.update(zhushu_weight=zhushu_weight, zhushu_frac=zhushu_frac, pretrain_epochs=pretrain_epochs,
                      pretrain_zhushu_frac=pretrain_zhushu_frac)
    if outside_recs:
        config.update(outside_weight=outside_weight, outside_frac=outside_frac, outside_min_bigram=outside_min_bigram)
    if fold:
        config["fold"] = fold
    if teacher is not None:
        config["distil"] = {"teacher": teacher_name, "weight": distil_weight}
    if init_from is not None:
        config["init_from"] = Path(init_from).name
    if other_frac is not None:
        config["other_frac"] = other_frac
    if every_kinds is not None:
        config["every_kinds"] = list(every_kinds)
    if batch_chars != 3000 or device != "cpu":  # as before for the CPU models' configs
        config.update(batch_chars=batch_chars, device=device)
    config["arch"].pop("n_labels")
    seg = NeuralSegmenter(model, vocab, 0.5, config)
    tune_sets = {"tune": tune_recs, "tune-zs": tune_zhushu or []}
    t0 = time.time()

    def sample(frac: float, weight: float) -> list[dict]:
        if not zs:
            return []
        picked = zs if frac >= 1.0 else [c for c in zs if rng.random() < frac]
        return [dict(c, weight=c.get("weight", 1.0) * weight) for c in picked] if weight != 1.0 else picked

    def sample_outside() -> list[dict]:
        if not outside:
            return []
        picked = [c for c in outside if rng.random() < outside_frac]
        return [dict(c, weight=outside_weight) for c in picked] if outside_weight != 1.0 else picked

    # phases: (name, epochs, lr, items of an epoch)
    phases = []
    if pretrain_epochs:
        phases.append(("pretrain", pretrain_epochs, lr,
                       lambda: own + ext + sample(pretrain_zhushu_frac, 1.0) + sample_outside()))
    if other_frac is not None:  # the passage fine-tune: every 注 / note chunk with a passage, the rest sampled
        with_passage, rest = [], []  # (a 疏 with its passage, v8, is drawn as the rest is: it is five times the 注)
        for c in own + zs:
            (with_passage if c.get("kind") in (every_kinds or PASSAGE_KINDS) and any(c.get("pids") or ()) else rest).append(c)
        rest += ext
        phases.append(("joint", epochs, lr,
                       lambda: with_passage + [c for c in rest if rng.random() < other_frac] + sample_outside()))
    else:
        phases.append(("joint", epochs, lr, lambda: own + ext + sample(zhushu_frac, zhushu_weight) + sample_outside()))
    if finetune_epochs:
        phases.append(("finetune", finetune_epochs, lr * finetune_lr, lambda: own))
    ckpt = Path(checkpoint) if checkpoint else None
    # what the checkpoint must have been written by: these settings and this data
    fingerprint = hashlib.sha256(json.dumps(
        [config, len(vocab.chars), len(vocab.bigrams), len(own), len(ext), len(zs), len(outside), batch_chars, unk_p],
        sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
    done_phase, done_epoch, resumed = -1, -1, None
    if ckpt is not None and ckpt.exists():
        resumed = torch.load(ckpt, map_location="cpu", weights_only=False)
        if resumed["fingerprint"] != fingerprint:
            raise ValueError(f"{ckpt}: a checkpoint of other training data or settings; remove it to start afresh")
        model.load_state_dict(resumed["model"])
        opt.load_state_dict(resumed["optimizer"])
        rng.setstate(resumed["rng"])
        torch.set_rng_state(resumed["torch_rng"])
        if "cuda_rng" in resumed:
            torch.cuda.set_rng_state(resumed["cuda_rng"])
        done_phase, done_epoch = resumed["phase"], resumed["epoch"]
        t0 -= resumed["seconds"]
        log(f"resumed from {ckpt}: phase {phases[done_phase][0]}, epoch {done_epoch + 1} done")
    for pi, (phase, n_epochs, phase_lr, items_of) in enumerate(phases):
        if pi < done_phase:
            continue
        total_steps, step = None, 0
        if pi == done_phase:
            total_steps, step = resumed["total_steps"], resumed["step"]
        for ep in range(n_epochs):
            if pi == done_phase and ep <= done_epoch:
                continue
            model.train()
            batches = _bucket(items_of(), batch_chars, rng)
            if total_steps is None:
                total_steps = len(batches) * n_epochs
            losses = []  # summed after the epoch: a float() each step would wait for the GPU
            for b in batches:
                # linear warm-down of the learning rate
                for g in opt.param_groups:
                    g["lr"] = phase_lr * max(0.05, 1 - step / total_steps)
                chars, bigs, kk, lengths, labels, weights, bb = encode_batch(b, vocab, unk_p, rng, n_kinds)
                extra = (passage_batch(b, chars.shape[1], model.passage_kinds),) if model.passage is not None else ()
                if device != "cpu":  # lengths stay: the packed LSTM reads them on the CPU
                    chars, bigs, kk, labels, weights, bb = (
                        t.to(device, non_blocking=True) for t in (chars, bigs, kk, labels, weights, bb))
                    extra = tuple(t.to(device, non_blocking=True) for t in extra)
                logits = model(chars, bigs, kk, lengths, bb, *extra)
                loss_tok = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                                                       reduction="none", ignore_index=-100)
                if teacher is not None:
                    loss_tok = _distil_loss(loss_tok, logits, b, distil_weight)
                w = weights.reshape(-1) * (labels.reshape(-1) != -100)
                loss = (loss_tok * w).sum() / w.sum().clamp(min=1)
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 5.0)
                opt.step()
                losses.append(loss.detach())
                step += 1
            tot_loss = sum(float(x) for x in losses)
            model.eval()
            if ckpt is not None:
                state = {
                    "fingerprint": fingerprint, "phase": pi, "epoch": ep, "step": step, "total_steps": total_steps,
                    "model": model.state_dict(), "optimizer": opt.state_dict(), "rng": rng.getstate(),
                    "torch_rng": torch.get_rng_state(), "seconds": time.time() - t0}
                if device.startswith("cuda"):
                    state["cuda_rng"] = torch.cuda.get_rng_state()
                _save_checkpoint(ckpt, state)
            msg = f"{phase} epoch {ep + 1}/{n_epochs} loss {tot_loss / max(1, len(batches)):.4f} {time.time() - t0:.0f}s"
            msg += " " + _tune_log(seg, tune_sets)
            log(msg)
            over_time = bool(time_limit) and time.time() - t0 > time_limit
            if ep + 1 < n_epochs and (over_time or (stop_after and phase == "joint" and ep + 1 >= stop_after)):
                log("time limit reached" if over_time else f"stopped after epoch {ep + 1}")
                # the warm-down was cut short here: `stop_after` repeats it
                seg.config["stopped_after"] = f"{phase} epoch {ep + 1}"
                break
    model.eval()
    seg.threshold = tune_threshold(seg, tune_recs) if tune_recs else 0.5
    final_recs = tune_recs + (tune_zhushu or [])  # the sentence measure of every book the model serves
    seg.final_threshold = tune_final_threshold(seg, final_recs) if final_recs else None
    seg.config["train_seconds"] = round(time.time() - t0, 1)
    model.cpu()
    log(f"threshold {seg.threshold}, final_threshold {seg.final_threshold}")
    return seg


def _init_weights(model: Tagger, vocab, folder: Path) -> None:
    """Load a trained folder's weights into `model`; refused unless its vocabulary is this one
    (a character id must mean the same character)."""
    cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    if cfg.get("chars") != vocab.chars or cfg.get("bigrams") != vocab.bigrams or (cfg.get("trigrams") or []) != vocab.trigrams:
        raise ValueError(f"{folder}: its vocabulary is not the one this training data builds")
    state = {k: v.float() for k, v in torch.load(folder / "weights.pt", map_location="cpu", weights_only=True).items()}
    own = model.state_dict()
    if model.passage is not None and "passage.weight" not in state:
        # a model without the passage channel: its own seeded embedding, and the BiLSTM's first layer
        # reads it through new input columns set to zero — the same outputs as the folder's model
        state["passage.weight"] = own["passage.weight"]
        for k in ("rnn.weight_ih_l0", "rnn.weight_ih_l0_reverse"):
            grown = torch.zeros_like(own[k])
            grown[:, : state[k].shape[1]] = state[k]
            state[k] = grown
    model.load_state_dict(state)


def _attach_teacher(teacher, chunks: list[dict], device: str = "cpu") -> None:
    """Each chunk gets "soft": the teacher's (n, n_labels) distribution over its own text (float16:
    ~2 M characters x 8 labels), read exactly as the student reads the chunk. A BiLSTM teacher is
    scored on the training device (NeuralSegmenter.probs reads where its weights are), then put back."""
    on_device = (device != "cpu" and hasattr(teacher, "model")  # an ensemble, a quantized model: on the CPU
                 and not any("quantized" in type(m).__module__ for m in teacher.model.modules()))
    if on_device:
        teacher.model.to(device)
    try:
        probs = teacher.probs([c["text"] for c in chunks], [c["kind"] for c in chunks],
                              books=[c.get("book") for c in chunks])
    finally:
        if on_device:
            teacher.model.to("cpu")
    for c, p in zip(chunks, probs):
        c["soft"] = p.astype(np.float16)


def _distil_loss(hard: torch.Tensor, logits: torch.Tensor, batch: list[dict], weight: float) -> torch.Tensor:
    """Per character: (1 - weight) x the gold cross-entropy + weight x the cross-entropy against
    the teacher's distribution, for chunks that have one (the outside prose has none: gold only)."""
    B, n, L = logits.shape
    soft = torch.zeros(B, n, L)
    has = torch.zeros(B, n)
    for i, c in enumerate(batch):
        if "soft" in c:
            k = len(c["text"])
            soft[i, :k] = torch.from_numpy(c["soft"].astype(np.float32))
            has[i, :k] = 1.0
    soft, has = soft.to(logits.device), has.to(logits.device)  # built on the CPU, used where the model trains
    soft_ce = -(soft * torch.log_softmax(logits, dim=-1)).sum(-1).reshape(-1)
    has = has.reshape(-1)
    return hard * (1 - weight * has) + soft_ce * weight * has


def _save_checkpoint(path: Path, state: dict) -> None:
    """torch.save to a temporary sibling, renamed over the checkpoint: an interruption while
    writing leaves the previous epoch's checkpoint whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)
