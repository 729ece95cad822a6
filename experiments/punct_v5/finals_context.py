"""Does clause structure help the context prior's finals regression? The default's finals rows (every
break at the model's threshold, train juan of each book group; pipeline/train/segment/context.py `_rows`)
with extra context keys, fitted as `_fit` fits them (C 0.1 / 0.3 / 1.0, thresholds 0.3–0.6), scored
by sentence F1 on the tune juan. Keys: g = the clause lengths before and after the break (to the
neighbouring breaks, bucketed); a3 = the three characters after; pe = the character ending the
clause before; last = the unit's last break. Reads no dev juan (docs/segmentation.md, "Stop 38").

    python experiments/punct_v5/finals_context.py [SEGMENTER_DIR]

(Stop 38 measured models/segmenter-v5-passage, in git history at fff18f3^; the default is the shipped v6-passage.
`score_keys` is shared with finals_passage.py.)
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sklearn.linear_model import LogisticRegression  # noqa: E402

from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.train.segment import context as C  # noqa: E402


def bucket(d):
    return "1" if d <= 1 else "2" if d == 2 else "3" if d == 3 else "4" if d == 4 else "5-6" if d <= 6 else "7-9" if d <= 9 else "10+"

def extra(recs, where, variant):
    # per row: clause lengths before / after (to the neighbouring break at the model's threshold)
    by = {}
    for j, (ri, i) in enumerate(where):
        by.setdefault(ri, []).append((i, j))
    out = [None] * len(where)
    for ri, lst in by.items():
        t = recs[ri]["text"]; n = len(t)
        pos = [i for i, _ in lst]
        for k, (i, j) in enumerate(lst):
            prev = pos[k - 1] if k else -1
            nxt = pos[k + 1] if k + 1 < len(pos) else n - 1
            ks = [f"gp={bucket(i - prev)}", f"gn={bucket(nxt - i)}"]
            if "a3" in variant:
                ks.append(f"a3={t[i+1:i+4]}")
            if "pe" in variant:  # the character ending the clause before, and the one opening the clause after next
                ks.append(f"pe={t[prev] if prev >= 0 else '^'}")
            if "last" in variant:
                ks.append(f"last={'1' if k + 1 == len(lst) else '0'}")
            if "cross" in variant:
                ks.append(f"b1gn={t[i]}|{bucket(nxt - i)}")
            out[j] = tuple(ks)
    return out

def score_keys(records, backend, group, add=None, label="current"):
    """Fit the finals regression of `group` on its train rows with the keys `add(recs, where)` gives each
    row besides the shipped ones (None: the shipped keys alone), as `_fit` fits it, and print the best tune
    sentence F1 over C and the thresholds beside the model alone's."""
    train, tune = records[group]
    _, w, num, keys, y = C._rows("finals", backend, train)
    tp, tw, tnum, tkeys, _ = C._rows("finals", backend, tune)
    if add is not None:
        keys = [a + b for a, b in zip(keys, add(train, w))]
        tkeys = [a + b for a, b in zip(tkeys, add(tune, tw))]
    counts = {}
    for ks in keys:
        for k in ks:
            counts[k] = counts.get(k, 0) + 1
    vocab = {k: i for i, k in enumerate(sorted(k for k, c in counts.items() if c >= C.MIN_COUNT))}
    X = C.sparse_design(num, keys, vocab); tX = C.sparse_design(tnum, tkeys, vocab)
    base = C._score("finals", tune, tp, tw, None, backend)
    best = None
    for c in (0.1, 0.3, 1.0):
        lr = LogisticRegression(C=c, max_iter=5000).fit(X, y)
        q = lr.predict_proba(tX)[:, 1]
        for t in C.THRESHOLDS:
            f = C._score("finals", tune, tp, tw, q >= t, backend)
            if best is None or f > best[0]:
                best = (f, c, t)
    print(group, label, f"model {base:.4f} prior {best[0]:.4f} C {best[1]} t {best[2]}", flush=True)


if __name__ == "__main__":
    seg = read_segmenter(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "models/segmenter-v6-passage", with_prior=False)
    records = C.group_records()
    for group in sorted(records):
        for variant in ("", "g", "g+a3", "g+pe", "g+last", "g+a3+pe+last"):
            score_keys(records, seg.backend, group, (lambda recs, where, v=variant: extra(recs, where, v)) if variant else None,
                       variant or "current")
