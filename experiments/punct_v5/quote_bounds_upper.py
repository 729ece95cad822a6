"""Upper bound of item 3 read backwards: the 疏's gold quotation boundaries (data/quotes) forced as breaks
in the 注 / 經 they quote, tune juan (KR1d0003_007, KR1d0053_007); the default segmenter with its priors.
Reads no dev juan (docs/segmentation.md, "Stop 39").

    python experiments/punct_v5/quote_bounds_upper.py
"""
import sys, json
from collections import Counter, defaultdict
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]; sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT/'experiments/punct_v4'))
from context_prior_tune import tune_records
from pipeline import paths
from pipeline.evaluate.segment import record_passages
from pipeline.segment import load_segmenter
from pipeline.segment.data import record_kind
seg = load_segmenter(paths.SEGMENTER_DEFAULT)
for name in ("KR1d0003", "KR1d0053"):
    recs = tune_records(name)
    by_text = defaultdict(list)
    for i, r in enumerate(recs): by_text[(r['id'].split('#')[0], r['text'])].append(i)
    bounds = defaultdict(set)
    for l in open(paths.QUOTES[name], encoding='utf-8'):
        q = json.loads(l); juan = q['id'].split('#')[0]
        for qu in q['quotes']:
            p = q['passage'][qu['target']]
            for i in by_text.get((juan, p['text']), []):
                n = len(p['text'])
                for pos in (qu['target_start'], qu['target_end']):
                    if 0 < pos < n: bounds[i].add(pos)
    kinds = [record_kind(r) for r in recs]
    pred = seg.predict([r["text"] for r in recs], kinds, books=[name]*len(recs), passages=record_passages(recs))
    for kind in ('注', 'base'):
        c = Counter()
        for i, (r, p) in enumerate(zip(recs, pred)):
            if kinds[i] != kind: continue
            n = len(r['text']); g = {int(k) for k in r['marks'] if 0 < int(k) < n}; pb = {k for k in p if 0 < k < n}
            forced = pb | bounds[i]
            for tag, s in (('model', pb), ('forced', forced)):
                c[tag,'tp'] += len(g & s); c[tag,'pred'] += len(s)
            c['gold'] += len(g); c['bounds'] += len(bounds[i]); c['bounds_new'] += len(bounds[i] - pb); c['bounds_new_right'] += len((bounds[i]-pb) & g)
        for tag in ('model','forced'):
            P = c[tag,'tp']/c[tag,'pred']; R = c[tag,'tp']/c['gold']; print(name, kind, tag, f"P {P:.4f} R {R:.4f} F1 {2*P*R/(P+R):.4f}")
        print(name, kind, 'bounds', c['bounds'], 'new', c['bounds_new'], 'new right', c['bounds_new_right'])
