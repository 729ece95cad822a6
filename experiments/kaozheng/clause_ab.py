"""Stop 83: the 考證's punctuation with each of the editors' statements kept one clause (today: segment_reports) against
without (the model's marks alone there), over train juan of the three 注疏 not looked at while the statement formulas were
written (statements.SEEN). Prints a blind A/B of 30 seeded positions the two read otherwise and writes the key.

    python experiments/kaozheng/clause_ab.py SEED KEYFILE
"""
import copy
import sys

from common import entries  # noqa: I001 (sets sys.path)
from statements import BOOKS, SEEN

import pipeline.kaozheng as kaozheng
from experiments.blind_ab import print_round, windows
from pipeline import paths
from pipeline.segment import load_segmenter, segment_document


def main(seed: int, keyfile: str) -> None:
    seg = load_segmenter()
    texts, now, before = [], [], []
    shipped = kaozheng.statements
    for book in BOOKS:
        for doc, reports, _texts in entries(paths.DATA / "corpus" / book):
            juan = int(doc.id.split("_")[1])
            if juan in SEEN[book] or not any(shipped(u.text, kaozheng.report_pieces(u.text, _texts)) for u in reports):
                continue
            a = segment_document(copy.deepcopy(doc), seg)
            kaozheng.statements = lambda text, pieces: []
            try:
                b = segment_document(copy.deepcopy(doc), seg)
            finally:
                kaozheng.statements = shipped
            for ua, ub in zip(a.units, b.units):
                if ua.kind == "report" and ua.text:
                    texts.append(ua.text)
                    now.append(ua.marks)
                    before.append(ub.marks)
    items = windows(texts, now, before)
    print(f"# {len(texts)} 考證 entries, {len(items)} positions read otherwise")
    print_round(items, seed, keyfile)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
