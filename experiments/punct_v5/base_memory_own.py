"""Stop 35: the phrase memory's base-text lines with the 集釋's own train base records added (or alone),
scored on the 集釋 tune juan with the default segmenter."""
import copy, json, sys, gzip
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "punct_v4"))
from context_prior_tune import segment_row, tune_records
from pipeline import paths
from pipeline.segment import load_segmenter
from pipeline.segment import memory as M
from pipeline.segment.bilstm import CharFold
from pipeline.segment.data import read_records
from pipeline.train.segment.memory import HOLD_OUT
mdir = paths.MODELS / "segment-memory"
mcfg = json.loads((mdir / "memory.json").read_text())
rows = [l.rstrip("\n").split("\t", 1) for l in gzip.open(mdir / mcfg["file"], "rt", encoding="utf-8")]
lines_all = [t for _s, t in rows]
lines_base = [t for s, t in rows if s in mcfg["base_sources"]]
f = CharFold("t2s")
own = []
for r in read_records(paths.DATA / "punct" / "KR1d0030.punct.jsonl", split="train"):
    if r["kind"] == "base" and r["text"] and r.get("aligned", 1) >= 0.9 and r["id"].split("#")[0] not in HOLD_OUT:
        t = f(r["text"]); mk = {int(k): v for k, v in r["marks"].items()}
        own.append("".join(ch + mk.get(i + 1, "") for i, ch in enumerate(t)))
print("own base lines", len(own), sum(map(len, own)))
seg = load_segmenter(paths.SEGMENTER_DEFAULT)
recs = tune_records("KR1d0030")
for label, lb in (("shipped", lines_base), ("+own base", lines_base + own), ("own base only", own)):
    s = copy.copy(seg); s.memory = M.PhraseMemory(lines_all, lb, 6, "t2s")
    row = segment_row(s, "KR1d0030", recs)
    print(label, json.dumps(row, ensure_ascii=False)[:600], flush=True)
