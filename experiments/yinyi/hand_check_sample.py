"""The hand-check sample of docs/segmentation.md ("音義 notes from their grammar"): 15 dev 音義
notes of each 注疏 book, seed 22, with the stage's marks (model + grammar), the model's alone, and
the edition's as carried over (gold).   PYTHONPATH=. python experiments/yinyi/hand_check_sample.py"""
import random
import sys

sys.path.insert(0, "benchmarks")
from segment_yinyi import BOOKS, records  # noqa: E402

from pipeline.segment import load_segmenter  # noqa: E402


def show(text: str, marks: dict) -> str:
    return "".join(ch + marks.get(i + 1, marks.get(str(i + 1), "")) for i, ch in enumerate(text))


seg = load_segmenter()
for book in BOOKS:
    recs = [r for r in records(book) if r["set"] == "dev"]
    for r in random.Random(22).sample(recs, 15):
        ours = seg.predict([r["text"]], ["音義"], books=[book])[0]
        plain = seg.backend.predict([r["text"]], ["音義"], books=[book])[0]
        print(f"{r['id']} (aligned {r.get('aligned')})\n  ours : {show(r['text'], ours)}\n"
              f"  model: {show(r['text'], plain)}\n  gold : {show(r['text'], r['marks'])}")
