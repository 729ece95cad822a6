"""Stop 51: how often the edition sets a mark between a 1–2 character head and 謂 / 猶 in a 注 (「X，謂Y」
against 「X謂Y」), juan by juan, train juan only (dev juan 10, 20, … and the tune juan 7 left out), from
data/punct records aligned 0.97 or more. A house style per juan, not a property of the text.

    python experiments/punct_v5/gloss_comma_by_juan.py
"""
import collections

from pipeline import paths
from pipeline.segment.data import read_records, record_kind

for ch in "謂猶":
    for b in ("KR1d0003", "KR1d0053"):
        per = collections.defaultdict(lambda: [0, 0])
        for r in read_records(paths.DATA / "punct" / f"{b}.punct.jsonl"):
            j = int(r["id"].split("#")[0].split("_")[1])
            if j % 10 == 0 or j == 7 or (r.get("marker") or record_kind(r)) != "注" or r.get("aligned", 0) < 0.97:
                continue
            t, m = r["text"], {int(a) for a in r["marks"]}
            for a in range(1, len(t)):
                if t[a] != ch:
                    continue
                for n in (1, 2):  # a head of one or two characters after a break or the record's start
                    s = a - n
                    if s == 0 or (s > 0 and s in m and not any(x in m for x in range(s + 1, a))):
                        per[j][0] += 1
                        per[j][1] += a in m
                        break
        heads, marked = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
        lo = [j for j, v in per.items() if v[0] >= 4 and v[1] / v[0] <= 0.3]
        hi = [j for j, v in per.items() if v[0] >= 4 and v[1] / v[0] >= 0.8]
        print(f"{b} 「X，{ch}」: {marked} of {heads} heads marked ({marked / max(1, heads):.2f}); juan with 4+ heads "
              f"marked ≤ 30 %: {sorted(lo)}; ≥ 80 %: {sorted(hi)}")
