"""Does the passage help the context prior's finals regression? A break in a 注 before a clause that opens with a
stretch of its 經 may start a new gloss (「…，執友，志同」: the edition's 。執友). The default's finals rows (every break
at the model's threshold, train juan of each book group; pipeline/train/segment/context.py `_rows`) with one key
more — the length of the longest stretch of the passage that the clause after the break opens with (0, 1, 2, 3,
4+), alone and crossed with the character before the break — fitted as `_fit` fits them (C 0.1 / 0.3 / 1.0,
thresholds 0.3–0.6), scored by sentence F1 on the tune juan. Reads no dev juan (docs/segmentation.md, "Stop 64").

    python experiments/punct_v5/finals_passage.py [SEGMENTER_DIR]
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from finals_context import score_keys  # noqa: E402

from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.train.segment import context as C  # noqa: E402
from pipeline.variants import fold  # noqa: E402


def opens_with(text: str, i: int, passage: str) -> int:
    """How many characters of the passage the clause after the break after char i opens with (folded)."""
    k = 0
    while i + 1 + k < len(text) and k < 4 and fold(text[i + 1 : i + 2 + k]) in passage:
        k += 1
    return k


def extra(recs, where, variant):
    out = []
    for ri, i in where:
        r = recs[ri]
        k = opens_with(r["text"], i, fold(r.get("passage") or ""))
        ks = (f"ps={k}",)
        if "cross" in variant:
            ks += (f"ps={k}|b1={r['text'][i]}",)
        out.append(ks)
    return out


def main() -> None:
    seg = read_segmenter(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "models/segmenter-v6-passage",
                         with_prior=False)
    records = C.group_records()
    for group in sorted(records):
        for variant in ("", "ps", "ps+cross"):
            score_keys(records, seg.backend, group, (lambda recs, where, v=variant: extra(recs, where, v)) if variant else None,
                       variant or "current")


if __name__ == "__main__":
    main()
