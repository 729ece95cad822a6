"""儀禮注疏 (KR1d0028): its units by marker, and the 經 passages the resumption step finds inside
注 with the SBCK 儀禮's base units as the plain 經 (paths.BASE_TEXT_OF; docs/ingest.md).

For each passage found: whether it occurs word for word (variant-folded) in the 經 of the
集釋 (KR1d0030), an independent edition of the same 經; and a seeded sample to read by hand
(unit id | end of the 注 before | the 經 found | what follows). No 儀禮 punctuation is used.

    PYTHONPATH=. python3 benchmarks/yili_resume.py [--sample 25] [--seed 20]   (about 1 min)
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from pipeline import paths
from pipeline.ingest import read_document
from pipeline.ingest.resume import load_base_text, resume_base
from pipeline.variants import fold


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=25)
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    files = sorted((paths.DATA / "corpus" / "KR1d0028").glob("*.txt"))
    base = load_base_text(str(paths.BASE_TEXT_OF["KR1d0028"]))
    jishi = fold("".join(u.text for f in sorted((paths.DATA / "corpus" / "KR1d0030").glob("*.txt"))
                         for u in read_document(f).units if u.kind == "base"))
    plain, resumed, pieces = Counter(), Counter(), []
    for f in files:
        doc = read_document(f, base_text=None)
        plain.update(u.marker or u.kind for u in doc.units)
        resume_base(doc, base)
        resumed.update(u.marker or u.kind for u in doc.units)
        for i, u in enumerate(doc.units):
            prev = doc.units[i - 1] if i else None
            if u.kind == "base" and prev is not None and prev.marker == "注" and prev.end == u.start:
                nxt = doc.units[i + 1] if i + 1 < len(doc.units) else None
                pieces.append((doc.unit_id(u), prev.text[-12:], u.text, (nxt.marker or "經") + " " + nxt.text[:10] if nxt else ""))
    in_jishi = sum(fold(p[2]) in jishi for p in pieces)
    print(json.dumps({"markers_alone": dict(plain), "resumed": dict(resumed), "passages": len(pieces),
                      "passages_in_the_jishi_jing": in_jishi}, ensure_ascii=False))
    for p in random.Random(args.seed).sample(pieces, min(args.sample, len(pieces))):
        print(" | ".join(p))


if __name__ == "__main__":
    main()
