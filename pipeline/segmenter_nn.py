"""The neural segmenter: a character BiLSTM tagger (torch, CPU) with kind (and book) embeddings.

Input per character: char embedding + embedding of the bigram (this char, next char) — the
bigram straddles the position a mark may follow — + kind embedding (base / note / ext; v2 models
also 疏 / 音義 / 小注, the 集釋's 鄭注 being a 注 = note) + for v2 models a book embedding (集釋 /
周禮注疏 / 禮記註疏 / TLS). A BiLSTM (1 layer of 192 in the shipped models) reads the unit; a linear
layer gives, for each character, a distribution over {no mark, ，、：；。？！}. Decoding: a break
where P(no mark) < threshold (tuned on a held-out slice of the train split), the mark is the argmax
over the marks. Other encoders (`enc`): CNN+BiLSTM, a small transformer, dilated CNN (measured in
docs/segmentation.md, not shipped).

Files in the model folder: config.json (sizes, threshold, vocab; "quantize": false for float
inference, which is batch-invariant), weights.pt (state dict).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch
from torch import nn

from pipeline.segmenter_data import LABELS, book_id, kind_id, labels_of

PAD, UNK = 0, 1
BOS_EOS = "\x02"  # the "next char" of the last character in a bigram


class Tagger(nn.Module):
    """The tagger. Inputs per character: char + bigram (+ trigram slots) + kind (+ book) embeddings.

    enc="lstm": a BiLSTM (today's default); enc="cnnlstm": `conv_layers` residual convolutions
    (width `kernel`) over the embeddings, then the BiLSTM; enc="transformer": a small character
    transformer (a convolution gives it position, so any unit length works); enc="cnn": residual
    dilated convolutions only.
    """

    def __init__(self, n_chars: int, n_bigrams: int, emb: int = 128, bemb: int = 64, kemb: int = 16,
                 hidden: int = 160, layers: int = 2, n_labels: int = len(LABELS), dropout: float = 0.3,
                 enc: str = "lstm", dilations: tuple = (1, 2, 4, 8, 1, 1), kernel: int = 3,
                 ngram_slots: int = 1, n_kinds: int = 3, n_books: int = 0, book_emb: int = 16,
                 conv_layers: int = 2, heads: int = 4, ff: int = 512):
        super().__init__()
        self.enc = enc
        self.n_kinds = n_kinds
        self.char = nn.Embedding(n_chars, emb, padding_idx=PAD)
        self.bigram = nn.Embedding(n_bigrams, bemb, padding_idx=PAD) if n_bigrams else None
        self.kind = nn.Embedding(n_kinds, kemb)
        self.book = nn.Embedding(n_books, book_emb) if n_books else None
        inp = emb + (bemb * ngram_slots if n_bigrams else 0) + kemb + (book_emb if n_books else 0)
        self.drop = nn.Dropout(dropout)
        if enc in ("lstm", "cnnlstm"):
            rnn_in = inp
            if enc == "cnnlstm":
                self.proj = nn.Linear(inp, hidden)
                self.convs = nn.ModuleList(
                    nn.Conv1d(hidden, hidden, kernel, padding=kernel // 2) for _ in range(conv_layers))
                rnn_in = hidden
            self.rnn = nn.LSTM(rnn_in, hidden, num_layers=layers, bidirectional=True, batch_first=True,
                               dropout=dropout if layers > 1 else 0.0)
            self.out = nn.Linear(2 * hidden, n_labels)
        elif enc == "transformer":
            self.proj = nn.Linear(inp, hidden)
            self.pos = nn.Conv1d(hidden, hidden, kernel, padding=kernel // 2, groups=hidden)
            layer = nn.TransformerEncoderLayer(hidden, heads, ff, dropout=dropout, batch_first=True, norm_first=True)
            self.tf = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(hidden)
            self.out = nn.Linear(hidden, n_labels)
        else:
            self.proj = nn.Linear(inp, hidden)
            self.convs = nn.ModuleList(
                nn.Conv1d(hidden, hidden, kernel, dilation=d, padding=d * (kernel // 2)) for d in dilations)
            self.out = nn.Linear(hidden, n_labels)

    def forward(self, chars, bigrams, kinds, lengths, books=None):
        x = [self.char(chars)]
        if self.bigram is not None:
            b = self.bigram(bigrams)  # (B, T, d) or, with trigrams, (B, T, slots, d)
            x.append(b.flatten(2) if b.dim() == 4 else b)
        T = chars.shape[1]
        x.append(self.kind(kinds).unsqueeze(1).expand(-1, T, -1))
        if self.book is not None:
            if books is None:
                books = torch.zeros_like(kinds)
            x.append(self.book(books).unsqueeze(1).expand(-1, T, -1))
        x = self.drop(torch.cat(x, dim=-1))
        mask = (chars != PAD).unsqueeze(1).to(x.dtype)  # (B, 1, T)
        if self.enc in ("lstm", "cnnlstm"):
            if self.enc == "cnnlstm":
                h = torch.relu(self.proj(x)).transpose(1, 2) * mask
                for conv in self.convs:
                    h = (h + torch.relu(conv(self.drop(h)))) * mask
                x = h.transpose(1, 2)
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            h, _ = self.rnn(packed)
            h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True, total_length=T)
            return self.out(self.drop(h))
        if self.enc == "transformer":
            h = self.proj(x).transpose(1, 2) * mask
            h = (h + self.pos(h)) * mask
            h = self.tf(h.transpose(1, 2), src_key_padding_mask=chars == PAD)
            return self.out(self.drop(self.norm(h)))
        h = torch.relu(self.proj(x)).transpose(1, 2) * mask  # (B, H, T)
        for conv in self.convs:
            h = (h + torch.relu(conv(self.drop(h)))) * mask
        return self.out(self.drop(h.transpose(1, 2)))


class Vocab:
    def __init__(self, chars: list[str], bigrams: list[str], trigrams: list[str] | None = None):
        self.chars = chars
        self.bigrams = bigrams
        self.trigrams = trigrams or []
        self.c2i = {c: i + 2 for i, c in enumerate(chars)}
        # one id space for bigrams and trigrams (keys of length 2 and 3 cannot collide)
        self.b2i = {b: i + 2 for i, b in enumerate(bigrams + self.trigrams)}

    @property
    def n_ngrams(self) -> int:
        return len(self.bigrams) + len(self.trigrams) + 2 if self.bigrams else 0

    def encode(self, text: str) -> tuple[list[int], list]:
        c2i, b2i = self.c2i, self.b2i
        cs = [c2i.get(c, UNK) for c in text]
        nxt = text[1:] + BOS_EOS
        bs = [b2i.get(a + b, UNK) for a, b in zip(text, nxt)] if b2i else [0] * len(text)
        if self.trigrams:  # per char: (bigram, prev+cur+next, cur+next+next2)
            padded = BOS_EOS + text + BOS_EOS + BOS_EOS
            t1 = [b2i.get(padded[i:i + 3], UNK) for i in range(len(text))]
            t2 = [b2i.get(padded[i + 1:i + 4], UNK) for i in range(len(text))]
            bs = [list(x) for x in zip(bs, t1, t2)]
        return cs, bs


def build_vocab(records: list[dict], min_char: int = 1, min_bigram: int = 2, use_bigrams: bool = True,
                use_trigrams: bool = False, min_trigram: int = 2) -> Vocab:
    cc, bc, tc = Counter(), Counter(), Counter()
    for r in records:
        t = r["text"]
        cc.update(t)
        if use_bigrams:
            bc.update(a + b for a, b in zip(t, t[1:] + BOS_EOS))
        if use_trigrams:
            p = BOS_EOS + t + BOS_EOS + BOS_EOS
            tc.update(p[i:i + 3] for i in range(len(t) + 1))
    chars = sorted(c for c, n in cc.items() if n >= min_char)
    bigrams = sorted(b for b, n in bc.items() if n >= min_bigram) if use_bigrams else []
    trigrams = sorted(b for b, n in tc.items() if n >= min_trigram) if use_trigrams and use_bigrams else []
    return Vocab(chars, bigrams, trigrams)


def _chunks(rec: dict, limit: int = 200) -> list[dict]:
    """Cut long records at gold marks into pieces of at most ~limit chars (training only)."""
    text, marks = rec["text"], rec["marks"]
    if len(text) <= limit:
        return [rec]
    out, start = [], 0
    cuts = sorted(k for k in marks if 0 < k < len(text))
    while len(text) - start > limit:
        cands = [k for k in cuts if start < k <= start + limit]
        end = cands[-1] if cands else start + limit
        out.append({**rec, "text": text[start:end],
                    "marks": {k - start: v for k, v in marks.items() if start < k <= end}})
        start = end
    out.append({**rec, "text": text[start:], "marks": {k - start: v for k, v in marks.items() if k > start}})
    return out


def _batch(items, vocab: Vocab, unk_p: float = 0.0, rng: random.Random | None = None, n_kinds: int = 3):
    n = max(len(it["text"]) for it in items)
    B = len(items)
    chars = torch.zeros(B, n, dtype=torch.long)
    bigs = torch.zeros((B, n, 3) if vocab.trigrams else (B, n), dtype=torch.long)
    labels = torch.full((B, n), -100, dtype=torch.long)
    weights = torch.zeros(B, n)
    kinds = torch.tensor([kind_id(it["kind"], n_kinds) for it in items])
    books = torch.tensor([book_id(it.get("book")) for it in items])
    lengths = torch.tensor([len(it["text"]) for it in items])
    for i, it in enumerate(items):
        cs, bs = vocab.encode(it["text"])
        if unk_p and rng is not None:
            cs = [UNK if rng.random() < unk_p else c for c in cs]
            if vocab.trigrams:
                bs = [[UNK if rng.random() < unk_p else x for x in b] for b in bs]
            else:
                bs = [UNK if rng.random() < unk_p else b for b in bs]
        L = len(cs)
        chars[i, :L] = torch.tensor(cs)
        bigs[i, :L] = torch.tensor(bs)
        if "marks" in it:
            lab = labels_of(it["text"], it["marks"])
            lab[-1] = -100  # the unit end is never scored
            labels[i, :L] = torch.tensor(lab)
            weights[i, :L] = it.get("weight", 1.0)
    return chars, bigs, kinds, lengths, labels, weights, books


# The mark at the unit end (k = n). The network never learns it (that position is masked in
# training: it is never scored, and the text after it is not in the unit), so its guess there was
# right only 48 % of the time; in the punctuated edition a unit ends with 。 in 97 % of the train
# split and 99 % of dev (base units end where the commentary is inserted, mostly at a sentence end).
UNIT_END_MARK = "。"


def decode(probs: np.ndarray, n: int, threshold: float, final: bool = True) -> dict[int, str]:
    """probs: (n, n_labels) for one unit. A break after char i where P(none) < threshold;
    with `final`, the unit end (k = n, never scored) gets UNIT_END_MARK."""
    out = {}
    if n == 0:
        return out
    p_none = probs[: n - 1, 0]
    idx = np.nonzero(p_none < threshold)[0]
    if len(idx):
        best = probs[idx, 1:].argmax(axis=1) + 1
        for i, lab in zip(idx.tolist(), best.tolist()):
            out[i + 1] = LABELS[lab]
    if final:
        out[n] = UNIT_END_MARK
    return out


class NeuralSegmenter:
    name = "bilstm"

    def __init__(self, model: Tagger, vocab: Vocab, threshold: float = 0.5, config: dict | None = None):
        self.model = model.eval()
        self.vocab = vocab
        self.threshold = threshold
        self.config = config or {}

    def probs(self, texts: list[str], kinds: list[str], max_chars: int = 4000,
              books: list[str] | None = None) -> list[np.ndarray]:
        """Per unit, (n, n_labels) probabilities. `books`: per unit its book id (KR1d0030, …;
        None: the 集釋), read by models with a book embedding."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[np.ndarray | None] = [None] * len(texts)
        batch: list[int] = []
        n_kinds = getattr(self.model, "n_kinds", 3)

        def run(ids):
            items = [{"text": texts[i], "kind": kinds[i], "book": books[i] if books else None} for i in ids]
            chars, bigs, kk, lengths, _, _, bb = _batch(items, self.vocab, n_kinds=n_kinds)
            with torch.inference_mode():
                logits = self.model(chars, bigs, kk, lengths, bb)
                p = torch.softmax(logits, dim=-1).numpy()
            for j, i in enumerate(ids):
                out[i] = p[j, : len(texts[i])]

        for i in order:
            if not texts[i]:
                out[i] = np.zeros((0, len(LABELS)), dtype=np.float32)
                continue
            if batch and (len(batch) + 1) * len(texts[i]) > max_chars:
                run(batch)
                batch = []
            batch.append(i)
        if batch:
            run(batch)
        return out  # type: ignore[return-value]

    def predict(self, texts: list[str], kinds: list[str], books: list[str] | None = None) -> list[dict[int, str]]:
        probs = self.probs(texts, kinds, books=books)
        return [decode(p, len(t), self.threshold) for p, t in zip(probs, texts)]

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        cfg = dict(self.config, threshold=self.threshold, chars=self.vocab.chars, bigrams=self.vocab.bigrams)
        if self.vocab.trigrams:
            cfg["trigrams"] = self.vocab.trigrams
        (folder / "config.json").write_text(json.dumps(cfg, ensure_ascii=False), encoding="utf-8")
        sd = {k: v.detach().clone() for k, v in self.model.state_dict().items()}
        # store embeddings in half precision to keep the model small; cast back on load
        for k in list(sd):
            if "char.weight" in k or "bigram.weight" in k:
                sd[k] = sd[k].half()
        torch.save(sd, folder / "weights.pt")

    @classmethod
    def load(cls, folder: str | Path, quantize: bool = True) -> "NeuralSegmenter":
        """Load a model folder. Dynamic int8 quantization only where config.json does not say
        "quantize": false (v2 models run in float: batch-invariant output)."""
        folder = Path(folder)
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        vocab = Vocab(cfg["chars"], cfg["bigrams"], cfg.get("trigrams"))
        model = Tagger(len(cfg["chars"]) + 2, vocab.n_ngrams, **cfg["arch"])
        sd = torch.load(folder / "weights.pt", map_location="cpu", weights_only=True)
        model.load_state_dict({k: v.float() for k, v in sd.items()})
        model.eval()
        if quantize and cfg.get("quantize", True):
            model = quantize_model(model)
        small = {k: v for k, v in cfg.items() if k not in ("chars", "bigrams", "trigrams")}
        return cls(model, vocab, cfg["threshold"], small)


def quantize_model(model: Tagger) -> nn.Module:
    """Dynamic int8 quantization of the LSTM and linear layers for CPU inference (about 2x
    faster; the same decisions on the dev split to four decimals of F1). Deterministic."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return torch.ao.quantization.quantize_dynamic(model, {nn.LSTM, nn.Linear}, dtype=torch.qint8)
        except (AttributeError, ImportError, RuntimeError):  # a torch without eager dynamic quantization
            return model


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
                                         books=[r.get("book") for r in records])]
    best, best_f = 0.5, -1.0
    for t in np.arange(0.2, 0.81, 0.025):
        f = break_f1(p_none, records, t)
        if f > best_f + 1e-9:
            best, best_f = float(t), f
    return round(best, 3)


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
                                    books=[x.get("book") for x in recs]))
        out.append(f"{name} seg {r['seg']['f1']:.4f} punct {r['punct']['f1']:.4f} "
                   + " ".join(f"{k}:{v['seg']['f1']:.4f}" for k, v in r["by_kind"].items()))
    return " | ".join(out)


def train(train_recs: list[dict], tune_recs: list[dict], extra_recs: list[dict] | None = None, *,
          epochs: int = 8, seed: int = 13, arch: dict | None = None, lr: float = 2e-3,
          batch_chars: int = 3000, extra_weight: float = 1.0, unk_p: float = 0.02,
          finetune_epochs: int = 0, finetune_lr: float = 0.25,
          zhushu_recs: list[dict] | None = None, zhushu_weight: float = 1.0, zhushu_frac: float = 1.0,
          pretrain_epochs: int = 0, pretrain_zhushu_frac: float = 1.0, tune_zhushu: list[dict] | None = None,
          quantize: bool = True, log=print, time_limit: float | None = None) -> NeuralSegmenter:
    """Train a tagger. Deterministic for a given seed (one thread, fixed shuffles).

    Records carry "kind" (base / note / ext, or 注疏 kinds 注 / 疏 / 音義 / 小注: see
    segmenter_data.record_kind) and optionally "book" (segmenter_data.BOOK_OF) and "weight".

    Punctuation v2 sources: `zhushu_recs` (the 注疏 records) take part with weight
    `zhushu_weight`; each epoch draws a fresh `zhushu_frac` share of their chunks (a sampling
    rate: the 注疏 are 1.6 M characters, six times the rest). With `pretrain_epochs`, a first
    phase runs on everything (注疏 at `pretrain_zhushu_frac`, weight 1) before the main phase.
    `tune_zhushu` (held-out 注疏 juan) is logged beside the 集釋 tune juan; the threshold is tuned
    on `tune_recs` (the 集釋).
    """
    torch.manual_seed(seed)
    rng = random.Random(seed)
    arch = dict(arch or {})
    use_bigrams = arch.pop("use_bigrams", True)
    use_trigrams = arch.pop("use_trigrams", False)
    extra_recs = extra_recs or []
    zhushu_recs = zhushu_recs or []
    vocab = build_vocab(train_recs + extra_recs + zhushu_recs, use_bigrams=use_bigrams, use_trigrams=use_trigrams)
    if vocab.trigrams:
        arch["ngram_slots"] = 3
    model = Tagger(len(vocab.chars) + 2, vocab.n_ngrams, **arch)
    n_kinds = model.n_kinds
    own = [c for r in train_recs for c in _chunks(r)]
    ext = [dict(c, weight=extra_weight) for r in extra_recs for c in _chunks(r)]
    zs = [c for r in zhushu_recs for c in _chunks(r)]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    config = {"arch": {**arch, "n_labels": len(LABELS)}, "use_bigrams": use_bigrams,
              "seed": seed, "epochs": epochs, "lr": lr, "extra_weight": extra_weight,
              "finetune_epochs": finetune_epochs, "finetune_lr": finetune_lr, "quantize": quantize}
    if zhushu_recs:
        config.update(zhushu_weight=zhushu_weight, zhushu_frac=zhushu_frac, pretrain_epochs=pretrain_epochs,
                      pretrain_zhushu_frac=pretrain_zhushu_frac)
    config["arch"].pop("n_labels")
    seg = NeuralSegmenter(model, vocab, 0.5, config)
    tune_sets = {"tune": tune_recs, "tune-zs": tune_zhushu or []}
    t0 = time.time()

    def sample(frac: float, weight: float) -> list[dict]:
        if not zs:
            return []
        picked = zs if frac >= 1.0 else [c for c in zs if rng.random() < frac]
        return [dict(c, weight=c.get("weight", 1.0) * weight) for c in picked] if weight != 1.0 else picked

    # phases: (name, epochs, lr, items of an epoch)
    phases = []
    if pretrain_epochs:
        phases.append(("pretrain", pretrain_epochs, lr, lambda: own + ext + sample(pretrain_zhushu_frac, 1.0)))
    phases.append(("joint", epochs, lr, lambda: own + ext + sample(zhushu_frac, zhushu_weight)))
    if finetune_epochs:
        phases.append(("finetune", finetune_epochs, lr * finetune_lr, lambda: own))
    for phase, n_epochs, phase_lr, items_of in phases:
        total_steps, step = None, 0
        for ep in range(n_epochs):
            model.train()
            batches = _bucket(items_of(), batch_chars, rng)
            if total_steps is None:
                total_steps = len(batches) * n_epochs
            tot_loss = 0.0
            for b in batches:
                # linear warm-down of the learning rate
                for g in opt.param_groups:
                    g["lr"] = phase_lr * max(0.05, 1 - step / total_steps)
                chars, bigs, kk, lengths, labels, weights, bb = _batch(b, vocab, unk_p, rng, n_kinds)
                logits = model(chars, bigs, kk, lengths, bb)
                loss_tok = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                                                       reduction="none", ignore_index=-100)
                w = weights.reshape(-1) * (labels.reshape(-1) != -100)
                loss = (loss_tok * w).sum() / w.sum().clamp(min=1)
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 5.0)
                opt.step()
                tot_loss += float(loss.detach())
                step += 1
            model.eval()
            msg = f"{phase} epoch {ep + 1}/{n_epochs} loss {tot_loss / max(1, len(batches)):.4f} {time.time() - t0:.0f}s"
            msg += " " + _tune_log(seg, tune_sets)
            log(msg)
            if time_limit and time.time() - t0 > time_limit:
                log("time limit reached")
                break
    model.eval()
    seg.threshold = tune_threshold(seg, tune_recs) if tune_recs else 0.5
    seg.config["train_seconds"] = round(time.time() - t0, 1)
    log(f"threshold {seg.threshold}")
    return seg
