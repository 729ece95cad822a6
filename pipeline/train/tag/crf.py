"""Training the tagger's CRF (pipeline/tag/crf.py) on silver data, with lexicon dropout and partial labels."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pycrfsuite

from pipeline.tag.crf import char_features, to_bio
from pipeline.tag.lexicon import Lexicon


# spans whose O label in the silver data is doubtful (see unknown_positions)
# (X正 / X師 after a listed office are silver already: pipeline.tag.lexicon.name_patterns);
# not 司農 after 鄭: 鄭司農 is the Han scholar the 周禮注 cites 756 times, sure O
UNKNOWN_PATTERN = re.compile(r"[執奉舉沃羞獲卦筮][^者，。、；：]{1,3}者|(?<!鄭)司[^\s]|小臣[^\s]|[^\s]{1,2}[祝史宰]")


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
