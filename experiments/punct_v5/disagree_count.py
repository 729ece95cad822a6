"""Stop 36: over every dev break where OLD (v4-passage) and the default disagree (records aligned >= 0.99, not 音義), which one the edition sides with, by kind."""
import sys, collections
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "punct_v4"))
from final_mark_disagree_sample import aligned_dev, break_disagreements
from pipeline import paths
from pipeline.segment import load_segmenter
old, new = load_segmenter(Path(sys.argv[1])), load_segmenter(paths.SEGMENTER_DEFAULT)
c = collections.Counter()
for book in ("KR1d0030", "KR1d0003", "KR1d0053"):
    recs, kinds, books, passages = aligned_dev(book)
    a, b = (s.predict([r["text"] for r in recs], kinds, books=books, passages=passages) for s in (old, new))
    for it in break_disagreements(recs, kinds, a, b, ("v4", "v5"), keep=lambda k: k != "音義"):
        right = it["breaks"] if it["edition"] != "none" else ("v5" if it["breaks"] == "v4" else "v4")
        c[(it["kind"], right)] += 1; c[right] += 1
print(dict(c))
