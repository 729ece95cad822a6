"""A linear-chain CRF (python-crfsuite) over characters for ROLE / OBJECT / PLACE.

Features of character i: the characters in a window of ±2, the bigrams and a trigram around
it, and two lexicon views — the raw longest lexicon match covering i (`lm=B-ROLE` …) and the
match after the convention rules (`px=…`). During training each lexicon surface present in a
text is hidden from the lexicon features with probability `lex_dropout`, so the model must
learn to find and delimit names from the characters and their context alone; this is what
lets it tag names that are not in the lexicon.

The shipped configuration (docs/entities.md, "Generalisation beyond the lexicon") hides each
lexicon *occurrence* independently (`per_span`, probability 0.7), hides the character's own
identity inside a span now and then (`mask_in` 0.3), adds distributional character classes
(pipeline/tagger_clusters.py) and agent-pattern cues (`agent`: a handling verb 1–3 characters
before, 者 1–3 after), and trains with *partial labels* (`partial`): the characters of
productive name patterns that the silver data leaves unlabelled (「執X者」, 司X, 小臣X, X祝 /
X史 / X宰, `UNKNOWN_PATTERN`) are cut out of the training sequences (their features still
see them as context), so a name the lexicon lacks is not learned as O.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pycrfsuite

from pipeline.lexicon import Lexicon, project
from pipeline.tagger_silver import from_bio, to_bio

BOS, EOS = "<s>", "</s>"
AGENT_VERBS = frozenset("執奉舉取授受沃薦羞獲卜筮擯相")
# spans whose O label in the silver data is doubtful (see unknown_positions)
# (X正 / X師 after a listed office are silver already: pipeline.lexicon.name_patterns)
UNKNOWN_PATTERN = re.compile(r"[執奉舉沃羞獲卦筮][^者，。、；：]{1,3}者|司[^\s]|小臣[^\s]|[^\s]{1,2}[祝史宰]")


def unknown_positions(text: str, spans, lexicon: Lexicon, pattern: re.Pattern | None = None) -> set[int]:
    """Positions whose silver label is doubtful: matches of UNKNOWN_PATTERN that are neither a
    silver span nor a lexicon surface and do not start or end inside a silver span (有司 in
    有司徹 stays known), widened to cover the silver spans they contain or extend (小臣 in 小臣X)."""
    unk: set[int] = set()
    for m in (pattern or UNKNOWN_PATTERN).finditer(text):
        s, e = m.span()
        if any(s == a and e == b for a, b, _ in spans) or text[s:e] in lexicon:
            continue
        if any(a < s < b or a < e < b for a, b, _ in spans):
            continue
        for a, b, _ in spans:
            if a < e and s < b:
                s, e = min(s, a), max(e, b)
        unk.update(range(s, e))
    return unk


def _lex_tags(n: int, spans) -> list[str]:
    return to_bio(n, spans)


def char_features(
    text: str,
    lexicon: Lexicon | None,
    skip: frozenset[str] = frozenset(),
    clusters: dict[str, int] | None = None,
    mask: set[int] | frozenset[int] = frozenset(),
    context_words: frozenset[str] = frozenset(),
    drop: frozenset[tuple[int, int]] = frozenset(),
    agent: bool = False,
    sub: tuple[tuple[int, int], ...] = (),
) -> list[list[str]]:
    """Feature strings per character; `mask`: positions whose own identity is hidden (training);
    `drop`: lexicon occurrences (start, end) hidden from both lexicon views (training); `sub`:
    dropped occurrences that show the shorter lexicon names inside them instead (小臣 in 小臣師),
    so that the model learns that a name may extend a listed one."""
    n = len(text)
    pad = [BOS, BOS] + list(text) + [EOS, EOS]
    if lexicon is not None:
        lms = lexicon.longest_matches(text, skip)
        # words read by use: the rule-decided view is withheld, the model decides from context
        pxs = project(text, lexicon, skip | context_words)
        if drop:
            blank = {i for s, e in drop for i in range(s, e)}
            subs = [(s + a, s + b, lab) for s, e in sub
                    for a, b, lab in lexicon.longest_matches(text[s:e], frozenset([text[s:e]]))]
            lms = [x for x in lms if (x[0], x[1]) not in drop] + subs
            pxs = [x for x in pxs if not blank.intersection(range(x[0], x[1]))] + subs
        lm = _lex_tags(n, lms)
        px = _lex_tags(n, pxs)
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
        if agent:  # 「執X者」: a handling verb before, 者 after
            for k in (1, 2, 3):
                if i - k >= 0 and text[i - k] in AGENT_VERBS:
                    f.append(f"av-{k}")
                if i + k < n and text[i + k] == "者":
                    f.append(f"zhe+{k}")
            if c in AGENT_VERBS:
                f.append("av0")
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
    per_span: bool = False,
    sub_matches: float = 0.0,
    partial: bool = False,
    agent: bool = False,
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
            matches = lexicon.longest_matches(it.text) if lexicon else []
            if per_span:  # each occurrence hidden on its own
                skip = frozenset()
                drop = frozenset((s, e) for s, e, _ in matches if rng.random() < lex_dropout)
                sub = tuple(x for x in sorted(drop) if sub_matches and x[1] - x[0] > 1 and rng.random() < sub_matches)
            else:  # every occurrence of a surface hidden together
                present = sorted({it.text[s:e] for s, e, _ in matches})
                skip = frozenset(w for w in present if rng.random() < lex_dropout)
                drop = frozenset()
                sub = ()
            tags = to_bio(len(it.text), it.spans)
            mask = set()
            if mask_in or mask_out:
                for s, e, _ in it.spans:
                    if rng.random() < mask_in:
                        mask.update(range(s, e))
                mask.update(i for i, t in enumerate(tags) if t == "O" and rng.random() < mask_out)
            feats = char_features(it.text, lexicon, skip, clusters, mask, context_words, drop, agent, sub)
            if not partial:
                trainer.append(feats, tags)
                continue
            # partial labels: doubtful positions are cut out; the pieces train as sequences
            unk = unknown_positions(it.text, it.spans, lexicon)
            piece: list[int] = []
            for i in range(len(it.text) + 1):
                if i == len(it.text) or i in unk:
                    if piece:
                        trainer.append([feats[k] for k in piece], [tags[k] for k in piece])
                    piece = []
                else:
                    piece.append(i)
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
            "copies": copies, "per_span": per_span, "sub_matches": sub_matches, "partial": partial, "agent": agent, "seed": seed}


class CRFModel:
    def __init__(
        self,
        model_path: str | Path,
        lexicon: Lexicon | None,
        clusters: dict[str, int] | None = None,
        context_words: frozenset[str] = frozenset(),
        agent: bool = False,
    ):
        self.agent = agent
        self.tagger = pycrfsuite.Tagger()
        self.tagger.open(str(model_path))
        self.lexicon = lexicon
        self.clusters = clusters
        self.context_words = frozenset(context_words)

    def predict(self, text: str) -> list[tuple[int, int, str, float]]:
        """Spans (start, end, label, marginal probability of the span's first tag)."""
        if not text:
            return []
        tags = self.tagger.tag(char_features(text, self.lexicon, clusters=self.clusters, context_words=self.context_words, agent=self.agent))
        out = []
        for s, e, lab in from_bio(tags):
            p = min(self.tagger.marginal(tags[i], i) for i in range(s, e))
            out.append((s, e, lab, p))
        return out

    def predict_fast(self, text: str) -> list[tuple[int, int, str]]:
        if not text:
            return []
        return from_bio(self.tagger.tag(char_features(text, self.lexicon, clusters=self.clusters, context_words=self.context_words, agent=self.agent)))
