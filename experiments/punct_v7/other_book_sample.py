"""Stop 78: sentences of a book the segmenter never learned from (../shared/corpus), as the default segmenter
punctuates them, for a hand check as stop 46's (docs/segmentation.md, "Stop 46"): each sentence of 4+
characters printed in 〖〗 with the sentences around it. 禮記集說 (KR1d0057): thirty by its commentators other
than 鄭氏 and 孔氏 (whose text is the 注疏's, trained on); the 儀禮注疏 (KR1d0028): fifteen 注 and fifteen 疏.

    python experiments/punct_v7/other_book_sample.py [--seed 78] [--n 30]
    python experiments/punct_v7/other_book_sample.py --book KR1d0028 --markers 注,疏 [--seed 78] [--n 15]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import SegmentStage  # noqa: E402

OWN = ("鄭", "孔")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=78)
    ap.add_argument("--n", type=int, default=30, help="sentences (per marker with --markers)")
    ap.add_argument("--book", default="KR1d0057")
    ap.add_argument("--markers", default=None, help="comma-separated unit markers, each sampled on its own (e.g. 注,疏)")
    args = ap.parse_args()
    stage = SegmentStage.load()
    markers = args.markers.split(",") if args.markers else [None]
    pools = {m: [] for m in markers}
    for path in sorted((ROOT.parent / "shared" / "corpus" / args.book).glob(f"{args.book}_0*.txt")):
        doc = stage(read_document(path))
        for u in doc.units:
            if u.kind != "commentary" or not u.sentences:
                continue
            if args.markers:
                if u.marker not in pools:
                    continue
                pool = pools[u.marker]
            elif (u.source_name or "").startswith(OWN):
                continue
            else:
                pool = pools[None]
            shown = ["".join(u.text[k] + (u.marks.get(k + 1) or "") for k in range(s.start, s.end)) for s in u.sentences]
            for i, s in enumerate(u.sentences):
                if s.end - s.start >= 4:
                    pool.append((f"{doc.id}#{u.seq}", u.source_name or "", "".join(shown[max(0, i - 1) : i]),
                                 shown[i], "".join(shown[i + 1 : i + 2])))
    rng = random.Random(args.seed)
    for m, pool in pools.items():
        print(f"{m or 'commentary'}: {len(pool)} sentences", file=sys.stderr)
        for n, (uid, who, before, s, after) in enumerate(rng.sample(pool, args.n), 1):
            print(f"{m or ''}{n}\t{uid}\t{who}\t{before[-20:]}〖{s}〗{after[:20]}")


if __name__ == "__main__":
    main()
