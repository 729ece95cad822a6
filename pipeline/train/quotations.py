"""Training the 疏 quotation readers on the train split of data/quotes: the span reader
(pipeline/align/quote_spans.py, shipped; `train_spans`) and the CRF tagger
(pipeline/align/quote_tagger.py; `train`).

Span reader: every candidate span of every train record (those overlapping an `uncertain`
stretch left out) is an example, positive when it is a gold quotation; a logistic regression
(scikit-learn, L-BFGS: deterministic) over the span features gives the weights, written as
JSON (sorted, rounded) to models/quotations/spans.json. Rebuild: `zhushu train quotations`.

CRF tagger:

Each train record's 疏 is one sequence, tagged B / I / O from its gold `quotes` spans; the
characters of an `uncertain` stretch (a quotation whose ends did not carry over) are cut out, so
that neither label is learned there (the pieces train as sequences). `other` spans (quoted by the
edition, not from the passage) are O: the align stage links quotations of the passage only.
L-BFGS is deterministic: the same data and code give the same model bytes.

Rebuild: `zhushu train quotations` (about 5 min on one free core; 12 on the shared machine).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from pipeline import atomic, paths
from pipeline.align.quote_passage import QuotePassage
from pipeline.align.quote_spans import MODEL_PATH as SPANS_PATH
from pipeline.align.quote_spans import candidate_features
from pipeline.align.quote_tagger import MODEL_PATH, char_features, to_bio
from pipeline.evaluate.quotations import read_gold, reader_inputs
from pipeline.variants import fold, folder

# c2 1.0 over 0.01: F1 0.679 vs 0.673 on the tune juan (train juan 1-3 of each book, held out);
# minfreq 3 and c1 0.2 keep the model at 6 MB (8 MB with c1 0.05, every feature)
PARAMS = {"c1": 0.2, "c2": 1.0, "max_iterations": 50, "feature.minfreq": 3, "feature.possible_transitions": True}


def sequences(records: list[dict]):
    """(features, tags) pieces of every record, uncertain stretches cut out."""
    for rec in records:
        shu, passage, notes = reader_inputs(rec)
        if not shu:
            continue
        feats = char_features(shu, QuotePassage(passage, notes))
        tags = to_bio(len(shu), [(q["start"], q["end"]) for q in rec["quotes"]])
        cut = {i for u in rec["uncertain"] for i in range(u["start"], u["end"])}
        piece: list[int] = []
        for i in range(len(shu) + 1):
            if i == len(shu) or i in cut:
                if piece:
                    yield [feats[k] for k in piece], [tags[k] for k in piece]
                piece = []
            else:
                piece.append(i)


def train(out: Path = MODEL_PATH, max_iterations: int | None = None, log=print, verbose: bool = False,
          hold_out: frozenset[str] = frozenset()) -> dict:
    """`hold_out`: train juan (KR1d0053_001 …) left out, to measure a change on them (tuning)."""
    import pycrfsuite

    t0 = time.perf_counter()
    records = train_records(hold_out)
    trainer = pycrfsuite.Trainer(verbose=verbose)
    n_seq = n_chars = 0
    for feats, tags in sequences(records):
        trainer.append(feats, tags)
        n_seq += 1
        n_chars += len(tags)
    log(f"{len(records)} train records, {n_seq} sequences, {n_chars} characters ({time.perf_counter() - t0:.0f} s)")
    params = dict(PARAMS)
    if max_iterations:
        params["max_iterations"] = max_iterations
    trainer.set_params(params)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    trainer.train(str(tmp))
    tmp.chmod(0o644)
    tmp.replace(out)
    info = {"hold_out": sorted(hold_out), "records": len(records), "sequences": n_seq, "characters": n_chars, "params": params,
            "train_seconds": round(time.perf_counter() - t0), "bytes": out.stat().st_size}
    return _write_meta(out.parent / "meta.json", info, log)


def _write_meta(path: Path, info: dict, log) -> dict:
    """A model's meta file: its training facts but the seconds (the file stays byte-identical
    from run to run); the whole `info` is logged and returned."""

    atomic.write_text(path, json.dumps({k: v for k, v in info.items() if k != "train_seconds"},
                                       ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    log(json.dumps(info, ensure_ascii=False))
    return info


# on the tune juan (prototype features), best F1 over thresholds 0.25-0.5: C 1.0 0.705, C 0.3 0.718,
# C 0.1 0.721 (flat from 0.25 to 0.35: 0.721 / 0.720 / 0.719; 0.699 at 0.5): the strongest
# regularisation tried, and the middle of the flat stretch
# a feature must occur in MIN_COUNT candidates: every feature gives 1.1 M weights (28 MB of JSON),
# mostly rare character pairs around a span
SPAN_PARAMS = {"C": 0.1, "threshold": 0.3, "min_count": 5}


def train_records(hold_out: frozenset[str] = frozenset()) -> list[dict]:
    records = []
    for book in sorted(paths.QUOTES):
        records += [r for r in read_gold(paths.QUOTES[book], split="train") if r["id"].split("#")[0] not in hold_out]
    return records


# a pair of characters is a variant pair for the span reader when 2+ train quotations differ from
# their target by it alone (the train split: 法/灋 25, 明/眀 13, 䘮/丧 11, 㑹/会 5, 養/飬 3; less the
# tune juan: 4 pairs, 養/飬 once): the quotations the data's own alignment carried over through a
# pair pipeline/variants.py lacks; on the tune juan F1 0.720 -> 0.728 with them (docs/quotations.md)
VARIANT_MIN_COUNT = 2


def variant_pairs(records: list[dict], min_count: int = VARIANT_MIN_COUNT) -> list[list]:
    """[a, b, count, the first 3 record ids] of each character pair by which 1-2 characters of a
    gold quotation (not a range) differ from its target in the passage (both folded), seen
    `min_count` times or more; sorted."""
    seen: Counter = Counter()
    where: dict[tuple[str, str], list[str]] = {}
    for rec in records:
        for q in rec["quotes"]:
            quoted = fold(rec["text"][q["start"] : q["end"]])
            target = fold(rec["passage"][q["target"]]["text"][q["target_start"] : q["target_end"]])
            if q.get("range") or len(quoted) != len(target):
                continue
            diff = [tuple(sorted(p)) for p in zip(quoted, target) if p[0] != p[1]]
            if 1 <= len(diff) <= 2:  # more is no variant but another text
                for pair in diff:
                    seen[pair] += 1
                    where.setdefault(pair, []).append(rec["id"])
    return [[a, b, n, where[(a, b)][:3]] for (a, b), n in sorted(seen.items()) if n >= min_count]


def span_examples(records: list[dict], fold=fold, marks: list | None = None):
    """(features, is a gold quotation) of every candidate span, uncertain stretches left out;
    `fold` the variant view of the reader; `marks` (per record, as record_marks gives them): the
    features of the reader with the segmenter's punctuation."""
    for i, rec in enumerate(records):
        shu, passage, notes = reader_inputs(rec)
        if not shu:
            continue
        qp = QuotePassage(passage, notes, fold, marks[i][0] if marks else None)
        gold = {(q["start"], q["end"]) for q in rec["quotes"]}
        unsure = [(u["start"], u["end"]) for u in rec["uncertain"]]
        for s, e, feats, _hit in candidate_features(shu, qp, fold, marks[i][1] if marks else None):
            if any(a < e and s < b for a, b in unsure):
                continue
            yield feats, (s, e) in gold


def training_marks(records: list[dict]) -> list:
    """The punctuation the marked weights are trained on: the default segmenter's without its
    phrase memory, which knows the train juan's marks by heart (at run time it meets unseen juan
    and gives the reader its own breaks)."""
    from pipeline.evaluate.quotations import record_marks
    from pipeline.segment import read_segmenter

    return record_marks(records, read_segmenter(paths.SEGMENTER_DEFAULT).without_memory())


def _fit(examples, params: dict) -> tuple[dict[str, float], float, dict]:
    """The logistic regression over (features, label) examples: rounded weights, bias, facts."""
    import numpy as np
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    xs, ys = [], []
    for feats, label in examples:
        xs.append(feats)
        ys.append(label)
    counts = Counter(x for feats in xs for x in feats)
    xs = [{x: 1 for x in feats if counts[x] >= params["min_count"]} for feats in xs]
    vec = DictVectorizer()
    x = vec.fit_transform(xs)
    model = LogisticRegression(C=params["C"], max_iter=5000)
    model.fit(x, np.array(ys))
    names = vec.get_feature_names_out()
    weights = {str(k): round(float(w), 5) for k, w in zip(names, model.coef_[0]) if round(float(w), 5)}
    facts = {"candidates": len(ys), "gold": int(sum(ys)), "features": len(weights), "iterations": int(model.n_iter_[0])}
    return weights, round(float(model.intercept_[0]), 5), facts


def train_spans(out: Path = SPANS_PATH, log=print, hold_out: frozenset[str] = frozenset(),
                params: dict | None = None, extra_pairs: tuple[tuple[str, str], ...] = (),
                marked: bool = True, marks_by_id: dict | None = None) -> dict:
    """`hold_out`: train juan (KR1d0053_001 …) left out, to measure a change on them (tuning);
    `extra_pairs`: variant pairs to try beside the learned ones (benchmarks/quotation_joint.py
    pairs: none helped on the tune juan, stop 27); `marked`: also the weights that read the
    segmenter's punctuation (`training_marks`, or `marks_by_id`: record id -> marks, made once for
    several trainings), beside the plain ones."""
    t0 = time.perf_counter()
    params = {**SPAN_PARAMS, **(params or {})}
    records = train_records(hold_out)
    pairs = variant_pairs(records) + [[a, b, 0, []] for a, b in extra_pairs]
    fold_ = folder(tuple((a, b) for a, b, *_e in pairs))
    weights, bias, facts = _fit(span_examples(records, fold_), params)
    log(f"{len(records)} train records, {facts['candidates']} candidate spans, {facts['gold']} gold, plain "
        f"({time.perf_counter() - t0:.0f} s)")
    out = Path(out)
    body = {"bias": bias, "threshold": params["threshold"], "variant_pairs": pairs, "weights": weights}
    info = {"hold_out": sorted(hold_out), "records": len(records), "candidates": facts["candidates"],
            "gold": facts["gold"], "params": params, "features": facts["features"], "variant_pairs": len(pairs),
            "iterations": facts["iterations"]}
    if marked:
        marks = ([marks_by_id[r["id"]] for r in records] if marks_by_id is not None
                 else training_marks(records))
        m_weights, m_bias, m_facts = _fit(span_examples(records, fold_, marks), params)
        log(f"marked: {m_facts['features']} features ({time.perf_counter() - t0:.0f} s)")
        body["marked"] = {"bias": m_bias, "weights": m_weights}
        info["marked"] = {"features": m_facts["features"], "iterations": m_facts["iterations"],
                          "marks": "the default segmenter without its phrase memory"}
    atomic.write_text(out, json.dumps(body, ensure_ascii=False, sort_keys=True, indent=0) + "\n")
    info.update(train_seconds=round(time.perf_counter() - t0), bytes=out.stat().st_size)
    return _write_meta(out.parent / "spans.meta.json", info, log)
