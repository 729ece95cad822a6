"""A learned corrector of the segmenter's marks where the gloss reader needs them (stop 76, not kept; docs/glosses.md "Stop 76"): at
every position of a 注 where a word of the passage opens, a multinomial logistic regression (scikit-learn) chooses none / comma / list /
final from the segmenter's mark there and after the matched word, the characters around, the match lengths, the clause lengths and
the formula characters after it; where it disagrees with the segmenter by more than a margin its choice replaces the mark, and the
glosses are read again. Scored by silver F1 on the tune juan (held out of the segmenter) against the glosses read with the edition's
marks. Three fits:

- `train`: fitted on the train juan (the segmenter without its memory), every feature;
- `text`: fitted on the train juan without the segmenter's mark, then added to it with a weight (the train juan's marks are better
  than an unseen juan's: the segmenter learned them);
- `tune`: fitted on three tune juan, scored on the fourth (few features), each juan in turn.

    python experiments/glosses/break_corrector.py [train|text|tune]

Reads no dev juan.
"""
import collections
import sys
from pathlib import Path

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import note_marks, spans  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402
from pipeline.variants import fold  # noqa: E402

FINAL = set("。？！；")
MARK = {"final": "。", "comma": "，", "list": "、"}


def kind(m):
    return "none" if m is None else "final" if m in FINAL else "list" if m == "、" else "comma"


def load(tune: bool):
    pairs = passage_pairs(tune=tune)
    seg = load_segmenter() if tune else load_segmenter().without_memory()
    for p in pairs:
        p["seg"] = {int(k): v for k, v in note_marks([p["text"]], seg, ids=[p["id"]], bases=[p["passage"]])[0][0].items()}
        p["gold"] = {int(k): v for k, v in p["marks"].items()}
    return pairs


def positions(p):
    text, passage = fold(p["text"]), fold(p["passage"])
    for k in range(1, len(text)):
        n = 0
        while n < 6 and k + n < len(text) and text[k : k + n + 1] in passage:
            n += 1
        if n:
            yield k, n


def features(p, k, n, with_mark=True, compact=False):
    text, marks, ft, passage = p["text"], p["seg"], fold(p["text"]), fold(p["passage"])
    m, am = kind(marks.get(k)), (kind(marks.get(k + n)) if k + n < len(text) else "end")
    before = max([j for j in marks if j < k] + [0])
    after = min([j for j in marks if j > k] + [len(text)])
    nb = 0
    while nb < 6 and k - nb - 1 >= 0 and ft[k - nb - 1 : k] in passage:
        nb += 1
    f = {"bias": 1, f"L={min(n, 4)}": 1, f"lb={min(k - before, 8)}": 1, f"la={min(after - k, 8)}": 1, f"Lb={min(nb, 3)}": 1,
         f"cont={int(ft[k - 1 : k + n] in passage)}": 1, f"am={am}": 1}
    for ch in "謂猶者曰也之":
        if ch in text[k + n : after][:3]:
            f["fa=" + ch] = 1
    a = text[k + n] if k + n < len(text) else "$"
    if compact:
        if text[k - 1] in "也者之":
            f["b1=" + text[k - 1]] = 1
        if a in "謂猶者曰也之":
            f["a=" + a] = 1
    else:
        f.update({"b1=" + text[k - 1]: 1, "b2=" + text[max(0, k - 2) : k]: 1, "a=" + a: 1, "c0=" + text[k]: 1,
                  "a2=" + text[k + n : k + n + 2]: 1})
    if with_mark:
        f.update({"m=" + m: 1, f"L={min(n, 4)}|m={m}": 1, f"am={am}|m={m}": 1})
        if not compact:
            f.update({f"b1={text[k - 1]}|m={m}": 1, f"a={a}|m={m}": 1})
    return f


def rows(pairs, **kw):
    X, y, at = [], [], []
    for i, p in enumerate(pairs):
        for k, n in positions(p):
            X.append(features(p, k, n, **kw))
            y.append(kind(p["gold"].get(k)))
            at.append((i, k))
    return X, y, at


def silver(pairs, at, chosen):
    by = collections.defaultdict(dict)
    for (i, k), c in zip(at, chosen):
        by[i][k] = c
    tot = [0, 0, 0]
    for i, p in enumerate(pairs):
        m = dict(p["seg"])
        for k, c in by[i].items():
            if c == "none":
                m.pop(k, None)
            elif kind(m.get(k)) != c:
                m[k] = MARK[c]
        z = p["book"] != "KR1d0030"
        g = set(spans(align_block(p["passage"], p["text"], p["gold"], zhushu=z)))
        s = set(spans(align_block(p["passage"], p["text"], m, zhushu=z)))
        tot = [tot[0] + len(g & s), tot[1] + len(s), tot[2] + len(g)]
    return prf(*tot)


def main() -> None:
    how = sys.argv[1] if len(sys.argv) > 1 else "train"
    tune = load(True)
    Xu, yu, au = rows(tune, compact=how == "tune")
    seg = [kind(tune[i]["seg"].get(k)) for i, k in au]
    r = silver(tune, au, seg)
    print(f"segmenter: position accuracy {np.mean([a == b for a, b in zip(seg, yu)]):.4f}, silver F1 {r['f1']:.4f}")
    if how == "tune":
        juan = [tune[i]["id"].split("#")[0] for i, _ in au]
        for C in (0.03, 0.1, 0.3, 1.0):
            chosen = list(seg)
            for j in sorted(set(juan)):
                tr = [i for i, q in enumerate(juan) if q != j]
                te = [i for i, q in enumerate(juan) if q == j]
                dv = DictVectorizer()
                lr = LogisticRegression(C=C, max_iter=3000).fit(dv.fit_transform([Xu[i] for i in tr]), [yu[i] for i in tr])
                for i, c in zip(te, lr.predict(dv.transform([Xu[i] for i in te]))):
                    chosen[i] = c
            r = silver(tune, au, chosen)
            print(f"C {C}: accuracy {np.mean([a == b for a, b in zip(chosen, yu)]):.4f}, silver F1 {r['f1']:.4f}")
        return
    train = load(False)
    Xt, yt, _ = rows(train, with_mark=how == "train")
    if how == "text":
        Xu, _, _ = rows(tune, with_mark=False)
    dv = DictVectorizer()
    A, B = dv.fit_transform(Xt), dv.transform(Xu)
    for C in ((0.1, 0.3, 1.0) if how == "train" else (0.3,)):
        lr = LogisticRegression(C=C, max_iter=3000).fit(A, yt)
        P, classes = lr.predict_proba(B), list(lr.classes_)
        for knob in ((0.0, 0.1, 0.2, 0.3) if how == "train" else (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)):
            chosen = []
            for pr, s in zip(P, seg):
                if how == "train":
                    j = int(np.argmax(pr))
                    chosen.append(classes[j] if classes[j] != s and pr[j] - pr[classes.index(s)] > knob else s)
                else:  # the text's log-probabilities plus a weight on the segmenter's own choice
                    score = np.log(pr + 1e-9) + knob * np.array([c == s for c in classes])
                    chosen.append(classes[int(np.argmax(score))])
            r = silver(tune, au, chosen)
            print(f"C {C} {'margin' if how == 'train' else 'weight'} {knob}: accuracy "
                  f"{np.mean([a == b for a, b in zip(chosen, yu)]):.4f}, silver P {r['p']:.4f} R {r['r']:.4f} F1 {r['f1']:.4f}", flush=True)


if __name__ == "__main__":
    main()
