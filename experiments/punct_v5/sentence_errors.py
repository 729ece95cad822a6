"""Share of the edition's sentences with an error, by kind, on the tune juan (default segmenter)."""
import sys, json, collections
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "punct_v4"))
from context_prior_tune import tune_records
from pipeline import paths
from pipeline.segment import load_segmenter, read_segmenter
from pipeline.segment.data import record_kind
from pipeline.evaluate.segment import record_passages
from pipeline.model import SENTENCE_FINAL
model = Path(sys.argv[1]) if len(sys.argv) > 1 else paths.SEGMENTER_DEFAULT
seg = read_segmenter(model)
stats = collections.defaultdict(lambda: [0, 0, 0])
ctx_miss = collections.defaultdict(collections.Counter); ctx_extra = collections.defaultdict(collections.Counter)
for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
    recs = tune_records(name)
    kinds = [record_kind(r) for r in recs]
    pred = seg.predict([r["text"] for r in recs], kinds, books=[name] * len(recs), passages=record_passages(recs))
    for r, k, p in zip(recs, kinds, pred):
        n = len(r["text"]); kk = r.get("marker") or k
        g = {int(a): m for a, m in r["marks"].items() if int(a) < n}
        p = {a: m for a, m in p.items() if a < n}
        ends = sorted(a for a, m in g.items() if m in SENTENCE_FINAL) + [n]
        s = 0
        for e in ends:
            if e <= s: continue
            gs = {a for a in g if s < a < e} | ({e} if e < n else set())
            ps = {a for a in p if s < a < e} | ({e} if e < n and e in p else set())
            pos_err = gs != ps
            cls_err = pos_err or (e < n and (p[e] in SENTENCE_FINAL) != True)
            st = stats[(name, kk)]; st[0] += 1; st[1] += pos_err; st[2] += cls_err
            s = e
        for a in set(g) ^ set(p):
            t = r["text"]
            c = (t[a-1] if a > 0 else "^") + "|" + (t[a] if a < n else "$")
            (ctx_miss if a in g else ctx_extra)[kk][c] += 1
for key, (n, pe, ce) in sorted(stats.items()):
    print(key, n, f"break error {pe/n:.3f}  break or final-class error {ce/n:.3f}")
for kk in ("疏", "注", "base"):
    print(kk, "missed", ctx_miss[kk].most_common(15)); print(kk, "extra", ctx_extra[kk].most_common(15))
print("--- error marks by kind")
