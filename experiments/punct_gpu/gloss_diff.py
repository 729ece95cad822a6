"""Stop 49: the 注疏's 注 glosses read with v5's marks and with v6's, on train juan (周禮注疏 and
禮記註疏 juan 13 and 25): which glosses only one of them gives, a seeded sample of each side.

    F="data/corpus/KR1d0003/KR1d0003_013.txt data/corpus/KR1d0003/KR1d0003_025.txt data/corpus/KR1d0053/KR1d0053_013.txt data/corpus/KR1d0053/KR1d0053_025.txt"
    zhushu run $F --out /tmp/gl_v6 --steps ingest,segment,tag,align,export --workers 2
    zhushu run $F --out /tmp/gl_v5 --segment-model /tmp/v5/models/segmenter-v5-passage --steps ingest,segment,tag,align,export --workers 2
    python experiments/punct_gpu/gloss_diff.py /tmp/gl_v5 /tmp/gl_v6
"""
import json
import random
import sys


def load(folder):
    out = {}
    for line in open(f"{folder}/jsonl/glosses.jsonl", encoding="utf-8"):
        g = json.loads(line)
        out[(g["unit"], g["lemma_start"], g["lemma_end"], g["note_start"], g["note_end"])] = g
    return out


old, new = load(sys.argv[1]), load(sys.argv[2])
only_old = [old[k] for k in old if k not in new]
only_new = [new[k] for k in new if k not in old]
print(len(old), len(new), "only the first", len(only_old), "only the second", len(only_new))
rng = random.Random(49)
for name, lst in (("only the first", only_old), ("only the second", only_new)):
    print("==", name)
    for g in rng.sample(lst, min(12, len(lst))):
        print(g["unit"], g["lemma"], "|", g["text"][:40], g["type"])
