"""Stop 35: the default's errors on the tune juan by the mark involved (a missed edition mark, an extra
mark of ours), per book and kind."""
import sys, collections
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "punct_v4"))
from context_prior_tune import tune_records
from pipeline import paths
from pipeline.segment import read_segmenter
from pipeline.segment.data import record_kind
from pipeline.evaluate.segment import record_passages
seg = read_segmenter(paths.SEGMENTER_DEFAULT)
c = collections.defaultdict(collections.Counter)
for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
    recs = tune_records(name); kinds = [record_kind(r) for r in recs]
    pred = seg.predict([r["text"] for r in recs], kinds, books=[name]*len(recs), passages=record_passages(recs))
    for r, k, p in zip(recs, kinds, pred):
        n = len(r["text"]); kk = (name[-4:], r.get("marker") or k)
        g = {int(a): m for a, m in r["marks"].items() if int(a) < n}
        for a in set(g) | {a for a in p if a < n}:
            if a in g and a in p: c[kk]["tp"] += 1
            elif a in g: c[kk]["miss " + g[a]] += 1
            elif a < n: c[kk]["extra " + p[a]] += 1
for kk, cc in sorted(c.items()):
    tot_err = sum(v for k, v in cc.items() if k != "tp")
    print(kk, "tp", cc["tp"], "errors", tot_err, {k: v for k, v in cc.most_common() if k != "tp"})
