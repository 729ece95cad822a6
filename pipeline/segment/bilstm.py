"""The neural segmenter: a character BiLSTM tagger (torch, CPU) with a kind embedding.

Input per character: char embedding + embedding of the bigram (this char, next char) — the
bigram straddles the position a mark may follow — + kind embedding (base / note / ext, the last
for the extra TLS training text). A 2-layer BiLSTM reads the unit; a linear layer gives, for
each character, a distribution over {no mark, ，、：；。？！}. Decoding: a break where
P(no mark) < threshold (tuned on a held-out slice of the train split), the mark is the argmax
over the marks.

Files in the model folder: config.json (sizes, threshold, vocab), weights.pt (state dict).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import torch
from torch import nn

from pipeline.segment.data import KIND_OF, LABELS, labels_of

PAD, UNK = 0, 1
BOS_EOS = "\x02"  # the "next char" of the last character in a bigram


class Tagger(nn.Module):
    """enc="lstm": a BiLSTM; enc="cnn": residual dilated convolutions (much faster on CPU)."""

    def __init__(self, n_chars: int, n_bigrams: int, emb: int = 128, bemb: int = 64, kemb: int = 16,
                 hidden: int = 160, layers: int = 2, n_labels: int = len(LABELS), dropout: float = 0.3,
                 enc: str = "lstm", dilations: tuple = (1, 2, 4, 8, 1, 1), kernel: int = 3,
                 ngram_slots: int = 1):
        super().__init__()
        self.enc = enc
        self.char = nn.Embedding(n_chars, emb, padding_idx=PAD)
        self.bigram = nn.Embedding(n_bigrams, bemb, padding_idx=PAD) if n_bigrams else None
        self.kind = nn.Embedding(len(set(KIND_OF.values())), kemb)
        inp = emb + (bemb * ngram_slots if n_bigrams else 0) + kemb
        self.drop = nn.Dropout(dropout)
        if enc == "lstm":
            self.rnn = nn.LSTM(inp, hidden, num_layers=layers, bidirectional=True, batch_first=True,
                               dropout=dropout if layers > 1 else 0.0)
            self.out = nn.Linear(2 * hidden, n_labels)
        else:
            self.proj = nn.Linear(inp, hidden)
            self.convs = nn.ModuleList(
                nn.Conv1d(hidden, hidden, kernel, dilation=d, padding=d * (kernel // 2)) for d in dilations)
            self.out = nn.Linear(hidden, n_labels)

    def forward(self, chars, bigrams, kinds, lengths):
        x = [self.char(chars)]
        if self.bigram is not None:
            b = self.bigram(bigrams)  # (B, T, d) or, with trigrams, (B, T, slots, d)
            x.append(b.flatten(2) if b.dim() == 4 else b)
        x.append(self.kind(kinds).unsqueeze(1).expand(-1, chars.shape[1], -1))
        x = self.drop(torch.cat(x, dim=-1))
        if self.enc == "lstm":
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            h, _ = self.rnn(packed)
            h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True, total_length=chars.shape[1])
            return self.out(self.drop(h))
        mask = (chars != PAD).unsqueeze(1).to(x.dtype)  # (B, 1, T)
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


def encode_batch(items, vocab: Vocab, unk_p: float = 0.0, rng: random.Random | None = None):
    n = max(len(it["text"]) for it in items)
    B = len(items)
    chars = torch.zeros(B, n, dtype=torch.long)
    bigs = torch.zeros((B, n, 3) if vocab.trigrams else (B, n), dtype=torch.long)
    labels = torch.full((B, n), -100, dtype=torch.long)
    weights = torch.zeros(B, n)
    kinds = torch.tensor([KIND_OF[it["kind"]] for it in items])
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
    return chars, bigs, kinds, lengths, labels, weights


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

    def probs(self, texts: list[str], kinds: list[str], max_chars: int = 4000) -> list[np.ndarray]:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[np.ndarray | None] = [None] * len(texts)
        batch: list[int] = []

        def run(ids):
            items = [{"text": texts[i], "kind": kinds[i]} for i in ids]
            chars, bigs, kk, lengths, _, _ = encode_batch(items, self.vocab)
            with torch.inference_mode():
                logits = self.model(chars, bigs, kk, lengths)
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

    def predict(self, texts: list[str], kinds: list[str]) -> list[dict[int, str]]:
        probs = self.probs(texts, kinds)
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


