"""The 疏's lemma quotations: where the sub-commentary quotes the 經 (or the 注) it explains.

A 疏 explains its passage phrase by phrase, each time quoting the phrase and adding 者
(「必加帚於箕上者，謂初持箕往時也」), or naming a range 「自X至Y」 / 「X至Y」. After 「注正義曰」
(禮記) or 「注釋曰」 (周禮) it explains the 注 the same way, quoting it with 云X者 or X者.

    quotations(shu, passage, notes) -> list[Quote]     the shipped reader (SHIPPED)

`passage` is the 經 the 疏 comments on (the base units since the previous 疏, each with its
seq), `notes` the 注 units of the same stretch. Four readers, scored against data/quotes by
`zhushu eval quotations --reader …` (docs/quotations.md):

- `span_quotations` (shipped): every stretch of the 疏 that could quote the passage, scored by
  a logistic regression over span features (quote_spans.py), trained on the train split; dev
  F1 0.734, anchor accuracy 0.990;
- `tagger_quotations`: a CRF over the 疏's characters (quote_tagger.py), trained on
  the train split; dev F1 0.698, anchor accuracy 0.982;
- `rule_quotations`: the stretch of the passage before 者, never cut at an inner 者, short
  stretches only after a left edge; ranges; the words heading a 疏 after 釋曰 (dev F1 0.643);
- `quotations_v1`: the first reader, the longest stretch (2-24 characters) ending at 者 (0.522).

Anchoring of all but v1: quote_passage.QuotePassage.anchor.
"""

from __future__ import annotations

import re

from pipeline.align.quote_passage import Quote, QuotePassage, note_part, preferred_kind
from pipeline.variants import fold

MIN_QUOTE = 2
MAX_QUOTE = 24
# a quotation never opens with the particle that closed the sentence before it (「…之辭也君席…者」)
CLOSING_PARTICLES = "也者矣焉"
# where the 疏 turns from the 經 to the 注: 注正義曰 / 注釋曰 (optionally after a lemma 注X至Y)
_NOTE_PART = re.compile(r"注[^。]{0,24}?(?:正義曰|釋曰)")
_RANGE = re.compile(r"(?:自)?([^，。、；：]{1,12}?)至([^，。、；：]{1,12}?)(?=[，。、；：]|者|正義曰|釋曰|是|皆|凡|此|一節|$)")


def _find(units: list[tuple[int, str, str]], fx: str) -> tuple[int, int] | None:
    """The first unit (seq, start) whose folded text holds fx."""
    for seq, _text, folded in units:
        i = folded.find(fx)
        if i != -1:
            return seq, i
    return None


def _zhe_quotes(shu: str, fshu: str, lo: int, hi: int, units, target: str, taken: list[tuple[int, int]]) -> list[Quote]:
    out = []
    for m in re.finditer("者", shu[lo:hi]):
        end = lo + m.start()
        best = None
        # the longest stretch ending right before 者 that stands in a unit
        for length in range(min(MAX_QUOTE, end - lo), MIN_QUOTE - 1, -1):
            start = end - length
            if any(s < end and start < e for s, e in taken):
                continue
            hit = _find(units, fshu[start:end])
            if hit:
                best = (start, hit)
                break
        if best:
            start, (seq, at) = best
            while end - start > MIN_QUOTE and shu[start] in CLOSING_PARTICLES:
                start, at = start + 1, at + 1
            out.append(Quote(start, end, target, seq, at, at + end - start, "者"))
            taken.append((start, end))
    return out


def _range_quotes(shu: str, fshu: str, lo: int, hi: int, units, taken) -> list[Quote]:
    out = []
    for m in _RANGE.finditer(shu, lo, hi):
        x, y = fold(m.group(1)), fold(m.group(2))
        if len(x) < MIN_QUOTE or len(y) < 1:
            continue
        for seq, _text, folded in units:
            i = folded.find(x)
            j = folded.find(y, i + len(x)) if i != -1 else -1
            if i != -1 and j != -1:
                out.append(Quote(m.start(1), m.end(2), "經", seq, i, j + len(y), "至"))
                taken.append((m.start(1), m.end(2)))
                break
    return out


def quotations_v1(shu: str, passage: list[tuple[int, str]], notes: list[tuple[int, str]]) -> list[Quote]:
    """The first 疏 reader (kept for comparison: `zhushu eval quotations --reader v1`)."""
    fshu = fold(shu)
    base_units = [(seq, t, fold(t)) for seq, t in passage]
    note_units = [(seq, t, fold(t)) for seq, t in notes]
    m = _NOTE_PART.search(shu)
    split = m.start() if m else len(shu)
    taken: list[tuple[int, int]] = []
    out = _range_quotes(shu, fshu, 0, split, base_units, taken)
    out += _zhe_quotes(shu, fshu, 0, split, base_units, "經", taken)
    if m:
        out += _zhe_quotes(shu, fshu, m.end(), len(shu), note_units, "注", taken)
    return sorted(out, key=lambda q: q.shu_start)


# --- the rules, second version ------------------------------------------------------------
# Measured on train juan (docs/quotations.md): the stretch of the passage ending right before
# 者 is a gold quotation 72 % of the time when 4+ characters long after 云 / 曰 / 言 / 也, but
# 25 % when 1 character long and not after 云: short stretches need a left edge.
LEFT_EDGES = "云曰言也者矣焉"


def rule_quotations(shu: str, passage: list[tuple[int, str]], notes: list[tuple[int, str]]) -> list[Quote]:
    """The anchored quotations of one 疏 unit by rule: X者 (the longest stretch of the passage
    before 者, never cut at an inner 者), 「X至Y」 ranges, and a stretch heading the 疏 after
    釋曰 / 正義曰; each anchored in the passage (quote_passage.py), in 疏 order."""
    qp = QuotePassage(passage, notes)
    f = fold(shu)
    n = len(f)
    ml = qp.match_lengths(f)
    ending = [max(e[i] for _s, e in ml.values()) for i in range(n)]
    starting = [max(s[i] for s, _e in ml.values()) for i in range(n)]
    np_ = note_part(shu)
    note_start, note_end = np_ if np_ else (None, None)
    heads = {m.end() for m in re.finditer("(?:釋曰|正義曰)", shu)}
    spans: list[tuple[int, int]] = []
    for z in (i for i, ch in enumerate(shu) if ch == "者" and i > 0):
        s = z - ending[z - 1]
        while z - s > 1 and shu[s] in CLOSING_PARTICLES:
            s += 1
        yun = shu.rfind("云", s, z - 1)  # 先鄭云瞽樂人者, 引詩云寢廟繹繹者: the quotation follows 云
        if yun != -1:
            s = yun + 1
        length, left = z - s, (shu[s - 1] if s > 0 else "")
        edge = s == 0 or s in heads or left in LEFT_EDGES
        if length >= 4 or (length >= 2 and edge) or (length == 1 and left == "云"):
            spans.append((s, z))
    for h in heads:  # 釋曰【國之大祭祀】謂…: the passage's words heading the explanation
        if h < n and starting[h] >= 2 and h + starting[h] < n:
            spans.append((h, h + starting[h]))
    for m in _RANGE.finditer(shu):
        if len(m.group(1)) >= MIN_QUOTE:
            spans.append((m.start(1), m.end(2)))
    # a stretch inside a longer one is the longer one's (知者創物者: not 知)
    spans = sorted(set(spans), key=lambda x: (x[0], -x[1]))
    kept: list[tuple[int, int]] = []
    for a, b in sorted(spans, key=lambda x: x[0] - x[1]):
        if not any(c <= a and b <= d for c, d in kept) and not any(c < b and a < d for c, d in kept):
            kept.append((a, b))
    out = []
    for a, b in sorted(kept):
        hit = qp.anchor(f, a, b, preferred_kind(shu, a, note_start))
        if hit is not None:
            seq, x, y = hit
            out.append(Quote(a, b, qp.kind_of(seq), seq, x, y, "至" if y - x != b - a else "者"))
    return out


def tagger_quotations(shu: str, passage: list[tuple[int, str]], notes: list[tuple[int, str]]) -> list[Quote]:
    """The anchored quotations of one 疏 unit as the learned tagger reads them (quote_tagger.py)."""
    from pipeline.align.quote_tagger import tagged_quotations

    return tagged_quotations(shu, passage, notes)


def span_quotations(shu: str, passage: list[tuple[int, str]], notes: list[tuple[int, str]],
                    marks: tuple[dict[int, dict[int, str]], dict[int, str]] | None = None) -> list[Quote]:
    """The anchored quotations of one 疏 unit as the span reader reads them (quote_spans.py);
    `marks` as `quotations` takes them."""
    from pipeline.align.quote_spans import span_quotations as read

    return read(shu, passage, notes, marks=marks)


READERS = {"v1": quotations_v1, "rules": rule_quotations, "tagger": tagger_quotations, "spans": span_quotations}
# the align stage's reader: the one that measures better on the tune juan (docs/quotations.md)
SHIPPED = "spans"
# the readers that read the segmenter's punctuation beside the text (the others read the text alone)
READS_MARKS = frozenset({"spans"})


def reader_named(name: str):
    return READERS[SHIPPED if name == "default" else name]


def reads_marks(name: str) -> bool:
    return (SHIPPED if name == "default" else name) in READS_MARKS


def quotations(shu: str, passage: list[tuple[int, str]], notes: list[tuple[int, str]],
               marks: tuple[dict[int, dict[int, str]], dict[int, str]] | None = None) -> list[Quote]:
    """The anchored quotations of one 疏 unit, in 疏 order (the shipped reader). `marks`: the
    segmenter's punctuation of the passage units (by seq) and of the 疏 (Unit.marks), when the
    segment stage has run; the span reader reads it (docs/quotations.md, "Stop 42")."""
    if SHIPPED in READS_MARKS:
        return READERS[SHIPPED](shu, passage, notes, marks=marks)
    return READERS[SHIPPED](shu, passage, notes)
