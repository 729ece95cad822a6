"""Stop 82: a later book's quotation of the 疏 (禮記集說's 孔氏曰 / 賈氏曰, 儀禮述註's 疏曰 …: units whose speaker wrote a 注疏's 疏)
read as a note (before) or as 疏 (now), both as the pipeline reads the book (its id, each unit's passage). Prints a blind A/B of
30 seeded positions the two read otherwise and writes the key (the letter of today's reading).

    python experiments/unknown_book/quoted_shu_ab.py BOOK SEED KEYFILE      # BOOK: a folder of ../shared/corpus or data/corpus
"""
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import load_segmenter, passages_of, unit_kind  # noqa: E402


def show(t, m, a, b):
    return "".join(t[i] + (m.get(i + 1, "") if i + 1 < len(t) else "") for i in range(a, b))


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
    items = []
    for t, mn, mo in zip(texts, now, before):
        for k in sorted(k for k in set(mn) | set(mo) if k < len(t) and mn.get(k) != mo.get(k)):
            a, b = max(0, k - 14), min(len(t), k + 14)
            items.append((show(t, mn, a, b), show(t, mo, a, b)))
    print(f"# {book}: {len(texts)} units read as 疏, {sum(map(len, texts))} chars, {len(items)} positions read otherwise")
    rng = random.Random(seed)
    key = []
    for i, (n, o) in enumerate(rng.sample(items, min(30, len(items)))):
        flip = rng.random() < 0.5
        key.append("B" if flip else "A")
        print(f"{i + 1:2d} A {o if flip else n}\n   B {n if flip else o}")
    Path(keyfile).write_text(json.dumps(key) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
