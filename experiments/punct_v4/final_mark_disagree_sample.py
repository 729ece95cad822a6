"""Dev positions where two ways of choosing the mark give a different kind of mark (one
sentence-final, the other not), for a hand check:

    python experiments/punct_v4/final_mark_disagree_sample.py SEED N            # argmax / final_threshold
    python experiments/punct_v4/final_mark_disagree_sample.py SEED N --prior    # final_threshold / the context prior (注疏)

The default segmenter (v2 with its passage prior) on the dev split of the three books; records
aligned >= 0.99 to the edition, so that the edition's mark at the position can be shown."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.model import SENTENCE_FINAL  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import read_records, record_kind  # noqa: E402


def aligned_dev(book: str) -> tuple[list[dict], list[str], list[str], list[str | None]]:
    """The dev records of a book aligned >= 0.99 to the edition, with what `eval segment` gives
    each: its kind, its book, its passage (the base record before it, over all dev records)."""
    recs = [r for r in read_records(paths.DATA / "punct" / f"{book}.punct.jsonl", split="dev")]
    passages = record_passages(recs)
    keep = [i for i, r in enumerate(recs) if r["text"] and r.get("aligned", 0) >= 0.99]
    recs, passages = [recs[i] for i in keep], [passages[i] for i in keep]
    return recs, [record_kind(r) for r in recs], [book] * len(recs), passages


def break_disagreements(recs: list[dict], kinds: list[str], a: list[dict], b: list[dict], names: tuple[str, str],
                        keep=lambda kind: True) -> list[dict]:
    """The positions (not the unit end) where marks `a` and `b` of the records disagree on a break,
    for the kinds `keep` accepts: each with its stretch, which side breaks (`names`: a's, b's) and
    the edition's mark there."""
    items = []
    for r, k, x, y in zip(recs, kinds, a, b):
        if not keep(k):
            continue
        t = r["text"]
        for pos in sorted((x.keys() ^ y.keys()) - {len(t)}):
            items.append({"id": r["id"], "kind": k, "k": pos, "text": t[max(0, pos - 14):pos] + " | " + t[pos:pos + 10],
                          "breaks": names[1] if pos in y else names[0],
                          "edition": {int(m): v for m, v in r["marks"].items()}.get(pos, "none")})
    return items


def main() -> None:
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    seg = load_segmenter(paths.SEGMENTER_DEFAULT)
    tuned, prior = seg.backend.final_threshold, seg.context_prior
    by_prior = "--prior" in sys.argv
    # the two settings compared, "a" and "b": (final_threshold, context prior)
    settings = ((tuned, None), (tuned, prior)) if by_prior else ((None, None), (tuned, None))
    items = []
    for book in (("KR1d0003", "KR1d0053") if by_prior else ("KR1d0030", "KR1d0003", "KR1d0053")):
        recs, kinds, books, passages = aligned_dev(book)
        texts = [r["text"] for r in recs]
        out = []
        for ft, fp in settings:
            seg.backend.final_threshold, seg.context_prior = ft, fp
            out.append(seg.predict(texts, kinds, books=books, passages=passages))
        seg.backend.final_threshold, seg.context_prior = tuned, prior
        for r, a, b in zip(recs, *out):
            n_ = len(r["text"])
            for k in sorted(a.keys() & b.keys()):
                if 0 < k < n_ and (a[k] in SENTENCE_FINAL) != (b[k] in SENTENCE_FINAL):
                    t = r["text"]
                    items.append({"id": r["id"], "k": k, "text": t[max(0, k - 14):k] + " | " + t[k:k + 10],
                                  "a": a[k], "b": b[k],
                                  "edition": {int(x): v for x, v in r["marks"].items()}.get(k, "none")})
    print(f"{len(items)} disagreements", file=sys.stderr)
    for it in random.Random(seed).sample(items, min(n, len(items))):
        print(json.dumps(it, ensure_ascii=False))


if __name__ == "__main__":
    main()
