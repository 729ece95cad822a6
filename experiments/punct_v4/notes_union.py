"""Tune juan (and a tenth of the train juan): the notes decision with the passage prior's breaks
after a whole word of the passage (before a gloss formula character, or any) put back, against
the notes decision and the passage prior alone; seg F1 of the 注 / notes.

    python experiments/punct_v4/notes_union.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import numpy as np
from pipeline import paths
from pipeline.segment import read_segmenter
from pipeline.segment.passage import FEATURES, features, group_of
from pipeline.train.segment.passage import passage_pairs
seg = read_segmenter(paths.SEGMENTER_DEFAULT)
cp, pp = seg.context_prior, seg.prior
iw, iwf = FEATURES.index("word"), FEATURES.index("word_formula")
for tune in (True, False):
    pairs = passage_pairs(tune=tune)
    if not tune:
        pairs = pairs[::10]
    probs = seg.backend.probs([p["text"] for p in pairs], [p["kind"] for p in pairs], books=[p["book"] for p in pairs])
    res = {}
    for pair, p in zip(pairs, probs):
        t, n = pair["text"], len(pair["text"])
        if n < 2: continue
        g = group_of(pair["book"]); kind = pair["kind"]
        gold = np.array([k in pair["marks"] for k in range(1, n)])
        PB = pp.breaks(p, pair["passage"], t, g)
        NB = np.zeros(n - 1, bool); NB[cp.note_breaks(p, pair["passage"], t, kind, pair["book"], g)] = True
        X = features(1 - p[:, 0], pair["passage"], t)
        H = X[:, iwf] > 0; W = X[:, iw] > 0
        for name, pred in (("passage prior", PB), ("notes", NB), ("notes + prior's head-formula breaks", NB | (PB & H)),
                           ("notes + prior's word breaks", NB | (PB & W))):
            c = res.setdefault((g, name), [0, 0, 0]); c[0] += int((pred & gold).sum()); c[1] += int(pred.sum()); c[2] += int(gold.sum())
    for (g, name), (tp, pr, go) in sorted(res.items()):
        print("tune" if tune else "train(1/10)", g, name, round(2 * tp / (pr + go), 4))
