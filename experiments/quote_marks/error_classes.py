"""The cross-fitted marked reader's errors on the train split by class (docs/quotations.md, "Stop 64"):

    python experiments/quote_marks/measure.py crossfit --dump DUMP.jsonl
    python experiments/quote_marks/error_classes.py DUMP.jsonl

Each prediction that is not a gold span (nor an `other` one; predictions over an `uncertain` stretch left out)
by how it stands to the gold spans it overlaps, each gold span no prediction overlaps, six seeded examples a class.
The dev split is never read.
"""

import collections
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def train_gold() -> dict[str, dict]:
    gold = {}
    for book in ("KR1d0003", "KR1d0053"):
        with open(ROOT / "data" / "quotes" / f"{book}.quotes.jsonl", encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if rec["split"] == "train":
                    gold[rec["id"]] = rec
    return gold


def wrong_class(p: tuple[int, int], overlapping: list[tuple[int, int]], gold: dict, text: str) -> str:
    """How a prediction that is no gold span stands to the first gold span it overlaps."""
    if not overlapping:
        return "fp: no gold overlap"
    g = overlapping[0]
    if g[0] == p[0]:
        if p[1] < g[1]:
            return "fp: shorter at right" + (" (gold has 者 inside)" if "者" in text[p[1] : g[1]] else "")
        return "fp: longer at right"
    if g[1] == p[1]:
        if p[0] > g[0]:
            return "fp: shorter at left" + (" (range: Y only)" if gold[g].get("range") else "")
        return "fp: longer at left"
    return "fp: other overlap"


def shown(text: str, s: int, e: int) -> str:
    return text[max(0, s - 6) : s] + "【" + text[s:e] + "】" + text[e : e + 4]


def main(dump: str) -> None:
    gold = train_gold()
    classes: collections.Counter = collections.Counter()
    examples = collections.defaultdict(list)
    tp = fp = fn = 0
    with open(dump, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            rec = gold[d["id"]]
            text = rec["text"]
            spans = {(q["start"], q["end"]): q for q in rec["quotes"]}
            other = {(o["start"], o["end"]) for o in rec.get("other", [])}
            uncertain = [(o["start"], o["end"]) for o in rec.get("uncertain", [])]
            predicted = {(p[0], p[1]) for p in d["marked"]}
            predicted = {p for p in predicted if not any(a < p[1] and p[0] < b for a, b in uncertain)}
            for p in predicted:
                if p in spans:
                    tp += 1
                elif p not in other:
                    fp += 1
                    overlapping = [g for g in spans if g[0] < p[1] and p[0] < g[1]]
                    c = wrong_class(p, overlapping, spans, text)
                    classes[c] += 1
                    examples[c].append((d["id"], shown(text, *p), [text[a:b] for a, b in overlapping]))
            for g in spans:
                if g in predicted:
                    continue
                fn += 1
                if not any(p[0] < g[1] and g[0] < p[1] for p in predicted):
                    c = "fn: nothing there" + (" (range)" if spans[g].get("range") else "")
                    classes[c] += 1
                    examples[c].append((d["id"], shown(text, *g), []))
    print(f"right {tp}, wrong {fp}, missed {fn}: P {tp / (tp + fp):.4f} R {tp / (tp + fn):.4f}")
    for c, n in classes.most_common():
        print(n, c)
        for example in random.Random(64).sample(examples[c], min(6, len(examples[c]))):
            print("    ", example)


if __name__ == "__main__":
    main(sys.argv[1])
