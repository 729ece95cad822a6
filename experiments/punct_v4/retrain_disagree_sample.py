"""Dev positions where the default segmenter of stop 31 (v2 drawn the 注疏 at 0.2, its priors) and
that of stop 32 (v2 at 0.5, its priors refitted) disagree on a break, every kind but the 音義 (the
reading grammar's), for a hand check:

    git worktree add /tmp/stop31 b15fc56
    python experiments/punct_v4/retrain_disagree_sample.py /tmp/stop31/models/segmenter-v2-passage SEED N

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
    old_dir, seed, n = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    old, new = load_segmenter(old_dir), load_segmenter(paths.SEGMENTER_DEFAULT)
    items = []
    for book in ("KR1d0030", "KR1d0003", "KR1d0053"):
        recs, kinds, books, passages = aligned_dev(book)
        a, b = (s.predict([r["text"] for r in recs], kinds, books=books, passages=passages) for s in (old, new))
        items += break_disagreements(recs, kinds, a, b, ("stop 31", "stop 32"), keep=lambda k: k != "音義")
    print(f"{len(items)} disagreements, stop 32 breaks at {sum(i['breaks'] == 'stop 32' for i in items)}", file=sys.stderr)
    for it in random.Random(seed).sample(items, min(n, len(items))):
        print(json.dumps(it, ensure_ascii=False))


if __name__ == "__main__":
    main()
