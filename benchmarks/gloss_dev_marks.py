"""The 注 gloss dev set scored with the modern edition's own marks where data/punct has the note
(an upper bound: what the grammar reads when punctuation is right), beside the pipeline's
segmenter on the same notes.

    python benchmarks/gloss_dev_marks.py [--gold annotations/gold/glosses.dev.zhushu.jsonl]

A gold record has edition marks when a data/punct record of the same juan has its note text
(the corpus and data/punct number their units differently). Prints one JSON line: the subset's size, lemma P/R/F1 with the segmenter's marks and
with the edition's marks on that subset, and on all records (edition marks where there are some,
the segmenter's elsewhere).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gold", default=str(ROOT / "annotations" / "gold" / "glosses.dev.zhushu.jsonl"))
    args = ap.parse_args(argv)

    from pipeline.align import align_block
    from pipeline.evaluate.glosses import ZHUSHU_BOOKS, note_marks, read_gold, score

    records = read_gold(args.gold)
    edition: dict[tuple[str, str], dict[int, str]] = {}  # (juan, note text) -> marks
    for book in sorted({r["id"].split("_")[0] for r in records}):
        path = ROOT / "data" / "punct" / f"{book}.punct.jsonl"
        if path.exists():
            for line in open(path, encoding="utf-8"):
                rec = json.loads(line)
                if rec["kind"] == "note":
                    edition[(rec["id"].split("#")[0], rec["text"])] = {int(k): v for k, v in rec["marks"].items()}
    pred, _used = note_marks([r["note"] for r in records], "auto", [r["id"] for r in records])
    keys = [(r["id"].split("#")[0], r["note"]) for r in records]
    has = [k in edition for k in keys]
    ed = [edition[k] if h else p for k, h, p in zip(keys, has, pred)]
    sub = [i for i, h in enumerate(has) if h]

    def run(idx, marks):
        return score([records[i] for i in idx], [align_block(records[i]["base"], records[i]["note"], marks[i],
                                                                      zhushu=records[i]["id"].split("_")[0] in ZHUSHU_BOOKS)
                                                          for i in idx])["lemma"]

    every = list(range(len(records)))
    print(json.dumps({"records": len(records), "with_edition_marks": len(sub),
                      "subset_segmenter": run(sub, pred), "subset_edition": run(sub, ed),
                      "all_segmenter": run(every, pred), "all_edition_where_available": run(every, ed)},
                     ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
