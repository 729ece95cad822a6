"""Clauses 「X Y也」 (3-8 characters, X one character of the passage, no mark after it, no formula
word) in the pipeline's own reading of the train split, by whether the edition's reading makes X a
head and whether the pipeline's reading already does: how a rule reading every such X as a head
would score (docs/glosses.md, "Stop 33"). Reads a dump of train_readings.py.

    python experiments/glosses/unmarked_heads.py DUMP.jsonl
"""

from __future__ import annotations

import collections
import json
import re
import sys

FORMULA = ("謂", "猶", "之言", "讀", "當", "曰", "者", "為", "爲")


def main(path: str) -> None:
    by: dict[str, dict] = collections.defaultdict(dict)
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        by[r["id"]][r["marks"]] = r
    stats: collections.Counter = collections.Counter()
    examples = collections.defaultdict(list)
    for rid, d in by.items():
        own, ed, base = d["own"], d["edition"], d["own"]["base"]
        ed_heads = {g[0] for g in ed["glosses"]}
        own_heads = {g[0] for g in own["glosses"]}
        for clause in re.split(r"[，。、：；？！]", own["note"]):
            if not (3 <= len(clause) <= 8) or not clause.endswith("也"):
                continue
            x = clause[0]
            if x not in base or clause[:2] in base or any(f in clause[1:3] for f in FORMULA):
                continue
            key = ("集釋" if rid.startswith("KR1d0030") else "注疏", "a head in the edition's reading" if x in ed_heads
                   else "no head", "read already" if x in own_heads else "not read")
            stats[key] += 1
            examples[key].append(clause)
    for key in sorted(stats):
        print(" / ".join(key), stats[key], " ".join(examples[key][:10]))


if __name__ == "__main__":
    main(sys.argv[1])
