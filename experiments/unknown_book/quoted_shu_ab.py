"""Stop 82: a later book's quotation of the 疏 (禮記集說's 孔氏曰 / 賈氏曰, 儀禮述註's 疏曰 …: units whose speaker wrote a 注疏's 疏)
read as a note (before) or as 疏 (now), both as the pipeline reads the book (its id, each unit's passage). Prints a blind A/B of
30 seeded positions the two read otherwise and writes the key (the letter of today's reading).

    python experiments/unknown_book/quoted_shu_ab.py BOOK SEED KEYFILE      # BOOK: a folder of ../shared/corpus or data/corpus
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from experiments.blind_ab import print_round, windows  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import load_segmenter, passages_of, unit_kind  # noqa: E402



def main(folder: str, seed: int, keyfile: str) -> None:
    seg = load_segmenter()
    texts, passages, book = [], [], None
    for f in sorted(Path(folder).glob("*.txt")):
        doc = read_document(f)
        book = doc.book
        us = [u for u in doc.units if u.text and u.kind in ("base", "commentary")]
        for u, p in zip(us, passages_of(doc, us)):
            if u.kind == "commentary" and unit_kind(u) == "疏":
                texts.append(u.text)
                passages.append(p)
    now = seg.predict(texts, ["疏"] * len(texts), books=[book] * len(texts), passages=passages)
    before = seg.predict(texts, ["note"] * len(texts), books=[book] * len(texts), passages=passages)
    items = windows(texts, now, before)
    print(f"# {book}: {len(texts)} units read as 疏, {sum(map(len, texts))} chars, {len(items)} positions read otherwise")
    print_round(items, seed, keyfile)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
