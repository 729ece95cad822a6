"""Stop 36: dev seg F1 of v4 (OLD, a folder of git 00b7d6f, e.g. `git archive 00b7d6f models | tar -x -C /tmp/v4`) and the default, on records aligned >= 0.99 to the edition and the rest (音義 left out)."""
import sys, collections
from pathlib import Path
from pipeline import paths
from pipeline.segment import load_segmenter
from pipeline.segment.data import read_records, record_kind
from pipeline.evaluate.segment import record_passages, score
segs = {"v4": load_segmenter(Path(sys.argv[1])), "v5": load_segmenter(paths.SEGMENTER_DEFAULT)}
for book in ("KR1d0030", "KR1d0003", "KR1d0053"):
    recs = [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl", split="dev")]
    passages = record_passages(recs)
    keep = [i for i, r in enumerate(recs) if r["text"]]
    recs, passages = [recs[i] for i in keep], [passages[i] for i in keep]
    kinds = [record_kind(r) for r in recs]
    preds = {n: s.predict([r["text"] for r in recs], kinds, books=[book] * len(recs), passages=passages) for n, s in segs.items()}
    for lab, sel in (("aligned>=0.99", lambda r: r.get("aligned", 0) >= 0.99), ("aligned<0.99", lambda r: r.get("aligned", 0) < 0.99)):
        idx = [i for i, r in enumerate(recs) if sel(r) and kinds[i] != "音義"]
        chars = sum(len(recs[i]["text"]) for i in idx)
        row = {n: score([recs[i] for i in idx], [p[i] for i in idx])["seg"] for n, p in preds.items()}
        print(book, lab, len(idx), "records", chars, "chars", {n: (v["f1"], v["tp"], v["pred"], v["gold"]) for n, v in row.items()}, flush=True)
