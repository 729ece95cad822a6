"""A linear-chain CRF (python-crfsuite) over characters for ROLE / OBJECT / PLACE.

Features of character i: the characters in a window of ±2, the bigrams and a trigram around
it, and two lexicon views — the raw longest lexicon match covering i (`lm=B-ROLE` …) and the
match after the convention rules (`px=…`). During training each lexicon surface present in a
text is hidden from the lexicon features with probability `lex_dropout`, so the model must
learn to find and delimit names from the characters and their context alone; this is what
lets it tag names that are not in the lexicon.
"""

from __future__ import annotations

import random
from pathlib import Path

import pycrfsuite

from pipeline.lexicon import Lexicon, project
from pipeline.tagger_silver import from_bio, to_bio

BOS, EOS = "<s>", "</s>"


def _lex_tags(n: int, spans) -> list[str]:
    return to_bio(n, spans)


def char_features(
    text: str,
    lexicon: Lexicon | None,
    skip: frozenset[str] = frozenset(),
    clusters: dict[str, int] | None = None,
    mask: set[int] | frozenset[int] = frozenset(),
    context_words: frozenset[str] = frozenset(),
) -> list[list[str]]:
    """Feature strings per character; `mask`: positions whose own identity is hidden (training)."""
    n = len(text)
    pad = [BOS, BOS] + list(text) + [EOS, EOS]
    if lexicon is not None:
        lm = _lex_tags(n, lexicon.longest_matches(text, skip))
        # words read by use: the rule-decided view is withheld, the model decides from context
        px = _lex_tags(n, project(text, lexicon, skip | context_words))
    else:
        lm = px = ["O"] * n
    if clusters is not None:
        kl = ["^", "^"] + [str(clusters.get(ch, "?")) for ch in text] + ["$", "$"]
    feats = []
    for i in range(n):
        j = i + 2
        a, b, c, d, e = pad[j - 2], pad[j - 1], pad[j], pad[j + 1], pad[j + 2]
        f = [
            "b",
            "p=" + b,
            "n=" + d,
            "pp=" + a,
            "nn=" + e,
            "ppp=" + a + b,
            "nnn=" + d + e,
            "pn=" + b + "_" + d,
            "lm=" + lm[i],
            "px=" + px[i],
        ]
        if i not in mask:
            f += ["c=" + c, "pc=" + b + c, "cn=" + c + d, "pcn=" + b + c + d, "pxc=" + px[i] + c]
        if clusters is not None:
            k0, kp, kn = kl[j], kl[j - 1], kl[j + 1]
            f += ["k=" + k0, "kp=" + kp, "kn=" + kn, "kpc=" + kp + "_" + k0, "kcn=" + k0 + "_" + kn,
                  "kpn=" + kp + "_" + kn, "pk=" + b + "_" + k0, "kn2=" + k0 + "_" + d]
        if i > 0:
            f.append("ppx=" + px[i - 1])
        if i + 1 < n:
            f.append("npx=" + px[i + 1])
        feats.append(f)
    return feats


def train_crf(
    items,
    lexicon: Lexicon,
    model_path: str | Path,
    *,
    lex_dropout: float = 0.3,
    clusters: dict[str, int] | None = None,
    mask_in: float = 0.0,
    mask_out: float = 0.0,
    context_words: frozenset[str] = frozenset(),
    copies: int = 1,
    c1: float = 0.05,
    c2: float = 0.01,
    max_iterations: int = 150,
    seed: int = 13,
    verbose: bool = False,
) -> dict:
    """Train on silver items (objects with .text and .spans); returns the training parameters."""
    rng = random.Random(seed)
    trainer = pycrfsuite.Trainer(verbose=verbose)
    for copy in range(copies):
        for it in items:
            if not it.text:
                continue
            present = sorted({it.text[s:e] for s, e, _ in lexicon.longest_matches(it.text)}) if lexicon else []
            skip = frozenset(w for w in present if rng.random() < lex_dropout)
            tags = to_bio(len(it.text), it.spans)
            mask = set()
            if mask_in or mask_out:
                for s, e, _ in it.spans:
                    if rng.random() < mask_in:
                        mask.update(range(s, e))
                mask.update(i for i, t in enumerate(tags) if t == "O" and rng.random() < mask_out)
            trainer.append(char_features(it.text, lexicon, skip, clusters, mask, context_words), tags)
    params = {
        "c1": c1,
        "c2": c2,
        "max_iterations": max_iterations,
        "feature.possible_transitions": True,
    }
    trainer.set_params(params)
    Path(model_path).parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(model_path))
    return {**params, "lex_dropout": lex_dropout, "mask_in": mask_in, "mask_out": mask_out,
            "clusters": clusters is not None, "context_words": "".join(sorted(context_words)),
            "copies": copies, "seed": seed}


class CRFModel:
    def __init__(
        self,
        model_path: str | Path,
        lexicon: Lexicon | None,
        clusters: dict[str, int] | None = None,
        context_words: frozenset[str] = frozenset(),
    ):
        self.tagger = pycrfsuite.Tagger()
        self.tagger.open(str(model_path))
        self.lexicon = lexicon
        self.clusters = clusters
        self.context_words = frozenset(context_words)

    def predict(self, text: str) -> list[tuple[int, int, str, float]]:
        """Spans (start, end, label, marginal probability of the span's first tag)."""
        if not text:
            return []
        tags = self.tagger.tag(char_features(text, self.lexicon, clusters=self.clusters, context_words=self.context_words))
        out = []
        for s, e, lab in from_bio(tags):
            p = min(self.tagger.marginal(tags[i], i) for i in range(s, e))
            out.append((s, e, lab, p))
        return out

    def predict_fast(self, text: str) -> list[tuple[int, int, str]]:
        if not text:
            return []
        return from_bio(self.tagger.tag(char_features(text, self.lexicon, clusters=self.clusters, context_words=self.context_words)))
