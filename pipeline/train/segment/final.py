"""Fit a segmenter's final prior (pipeline/segment/final.py) on the train juan.

Rows: every break the segmenter makes at its own threshold in the train records of a book group
(aligned >= 0.9, juan 0 and the tune juan left out), labelled by whether the edition's mark there
is sentence-final; features: segment/final.py's, the characters around the break kept when seen
MIN_COUNT times or more. Per group and per C in C_GRID one scikit-learn logistic regression
(L-BFGS, a fixed data order: the same file from run to run); the C and the threshold are the best
sentence F1 on the group's tune juan, and the group is kept only when that beats the segmenter's
own choice (final_threshold) there by MARGIN. The dev juan are never read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.evaluate.segment import score
from pipeline.segment.bilstm import LABELS, marks_at
from pipeline.segment.final import NUMERIC, FinalPrior, indicator_keys, numeric_features, unit_keys
from pipeline.segment.passage import group_of

MIN_COUNT = 3
C_GRID = (0.3, 1.0)
THRESHOLDS = tuple(round(0.3 + 0.025 * i, 3) for i in range(13))  # 0.3 .. 0.6
MARGIN = 0.005


def group_records() -> dict[str, tuple[list[dict], list[dict]]]:
    """Per book group, (train, tune) records with "kind" and "book" as the v2 models read them."""
    from pipeline.train.segment import training_data, v2_records, zhushu_data

    train, tune, _ = training_data()
    v2_records(train, tune, [])
    ztrain, ztune = zhushu_data()
    clean = [r for r in train if r.get("weight", 1.0) >= 1.0]
    zclean = [r for r in ztrain if r.get("weight", 1.0) >= 1.0]
    out: dict[str, tuple[list[dict], list[dict]]] = {}
    for recs, tune_recs in ((clean, tune), (zclean, ztune)):
        for r in recs:
            out.setdefault(group_of(r.get("book")), ([], []))[0].append(r)
        for r in tune_recs:
            out.setdefault(group_of(r.get("book")), ([], []))[1].append(r)
    return out


def _rows(backend, recs: list[dict]):
    """Probabilities, and per break at the backend's own threshold: (record, index), numeric
    features, indicator keys, gold final."""
    from pipeline.model import SENTENCE_FINAL

    probs = backend.probs([r["text"] for r in recs], [r["kind"] for r in recs], books=[r.get("book") for r in recs])
    where, num, keys, gold = [], [], [], []
    for ri, (r, p) in enumerate(zip(recs, probs)):
        t, n = r["text"], len(r["text"])
        idx = np.nonzero(p[: n - 1, 0] < backend.threshold)[0]
        if not len(idx):
            continue
        marks = {int(k): v for k, v in r["marks"].items()}
        num.append(numeric_features(p, idx, n))
        u = unit_keys(r["kind"], r.get("book"))
        for i in idx.tolist():
            where.append((ri, i))
            keys.append(u + indicator_keys(t, i))
            gold.append(marks.get(i + 1, "") in SENTENCE_FINAL)
    return probs, where, np.vstack(num), keys, np.array(gold)


def sparse_design(num: np.ndarray, keys: list[tuple], vocab: dict[str, int]):
    """The rows' numeric columns, then one 0/1 column per indicator key in `vocab` (key -> its
    index among them; keys outside it are dropped)."""
    from scipy.sparse import csr_matrix, hstack

    rows, cols = [], []
    for j, ks in enumerate(keys):
        for k in ks:
            c = vocab.get(k)
            if c is not None:
                rows.append(j)
                cols.append(c)
    ind = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(keys), len(vocab)))
    return hstack([csr_matrix(num), ind]).tocsr()


def _sentence_f1(recs, probs, where, finals, final_threshold) -> float:
    """Sentence F1 of the records with the backend's breaks, each break final as `finals` says
    (None: as final_threshold says)."""
    by_rec: dict[int, list[int]] = {}
    for j, (ri, _i) in enumerate(where):
        by_rec.setdefault(ri, []).append(j)
    pred = []
    for ri, (r, p) in enumerate(zip(recs, probs)):
        js = by_rec.get(ri, [])
        idx = np.array([where[j][1] for j in js], dtype=int)
        f = None if finals is None else np.array([finals[j] for j in js], dtype=bool)
        pred.append(marks_at(p, idx, len(r["text"]), final_threshold=final_threshold, finals=f) if r["text"] else {})
    return score(recs, pred)["sentence"]["f1"]


def fit_final_prior(segmenter, log=print) -> FinalPrior:
    from sklearn.linear_model import LogisticRegression

    backend = segmenter.backend
    rule = getattr(backend, "final_threshold", None)
    groups, report = {}, {}
    for group, (train, tune) in sorted(group_records().items()):
        _, _, num, keys, y = _rows(backend, train)
        counts: dict[str, int] = {}
        for ks in keys:
            for k in ks:
                counts[k] = counts.get(k, 0) + 1
        names = sorted(k for k, c in counts.items() if c >= MIN_COUNT)
        vocab = {k: i for i, k in enumerate(names)}  # (its column: len(NUMERIC) + i)
        X = sparse_design(num, keys, vocab)
        tprobs, twhere, tnum, tkeys, _ = _rows(backend, tune)
        tX = sparse_design(tnum, tkeys, vocab)
        base = _sentence_f1(tune, tprobs, twhere, None, rule)
        best = None
        for C in C_GRID:
            lr = LogisticRegression(C=C, max_iter=5000, solver="lbfgs").fit(X, y)
            q = lr.predict_proba(tX)[:, 1]
            for t in THRESHOLDS:
                f = _sentence_f1(tune, tprobs, twhere, q >= t, rule)
                if best is None or f > best[0] + 1e-9:
                    best = (f, C, t, lr)
        f, C, t, lr = best
        report[group] = {"train_breaks": int(len(y)), "tune_breaks": len(twhere), "features": len(vocab),
                         "C": C, "tune_sentence_f1_rule": round(base, 4), "tune_sentence_f1_prior": round(f, 4),
                         "kept": bool(f > base + MARGIN)}
        log(f"final prior {group}: C {C}, threshold {t}, tune sentence F1 {base:.4f} (final_threshold {rule}) -> "
            f"{f:.4f}; {'kept' if report[group]['kept'] else 'not kept'}")
        if report[group]["kept"]:
            coef = lr.coef_[0]
            groups[group] = {"numeric": [round(float(c), 6) for c in coef[: len(NUMERIC)]],
                             "weights": {k: w for k, c in vocab.items() if (w := round(float(coef[len(NUMERIC) + c]), 6)) != 0.0},
                             "bias": round(float(lr.intercept_[0]), 6), "threshold": t}
    return FinalPrior(groups, {"segmenter": segmenter.path.name, "tune": report, "labels": list(LABELS)})


def train_final_prior(model_dir: str | Path, log=print) -> Path:
    """Fit the final prior of the segmenter folder `model_dir` and write it there."""
    from pipeline.segment import read_segmenter

    model_dir = Path(model_dir)
    seg = read_segmenter(model_dir, with_prior=False)
    if seg.type not in ("bilstm", "ensemble"):
        raise ValueError(f"{model_dir}: a final prior needs a BiLSTM or ensemble segmenter (its probabilities), not {seg.type}")
    return fit_final_prior(seg, log=log).save(model_dir)
