"""Run the align stage over a whole book and report (`zhushu glosses-report`).

Reads every juan with pipeline.ingest.read_document, restores punctuation with the project's
segmenter (unless disabled), aligns every commentary unit (鄭注, 釋曰, 鄭目録云/鄭目錄云), and
reports: gloss counts by type and by commentary kind, anchored shares, the share of 鄭注 blocks
with at least one anchored gloss, the align time, and a fixed-seed random sample of unanchored
glosses with the reason each stayed unanchored.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path


def _kind(marker: str | None) -> str:
    if marker in ("鄭目録云", "鄭目錄云"):
        return "鄭目録"
    return marker or "?"


def load_book(corpus: str | Path):
    from pipeline.ingest import read_document

    paths = sorted(Path(corpus).glob("*.txt"))
    return [read_document(str(p)) for p in paths]


def categorize(reason: str, lemma: str) -> str:
    """A reader's category for the reason a gloss stayed unanchored."""
    import re

    if "does not say" in reason:
        return "不言X: the note remarks on a word the passage lacks"
    if "block before" in reason:
        return "the lemma is a word of the commentary block before (釋曰 on 鄭注)"
    if "previous base passage" in reason or "next base passage" in reason:
        return "the lemma stands in a neighbouring base passage"
    if "no base passage" in reason:
        return "no base passage before the block"
    if "quoted wording" in reason or "said to be lacking" in reason or "variant without" in reason:
        return "another edition's wording not matched to the passage"
    m = re.search(r"longest verbatim stretch (\d+) of (\d+)", reason)
    if m:
        if int(m.group(1)) == 0:
            return "the head is the note's own phrase, no word of it in the passage"
        return "the head paraphrases the passage (under 70 % of it verbatim)"
    if "elsewhere in this juan" in reason:
        return "the lemma stands elsewhere in the chapter, not in this passage"
    return "a word the passage does not contain"


def report(corpus: str | Path = "data/corpus/KR1d0030", sample: int = 50, seed: int = 20261130,
           use_segmenter: bool = True) -> dict:
    from pipeline.align import align_document

    t0 = time.perf_counter()
    docs = load_book(corpus)
    t1 = time.perf_counter()
    seg_used = "none"
    if use_segmenter:
        try:
            from pipeline.segment import load_segmenter, segment_document

            seg = load_segmenter()
            for d in docs:
                segment_document(d, seg)
            seg_used = "pipeline.segment"
        except Exception as err:
            print(f"zhushu: warning: segmenter unavailable ({type(err).__name__}: {err}); aligning without marks",
                  file=sys.stderr)
            seg_used = "none (segmenter unavailable)"
    t2 = time.perf_counter()
    for d in docs:
        align_document(d)
    t3 = time.perf_counter()

    by_type: Counter = Counter()
    by_type_anchored: Counter = Counter()
    by_kind: Counter = Counter()
    by_kind_anchored: Counter = Counter()
    blocks: Counter = Counter()
    blocks_with_anchor: Counter = Counter()
    blocks_with_gloss: Counter = Counter()
    by_kind_type: Counter = Counter()
    unanchored = []
    for d in docs:
        for u in d.units:
            if u.kind != "commentary":
                continue
            k = _kind(u.marker)
            blocks[k] += 1
            if u.glosses:
                blocks_with_gloss[k] += 1
            if any(g.lemma_start is not None for g in u.glosses):
                blocks_with_anchor[k] += 1
            for g in u.glosses:
                by_type[g.type] += 1
                by_kind[k] += 1
                by_kind_type[(k, g.type)] += 1
                if g.lemma_start is not None:
                    by_type_anchored[g.type] += 1
                    by_kind_anchored[k] += 1
                else:
                    base = d.units[g.base_seq].text if g.base_seq is not None else ""
                    unanchored.append({
                        "unit": d.unit_id(u), "kind": k, "type": g.type, "lemma": g.lemma,
                        "gloss": g.text, "reason": g.reason, "base": base,
                        "category": categorize(g.reason or "", g.lemma),
                    })
    rng = random.Random(seed)
    picked = rng.sample(unanchored, min(sample, len(unanchored)))
    picked.sort(key=lambda r: (r["unit"].split("#")[0], int(r["unit"].split("#")[1])))
    total = sum(by_type.values())
    return {
        "corpus": str(corpus),
        "juan": len(docs),
        "segmenter": seg_used,
        "seconds": {"ingest": round(t1 - t0, 2), "segment": round(t2 - t1, 2), "align": round(t3 - t2, 3)},
        "glosses": total,
        "anchored": sum(by_type_anchored.values()),
        "by_type": {t: {"all": n, "anchored": by_type_anchored[t]} for t, n in by_type.most_common()},
        "by_kind": {k: {"blocks": blocks[k], "blocks_with_gloss": blocks_with_gloss[k],
                        "blocks_with_anchored_gloss": blocks_with_anchor[k],
                        "glosses": by_kind[k], "anchored": by_kind_anchored[k],
                        "by_type": {t: n for (kk, t), n in sorted(by_kind_type.items()) if kk == k}}
                    for k in sorted(blocks)},
        "zheng_blocks_with_anchored_gloss": round(blocks_with_anchor["鄭注"] / blocks["鄭注"], 4) if blocks["鄭注"] else None,
        "unanchored_total": len(unanchored),
        "unanchored_by_category": dict(Counter(r["category"] for r in unanchored).most_common()),
        "sample_seed": seed,
        "unanchored_sample": picked,
    }


def to_markdown(res: dict) -> str:
    out = [
        f"Corpus `{res['corpus']}`: {res['juan']} files, segmenter: {res['segmenter']}; "
        f"align {res['seconds']['align']} s (ingest {res['seconds']['ingest']} s, segment {res['seconds']['segment']} s).",
        "",
        f"Glosses: {res['glosses']}, anchored {res['anchored']}; unanchored {res['unanchored_total']}. "
        f"鄭注 blocks with >= 1 anchored gloss: {res['zheng_blocks_with_anchored_gloss']:.1%}.",
        "",
        "| kind | blocks | with a gloss | with an anchored gloss | glosses | anchored |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for k, r in res["by_kind"].items():
        out.append(f"| {k} | {r['blocks']} | {r['blocks_with_gloss']} | {r['blocks_with_anchored_gloss']} | {r['glosses']} | {r['anchored']} |")
    types = list(res["by_type"])
    out += ["", "| type | all | anchored | " + " | ".join(res["by_kind"]) + " |",
            "|---|---:|---:|" + "---:|" * len(res["by_kind"])]
    for t in types:
        r = res["by_type"][t]
        cells = " | ".join(str(res["by_kind"][k]["by_type"].get(t, 0)) for k in res["by_kind"])
        out.append(f"| {t} | {r['all']} | {r['anchored']} | {cells} |")
    out += ["", "Why glosses stayed unanchored (all of them):", "", "| category | glosses |", "|---|---:|"]
    for cat, n in res["unanchored_by_category"].items():
        out.append(f"| {cat} | {n} |")
    out += ["", f"Unanchored sample ({len(res['unanchored_sample'])}, random.Random({res['sample_seed']})):", "",
            "| # | unit | kind | type | lemma | gloss | why | aligner's reason |", "|---:|---|---|---|---|---|---|---|"]
    for i, r in enumerate(res["unanchored_sample"], 1):
        gloss = r["gloss"] if len(r["gloss"]) <= 24 else r["gloss"][:24] + "…"
        out.append(f"| {i} | {r['unit']} | {r['kind']} | {r['type']} | {r['lemma']} | {gloss} | {r['category']} | {r['reason']} |")
    return "\n".join(out) + "\n"
