"""Stop 83: a seeded sample of the 考證's emendation / variant statements as the align stage reads them
(pipeline/align/collation.py), from train juan not looked at while the formulas were written (SEEN), for a hand check:
each with its entry, the statement, its lemma and, where anchored, the body unit's words around the anchor; and the counts
over every juan of the three 注疏.

    python experiments/kaozheng/statements.py SEED [N]
    python experiments/kaozheng/statements.py said-by     # every statement said by someone, its entry punctuated as `zhushu run` does
"""
import random
import sys
from collections import Counter

from common import entries  # noqa: I001 (sets sys.path)

from pipeline import paths
from pipeline.align.collation import collation_glosses
from pipeline.align import align_document
from pipeline.kaozheng import Body
from pipeline.segment import load_segmenter, segment_document

BOOKS = ("KR1d0003", "KR1d0053", "KR1d0028")
# the juan whose statements were read while the formulas were written (and the juan of the test)
SEEN = {"KR1d0003": {2, 3, 4, 7, 8, 9, 11, 12, 16, 18, 22, 26, 38, 42},
        "KR1d0053": {1, 3, 12, 13, 20, 27, 30, 33, 34},
        "KR1d0028": {0, 2, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17}}


def main(seed: int, n: int = 30) -> None:
    counts, population = Counter(), []
    for book in BOOKS:
        for doc, reports, _texts in entries(paths.DATA / "corpus" / book, train_only=False):
            body, by_seq = Body(doc), {u.seq: u for u in doc.units}
            j = int(doc.id.split("_")[1]) if "_" in doc.id else -1
            for u in reports:
                for g in collation_glosses(doc, u, body):
                    counts[(book, g.type, g.lemma_start is not None)] += 1
                    if j % 10 and j not in SEEN[book]:
                        where = by_seq[g.base_seq] if g.base_seq is not None else None
                        ctx = (f"{where.marker or '經'} …{where.text[max(0, g.lemma_start - 8):g.lemma_start]}【{g.lemma}】"
                               f"{where.text[g.lemma_end:g.lemma_end + 8]}…") if where else f"unanchored ({g.reason})"
                        population.append(f"{doc.id} #{u.seq}  {g.type}: {g.text}  (lemma {g.lemma})\n  at: {ctx}\n  entry: {u.text}")
    for key, v in sorted(counts.items()):
        print("#", *key, v)
    print(f"# {len(population)} statements in the juan drawn from")
    for item in random.Random(seed).sample(population, min(n, len(population))):
        print(item)


def said_by() -> None:
    seg = load_segmenter()
    for book in BOOKS:
        for doc, reports, _texts in entries(paths.DATA / "corpus" / book, train_only=False):
            if not any(u.text.find("○") >= 0 for u in reports):
                continue
            align_document(segment_document(doc, seg))
            for u in reports:
                for g in u.glosses:
                    if g.said_by:
                        print(f"{doc.id} #{u.seq}  {g.type}: {g.text}  said by {g.said_by}\n  entry: {u.punctuated()}")


if __name__ == "__main__":
    if sys.argv[1] == "said-by":
        said_by()
    else:
        main(int(sys.argv[1]), *map(int, sys.argv[2:]))
