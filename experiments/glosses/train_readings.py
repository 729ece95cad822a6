"""Every train 注 / 鄭注 block right after its base (aligned >= 0.9) of the three books, read by the
gloss reader twice: with the edition's marks and with the marks the pipeline's reader gets (the
model's own, the base as its passage). One JSON line per reading; diff two dumps to see what a
change to pipeline/align does on the train split (docs/glosses.md, "Stop 33").

    python experiments/glosses/train_readings.py OUT.jsonl
    python experiments/glosses/train_readings.py --diff BEFORE.jsonl AFTER.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def dump(out_path: str) -> None:
    from gloss_silver import pairs

    from pipeline.align import align_block
    from pipeline.evaluate.glosses import note_marks
    from pipeline.segment import load_segmenter

    seg = load_segmenter().without_memory()  # train juan: the phrase memory knows their marks by heart
    with open(out_path, "w", encoding="utf-8") as out:
        for book in ("KR1d0003", "KR1d0053", "KR1d0030"):
            zs = book != "KR1d0030"
            for rid, base, note, marks in pairs(book):
                own = note_marks([note], seg, ids=[rid], bases=[base])[0][0]  # the id gives the kind and book
                for name, m in (("edition", marks), ("own", own)):
                    gl = align_block(base, note, m, zhushu=zs)
                    out.write(json.dumps({
                        "id": rid, "marks": name, "base": base,
                        "note": "".join(ch + m.get(k + 1, "") for k, ch in enumerate(note)),
                        "glosses": sorted([g.lemma, g.lemma_start, g.lemma_end, g.type, g.text]
                                          for g in gl if g.lemma_start is not None)}, ensure_ascii=False) + "\n")


def diff(before: str, after: str) -> None:
    a = [json.loads(x) for x in open(before, encoding="utf-8")]
    b = [json.loads(x) for x in open(after, encoding="utf-8")]
    n = 0
    for x, y in zip(a, b):
        if x["glosses"] != y["glosses"]:
            n += 1
            sx = {tuple(g[:4]) for g in x["glosses"]}
            sy = {tuple(g[:4]) for g in y["glosses"]}
            print(x["id"], x["marks"], x["note"], "| lost", sorted(sx - sy), "| gained", sorted(sy - sx))
    print(f"{n} of {len(a)} readings differ")


if __name__ == "__main__":
    if sys.argv[1] == "--diff":
        diff(sys.argv[2], sys.argv[3])
    else:
        dump(sys.argv[1])
