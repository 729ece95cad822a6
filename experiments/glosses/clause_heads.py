"""A later clause as a statement start: would a classifier that turns the segmenter's comma into a
sentence end before a word of the passage give the 注 gloss reader more right glosses? (stop 63; not
taken — docs/glosses.md, "Stop 63").

Silver, no gloss gold: the train / tune pairs of data/punct (`passage_pairs`: 注 of the two 注疏 and
the 集釋's 鄭注, aligned ≥ 0.99, with their base record), each read with the edition's marks and with
the marks the reader gets from the default segmenter (`note_marks`; train juan without the phrase
memory). Candidates: each comma of the reader's marks (`soft_marks`) before a clause that opens with
a stretch of the passage; label: the edition-marks reading has an anchored gloss statement starting
there. A logistic regression (scikit-learn) over the clause, the one before and the one after; at a
threshold t a candidate's comma becomes 。 before the statements are read.

    python experiments/glosses/clause_heads.py data        # the reader's marks of every pair (~6 min)
    python experiments/glosses/clause_heads.py tune        # fitted on train, silver F1 on the tune juan
    python experiments/glosses/clause_heads.py crossfit    # 5 folds by juan over the train pairs
"""

from __future__ import annotations

import collections
import math
import pickle
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pipeline.align.grammar as G  # noqa: E402
from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import note_marks, spans  # noqa: E402
from pipeline.variants import fold  # noqa: E402

CACHE = Path("/tmp/clause_heads_{}.pkl")
THRESHOLDS = (None, 0.3, 0.4, 0.5, 0.6, 0.7)
_soft_marks = G.soft_marks
_now = {"w": {}, "t": None, "zh": True, "fp": ""}


def base_prefix(s: str, fpassage: str, cap: int = 8) -> int:
    k = 0
    for n in range(1, min(cap, len(s)) + 1):
        if fold(s[:n]) not in fpassage:
            break
        k = n
    return k


def candidates(note: str, cuts: dict[int, str], fpassage: str):
    ks = sorted(cuts)
    for j, k in enumerate(ks):
        if cuts[k] != "，" or not 0 < k < len(note):
            continue
        e = ks[j + 1] if j + 1 < len(ks) else len(note)
        b = ks[j - 1] if j else 0
        e2 = ks[j + 2] if j + 2 < len(ks) else len(note)
        clause, prev, nxt = note[k:e], note[b:k], note[e:e2]
        lb = base_prefix(clause, fpassage)
        if lb:
            yield k, clause, prev, nxt, lb


def features(clause: str, prev: str, nxt: str, lb: int, zh: bool) -> list[str]:
    whole = lb == len(clause)
    x = clause[:lb]
    n1, n2 = (clause[lb : lb + 1], clause[lb : lb + 2]) if not whole else ("|", "|")
    f = ["bias", f"lb={min(lb, 4)}", f"whole={whole}", f"lc={min(len(clause), 10) // 2}", f"n1={n1}", f"n2={n2}",
         f"x0={x[0]}", f"x-1={x[-1]}", f"nye={nxt.endswith('也')}", f"nl={min(len(nxt), 10) // 2}",
         f"pye={prev.endswith('也')}", f"pzhe={prev.endswith('者')}", f"pl={min(len(prev), 12) // 3}", f"pe={prev[-1:]}",
         f"zh={zh}", f"whole|nye={whole}|{nxt.endswith('也')}", f"lb|n1={min(lb, 4)}|{n1}", f"cye={clause.endswith('也')}",
         f"rep={any(c in x for c in clause[lb:lb + 3])}", f"whole|lb={whole}|{min(lb, 4)}",
         f"n0={nxt[:1]}" if whole else "n0=-", f"cl={clause[-1:]}"]
    return f + ([f"x={x}"] if lb <= 2 else [])


def _hooked(note: str, marks: dict[int, str]) -> dict[int, str]:
    cuts = _soft_marks(note, marks)
    if _now["t"] is None:
        return cuts
    for k, clause, prev, nxt, lb in list(candidates(note, cuts, _now["fp"])):
        z = sum(_now["w"].get(f, 0.0) for f in features(clause, prev, nxt, lb, _now["zh"]))
        if 1 / (1 + math.exp(-z)) >= _now["t"]:
            cuts[k] = "。"
    return cuts


def make_data() -> None:
    from pipeline.segment import load_segmenter
    from pipeline.train.segment.passage import passage_pairs

    for which in ("tune", "train"):
        seg = load_segmenter()
        if which == "train":
            seg = seg.without_memory()  # the memory knows train juan's marks by heart
        out = [(p["id"], p["book"], p["passage"], p["text"], {int(k): v for k, v in p["marks"].items()},
                note_marks([p["text"]], seg, ids=[p["id"]], bases=[p["passage"]])[0][0])
               for p in passage_pairs(tune=which == "tune")]
        pickle.dump(out, open(str(CACHE).format(which), "wb"))
        print(which, len(out))


def fit(data, C: float = 1.0) -> dict[str, float]:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    X, y = [], []
    _now["t"] = None
    for _rid, book, passage, note, gold, pred in data:
        zh, fp = book != "KR1d0030", fold(passage)
        starts = {g.note_start for g in align_block(passage, note, gold, zhushu=zh) if g.lemma_start is not None}
        for k, clause, prev, nxt, lb in candidates(note, _soft_marks(note, pred), fp):
            X.append({f: 1 for f in features(clause, prev, nxt, lb, zh)})
            y.append(int(k in starts))
    dv = DictVectorizer()
    lr = LogisticRegression(C=C, max_iter=2000).fit(dv.fit_transform(X), y)
    w = {n: float(c) for n, c in zip(dv.get_feature_names_out(), lr.coef_[0])}
    w["bias"] = w.get("bias", 0.0) + float(lr.intercept_[0])
    return w


def score(data, w) -> dict:
    out = {t: collections.defaultdict(lambda: [0, 0, 0]) for t in THRESHOLDS}
    for _rid, book, passage, note, gold, pred in data:
        zh = book != "KR1d0030"
        _now.update(w=w, zh=zh, fp=fold(passage), t=None)
        g = set(spans(align_block(passage, note, gold, zhushu=zh)))
        for t in THRESHOLDS:
            _now["t"] = t
            s = set(spans(align_block(passage, note, pred, zhushu=zh)))
            c = out[t][book]
            c[0] += len(g & s)
            c[1] += len(s)
            c[2] += len(g)
    return out


def main() -> None:
    G.soft_marks = _hooked
    what = sys.argv[1] if len(sys.argv) > 1 else "tune"
    if what == "data":
        return make_data()
    train = pickle.load(open(str(CACHE).format("train"), "rb"))
    if what == "tune":
        totals = score(pickle.load(open(str(CACHE).format("tune"), "rb")), fit(train))
    else:
        juans = sorted({r[0].split("#")[0] for r in train})
        fold_of = {j: i % 5 for i, j in enumerate(random.Random(63).sample(juans, len(juans)))}
        totals = {t: collections.defaultdict(lambda: [0, 0, 0]) for t in THRESHOLDS}
        for f in range(5):
            part = score([r for r in train if fold_of[r[0].split("#")[0]] == f],
                         fit([r for r in train if fold_of[r[0].split("#")[0]] != f]))
            for t, by in part.items():
                for b, c in by.items():
                    totals[t][b] = [x + y for x, y in zip(totals[t][b], c)]
    for t in THRESHOLDS:
        print(what, "no classifier" if t is None else f"t {t}",
              {b: {k: v for k, v in prf(*c).items() if k in ("p", "r", "f1")} for b, c in sorted(totals[t].items())})


if __name__ == "__main__":
    main()
