"""The 疏's quotations over both 注疏 books: counts, and a seeded sample of anchored ones to check by hand.

    python benchmarks/shu_quotations.py [--sample 50] [--seed 20261201] [--split train|dev|all] [--book KR1d0028 …]
        [--no-segment]

Reads every juan (the embedded TLS 經 text splits 注 that run on, as `zhushu run` does), punctuates
it with the default segmenter and aligns it, as `zhushu run` does (since stop 42 the quotation
reader reads the units' marks; --no-segment: unpunctuated, the reader on the text alone, as the
checks before stop 42 ran) and prints, for the sample, each
quotation in its 疏 context and the stretch of the 經 / 注 it is anchored to. The sample is
drawn from train juan, or with --split dev from the dev juan (10, 20, …: the hand check of
docs/quotations.md, juan the readers were not tuned on); `--book KR1d0028 --split all` samples the
儀禮注疏, a book the readers never saw (no quotation data exists for it).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.align import align_document  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import read_segmenter, segment_document  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--split", choices=("train", "dev", "all"), default="train")
    ap.add_argument("--book", action="append", help="KR1d0003 / KR1d0053 / KR1d0028 (default: the first two)")
    ap.add_argument("--no-segment", action="store_true", help="align unpunctuated juan (the checks before stop 42)")
    args = ap.parse_args()
    seg = None if args.no_segment else read_segmenter(paths.SEGMENTER_DEFAULT)
    rows, shu_units = [], 0
    for book in args.book or ("KR1d0003", "KR1d0053"):
        for path in sorted((paths.DATA / "corpus" / book).glob("*.txt")):
            if args.split != "all" and (path.stem in paths.DEV_DOCS) != (args.split == "dev"):
                continue
            doc = read_document(path)
            doc = align_document(segment_document(doc, seg) if seg is not None else doc)
            by_seq = {u.seq: u for u in doc.units}
            for unit in doc.units:
                if unit.marker != "疏":
                    continue
                shu_units += 1
                for g in unit.glosses:
                    rows.append((doc.id, unit, g, by_seq[g.base_seq]))
    to_zhu = sum(t.marker == "注" for _, _, _, t in rows)
    print(f"疏 units {shu_units}; quotations {len(rows)} (of the 經 {len(rows) - to_zhu}, of the 注 {to_zhu}); "
          f"疏 units with one or more: {len({(d, u.seq) for d, u, _, _ in rows})}")
    random.seed(args.seed)
    for i, (doc_id, unit, g, target) in enumerate(random.sample(rows, args.sample), 1):
        ctx = unit.text[max(0, g.note_start - 8) : g.note_start] + "【" + g.text + "】" + unit.text[g.note_end : g.note_end + 8]
        tctx = target.text[max(0, g.lemma_start - 8) : g.lemma_start] + "【" + g.lemma + "】" + target.text[g.lemma_end : g.lemma_end + 8]
        print(f"{i:2d} {doc_id}#{unit.seq} → {'經' if target.kind == 'base' else target.marker}#{target.seq} | 疏 …{ctx}… | {tctx}")


if __name__ == "__main__":
    main()
