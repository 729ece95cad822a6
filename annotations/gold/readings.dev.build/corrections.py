"""Step 2 of annotations/gold/readings.dev.jsonl: the hand corrections of the pre-filled notes
(prefill.py), each with why; prints how many readings were changed, added and dropped.

    python annotations/gold/readings.dev.build/corrections.py     # from the repository root
"""
import json, copy
from pathlib import Path
HERE = Path(__file__).resolve().parent
recs = [json.loads(l) for l in open(HERE / 'prefill.jsonl', encoding='utf-8')]
pre = copy.deepcopy(recs)

def snd(note, text, at, auth=None):
    i = note.index(text, at)
    if text.endswith("二反"): raise ValueError
    if text.endswith("反"):
        k, up, lo, hom = "fanqie", text[-3], text[-2], None
    elif text.endswith("如字"):
        k, up, lo, hom = "ruzi", None, None, None
    elif "之" in text:
        k, up, lo, hom = "word", None, None, None
    else:
        k, up, lo, hom = "homophone", None, None, text[1]
    return {"kind": k, "text": text, "upper": up, "lower": lo, "homophone": hom, "authority": auth}, i + len(text)

def R(rec, head, hs, anchor, sounds, scope=None):
    """anchor: None or (seq, text-to-find or start offset)."""
    note = rec["note"]
    assert note[hs:hs + len(head)] == head, (note, head, hs)
    a = None
    if anchor:
        seq, where = anchor
        t = next(t["text"] for t in rec["targets"] if t["seq"] == seq)
        if isinstance(where, str):  # the head's form in the text, found from the start
            start = t.index(where)
            size = len(where)
        else:
            start, size = where, len(head)
        a = {"seq": seq, "start": start, "end": start + size}
    out, at = [], hs + len(head)
    for s in sounds:
        text, auth = (s, None) if isinstance(s, str) else s
        d, at = snd(note, text, at, auth)
        out.append(d)
    return {"head": head, "head_start": hs, "head_end": hs + len(head), "anchor": a, "sounds": out, "scope": scope}

def rs(i): return recs[i]["readings"]
# [1] 近附近之近: 近 as in 附近 (no reading before)
rs(1)[:] = [R(recs[1], "近", 0, (144, "近"), ["附近之近"])]
# [5] 守藏上手又反下才浪反: one reading each
rs(5)[0:1] = [R(recs[5], "守", 0, (67, "守"), ["手又反"]), R(recs[5], "藏", 1, (67, "藏"), ["才浪反"])]
# [13] the scope 下不為服…同
rs(13)[0]["scope"] = "下不為服為忝祖注非為又為之舞同"
# [14] 賁 printed for 僨 (夲又作僨), scope 注同
rs(14)[1] = R(recs[14], "賁", 4, (55, "僨"), [("音奮", "徐")], "注同")
# [24] 坊…本又作防下同: the scope; 取 printed for 娶 (本亦作娶)
rs(24)[4]["scope"] = "下同"
rs(24)[7] = R(recs[24], "取", 33, (29, "娶"), ["七住反"])
# [25] 頤霤上音夷下力救反
rs(25)[0:1] = [R(recs[25], "頤", 0, (320, "頤"), ["音夷"]), R(recs[25], "霤", 1, (320, "霤"), ["力救反"])]
# [26] 摯音志 / 下户嫁反: 下 of the 注 下賢也 is a head
rs(26)[0:1] = [R(recs[26], "摯", 0, (293, "摯"), ["音志"]), R(recs[26], "下", 3, (294, "下"), ["户嫁反"])]
# [28] 爭爭鬭之爭
rs(28)[0:0] = [R(recs[28], "爭", 0, (18, "爭"), ["爭鬭之爭"])]
# [40] 范 is 范宣, an authority: alternatives of 懥
rs(40)[1:3] = [R(recs[40], "懥", 4, (46, "懥"), ["勑值反", ("音稚", "范"), ("丁四反", "徐"), ("音勩", "又")])]
# [44] 澳…本又作隩一音烏報反: an alternative of 澳; 摩 printed for 磨; 喧 the head (夲亦作咺); 恂依注音峻
r44 = recs[44]
rs(44)[1:3] = [R(r44, "澳", 3, (22, "澳"), ["於六反", ("音烏報反", "一")])]
idx = {r["head_start"]: k for k, r in enumerate(rs(44))}
rs(44)[idx[49]] = R(r44, "摩", 45, (22, "磨"), ["末何反"])
rs(44)[idx[84]] = R(r44, "喧", 80, (22, "喧"), ["況晚反"])
rs(44)[idx[102]] = R(r44, "恂", 100, (22, "恂"), ["音峻", "思俊反", ("音思旬反", "一")])
# [52] 又音如字 is an alternative of 節; the scope 注同 of 僇 (after 與戮同)
rs(52)[0:2] = [R(recs[52], "節", 0, (75, "節"), ["前切反", ("音如字", "又")])]
rs(52)[-1]["scope"] = "注同"

# count the corrections: gold readings not in the pre-fill as they are, and pre-filled ones dropped
def key(r): return json.dumps(r, sort_keys=True, ensure_ascii=False)
changed = added = dropped = 0
for p, g in zip(pre, recs):
    pk = [key(r) for r in p["readings"]]; gk = [key(r) for r in g["readings"]]
    pspans = {(r["head_start"], r["head_end"]) for r in p["readings"]}
    for r, k in zip(g["readings"], gk):
        if k not in pk:
            if (r["head_start"], r["head_end"]) in pspans: changed += 1
            else: added += 1
    gspans = {(r["head_start"], r["head_end"]) for r in g["readings"]}
    dropped += sum((r["head_start"], r["head_end"]) not in gspans for r in p["readings"])
n = sum(len(r["readings"]) for r in recs)
print(f"{len(recs)} notes, {n} gold readings; pre-fill {sum(len(r['readings']) for r in pre)}: {changed} changed, {added} added, {dropped} dropped")
with open(HERE.parent / 'readings.dev.jsonl', 'w', encoding='utf-8') as f:
    for rec in recs:
        f.write(json.dumps(rec, ensure_ascii=False) + "\n")
