"""Stop 83: a seeded sample of whole 考證 entries as `zhushu run` punctuates them (the juan's body segmented first, then its
考證), from the train juan of the three 注疏 not looked at to choose (common.LOOKED_AT), for a hand check; each entry is
printed with its pieces (經 / 注 / 疏 lemma stretches, the editors' words) and its punctuation.

    python experiments/kaozheng/handcheck.py SEED [N]
"""
import random
import sys

from common import entries  # noqa: I001 (sets sys.path)

from pipeline import paths
from pipeline.segment import load_segmenter, segment_document
from pipeline.kaozheng import report_pieces

BOOKS = ("KR1d0003", "KR1d0053", "KR1d0028")


def main(seed: int, n: int = 24) -> None:
    population = [(doc, u.seq, bodies)
                  for book in BOOKS for doc, reports, bodies in entries(paths.DATA / "corpus" / book)
                  for u in reports if "○" in u.text]
    sample = random.Random(seed).sample(range(len(population)), n)
    seg = load_segmenter()
    done = set()
    for i in sorted(sample):
        doc, seq, bodies = population[i]
        if id(doc) not in done:
            segment_document(doc, seg)
            done.add(id(doc))
        u = next(u for u in doc.units if u.seq == seq)
        pieces = " | ".join(f"{u.text[p.start:p.end]}<{p.kind or ''}>" for p in report_pieces(u.text, bodies))
        print(f"{doc.id} #{seq}\n  {pieces}\n  {u.punctuated()}")


if __name__ == "__main__":
    main(int(sys.argv[1]), *map(int, sys.argv[2:]))
