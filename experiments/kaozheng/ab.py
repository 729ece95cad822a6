"""Stop 83: the editors' words of a 考證 entry (after ○) read as a note (the 注's kind) or as 疏 (report.COMMENT_KIND, today),
over the train juan of the three 注疏 (not dev, not the juan looked at to choose). Prints a blind A/B of 30 seeded positions the
two read otherwise and writes the key (the letter of today's reading).

    python experiments/kaozheng/ab.py SEED KEYFILE
"""
import sys

from common import entries  # noqa: I001 (sets sys.path)

from experiments.blind_ab import print_round, windows
from pipeline import paths
from pipeline.segment import load_segmenter
from pipeline.kaozheng import COMMENT_KIND, report_pieces

BOOKS = ("KR1d0003", "KR1d0053", "KR1d0028")


def main(seed: int, keyfile: str) -> None:
    seg = load_segmenter()
    texts, books = [], []
    for book in BOOKS:
        for doc, reports, bodies in entries(paths.DATA / "corpus" / book):
            for u in reports:
                for p in report_pieces(u.text, bodies):
                    if p.kind == COMMENT_KIND and not p.lemma:
                        texts.append(u.text[p.start:p.end])
                        books.append(doc.book)
    now = seg.predict(texts, [COMMENT_KIND] * len(texts), books=books)
    before = seg.predict(texts, ["note"] * len(texts), books=books)
    items = windows(texts, now, before)
    print(f"# {len(texts)} stretches of the editors' words, {sum(map(len, texts))} chars, {len(items)} positions read otherwise")
    print_round(items, seed, keyfile)

if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
