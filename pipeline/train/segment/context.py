"""Fit a segmenter's context prior (pipeline/segment/context.py) on the train juan.

Per book group, from its train records (aligned >= 0.9; juan 0 and the tune juan left out) and
the segmenter's probabilities:

- **breaks**: every position of the units of BREAK_KINDS (the kinds neither the passage prior nor
  the reading grammar reads), labelled by whether the edition has a mark there;
- **notes**: every position of the 注 (and the 集釋's notes) printed right after their 經, with that
  passage (the passage prior's pairs), labelled as breaks are; the model alone is the passage
  prior here;
- **finals**: every break the segmenter makes at its own threshold, labelled by whether the
  edition's mark there is sentence-final.

Features: segment/context.py's; the characters around the position kept when seen MIN_COUNT
times or more. Per decision and per C in C_GRID one scikit-learn logistic regression (L-BFGS, a
fixed data order: the same file from run to run); the C and the threshold are the best on the
group's tune juan (seg F1 for breaks, sentence F1 for finals), and a decision is kept only when
that beats the segmenter alone there by MARGIN. The dev juan are never read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.evaluate.segment import score
from pipeline.segment.bilstm import LABELS, marks_at
from pipeline.segment.context import NUMERIC, SLOTS, ContextPrior, canonical_kind, numeric_features, slot_keys
from pipeline.segment.passage import group_of

MIN_COUNT = 3
C_GRID = (0.3, 1.0)
THRESHOLDS = tuple(round(0.3 + 0.025 * i, 3) for i in range(13))  # 0.3 .. 0.6
MARGIN = 0.005
BREAK_KINDS = ("base", "疏", "小注")  # (the 注: the passage prior; the 音義: the reading grammar)


def group_records() -> dict[str, tuple[list[dict], list[dict]]]:
    """Per book group, (train, tune) records with "kind" and "book" as the v2 models read them."""
    from pipeline.train.segment import training_data, v2_records, zhushu_data

    train, tune, _ = training_data()
    v2_records(train, tune, [])
    ztrain, ztune = zhushu_data()
    out: dict[str, tuple[list[dict], list[dict]]] = {}
    for recs, tune_recs in ((train, tune), (ztrain, ztune)):
        for r in recs:
            if r.get("weight", 1.0) >= 1.0:
                out.setdefault(group_of(r.get("book")), ([], []))[0].append(r)
        for r in tune_recs:
            out.setdefault(group_of(r.get("book")), ([], []))[1].append(r)
    return out


def note_pairs() -> dict[str, tuple[list[dict], list[dict]]]:
    """Per book group, (train, tune) 注 / note records with their passage (the passage prior's pairs)."""
    from pipeline.train.segment.passage import passage_pairs

    out: dict[str, tuple[list[dict], list[dict]]] = {}
    for side, tune in ((0, False), (1, True)):
        for pair in passage_pairs(tune=tune):
            out.setdefault(group_of(pair["book"]), ([], []))[side].append(pair)
    return out


def _rows(decision: str, backend, recs: list[dict]):
    """Probabilities, and per row (a position of BREAK_KINDS for breaks, of a 注 for notes, a
    break at the backend's threshold for finals): (record, index), numeric features, context
    keys, gold."""
    from pipeline.model import SENTENCE_FINAL

    from pipeline.segment import run_time_probs

    probs = run_time_probs(backend, [r["text"] for r in recs], [r["kind"] for r in recs],
                           books=[r.get("book") for r in recs], passages=[r.get("passage") for r in recs])
    where, num, keys, gold = [], [], [], []
    for ri, (r, p) in enumerate(zip(recs, probs)):
        t, n = r["text"], len(r["text"])
        if decision == "notes":
            idx = np.arange(n - 1)
        elif decision == "breaks":
            idx = np.arange(n - 1) if r["kind"] in BREAK_KINDS else np.arange(0)
        else:
            idx = np.nonzero(p[: n - 1, 0] < backend.threshold)[0]
        if not len(idx):
            continue
        marks = {int(k): v for k, v in r["marks"].items()}
        num.append(numeric_features(decision, p, idx, n, r.get("passage"), t))
        unit = ("kind=" + canonical_kind(r["kind"]), "book=" + str(r.get("book")))
        for i in idx.tolist():
            where.append((ri, i))
            keys.append(unit + tuple(f"{s}={c}" for s, c in zip(SLOTS, slot_keys(t, i))))
            gold.append(i + 1 in marks if decision != "finals" else marks.get(i + 1, "") in SENTENCE_FINAL)
    return probs, where, np.vstack(num), keys, np.array(gold)


def sparse_design(num: np.ndarray, keys: list[tuple], vocab: dict[str, int]):
    """The rows' numeric columns, then one 0/1 column per key in `vocab` (key -> its index among
    them; keys outside it are dropped)."""
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


def _score(decision, recs, probs, where, chosen, backend, passage_prior=None) -> float:
    """Tune score of the records: breaks (seg F1) where `chosen` says for the rows, the backend's
    threshold elsewhere (notes: the passage prior's breaks); or sentence F1 with each break final
    as `chosen` says. `chosen` None: the backend (and its passage prior) alone."""
    by_rec: dict[int, list[int]] = {}
    for j, (ri, _i) in enumerate(where):
        by_rec.setdefault(ri, []).append(j)
    fin = getattr(backend, "final_threshold", None)
    pred = []
    for ri, (r, p) in enumerate(zip(recs, probs)):
        n, js = len(r["text"]), by_rec.get(ri, [])
        own = np.nonzero(p[: n - 1, 0] < backend.threshold)[0]
        if decision == "notes" and passage_prior is not None and n and group_of(r["book"]) in passage_prior.groups:
            own = np.nonzero(passage_prior.breaks(p, r["passage"], r["text"], group_of(r["book"])))[0]
        if decision != "finals":
            idx = own if chosen is None or not js else np.array([where[j][1] for j in js if chosen[j]], dtype=int)
            pred.append(marks_at(p, idx, n, final_threshold=fin) if n else {})
        else:
            f = None if chosen is None else np.array([chosen[j] for j in js], dtype=bool)
            pred.append(marks_at(p, np.array([where[j][1] for j in js], dtype=int), n, final_threshold=fin, finals=f) if n else {})
    return score(recs, pred)["sentence" if decision == "finals" else "seg"]["f1"]


def _fit(decision: str, backend, train: list[dict], tune: list[dict], log,
         passage_prior=None) -> tuple[dict | None, dict]:
    """One decision of one group: its weights (None when not kept) and its report."""
    from sklearn.linear_model import LogisticRegression

    _, _, num, keys, y = _rows(decision, backend, train)
    counts: dict[str, int] = {}
    for ks in keys:
        for k in ks:
            counts[k] = counts.get(k, 0) + 1
    vocab = {k: i for i, k in enumerate(sorted(k for k, c in counts.items() if c >= MIN_COUNT))}
    X = sparse_design(num, keys, vocab)
    tprobs, twhere, tnum, tkeys, _ = _rows(decision, backend, tune)
    tX = sparse_design(tnum, tkeys, vocab)
    base = _score(decision, tune, tprobs, twhere, None, backend, passage_prior)
    best = None
    for C in C_GRID:
        lr = LogisticRegression(C=C, max_iter=5000, solver="lbfgs").fit(X, y)
        q = lr.predict_proba(tX)[:, 1]
        for t in THRESHOLDS:
            f = _score(decision, tune, tprobs, twhere, q >= t, backend, passage_prior)
            if best is None or f > best[0] + 1e-9:
                best = (f, C, t, lr)
    f, C, t, lr = best
    report = {"train_rows": int(len(y)), "tune_rows": len(twhere), "features": len(vocab), "C": C,
              "tune_f1_model": round(base, 4), "tune_f1_prior": round(f, 4), "kept": bool(f > base + MARGIN)}
    if not report["kept"]:
        return None, report
    coef = lr.coef_[0]
    nn = len(NUMERIC[decision])
    out = {"numeric": [round(float(c), 6) for c in coef[:nn]], "bias": round(float(lr.intercept_[0]), 6),
           "threshold": t, "slots": {s: {} for s in SLOTS}, "kind": {}, "book": {}}
    for key, c in vocab.items():
        w = round(float(coef[nn + c]), 6)
        if w != 0.0:
            slot, chars = key.split("=", 1)
            (out["slots"][slot] if slot in SLOTS else out[slot])[chars] = w
    # whom it reads: the books it was fitted on (their characters), the kinds its rows came from
    out["books"] = sorted({str(r.get("book")) for r in train})
    out["kinds"] = sorted({canonical_kind(r["kind"]) for r in train if decision != "breaks" or r["kind"] in BREAK_KINDS})
    return out, report


def fit_context_prior(segmenter, log=print) -> ContextPrior:
    from pipeline.segment.passage import PassagePrior

    backend = segmenter.backend
    passage_prior = PassagePrior.load(segmenter.path)  # (the notes' baseline: None, the model alone)
    groups: dict[str, dict] = {"breaks": {}, "notes": {}, "finals": {}}
    report: dict[str, dict] = {}
    records, pairs = group_records(), note_pairs()
    for group in sorted(records):
        for decision in ("breaks", "notes", "finals"):
            train, tune = (pairs if decision == "notes" else records).get(group, ([], []))
            if not train or not tune:
                continue
            got, rep = _fit(decision, backend, train, tune, log, passage_prior)
            report.setdefault(decision, {})[group] = rep
            what = "sentence F1" if decision == "finals" else "seg F1"
            log(f"context prior {decision} {group}: C {rep['C']}, tune {what} {rep['tune_f1_model']} (without it) -> "
                f"{rep['tune_f1_prior']}; {'kept' if got else 'not kept'}")
            if got is not None:
                groups[decision][group] = got
    return ContextPrior(groups, {"segmenter": segmenter.path.name, "tune": report, "labels": list(LABELS)})


def train_context_prior(model_dir: str | Path, log=print) -> Path:
    """Fit the context prior of the segmenter folder `model_dir` and write it there."""
    from pipeline.segment import read_segmenter

    model_dir = Path(model_dir)
    seg = read_segmenter(model_dir, with_prior=False)
    if seg.type not in ("bilstm", "ensemble"):
        raise ValueError(f"{model_dir}: a context prior needs a BiLSTM or ensemble segmenter (its probabilities), not {seg.type}")
    return fit_context_prior(seg, log=log).save(model_dir)
