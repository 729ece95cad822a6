"""Issue 22 item 3, a probe: does carrying the passage's predicted marks into the 疏's quotation of it
help the 疏? For each 疏 record of the given juan, its passage = the 經 / 注 records since the previous
疏 (as data/quotes builds it); each quotation (gold spans from data/quotes, or the shipped tagger's)
gets, at its inner positions, the marks the model predicted in the quoted 注 / 經.

    python experiments/punct_v3/shu_pass.py MODEL_DIR JUAN... [--tagger]
"""
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segment.bilstm import NeuralSegmenter  # noqa: E402
from pipeline.segment.data import book_of, read_records, record_kind  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("--")]
use_tagger = "--tagger" in sys.argv
model, juan = args[0], set(args[1:])
torch.set_num_threads(1)
seg = NeuralSegmenter.load(model)
recs, quotes = [], {}
for book in ("KR1d0003", "KR1d0053"):
    recs += [r for r in read_records(ROOT / f"data/punct/{book}.punct.jsonl") if r["id"].split("#")[0] in juan]
    for line in open(ROOT / f"data/quotes/{book}.quotes.jsonl", encoding="utf-8"):
        q = json.loads(line)
        if q["id"].split("#")[0] in juan:
            quotes[q["id"]] = q
recs = [r for r in recs if r["text"]]
preds = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[book_of(r["id"]) for r in recs])
before = [dict(p) for p in preds]

passage, stats = [], {"quotes": 0, "changed": 0, "shu": 0, "no_quote_rec": 0, "mismatch": 0}
agree = [0, 0]  # gold: inner marks of the 疏's quotation equal to the passage's gold marks there
if use_tagger:
    from pipeline.align.quote_tagger import tagged_quotations
for i, r in enumerate(recs):
    if r["marker"] in ("", "注"):
        passage.append(i)
        continue
    if r["marker"] != "疏":
        continue
    stats["shu"] += 1
    q = quotes.get(r["id"])
    if q is None:
        stats["no_quote_rec"] += 1
        passage = []
        continue
    if len(q["passage"]) != len(passage) or any(recs[j]["text"] != p["text"] for j, p in zip(passage, q["passage"])):
        stats["mismatch"] += 1
        passage = []
        continue
    if use_tagger:
        ps = [(j, recs[j]["text"]) for j in passage if recs[j]["marker"] == ""]
        ns = [(j, recs[j]["text"]) for j in passage if recs[j]["marker"] == "注"]
        spans = [(t.shu_start, t.shu_end, t.seq, t.start, t.end) for t in tagged_quotations(r["text"], ps, ns)]
    else:
        spans = [(g["start"], g["end"], passage[g["target"]], g["target_start"], g["target_end"]) for g in q["quotes"]]
    gold = {int(k): v for k, v in r["marks"].items()}
    for s, e, j, a, b in spans:
        if b - a != e - s:  # a range X至Y: not a copy
            continue
        stats["quotes"] += 1
        pg = {int(k): v for k, v in recs[j]["marks"].items()}
        for k in range(1, e - s):
            agree[0] += gold.get(s + k) == pg.get(a + k)
            agree[1] += 1
            new = preds[j].get(a + k)
            old = preds[i].get(s + k)
            if new != old:
                stats["changed"] += 1
                if new is None:
                    preds[i].pop(s + k, None)
                else:
                    preds[i][s + k] = new
    passage = []

shu = [k for k, r in enumerate(recs) if r["marker"] == "疏"]
for name, p in (("before", before), ("after", preds)):
    res = score([recs[k] for k in shu], [p[k] for k in shu])
    print(name, {m: res[m]["f1"] for m in ("seg", "punct", "sentence")})
print(stats, "gold inner agreement", agree, round(agree[0] / max(agree[1], 1), 3))

# where the 疏's errors are, relative to the gold quotations (positions k: the mark before character k)
from collections import Counter  # noqa: E402

where = Counter()
for k in shu:
    r = recs[k]
    q = quotes.get(r["id"])
    n = len(r["text"])
    gold = {int(x): v for x, v in r["marks"].items() if 0 < int(x) < n}
    pred = {x: v for x, v in before[k].items() if 0 < x < n}
    tag = {}
    if q:
        for g in q["quotes"]:
            s, e = g["start"], g["end"]
            for x in range(s + 1, e):
                tag[x] = "inside"
            tag[s] = "at start"
            if e < n and r["text"][e] == "者":
                tag[e + 1] = "after 者"
            tag[e] = tag.get(e, "at end")
            if s >= 1 and r["text"][s - 1] in "云曰":
                tag[s - 1] = "before 云"
    for x in range(1, n):
        g, p = x in gold, x in pred
        if g != p or (g and gold[x] != pred[x]):
            kind = "miss" if g and not p else ("spurious" if p and not g else "wrong mark")
            where[(tag.get(x, "elsewhere"), kind)] += 1
for k, v in sorted(where.items(), key=lambda kv: -kv[1]):
    print(k, v)
