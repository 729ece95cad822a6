"""Where the 注 gloss reader loses to the segmenter's marks (stop 76; docs/glosses.md "Stop 76"): silver F1 of the glosses read with the
segmenter's marks against those read with the edition's, and with the edition's marks put in at chosen positions only — the edition's
mark types at the segmenter's breaks; the edition's breaks with the segmenter's types; the edition's marks where a word of the passage
opens (and nowhere else); the edition's types there; the segmenter's spurious breaks dropped; its missing ones added.

    python experiments/glosses/break_oracle.py [--train]   # the tune juan (default, held out of the segmenter), or 1,500 train pairs

Reads no dev juan.
"""
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.align import align_block  # noqa: E402
from pipeline.align.grammar import longest_base_prefix  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import note_marks, spans  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402

VARIANTS = ("segmenter", "edition types at its breaks", "edition breaks, its types", "edition marks where a passage word opens",
            "edition types there", "spurious breaks dropped", "missing breaks added")


def main() -> None:
    if "--train" in sys.argv:  # the memory knows train juan's marks by heart: without it
        pairs, seg = random.Random(76).sample(passage_pairs(), 1500), load_segmenter().without_memory()
    else:
        pairs, seg = passage_pairs(tune=True), load_segmenter()
    counts = {v: collections.defaultdict(lambda: [0, 0, 0]) for v in VARIANTS}
    for p in pairs:
        text, passage = p["text"], p["passage"]
        marks = {int(k): v for k, v in note_marks([text], seg, ids=[p["id"]], bases=[passage])[0][0].items()}
        gold = {int(k): v for k, v in p["marks"].items()}

        def opens(k: int) -> bool:  # a word of the passage opens at k
            return k < len(text) and longest_base_prefix(text[k:], lambda s: s in passage, 4) >= 1

        views = dict(zip(VARIANTS, (
            marks,
            {k: gold.get(k, v) for k, v in marks.items()},
            {k: marks.get(k, "，") for k in gold},
            {**{k: v for k, v in marks.items() if not opens(k)}, **{k: v for k, v in gold.items() if opens(k)}},
            {k: (gold[k] if k in gold and opens(k) else v) for k, v in marks.items()},
            {k: v for k, v in marks.items() if k in gold or k >= len(text)},
            {**{k: "，" for k in gold if k not in marks}, **marks},
        )))
        zhushu = p["book"] != "KR1d0030"
        g = set(spans(align_block(passage, text, gold, zhushu=zhushu)))
        for name, m in views.items():
            s = set(spans(align_block(passage, text, m, zhushu=zhushu)))
            c = counts[name][p["book"]]
            c[0] += len(g & s)
            c[1] += len(s)
            c[2] += len(g)
    print(len(pairs), "pairs", dict(collections.Counter(p["book"] for p in pairs)))
    for name in VARIANTS:
        tot = [sum(c[i] for c in counts[name].values()) for i in range(3)]
        r = prf(*tot)
        print(f"{name:42s} P {r['p']:.4f} R {r['r']:.4f} F1 {r['f1']:.4f}  by book",
              {b: round(prf(*c)["f1"], 4) for b, c in sorted(counts[name].items())})


if __name__ == "__main__":
    main()
