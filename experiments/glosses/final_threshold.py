"""The gloss reader's own sentence-final threshold (stop 63; not taken — docs/glosses.md, "Stop 63"): silver F1 of
the 注 glosses on the tune juan with the default segmenter's final_threshold set to a few values (the segmenter's
own, 0.375, then 0.30 … 0.50), each against the glosses read with the edition's marks.

    python experiments/glosses/final_threshold.py [--train]
"""
import sys, json, collections
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[2]))
from pipeline.align import align_block
from pipeline.evaluate.common import prf
from pipeline.evaluate.glosses import note_marks, spans
from pipeline.segment import load_segmenter
from pipeline.train.segment.passage import passage_pairs
tune = '--train' not in sys.argv
pairs = passage_pairs(tune=tune)
if not tune:
    import random; pairs = random.Random(63).sample(pairs, 1500)
seg = load_segmenter()
if not tune: seg = seg.without_memory()
be = seg.backend
print('backend', type(be).__name__, 'final_threshold', getattr(be, 'final_threshold', None), len(pairs))
shipped = be.final_threshold
for t in [shipped, 0.30, 0.35, 0.40, 0.50]:
    be.final_threshold = t
    c = collections.defaultdict(lambda: [0, 0, 0])
    for p in pairs:
        marks = note_marks([p['text']], seg, ids=[p['id']], bases=[p['passage']])[0][0]
        z = p['book'] != 'KR1d0030'
        gold = {int(k): v for k, v in p['marks'].items()}
        g = set(spans(align_block(p['passage'], p['text'], gold, zhushu=z)))
        s = set(spans(align_block(p['passage'], p['text'], marks, zhushu=z)))
        cc = c[p['book']]; cc[0] += len(g & s); cc[1] += len(s); cc[2] += len(g)
    print(t, {b: prf(*v)['f1'] for b, v in sorted(c.items())}, {b: (prf(*v)['p'], prf(*v)['r']) for b, v in sorted(c.items())})
    sys.stdout.flush()
