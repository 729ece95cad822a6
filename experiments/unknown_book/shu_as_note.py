"""Stop 82: the 疏 of the two 注疏's tune juan (train split, held out of the segmenter's training; aligned >= 0.9) read as a
book the model does not know would read them: as 疏 (under the 注疏's mean book embedding) or as a note (under the 集釋's) —
what a later book's own marker for the 疏 it quotes (儀禮述註's 疏曰) was read as before stop 82.

    python experiments/unknown_book/shu_as_note.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
ROOT = Path(__file__).resolve().parents[2]
from pipeline.segment import load_segmenter
from pipeline.segment.data import read_records, record_kind
from pipeline.evaluate.segment import record_passages, score
seg = load_segmenter()
for own in ("KR1d0003", "KR1d0053"):
    allr = [r for r in read_records(ROOT / "data" / "punct" / f"{own}.punct.jsonl", split="train") if r["text"] and r["id"].startswith(own + "_007#")]
    pas = record_passages(allr)
    idx = [i for i, r in enumerate(allr) if r.get("aligned", 1) >= 0.9 and record_kind(r) == "疏"]
    recs = [allr[i] for i in idx]; ps = [pas[i] for i in idx]
    for name, kind in (("as 疏 (unknown book: 注疏 mean)", "疏"), ("as note (unknown book: 集釋)", "note")):
        s = score(recs, seg.predict([r["text"] for r in recs], [kind] * len(recs), books=["KR1d0040"] * len(recs), passages=ps))
        print(own, len(recs), name, {m: s[m]["f1"] for m in ("seg", "punct", "sentence")})
