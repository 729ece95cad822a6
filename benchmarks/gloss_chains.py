"""Every span the chain reader (pipeline/align/chains.py) adds on the TRAIN split, for checking by
hand (docs/glosses.md, "Third round"): the 注 blocks of a 注疏 in data/punct (split train, aligned
>= 0.9, as benchmarks/gloss_silver.py picks them), read with the segmenter's marks (`--marks
segmenter`), with no marks at all (`--marks none`, the unmarked runs the rule is for) or with the
edition's own (`--marks edition`: what the rule does where the marks are right), each once
with and once without the chain reader. `S` after a span: the grammar finds it too when the note
carries the edition's own marks (silver, chains off there).

    python benchmarks/gloss_chains.py --book KR1d0003 --marks segmenter
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", default="KR1d0003", choices=("KR1d0003", "KR1d0053"))
    ap.add_argument("--marks", default="segmenter", choices=("segmenter", "none", "edition"))
    args = ap.parse_args(argv)

    import pipeline.align as align
    from gloss_silver import pairs
    from pipeline.evaluate.glosses import spans
    from pipeline.segment import load_segmenter

    chains = align.chain_candidates
    # train juan: without the phrase memory, which knows their marks by heart
    seg = load_segmenter().without_memory() if args.marks == "segmenter" else None

    def read(base, note, marks, with_chains):
        align.chain_candidates = chains if with_chains else (lambda *a, **k: [])
        try:
            return set(spans(align.align_block(base, note, marks, zhushu=True)))
        finally:
            align.chain_candidates = chains

    n_blocks = n_added = n_silver = n_lost = 0
    for rid, base, note, edition in pairs(args.book):
        n_blocks += 1
        marks = seg.predict([note], ["注"], books=[args.book])[0] if seg else edition if args.marks == "edition" else {}
        new, old = read(base, note, marks, True), read(base, note, marks, False)
        silver = read(base, note, edition, False)
        added, lost = sorted(new - old), sorted(old - new)
        if added or lost:
            n_added += len(added)
            n_lost += len(lost)
            n_silver += sum(s in silver for s in added)
            punct = "".join(ch + marks.get(k + 1, "") for k, ch in enumerate(note))
            print(f"{rid}  added {' '.join(base[a:b] + (' S' if (a, b) in silver else '') for a, b in added) or '-'}"
                  f"  lost {' '.join(base[a:b] for a, b in lost) or '-'}\n    base: {base}\n    note: {punct}")
    print(f"# {args.book}, {n_blocks} train blocks, marks {args.marks}: {n_added} spans added "
          f"({n_silver} also read with the edition's marks), {n_lost} lost", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
