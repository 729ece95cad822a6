"""A seeded sample of commentary blocks with the glosses the pipeline reads in them, for checking
by hand (docs/glosses.md) or as the pre-fill of a gold set (annotations/gold/).

    python benchmarks/gloss_sample.py --book KR1d0003 --split train --blocks 20 --seed 20261201
    python benchmarks/gloss_sample.py --book KR1d0030 --split train --blocks 30 --jsonl out.jsonl
    python benchmarks/gloss_sample.py --book KR1d0003 --split tune --blocks 15 --seed 33
    python benchmarks/gloss_sample.py --book KR1d0028 --split all --blocks 20 --seed 40   # 儀禮注疏: no punct data
    python benchmarks/gloss_sample.py --book KR1d0053 --split train --juan 029 --blocks 100000   # a whole juan

Blocks: the 注 units of a 注疏 (KR1d0003, KR1d0053) or the 鄭注 units of the 集釋 (KR1d0030), from
the juan of the chosen split (dev = juan 10, 20, …; train = the juan in data/punct that are not
dev — the juan data/punct lacks are held out and never sampled; all = every juan of the book, for the
儀禮注疏, which has no punct data and was never trained or tuned on; tune = the train juan that the
segmenters and their priors hold out, juan 7 of a 注疏, 7 and 27 of the 集釋 — the gloss-head
classifier was fitted on them, and earlier rounds' train samples may have drawn from them). Each block
is read as `zhushu eval glosses` reads a gold record (`note_marks`: the segmenter restores the
note's marks one note per call, kind 注 with the book for a 注疏, kind note for the 集釋, the base
as its passage, and the reader gets the model's own marks, as in the pipeline), then
`align_block(base, note, marks)` with base = the base unit before the block.

Prints each block (base, punctuated note, glosses) and, with --jsonl, writes the records in the
gold format of guidelines/glosses.md with the system's glosses (anchored or not) as `glosses`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MARKERS = {"KR1d0003": ("注",), "KR1d0053": ("注",), "KR1d0028": ("注",), "KR1d0030": ("鄭注",)}


def split_juan(book: str, split: str) -> list[str]:
    """Juan numbers of the split, from data/punct (juan absent there are held out)."""
    if split == "all":
        return sorted(p.stem.split("_")[1] for p in (ROOT / "data" / "corpus" / book).glob(f"{book}_*.txt")
                      if not p.stem.endswith("_000"))
    if split == "tune":
        from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU

        return sorted(j.split("_")[1] for j in TUNE_JUAN + TUNE_JUAN_ZHUSHU if j.startswith(book))
    seen: dict[str, str] = {}
    with open(ROOT / "data" / "punct" / f"{book}.punct.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            seen[rec["id"].split("#")[0].split("_")[1]] = rec["split"]
    return sorted(j for j, s in seen.items() if s == split and j != "000")


def blocks(book: str, split: str, only: list[str] | None = None):
    from pipeline.ingest import read_document

    for j in split_juan(book, split):
        if only and j not in only:
            continue
        doc = read_document(str(ROOT / "data" / "corpus" / book / f"{book}_{j}.txt"))
        for u in doc.units:
            if u.kind == "commentary" and u.marker in MARKERS[book] and u.text:
                base = doc.base_before(u)
                if base is not None:
                    yield f"{doc.id}#{u.seq}", base.text, u.text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", required=True, choices=sorted(MARKERS))
    ap.add_argument("--split", default="train", choices=("train", "dev", "tune", "all"))
    ap.add_argument("--blocks", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--juan", action="append",
                    help="only these juan of the split (`--juan 029`; with a large --blocks, every block of a whole juan)")
    ap.add_argument("--jsonl", help="write the sampled records (gold format, system glosses) here")
    args = ap.parse_args(argv)

    from pipeline.align import align_block
    from pipeline.evaluate.glosses import note_marks
    from pipeline.segment import load_segmenter

    pool = list(blocks(args.book, args.split, args.juan))
    if args.juan and not pool:
        ap.error(f"no blocks: juan {', '.join(args.juan)} not in the {args.split} split of {args.book}")
    picked = sorted(random.Random(args.seed).sample(range(len(pool)), min(args.blocks, len(pool))))
    seg = load_segmenter()
    if args.split == "train":  # the phrase memory knows train juan's marks by heart
        seg = seg.without_memory()
    zhushu = args.book != "KR1d0030"
    out = []
    for n, i in enumerate(picked, 1):
        rid, base, note = pool[i]
        marks = note_marks([note], seg, ids=[rid], bases=[base])[0][0]  # the id gives the kind and book
        gl = align_block(base, note, marks, zhushu=zhushu)
        punct = "".join(ch + marks.get(k + 1, "") for k, ch in enumerate(note))
        print(f"[{n}] {rid}\n  base: {base}\n  note: {punct}")
        for g in gl:
            where = f"{g.lemma_start}-{g.lemma_end}" if g.lemma_start is not None else "unanchored"
            print(f"    {g.type:<12} {g.lemma} ({where}) 「{g.text}」")
        out.append({"id": rid, "base": base, "note": note,
                    "glosses": [{"lemma": g.lemma, "start": g.lemma_start, "end": g.lemma_end, "type": g.type}
                                for g in gl]})
    print(f"# {len(out)} blocks of {len(pool)} ({args.book}, {args.split}, seed {args.seed}); "
          f"{sum(len(r['glosses']) for r in out)} glosses", file=sys.stderr)
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as f:
            for r in out:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
