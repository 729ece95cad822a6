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
(pipeline/tag/clusters.py) and agent-pattern cues (`agent`: a handling verb 1–3 characters
before, 者 1–3 after), and trains with *partial labels* (`partial`): the characters of
productive name patterns that the silver data leaves unlabelled (「執X者」, 司X, 小臣X, X祝 /
X史 / X宰, `UNKNOWN_PATTERN`) are cut out of the training sequences (their features still
see them as context), so a name the lexicon lacks is not learned as O.
"""

from __future__ import annotations

from pathlib import Path

import pycrfsuite

from pipeline.tag.lexicon import Lexicon, project

BOS, EOS = "<s>", "</s>"
AGENT_VERBS = frozenset("執奉舉取授受沃薦羞獲卜筮擯相")


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


def to_bio(n: int, spans: list[tuple[int, int, str]]) -> list[str]:
    tags = ["O"] * n
    for s, e, lab in spans:
        tags[s] = f"B-{lab}"
        for i in range(s + 1, e):
            tags[i] = f"I-{lab}"
    return tags


def from_bio(tags: list[str]) -> list[tuple[int, int, str]]:
    """BIO tags -> spans; an I- without its B- opens a span (lenient)."""
    spans, start, label = [], None, None
    for i, t in enumerate(list(tags) + ["O"]):
        if t == "O" or t.startswith("B-") or (t.startswith("I-") and t[2:] != label):
            if start is not None:
                spans.append((start, i, label))
                start, label = None, None
            if t != "O":
                start, label = i, t[2:]
    return spans
