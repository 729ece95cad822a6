"""A head run into its gloss with no mark between (stop 77): 「蹕止行者」 where the edition has 「蹕，止行者」, 「隂令王所求爲於北宫」 for
「隂令，王所求爲於北宫」. At the opening of a statement (text start or after a final mark) where a word of the passage X opens and the
clause runs on past X with no mark, a comma after X is put in when the rest of the clause has the shape of a gloss (RULES); the
glosses are read again and scored (silver F1 against those read with the edition's marks), and every change is listed.

    python experiments/glosses/unbroken_heads.py [--train] [--list]   # tune juan (default) or 1,500 train pairs (seed 77)

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

FINAL = set("。？！；：")


def clauses(text: str, marks: dict[int, str]):
    """(start, end) of every clause that opens a statement."""
    stops = sorted(k for k in marks if 0 < k <= len(text)) + [len(text)]
    prev = 0
    for k in stops:
        if prev == 0 or marks.get(prev) in FINAL:
            yield prev, k
        prev = k


RULES = {
    "rest ends 者": lambda rest: rest.endswith("者"),
    "rest ends 也": lambda rest: rest.endswith("也"),
    "rest opens 謂/猶/言": lambda rest: rest[:1] in ("謂", "猶", "言") or rest.startswith("之言"),
    "rest ends 之事/之屬/之名": lambda rest: rest.endswith(("之事", "之屬", "之名", "之處")),
}


def proposals(text, passage, marks, rule):
    for s, e in clauses(text, marks):
        n = longest_base_prefix(text[s:e], lambda w: w in passage, 6)
        if n < 1 or s + n >= e - 1:
            continue
        rest = text[s + n : e]
        if RULES[rule](rest):
            yield s + n


def show(t, m):
    return "".join(ch + m.get(i + 1, "") for i, ch in enumerate(t))


def main() -> None:
    if "--train" in sys.argv:
        pairs, seg = random.Random(77).sample(passage_pairs(), 1500), load_segmenter().without_memory()
    else:
        pairs, seg = passage_pairs(tune=True), load_segmenter()
    rows = []
    for p in pairs:
        text, passage = p["text"], p["passage"]
        marks = {int(k): v for k, v in note_marks([text], seg, ids=[p["id"]], bases=[passage])[0][0].items()}
        gold = {int(k): v for k, v in p["marks"].items()}
        rows.append((p, marks, gold))
    for rule in RULES:
        c = {"base": [0, 0, 0], "rule": [0, 0, 0]}
        fired = agree = 0
        listing = []
        for p, marks, gold in rows:
            text, passage = p["text"], p["passage"]
            zhushu = p["book"] != "KR1d0030"
            add = list(proposals(text, passage, marks, rule))
            fired += len(add)
            agree += sum(k in gold for k in add)
            new = {**marks, **{k: "，" for k in add}}
            g = set(spans(align_block(passage, text, gold, zhushu=zhushu)))
            for name, m in (("base", marks), ("rule", new)):
                s = set(spans(align_block(passage, text, m, zhushu=zhushu)))
                c[name][0] += len(g & s)
                c[name][1] += len(s)
                c[name][2] += len(g)
            if add:
                listing.append(f"  {p['id']}: {show(text, new)[:120]}\n      edition: {show(text, gold)[:120]}\n      added at {add}, "
                               f"edition breaks there: {[k in gold for k in add]}")
        b, r = prf(*c["base"]), prf(*c["rule"])
        print(f"{rule:24s} fired {fired:4d}, the edition breaks there {agree:4d};  silver F1 {b['f1']:.4f} -> {r['f1']:.4f}"
              f" (P {b['p']:.4f} -> {r['p']:.4f}, R {b['r']:.4f} -> {r['r']:.4f})")
        if "--list" in sys.argv:
            print("\n".join(listing))


if __name__ == "__main__":
    main()
