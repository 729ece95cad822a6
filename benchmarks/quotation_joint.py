"""Deciding the 疏's candidate quotations jointly, against the span reader's one-by-one logistic
regression, on the tune juan; and where the reader loses on train juan (issue 21 item 2, stop 27).

    python benchmarks/quotation_joint.py compare   # the comparison table (tune juan), ~8 min on one core
    python benchmarks/quotation_joint.py errors    # the error analysis (train juan), ~6 min
    python benchmarks/quotation_joint.py pairs     # variant pairs from the `other` spans (tune juan), ~3 min
    python benchmarks/quotation_joint.py crf       # a CRF over the candidates in 疏 order (tune juan), ~8 min

The tune juan (train juan 1-3 of each book, benchmarks/quotation_tune.py) are never trained on;
the dev split is never read. Stage 1 is the shipped span reader, trained by `train_spans` itself.
A joint reader needs stage-1 scores for its own training rows that the stage-1 model did not see:
they are cross-fitted, 5 folds by juan over the train split less the tune juan (each fold's
model trained by `train_spans(hold_out=tune + that fold)`, its own variant pairs included); the
tune juan are scored by the model trained on all the rest, as the shipped reader would be.

Joint readers compared (docs/quotations.md, "Deciding jointly"):
- `dp`: the same scores, decoded by weighted interval scheduling (the set of non-overlapping
  candidates maximising the sum of p - threshold) instead of greedily, highest first;
- `hgb-context`: a gradient-boosted classifier (scikit-learn HistGradientBoosting) over each
  candidate's stage-1 logit and its neighbours in the 疏: the best logit among the candidates
  overlapping / containing / inside it / sharing its start / its end, its rank among them, and,
  of the quotations stage 1 chooses before and after it in 疏 order, the distance in the 疏 and
  whether their targets stand before / after its own in the passage (the 疏 quotes in order);
- `hgb-span`: the same classifier over the span features alone (dense: the characters around
  the span as categories, lengths, match reach, part, anchor features), no stage 1;
- `hgb-both`: both sets.
- `crf` (its own command): a linear-chain CRF (python-crfsuite) whose items are the candidates of
  a 疏 in 疏 order (start, then end), labelled quotation / not: the span reader's own features
  plus how each candidate stands to the one before it (overlapping, sharing its start / end,
  containing it, the gap), so that the transitions learn which neighbours are chosen together;
  its marginal probability of "quotation" is decoded as the others.
Each is decoded greedily as the shipped reader (`choose`) at thresholds 0.25-0.5.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # the machine is shared: one core
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.align.quote_passage import QuotePassage  # noqa: E402
from pipeline.align.quote_spans import SpanModel, candidate_features, choose  # noqa: E402
from pipeline.evaluate.quotations import reader_inputs, score  # noqa: E402
from pipeline.train.quotations import train_records, train_spans  # noqa: E402
from pipeline.variants import fold as base_fold  # noqa: E402

TUNE = frozenset(f"{b}_{n:03d}" for b in ("KR1d0003", "KR1d0053") for n in (1, 2, 3))
FOLDS = 5
THRESHOLDS = (0.25, 0.3, 0.35, 0.4, 0.5)
NONE = -10.0  # the logit standing for "no such neighbour"


class Pred:
    __slots__ = ("shu_start", "shu_end", "seq", "start", "end")

    def __init__(self, s, e, hit):
        self.shu_start, self.shu_end, (self.seq, self.start, self.end) = s, e, hit


def sig(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def juan(rec: dict) -> str:
    return rec["id"].split("#")[0]


def read_candidates(rec: dict, model: SpanModel) -> list[dict]:
    """The anchored candidates of one record as `model` sees them, with their stage-1 logit and
    gold label (uncertain ones marked)."""
    shu, passage, notes = reader_inputs(rec)
    if not shu:
        return []
    qp = QuotePassage(passage, notes, model.fold)
    gold = {(q["start"], q["end"]) for q in rec["quotes"]}
    unsure = [(u["start"], u["end"]) for u in rec["uncertain"]]
    out = []
    for s, e, feats, hit in candidate_features(shu, qp, model.fold):
        if hit is None:  # the run time scores anchored candidates only
            continue
        z = model.bias + sum(model.weights.get(f, 0.0) for f in feats)
        out.append({"s": s, "e": e, "feats": feats, "hit": hit, "z": z, "gold": (s, e) in gold,
                    "unsure": any(a < e and s < b for a, b in unsure)})
    return out


def stage1(records: list[dict], tmp: Path, log) -> tuple[list[list[dict]], list[int]]:
    """Candidates of every record with stage-1 logits: cross-fitted for the train split less the
    tune juan, from the model trained on all of it for the tune juan. Returns (candidates per
    record, indices of the tune records)."""
    tune_idx = [i for i, r in enumerate(records) if juan(r) in TUNE]
    rest = sorted({juan(r) for r in records} - TUNE)
    fold_of = {j: k % FOLDS for k, j in enumerate(rest)}
    cands: list[list[dict]] = [[] for _ in records]
    for k in list(range(FOLDS)) + [None]:
        held = TUNE | {j for j in rest if fold_of[j] == k} if k is not None else TUNE
        path = tmp / f"spans{k}.json"
        train_spans(path, log=log, hold_out=frozenset(held), marked=False)
        model = SpanModel(path)
        for i, r in enumerate(records):
            if (juan(r) in TUNE) == (k is None) and (k is None or fold_of[juan(r)] == k):
                cands[i] = read_candidates(r, model)
        log(f"stage 1, fold {k}: done")
    return cands, tune_idx


def greedy(cs: list[dict], probs: list[float], threshold: float):
    return [(s, e, hit) for s, e, hit, _p in choose([(p, c["s"], c["e"], c["hit"]) for c, p in zip(cs, probs)], threshold)]


def interval_dp(cs: list[dict], probs: list[float], threshold: float):
    """The non-overlapping candidates at or above the threshold maximising the sum of p - threshold."""
    items = sorted(((c["e"], c["s"], p, c["hit"]) for c, p in zip(cs, probs) if p >= threshold))
    ends = [it[0] for it in items]
    best, back = [0.0], [None]
    for i, (e, s, p, hit) in enumerate(items):
        j = bisect.bisect_right(ends, s, 0, i)
        take = best[j] + p - threshold
        best.append(max(best[i], take))
        back.append((j, i) if take > best[i] else None)
    out, k = [], len(items)
    while k:
        if back[k] is None:
            k -= 1
        else:
            j, i = back[k]
            out.append((items[i][1], items[i][0], items[i][3]))
            k = j
    return sorted(out)


CONTEXT = ("z", "best_overlap", "best_containing", "best_inside", "best_same_start", "best_same_end", "rank",
           "n_overlap", "chosen", "gap_prev", "prev_in_order", "prev_unit_step", "prev_char_step", "gap_next",
           "next_in_order", "next_unit_step", "length", "n_chosen", "position")


def context_rows(cs: list[dict], n: int, threshold: float = 0.3) -> list[list[float]]:
    """Each candidate's neighbours as stage 1 sees them (CONTEXT)."""
    zs = [c["z"] for c in cs]
    chosen = greedy(cs, [sig(z) for z in zs], threshold)
    starts = [c[0] for c in chosen]
    picked = {(s, e) for s, e, _h in chosen}
    rows = []
    for i, c in enumerate(cs):
        s, e, (seq, a) = c["s"], c["e"], c["hit"][:2]
        ov = [(zs[j], d["s"], d["e"]) for j, d in enumerate(cs) if j != i and d["s"] < e and s < d["e"]]

        def best(cond):
            return max((z for z, s2, e2 in ov if cond(s2, e2)), default=NONE)

        k = bisect.bisect_left(starts, s)
        prev = next((chosen[j] for j in range(k - 1, -1, -1) if chosen[j][1] <= s), None)
        nxt = next((chosen[j] for j in range(k, len(chosen)) if chosen[j][0] >= e), None)
        if prev:
            pseq, pa, pb = prev[2]
            p_feats = [min(s - prev[1], 60), int((pseq, pa) <= (seq, a)), max(-3, min(3, seq - pseq)),
                       max(-50, min(50, a - pb)) if seq == pseq else 99]
        else:
            p_feats = [-1, -1, -9, -99]
        if nxt:
            nseq, na, _nb = nxt[2]
            n_feats = [min(nxt[0] - e, 60), int((seq, a) <= (nseq, na)), max(-3, min(3, nseq - seq))]
        else:
            n_feats = [-1, -1, -9]
        rows.append([zs[i], best(lambda s2, e2: True), best(lambda s2, e2: s2 <= s and e2 >= e),
                     best(lambda s2, e2: s2 >= s and e2 <= e), best(lambda s2, e2: s2 == s),
                     best(lambda s2, e2: e2 == e), sum(1 for z, *_ in ov if z > zs[i]), len(ov),
                     int((s, e) in picked), *p_feats, *n_feats, e - s, len(chosen), s / n])
    return rows


# the span features read densely: category-valued ones (coded by their 250 commonest values on
# the training rows) and 0/1 ones
CATEGORIES = ("l1", "r1", "l2", "r2", "fc", "lc", "pa", "pb", "part", "pk", "kind", "L", "xl", "xr", "occ")
FLAGS = ("z_in", "yun_in", "ye_end", "head", "ua", "ub", "kpref", "rng")


def parse(feats: list[str]) -> dict[str, str]:
    return dict(f.split("=", 1) if "=" in f else (f, "1") for f in feats)


def span_rows(cs: list[dict], codes: dict[str, dict[str, int]]) -> list[list[float]]:
    out = []
    for c in cs:
        d = parse(c["feats"])
        out.append([codes[k].get(d.get(k, ""), 250) for k in CATEGORIES] + [int(d.get(k, "0")) for k in FLAGS])
    return out


def compare(records, cands, tune_idx, log) -> None:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier

    train_idx = [i for i in range(len(records)) if i not in set(tune_idx)]
    tune = [records[i] for i in tune_idx]

    def scored(decide, probs_of, threshold):
        preds = [[Pred(s, e, hit) for s, e, hit in decide(cands[i], probs_of(i), threshold)] for i in tune_idx]
        sc = score(tune, preds)
        return {k: sc[k] for k in ("precision", "recall", "f1", "anchor_accuracy")} | {
            "by_book_f1": {b: v["f1"] for b, v in sc["by_book"].items()}}

    table = []

    def report(name, decide, probs_of):
        runs = {t: scored(decide, probs_of, t) for t in THRESHOLDS}
        best_t = max(runs, key=lambda t: runs[t]["f1"])
        row = {"reader": name, "at_0.3": runs[0.3], "best_threshold": best_t, "best": runs[best_t],
               "f1_by_threshold": {str(t): runs[t]["f1"] for t in THRESHOLDS}}
        table.append(row)
        log(json.dumps(row, ensure_ascii=False))

    lr = {i: [sig(c["z"]) for c in cands[i]] for i in tune_idx}
    report("lr (shipped)", greedy, lr.__getitem__)
    report("lr + dp", interval_dp, lr.__getitem__)

    counts = {k: Counter() for k in CATEGORIES}
    for i in train_idx:
        for c in cands[i]:
            d = parse(c["feats"])
            for k in CATEGORIES:
                counts[k][d.get(k, "")] += 1
    codes = {k: {v: n for n, (v, _c) in enumerate(counts[k].most_common(250))} for k in CATEGORIES}
    rows = {i: [a + b for a, b in zip(context_rows(cands[i], len(records[i]["text"])), span_rows(cands[i], codes))]
            for i in range(len(records)) if cands[i]}
    nctx = len(CONTEXT)
    is_cat = [False] * nctx + [True] * len(CATEGORIES) + [False] * len(FLAGS)
    x = np.array([r for i in train_idx if i in rows for r, c in zip(rows[i], cands[i]) if not c["unsure"]], dtype=float)
    y = np.array([c["gold"] for i in train_idx for c in cands[i] if not c["unsure"]])
    log(f"stage 2: {len(y)} training rows, {int(y.sum())} gold")
    allcols = list(range(x.shape[1]))
    for name, cols in (("hgb-context", list(range(nctx))), ("hgb-span", allcols[nctx:]), ("hgb-both", allcols)):
        model = HistGradientBoostingClassifier(max_iter=300, learning_rate=0.1, early_stopping=False, random_state=0,
                                               categorical_features=[is_cat[c] for c in cols])
        model.fit(x[:, cols], y)
        probs = {i: (model.predict_proba(np.array(rows[i], dtype=float)[:, cols])[:, 1].tolist() if i in rows else [])
                 for i in tune_idx}
        report(name, greedy, probs.__getitem__)
    print(json.dumps({"tune_juan": sorted(TUNE), "gold": sum(len(r["quotes"]) for r in tune), "table": table},
                     ensure_ascii=False, indent=1))


def errors(records, cands, tune_idx, log) -> None:
    """Where the stage-1 reader (cross-fitted scores, threshold 0.3) loses on the train split less
    the tune juan, and the 云X者 (X 4+ characters, verbatim) the edition leaves unmarked."""
    from sklearn.metrics import roc_auc_score

    train_idx = [i for i in range(len(records)) if i not in set(tune_idx)]
    loss, yz = Counter(), []
    per_juan: dict[str, list[int]] = {}
    by_aligned: dict[str, list[int]] = {}
    samples = []
    for i in train_idx:
        rec, cs = records[i], cands[i]
        t = rec["text"]
        gold = {(q["start"], q["end"]) for q in rec["quotes"]}
        other = {(o["start"], o["end"]) for o in rec["other"]}
        unsure = [(u["start"], u["end"]) for u in rec["uncertain"]]
        marks = list(gold | other) + unsure
        probs = {(c["s"], c["e"]): sig(c["z"]) for c in cs}
        chosen = greedy(cs, [sig(c["z"]) for c in cs], 0.3)
        spans = {(s, e) for s, e, _h in chosen}
        loss["gold"] += len(gold)
        for g in gold:
            if g in spans:
                continue
            if g not in probs:
                loss["gold missed: not a candidate"] += 1
            elif probs[g] >= 0.3:
                loss["gold missed: scored 0.3+, an overlapping candidate chosen instead"] += 1
            elif any(a < g[1] and g[0] < b for a, b in spans):
                loss["gold missed: scored under 0.3, an overlapping candidate chosen"] += 1
            else:
                loss["gold missed: scored under 0.3, nothing chosen there"] += 1
        for s, e, _h in chosen:
            if (s, e) in gold:
                loss["chosen: right"] += 1
            elif (s, e) in other:
                loss["chosen: an `other` span (not wrong)"] += 1
            elif any(a < e and s < b for a, b in unsure):
                loss["chosen: overlaps `uncertain` (left out)"] += 1
            elif not any(a < e and s < b for a, b in marks):
                form = "云X者" if t[s - 1 : s] == "云" and t[e : e + 1] == "者" else ("X者" if t[e : e + 1] == "者" else "bare")
                loss[f"chosen wrong: no quotation mark there at all ({form})"] += 1
            else:
                m = next(m for m in marks if m[0] < e and s < m[1])
                how = "longer" if s <= m[0] and e >= m[1] else ("shorter" if s >= m[0] and e <= m[1] else "shifted")
                loss[f"chosen wrong: other bounds than the edition's mark ({how})"] += 1
        for c in cs:  # 云X者, X verbatim, 4+ characters, not a range
            s, e = c["s"], c["e"]
            if e - s < 4 or t[s - 1 : s] != "云" or t[e : e + 1] != "者" or "rng" in c["feats"]:
                continue
            if c["gold"]:
                kind = "gold"
            elif c["unsure"]:
                kind = "uncertain"
            elif (s, e) in other:
                kind = "other"
            elif any(a < e and s < b for a, b in marks):
                kind = "overlaps a mark of other bounds"
            else:
                kind = "no mark"
            loss["云X者: " + kind] += 1
            if kind in ("gold", "no mark"):
                yz.append((kind == "gold", c["z"]))
                per_juan.setdefault(juan(rec), [0, 0])[kind == "no mark"] += 1
                share = "0.98+" if rec["aligned"] >= 0.98 else ("0.95-0.98" if rec["aligned"] >= 0.95 else "under 0.95")
                by_aligned.setdefault(share, [0, 0])[kind == "no mark"] += 1
                if kind == "no mark":
                    samples.append(f"{rec['id']} p={sig(c['z']):.2f} {t[max(0, s - 10):s]}【{t[s:e]}】{t[e:e + 6]}")
    right, counted = loss["chosen: right"], sum(v for k, v in loss.items() if k.startswith("chosen") and "left out" not in k)
    unmarked = sum(v for k, v in loss.items() if k.startswith("chosen wrong: no quotation mark"))
    p = (right + loss["chosen: an `other` span (not wrong)"]) / counted
    r = right / loss["gold"]
    p2, r2 = (p * counted + unmarked) / counted, (right + unmarked) / (loss["gold"] + unmarked)
    rates = sorted((n_un / (n_un + n_g), j) for j, (n_g, n_un) in per_juan.items() if n_un + n_g >= 20)
    n_g, n_un = sum(v[0] for v in per_juan.values()), sum(v[1] for v in per_juan.values())
    share = n_un / (n_g + n_un)
    chi2 = sum((u - (g + u) * share) ** 2 / ((g + u) * share * (1 - share)) for g, u in per_juan.values())
    out = {"loss": dict(sorted(loss.items())),
           "p_r_f1": [round(p, 4), round(r, 4), round(2 * p * r / (p + r), 4)],
           "p_r_f1_if_the_unmarked_chosen_were_gold": [round(p2, 4), round(r2, 4), round(2 * p2 * r2 / (p2 + r2), 4)],
           "yunzhe_unmarked_share": round(share, 4),
           "yunzhe_auc_gold_vs_unmarked": round(roc_auc_score([a for a, _z in yz], [z for _a, z in yz]), 3),
           "yunzhe_unmarked_scoring_0.3": sum(1 for a, z in yz if not a and sig(z) >= 0.3),
           "yunzhe_unmarked_share_by_juan": {"min": rates[0], "median": rates[len(rates) // 2], "max": rates[-1],
                                             "juan": len(per_juan), "chi2": round(chi2, 1)},
           "yunzhe_gold_unmarked_by_record_aligned_share": by_aligned,
           "yunzhe_unmarked_sample": random.Random(20261204).sample(samples, 12)}
    print(json.dumps(out, ensure_ascii=False, indent=1))


# the 93 pairs read by `pairs` (seen 2+ times) reviewed by hand: the ones that are one character
# in two printed forms (Unihan z- / semantic variants as the stop-26 SUPPLEMENT has them); the
# rest are different words (云/曰, 也/者, 己/已, 大/太, 三/二), loans (早/蚤, 女/汝, 辟/避), or misprints
REVIEWED = tuple(tuple(p) for p in ("宾賔 阴隂 听聼 葬𦵏 戶戸 于扵 出岀 夲本 远逺 吿告 羮羹 关闗 鼓鼔 达逹 偹備 諌諫 䖏処 "
                                    "冦寇 榖穀 節莭 奇竒 䇿策 筮簭 㣲微 禭襚 㓜幼 高髙 笄筓 亷廉 䓁等 敛歛 攷考 豳邠").split())


def other_pairs(records: list[dict], min_count: int = 2) -> list[tuple[str, str, int]]:
    """The character pairs by which an `other` span (4+ characters) differs from a stretch of its
    passage in one character (both folded), seen in `min_count`+ spans."""
    seen: Counter = Counter()
    for rec in records:
        units = [base_fold(p["text"]) for p in rec["passage"]]
        for o in rec["other"]:
            x = base_fold(rec["text"][o["start"] : o["end"]])
            found = set()
            for f in units if len(x) >= 4 else ():
                for i in range(len(f) - len(x) + 1):
                    diff = [(a, b) for a, b in zip(x, f[i : i + len(x)]) if a != b]
                    if len(diff) == 1:
                        found.add(tuple(sorted(diff[0])))
            seen.update(found)
    return [(a, b, n) for (a, b), n in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])) if n >= min_count]


def pairs(records, tmp: Path, log) -> None:
    tune = [r for r in records if juan(r) in TUNE]
    found = other_pairs([r for r in records if juan(r) not in TUNE])
    rows = []
    for name, extra in (("learned pairs only (shipped)", ()), ("+ the reviewed pairs", REVIEWED),
                        ("+ every pair seen twice", tuple((a, b) for a, b, _n in found))):
        path = tmp / "spans.json"
        train_spans(path, log=log, hold_out=TUNE, extra_pairs=extra, marked=False)
        model = SpanModel(path)
        from pipeline.align.quote_spans import span_quotations

        sc = score(tune, [span_quotations(*reader_inputs(r), model=model) for r in tune])
        rows.append({"pairs": name, "extra": len(extra), **{k: sc[k] for k in ("precision", "recall", "f1", "anchor_accuracy",
                                                                             "other", "predicted")}})
        log(json.dumps(rows[-1], ensure_ascii=False))
    print(json.dumps({"other_pairs": " ".join(f"{a}/{b} {n}" for a, b, n in found), "n": len(found),
                      "reviewed": len(REVIEWED), "table": rows}, ensure_ascii=False, indent=1))


def relation(prev: dict | None, c: dict) -> list[str]:
    """How a candidate stands to the one before it in 疏 order (CRF features)."""
    if prev is None:
        return ["rel=first"]
    s, e, ps, pe = c["s"], c["e"], prev["s"], prev["e"]
    if ps < e and s < pe:
        rel = "same_start" if s == ps else ("same_end" if e == pe else ("inside" if e <= pe else "overlap"))
    else:
        rel = "gap" + ("0" if s == pe else "1-3" if s - pe <= 3 else "4+")
    return ["rel=" + rel, "rel_r1=" + rel + "_" + next((f[3:] for f in c["feats"] if f.startswith("r1=")), "")]


def crf(records, tmp: Path, log) -> None:
    import pycrfsuite

    path = tmp / "spans.json"
    train_spans(path, log=log, hold_out=TUNE, marked=False)
    model = SpanModel(path)
    cands = [read_candidates(r, model) for r in records]
    tune_idx = [i for i, r in enumerate(records) if juan(r) in TUNE]
    tune = [records[i] for i in tune_idx]

    def items(cs):
        cs = sorted(cs, key=lambda c: (c["s"], c["e"]))
        return cs, [c["feats"] + relation(cs[k - 1] if k else None, c) for k, c in enumerate(cs)]

    trainer = pycrfsuite.Trainer(verbose=False)
    for i, r in enumerate(records):
        if juan(r) in TUNE or not cands[i]:
            continue
        cs, xs = items([c for c in cands[i] if not c["unsure"]])
        if cs:
            trainer.append(xs, ["Q" if c["gold"] else "N" for c in cs])
    trainer.set_params({"c1": 0.0, "c2": 10.0, "max_iterations": 100, "feature.minfreq": 5,
                        "feature.possible_transitions": True})
    trainer.train(str(tmp / "cands.crfsuite"))
    tagger = pycrfsuite.Tagger()
    tagger.open(str(tmp / "cands.crfsuite"))
    rows = []
    marg = {}
    for i in tune_idx:
        cs, xs = items(cands[i])
        if cs:
            tagger.set(xs)
            marg[i] = (cs, [tagger.marginal("Q", k) for k in range(len(cs))])
        else:
            marg[i] = ([], [])
    for t in THRESHOLDS:
        preds = [[Pred(s, e, hit) for s, e, hit in greedy(*marg[i], t)] for i in tune_idx]
        sc = score(tune, preds)
        rows.append({"threshold": t, **{k: sc[k] for k in ("precision", "recall", "f1", "anchor_accuracy")}})
        log(json.dumps(rows[-1]))
    lr = [[Pred(s, e, hit) for s, e, hit in greedy(cands[i], [sig(c["z"]) for c in cands[i]], 0.3)] for i in tune_idx]
    print(json.dumps({"crf": rows, "lr_at_0.3": score(tune, lr)["f1"]}, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("compare", "errors", "pairs", "crf"))
    args = ap.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    records = train_records()
    with tempfile.TemporaryDirectory() as tmp:
        if args.what in ("pairs", "crf"):
            (pairs if args.what == "pairs" else crf)(records, Path(tmp), log)
            return
        cands, tune_idx = stage1(records, Path(tmp), log)
    (compare if args.what == "compare" else errors)(records, cands, tune_idx, log)


if __name__ == "__main__":
    main()
