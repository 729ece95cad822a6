"""The span reader of the 疏's quotations: score every stretch of the 疏 that could quote the passage.

A lemma quotation is a stretch of the 疏 that stands verbatim (variant-folded, with the model's
variant pairs learned from train quotations: 法/灋 …) in the 經 or 注 it follows. The candidates
are those stretches whose left end cannot go further left in the passage or follows a left edge
(云 / 也 / 言 / 曰 …, the start), and whose right end cannot go further right or comes before a
right edge (者 / 也 / 謂 …), and the ranges 「X至Y」 (range_candidates): on the tune juan they hold
94.2 % of the gold quotations (92.8 % without the ranges and the pairs), 26 candidates per
quotation (docs/quotations.md: a left end anywhere before 者 reaches 96.9 % and scores no better).
Each candidate is scored by a logistic regression over span features — its length, the 疏
characters around it, how far the passage match reaches beyond each end, where its anchored
occurrence sits in the passage unit (at its start / end, the passage character after it: 者 / 也 …),
how often it occurs, the 經 / 注 part of the 疏 — and the best candidates are kept, highest first,
without overlap, above THRESHOLD; each is anchored by QuotePassage.anchor.

Where the segment stage has punctuated the units (`marks`), the reader also reads that punctuation
(its `marked` weights): whether the anchored occurrence starts and ends at a break of its 經 / 注
and how many breaks it spans — a quoted stretch is mostly a phrase of its passage —, and whether
the 疏's own breaks fall at the candidate's ends or inside it; and it takes one more kind of
candidate, a stretch before 者 whose occurrence starts at a break of the passage (`break_candidates`).
Cross-fitted over the train split (5 folds by juan) F1 0.727 -> 0.746, dev 0.743 -> 0.755
(docs/quotations.md, "Stop 42"); without marks (`zhushu run --skip segment`, `eval quotations
--no-segmenter`) it reads as before (its `plain` weights).

Unlike the CRF (quote_tagger.py) it sees no character inside the span but the first and last: the
CRF learned its training juan's characters (F1 0.975 on juan it saw, 0.679 on juan it did not).

Trained on the train split of data/quotes (`zhushu train quotations`, pipeline/train/quotations.py);
the model is models/quotations/spans.json (feature weights). Run time uses no learning library.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from bisect import bisect_left, bisect_right
from pathlib import Path

from pipeline import paths
from pipeline.align.quote_passage import KINDS, Quote, QuotePassage, note_part, preferred_kind
from pipeline.model import SENTENCE_FINAL
from pipeline.variants import fold, folder

MODEL_PATH = paths.QUOTATION_SPANS_MODEL

# the characters before / after the gold quotations of the train split that are more than
# a few dozen times their edge (云 7,498 before, 者 10,153 after …), folded (t2s) as the 疏 is
LEFT_EDGES = frozenset("云也言曰之知事为是者此経称矣以文故引謂至")
RIGHT_EDGES = frozenset("者也謂是以云故此之则言已为不字注若郑后案亦与皆即")
HEADINGS = ("释曰", "正义曰")


def _length(n: int) -> str:
    return str(n) if n < 4 else ("4-6" if n < 7 else ("7-9" if n < 10 else ("10-14" if n < 15 else "15+")))


def _beyond(n: int) -> str:
    return str(n) if n < 3 else ("3-5" if n < 6 else "6+")


def candidates(fshu: str, qp: QuotePassage) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """The candidate spans of a folded 疏, and the longest passage stretch (of either kind)
    starting / ending at each character."""
    ml = qp.match_lengths(fshu)
    n = len(fshu)
    (s1, e1), (s2, e2) = (ml[k] for k in KINDS)
    starting, ending = list(map(max, s1, s2)), list(map(max, e1, e2))
    out = []
    for s in range(n):
        left_edge = s == 0 or fshu[s - 1] in LEFT_EDGES
        for length in range(1, starting[s] + 1):
            e = s + length
            if (left_edge or ending[e - 1] == length) and (length == starting[s] or e == n or fshu[e] in RIGHT_EDGES):
                out.append((s, e))
    return out, starting, ending


def range_candidates(fshu: str, qp: QuotePassage, starting: list[int], ending: list[int]) -> list[tuple[int, int, int]]:
    """(start, 至, end) of every range 「X至Y」 of the 疏: X a stretch of the passage ending right
    before 至 (its left end at an edge or as far left as the match goes), Y one starting right
    after it (its right end at an edge or as far right as it goes), and Y after X in one unit.
    The edition quotes such a heading as one quotation from X's start to Y's end (train: 45)."""
    n = len(fshu)
    out = []
    for k in range(1, n - 1):
        if fshu[k] != "至" or not ending[k - 1] or not starting[k + 1]:
            continue
        xs = [k - lx for lx in range(1, ending[k - 1] + 1)
              if lx == ending[k - 1] or k - lx == 0 or fshu[k - lx - 1] in LEFT_EDGES]
        ys = [k + 1 + ly for ly in range(1, starting[k + 1] + 1)
              if ly == starting[k + 1] or k + 1 + ly == n or fshu[k + 1 + ly] in RIGHT_EDGES]
        for s in xs:
            for e in ys:
                if qp._ranges(fshu[s:e], KINDS):
                    out.append((s, k, e))
    return out


def all_candidates(fshu: str, qp: QuotePassage):
    """(start, end, 至 or None) of every candidate, and starting / ending (see `candidates`)."""
    spans, starting, ending = candidates(fshu, qp)
    out = [(s, e, None) for s, e in spans]
    plain = set(spans)
    out += [(s, e, k) for s, k, e in range_candidates(fshu, qp, starting, ending) if (s, e) not in plain]
    return out, starting, ending


def span_features(shu: str, fshu: str, pad: str, qp: QuotePassage, note: tuple[int, int] | None,
                  starting: list[int], ending: list[int], s: int, e: int,
                  mid: int | None = None, shu_marks: tuple[dict[int, str], list[int]] | None = None,
                  ) -> tuple[list[str], tuple[int, int, int] | None]:
    """The features of the candidate fshu[s:e] (a range X至Y when `mid` is its 至), and its anchor
    (seq, start, end) or None; `pad` is "^^" + fshu + "$$", made once per text by
    candidate_features; `shu_marks`: the 疏's punctuation and its sorted break positions, when
    the units were punctuated (then `qp` holds the passage's)."""
    f = fshu
    length = e - s
    l1, l2, r1, r2 = pad[s + 1], pad[s : s + 2], pad[e + 2], pad[e + 2 : e + 4]
    lb = _length(length)
    if mid is None:
        xl, xr = _beyond(ending[e - 1] - length), _beyond(starting[s] - length)
    else:  # how far X's match reaches left, Y's right
        xl, xr = _beyond(ending[mid - 1] - (mid - s)), _beyond(starting[mid + 1] - (e - mid - 1))
    part = "j" if (note is None or s < note[0]) else ("h" if s < note[1] else "z")
    prefer = preferred_kind(shu, s, note[0] if note else None)
    fx = f[s:e]
    occ = {k: min(qp.joined[k].count(fx), 2) for k in KINDS}
    feats = ["b", "L=" + lb, "l1=" + l1, "l2=" + l2, "r1=" + r1, "r2=" + r2, "l1r1=" + l1 + r1,
             "l1L=" + l1 + lb, "r1L=" + r1 + lb, "l2r1=" + l2 + r1, "l1r2=" + l1 + r2,
             "xl=" + xl, "xr=" + xr, "xlxr=" + xl + xr, "xlr1=" + xl + r1, "l1xr=" + l1 + xr,
             "fc=" + f[s], "lc=" + f[e - 1], "part=" + part, "pk=" + prefer,
             f"occ={occ['經']}{occ['注']}", f"occpref={occ[prefer]}", "partL=" + part + lb,
             f"z_in={int('者' in fx)}", f"yun_in={int('云' in fx)}", f"ye_end={int(f[e - 1] == '也')}",
             f"head={int(s == 0 or f.endswith(HEADINGS, 0, s))}"]
    if mid is not None:  # own features: a range's parts and where it stands (the 疏's heading …)
        feats += ["rng", "rngX=" + _length(mid - s), "rngY=" + _length(e - mid - 1), "rngl1=" + l1, "rngr1=" + r1,
                  "rngpart=" + part]
    hit = qp.anchor(f, s, e, prefer)
    if hit is None:
        feats.append("noanchor")
        return feats, None
    seq, a, b = hit
    t = qp.units[qp.order[seq]][3]
    ua, ub = int(a == 0), int(b == len(t))  # the occurrence opens / closes its 經 or 注 unit
    pa, pb = t[b : b + 1] or "$", t[a - 1 : a] if a else "^"
    kind = qp.kind_of(seq)
    feats += [f"ua={ua}", f"ub={ub}", f"uab={ua}{ub}", "pa=" + pa, "pb=" + pb, "par1=" + pa + r1,
              "kind=" + kind, f"kpref={int(kind == prefer)}", f"ubL={ub}{lb}"]
    if shu_marks is not None:
        feats += _mark_features(qp, seq, a, b, len(t), shu_marks, s, e, lb, l1, r1)
    return feats, hit


def _mark_features(qp: QuotePassage, seq: int, a: int, b: int, n: int, shu_marks, s: int, e: int,
                   lb: str, l1: str, r1: str) -> list[str]:
    """The segmenter's punctuation around a candidate: at the ends of its anchored occurrence
    passage[seq][a:b] (n characters in that unit) and inside it, and at the candidate's ends in the
    疏 (s, e) and inside it."""
    m, keys = qp.marks.get(seq, ({}, [])) if qp.marks is not None else ({}, [])
    ma, mb = int(a == 0 or a in m), int(b == n or b in m)
    inner = [m[k] for k in keys[bisect_right(keys, a) : bisect_left(keys, b)]]
    fin = int(any(x in SENTENCE_FINAL for x in inner))
    sm, skeys = shu_marks
    ss, se = int(s in sm), int(e in sm)
    sin = bisect_left(skeys, e) - bisect_right(skeys, s)
    return [f"mk={ma}{mb}", f"mkL={ma}{mb}{lb}", f"mkr1={mb}{r1}", f"mkl1={ma}{l1}",
            "mbt=" + m.get(b, "$" if b == n else "-"), f"mkin={min(len(inner), 2)}{fin}",
            f"mkinL={min(len(inner), 2)}{lb}",
            f"sm={ss}{se}", f"smr1={se}{r1}", f"sml1={ss}{l1}", f"smin={min(sin, 2)}"]


def break_candidates(f: str, qp: QuotePassage, ending: list[int], have: set, shu: str,
                     note: tuple[int, int] | None) -> list[tuple[int, int, None]]:
    """Where the units are punctuated: before the 疏's 者, a stretch of 2+ characters whose left end
    lies inside a longer passage match (no edge before it in the 疏) and whose anchored occurrence
    starts at a break of its 經 / 注 — the 疏 quoting phrases back to back or after words of its
    own that the passage holds too (…以馭其威【八曰田役以馭其衆】者). On train juan 1–2 they lift the
    candidates' share of the gold quotations from 93.6 % to 96.7 % for 1.7 % more candidates (a left
    end anywhere before 者: 96.9 % for 15 % more, and no better F1; docs/quotations.md, "Stop 42")."""
    out = []
    for z in range(2, len(f)):
        if f[z] != "者" or ending[z - 1] < 3:
            continue
        for s in range(z - ending[z - 1] + 1, z - 1):
            if (s, z) in have:
                continue
            hit = qp.anchor(f, s, z, preferred_kind(shu, s, note[0] if note else None))
            if hit is not None and hit[1] > 0 and hit[1] in qp.marks.get(hit[0], ({}, []))[0]:
                out.append((s, z, None))
    return out


def candidate_features(shu: str, qp: QuotePassage, fold=fold, shu_marks: dict[int, str] | None = None):
    """(start, end, features, anchor or None) of every candidate of one 疏 unit, in candidate
    order; `fold` the view `qp` was made with; `shu_marks` the 疏's punctuation when the units
    were punctuated (the mark features are read then, `qp.marks` the passage's). Run time
    (scored_candidates) and training (pipeline/train/quotations.span_examples) both read the
    candidates through this."""
    f = fold(shu)
    note = note_part(shu)
    spans, starting, ending = all_candidates(f, qp)
    pad = "^^" + f + "$$"
    sm = None if shu_marks is None or qp.marks is None else (shu_marks, sorted(shu_marks))
    if sm is not None:
        spans += break_candidates(f, qp, ending, {(s, e) for s, e, _mid in spans}, shu, note)
    for s, e, mid in spans:
        feats, hit = span_features(shu, f, pad, qp, note, starting, ending, s, e, mid, sm)
        yield s, e, feats, hit


def scored_candidates(shu: str, qp: QuotePassage, weights: dict[str, float], bias: float, fold=fold,
                      shu_marks: dict[int, str] | None = None):
    """(probability, start, end, anchor) of every anchored candidate of one 疏 unit; `fold` the
    view `qp` was made with."""
    out = []
    get = weights.get
    for s, e, feats, hit in candidate_features(shu, qp, fold, shu_marks):
        if hit is None:
            continue
        z = bias + sum(map(get, feats, itertools.repeat(0.0, len(feats))))
        out.append((1.0 / (1.0 + math.exp(-z)), s, e, hit))
    return out


def choose(scored, threshold: float) -> list[tuple[int, int, tuple[int, int, int], float]]:
    """The best candidates above the threshold, highest first, none overlapping a chosen one:
    (start, end, anchor, probability) in 疏 order."""
    taken: list[tuple[int, int, tuple[int, int, int], float]] = []
    for p, s, e, hit in sorted(scored, key=lambda c: (-c[0], c[1], c[2])):
        if p < threshold:
            break
        if any(a < e and s < b for a, b, _h, _p in taken):
            continue
        taken.append((s, e, hit, p))
    return sorted(taken)


class SpanModel:
    def __init__(self, path: Path):
        if not path.exists():
            raise FileNotFoundError(f"no quotation span model at {path} (rebuild: `zhushu train quotations`)")
        model = json.loads(path.read_text(encoding="utf-8"))
        # the weights read without the segmenter's marks ("plain") and with them ("marked": absent
        # from models trained before stop 42, which then read every 疏 plain)
        self.weights: dict[str, float] = model["weights"]
        self.bias: float = model["bias"]
        marked = model.get("marked")
        self.marked: tuple[dict[str, float], float] | None = (marked["weights"], marked["bias"]) if marked else None
        self.threshold: float = model["threshold"]
        # variant pairs learned from the train split's gold quotations: [a, b, count, example ids]
        self.variant_pairs = tuple((a, b) for a, b, *_evidence in model.get("variant_pairs", []))
        self.fold = folder(self.variant_pairs)


@functools.lru_cache(maxsize=1)
def load_model(path: str | None = None) -> SpanModel:
    return SpanModel(Path(path) if path else MODEL_PATH)


def span_quotations(shu: str, passage, notes, model: SpanModel | None = None,
                    marks: tuple[dict[int, dict[int, str]], dict[int, str]] | None = None) -> list[Quote]:
    """The anchored quotations of one 疏 unit as the span reader reads them. `marks`: the
    segmenter's punctuation of the passage units (by seq) and of the 疏, when the units were
    punctuated: read by the model's marked weights (without them, or with a model that has none,
    the plain ones)."""
    if not shu or (not passage and not notes):  # nothing to quote
        return []
    model = model or load_model()
    if marks is not None and model.marked is not None:
        (weights, bias), shu_marks = model.marked, marks[1]
        qp = QuotePassage(passage, notes, model.fold, marks[0])
    else:
        weights, bias, shu_marks = model.weights, model.bias, None
        qp = QuotePassage(passage, notes, model.fold)
    out = []
    for s, e, (seq, a, b), p in choose(scored_candidates(shu, qp, weights, bias, model.fold, shu_marks), model.threshold):
        out.append(Quote(s, e, qp.kind_of(seq), seq, a, b, "至" if b - a != e - s else "者", p))
    return out
