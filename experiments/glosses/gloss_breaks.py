"""Would the glosses' own boundaries help the 注's punctuation (issue 22 item 3, a second pass after
align)? On the tune juan's 注 (juan 7 of both 注疏, held out of the segmenter and its priors; aligned
>= 0.95), read the glosses with the segmenter's marks; where a gloss's head X (the note repeats it at
note_start) has no mark after it, or its statement has no mark before it, count a break there and
check it against the edition's marks. docs/segmentation.md, "The 注's sentences by hand (stop 45)".

    python experiments/glosses/gloss_breaks.py
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from pipeline.evaluate.segment import record_passages
from pipeline.segment import load_segmenter, marks_and_own
from pipeline.segment.data import book_of, read_records, record_kind
from pipeline.train.segment import TUNE_JUAN_ZHUSHU
from pipeline.align import align_block
from pipeline.variants import fold
recs, passages = [], []
for book in ("KR1d0003", "KR1d0053"):
    allrecs = [r for r in read_records(ROOT / 'data' / 'punct' / f'{book}.punct.jsonl') if r["text"]]
    for r, p in zip(allrecs, record_passages(allrecs)):
        if r.get("marker") == "注" and r["id"].split("#")[0] in TUNE_JUAN_ZHUSHU and r["aligned"] >= 0.95 and p:
            recs.append(r); passages.append(p)
seg = load_segmenter()
after = [0, 0]; before = [0, 0]; examples = []
for r, p in zip(recs, passages):
    text = r["text"]; gold = {int(k) for k in r["marks"]}
    published, own = marks_and_own(seg, [text], ["注"], books=[book_of(r["id"])], passages=[p])[0]
    marks = own if own is not None else published
    for g in align_block(p, text, marks, zhushu=True):
        if g.lemma_start is None: continue
        s = g.note_start; x = g.lemma
        if fold(text[s:s + len(x)]) == fold(x) and s + len(x) < g.note_end:
            k = s + len(x)
            if k not in published:
                after[0] += 1; after[1] += k in gold
                examples.append(('after', r['id'], text[max(0, s-6):k] + '|' + text[k:k+6], k in gold))
        if s > 0 and s not in published:
            before[0] += 1; before[1] += s in gold
            examples.append(('before', r['id'], text[max(0, s-6):s] + '|' + text[s:s+6], s in gold))
print('records', len(recs), 'break after an unmarked head: n, gold', after, ' before an unmarked statement start:', before)
for e in examples: print(e)
