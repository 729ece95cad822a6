"""Stop 49: the 注疏's 注 glosses read with v5's marks and with v6's, on train juan (周禮注疏 and
禮記註疏 juan 13 and 25): every 注 gloss only one of them gives (the glosses export holds the 疏's
quotations too, as explanations: left out, by the unit's marker).

    F="data/corpus/KR1d0003/KR1d0003_013.txt data/corpus/KR1d0003/KR1d0003_025.txt data/corpus/KR1d0053/KR1d0053_013.txt data/corpus/KR1d0053/KR1d0053_025.txt"
    zhushu run $F --out /tmp/gl_v6 --steps ingest,segment,tag,align,export --workers 2
    zhushu run $F --out /tmp/gl_v5 --segment-model /tmp/v5/models/segmenter-v5-passage --steps ingest,segment,tag,align,export --workers 2
    python experiments/punct_gpu/gloss_diff.py /tmp/gl_v5 /tmp/gl_v6
"""
import json
import sys


def markers(folder):
    return {u["unit"]: u.get("marker") for u in map(json.loads, open(f"{folder}/jsonl/units.jsonl", encoding="utf-8"))}


def load(folder):
    kind = markers(folder)
    out = {}
    for line in open(f"{folder}/jsonl/glosses.jsonl", encoding="utf-8"):
        g = json.loads(line)
        if kind.get(g["unit"]) == "注":
            out[(g["unit"], g["lemma_start"], g["lemma_end"], g["note_start"], g["note_end"])] = g
    return out


old, new = load(sys.argv[1]), load(sys.argv[2])
only_old = [old[k] for k in old if k not in new]
only_new = [new[k] for k in new if k not in old]
print(len(old), len(new), "注 glosses; only the first", len(only_old), "only the second", len(only_new))
for name, lst in (("only the first", only_old), ("only the second", only_new)):
    print("==", name)
    for g in lst:
        print(g["unit"], g["lemma"], "|", g["text"][:40], g["type"])
