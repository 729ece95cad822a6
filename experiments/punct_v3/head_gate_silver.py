"""Tried in stop 28, not shipped (docs/glosses.md, "Stop 28"). A gate: drop a non-final restored
mark right after a sentence-initial word X of the passage when the head classifier (heads.py) gives
P(mark after X) < t. Scored on silver: glosses read with the edition's marks (400 train blocks a
book, seed 28; or every tune-juan block), for v2's marks and the passage prior's.

    python experiments/punct_v3/head_gate_silver.py train|tune
"""
import sys, json, random
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from pipeline.align import align_block
from pipeline.align.grammar import longest_base_prefix, FINAL
from pipeline.align.heads import head_probability, is_formula_next
from pipeline.evaluate.common import prf
from pipeline.evaluate.glosses import spans
from pipeline.variants import fold
from pipeline import paths
from pipeline.segment import load_segmenter
from pipeline.train.segment.passage import passage_pairs

def gate(base, note, marks, t, zhushu):
    if t <= 0: return marks
    fb = fold(base)
    in_base = lambda s: bool(s) and fold(s) in fb
    out = dict(marks)
    starts = [0] + [k for k, m in sorted(marks.items()) if m in FINAL and k < len(note)]
    for n, s in enumerate(starts):
        nxt = min([k for k in marks if k > s and marks[k] in FINAL] + [len(note)])
        seg = note[s:nxt]
        k = longest_base_prefix(seg, in_base)
        if not k or k >= len(seg) or marks.get(s + k) in FINAL or (s + k) not in marks:
            continue
        x, rest = seg[:k], seg[k:]
        if is_formula_next(rest):
            continue
        p = head_probability(x, rest, fb.count(fold(x)), n == 0, zhushu)
        if p is not None and p < t:
            del out[s + k]
    return out

which = sys.argv[1]  # train | tune
segs = {"v2": load_segmenter(), "prior": load_segmenter(paths.SEGMENTER_PASSAGE)}
pairs = passage_pairs(tune=(which == "tune"))
rng = random.Random(28)
by_book = {}
for p in pairs: by_book.setdefault(p["book"], []).append(p)
for book, ps in sorted(by_book.items()):
    pick = ps if which == "tune" else rng.sample(ps, min(400, len(ps)))
    z = book != "KR1d0030"
    kind = "note" if book == "KR1d0030" else "注"
    kw = {} if book == "KR1d0030" else {"books": [book]}
    gold = [set(spans(align_block(p["passage"], p["text"], p["marks"], zhushu=z))) for p in pick]
    for name, seg in segs.items():
        marks = [seg.predict([p["text"]], [kind], passages=[p["passage"]], **kw)[0] for p in pick]
        row = []
        for t in (0, 0.3, 0.4, 0.5):
            tp = ns = ng = 0
            for p, m, g in zip(pick, marks, gold):
                s = set(spans(align_block(p["passage"], p["text"], gate(p["passage"], p["text"], m, t, z), zhushu=z)))
                tp += len(s & g); ns += len(s); ng += len(g)
            r = prf(tp, ns, ng); row.append(f"t{t}: {r['p']:.3f}/{r['r']:.3f}/{r['f1']:.4f}")
        print(which, book, name, " | ".join(row), flush=True)
