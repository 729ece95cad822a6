"""Dev positions of the 注疏's 疏 / 經 / 小注 (and the 集釋's base text) where the context prior and
the model alone disagree on a break, for a hand check; with --notes, of the two 注疏's 注, where
the context prior and the passage prior disagree:

    python experiments/punct_v4/break_disagree_sample.py SEED N [--notes]

Records aligned >= 0.99 to the edition, so that the edition's mark at the position can be shown."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline import paths  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from final_mark_disagree_sample import aligned_dev, break_disagreements  # noqa: E402


def main() -> None:
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    seg = load_segmenter(paths.SEGMENTER_DEFAULT)
    prior = seg.context_prior
    items = []
    notes = "--notes" in sys.argv
    # (the notes draws published in docs/segmentation.md are of the two 注疏's 注)
    for book in (("KR1d0003", "KR1d0053") if notes else ("KR1d0030", "KR1d0003", "KR1d0053")):
        recs, kinds, books, passages = aligned_dev(book)
        out = []
        for cp in (None, prior):
            seg.context_prior = cp
            out.append(seg.predict([r["text"] for r in recs], kinds, books=books, passages=passages))
        seg.context_prior = prior
        items += break_disagreements(recs, kinds, *out, ("without it", "context prior"),
                                     keep=lambda k: (k in ("注", "note")) == notes and k != "音義")
    print(f"{len(items)} disagreements", file=sys.stderr)
    for it in random.Random(seed).sample(items, min(n, len(items))):
        print(json.dumps(it, ensure_ascii=False))


if __name__ == "__main__":
    main()
