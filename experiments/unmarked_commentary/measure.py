"""Stop 82: what reading commentary as 經 costs (docs/segmentation.md "Stop 82"). The default segmenter on the tune juan
(held out of its training; records aligned >= 0.9 for the SBCK match): the 注 / note records read with their kind and passage
against read as base with none (what `unit_kind` gave a commentary unit without a marker before stop 82); then the SBCK 儀禮's
(KR1d0026) 鄭注 units whose variant-folded text equals a 集釋 tune-juan note record, scored against that record's marks.

    python experiments/unmarked_commentary/measure.py
"""
import glob
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import book_of, read_records, record_kind  # noqa: E402
from pipeline.variants import fold  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def f1s(s):
    return {k: s[k]["f1"] for k in ("seg", "punct", "sentence")}


def records_as_base(seg):
    for name, juans in (("KR1d0030", ("KR1d0030_007", "KR1d0030_027")), ("KR1d0003", ("KR1d0003_007",)),
                        ("KR1d0053", ("KR1d0053_007",))):
        allr = [r for r in read_records(ROOT / "data" / "punct" / f"{name}.punct.jsonl", split="train")
                if r["text"] and r["id"].split("#")[0] in juans]
        pas = record_passages(allr)
        idx = [i for i, r in enumerate(allr) if record_kind(r) in ("note", "注")]
        recs, ps = [allr[i] for i in idx], [pas[i] for i in idx]
        books = [book_of(r["id"]) for r in recs]
        for how, kinds, passages in (("as 注 / note, with its passage", [record_kind(r) for r in recs], ps),
                                     ("as 經, no passage", ["base"] * len(recs), [None] * len(recs))):
            pred = seg.predict([r["text"] for r in recs], kinds, books=books, passages=passages)
            print(name, len(recs), "records", how, f1s(score(recs, pred)))


def sbck_notes(seg):
    recs = {}
    for r in read_records(ROOT / "data" / "punct" / "KR1d0030.punct.jsonl", split="train"):
        if r["kind"] == "note" and r["text"] and r["id"].split("#")[0] in ("KR1d0030_007", "KR1d0030_027") \
                and r.get("aligned", 1) >= 0.9:
            recs.setdefault(fold(r["text"]), r)
    pairs = []
    for f in sorted(glob.glob(str(ROOT / "data" / "corpus" / "KR1d0026" / "*.txt"))):
        us = [u for u in read_document(f).units if u.text and u.kind in ("base", "commentary")]
        for b, c in zip(us, us[1:]):
            if b.kind == "base" and c.kind == "commentary" and fold(c.text) in recs:
                pairs.append((b.text, c.text, recs.pop(fold(c.text))))
    print("SBCK 儀禮 notes equal to a 集釋 tune record:", len(pairs), "units,", sum(len(c) for _, c, _ in pairs), "chars")
    gold = [dict(r, text=c) for _, c, r in pairs]
    texts = [c for _, c, _ in pairs]
    for how, kinds, ps in (("as note, with its passage", ["note"] * len(pairs), [b for b, _, _ in pairs]),
                           ("as 經, no passage", ["base"] * len(pairs), [None] * len(pairs))):
        pred = seg.predict(texts, kinds, books=["KR1d0026"] * len(pairs), passages=ps)
        print("KR1d0026", how, f1s(score(gold, pred)))


if __name__ == "__main__":
    seg = load_segmenter()
    records_as_base(seg)
    sbck_notes(seg)
