"""Unseen recall of the tagger on the offices of the 周禮, by ablation (docs/entities.md,
"The 注疏: offices of the 周禮").

    python -m experiments.tagger_zhouli ablation [--seed 7] [--no-zhushu-silver] [--config JSON]
    python -m experiments.tagger_zhouli sample [--juan all|KR1d0003_017] [--n 30] [--seed 13]

ablation: the office entries the 周禮 added to the lexicon (source `zhouli:`; the forms of one
office, 宫正 / 宮正, go together) are split at random (seed 7) and a third of the offices is
held out: removed from the lexicon *and* every training unit whose text contains one of their
forms dropped. The tagger is retrained in the shipped configuration on what is left and run on
the 經 and 注 records of the train juan of 周禮注疏 (data/punct/KR1d0003.punct.jsonl, split
"train"). Reference: the full lexicon projected over the same records (`project`, rules and
name patterns). held recall = the share of the reference spans of held-out forms that the
retrained tagger gives back exactly (same start, end and label). Also printed: the same for the
kept office forms, and micro P/R/F1 against the reference over all spans.

The silver data are the shipped tagger's: the 集釋 units and the 經/注 records of the train juan
of 周禮注疏 (those containing a held-out form dropped like the others, so the held-out offices
are never seen in training); `--no-zhushu-silver` trains on the 集釋 alone. `--config` overrides
the shipped training options (`'{"sub_matches": 0}'`).

sample: the shipped tagger over the 經/注/疏 records of the train juan (or of one); prints the
ROLE span count and a random sample of ROLE spans in context (checked by hand).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from pipeline import paths
from pipeline.tag.lexicon import LABELS, Lexicon, load_lexicon, project
from pipeline.train.tag import ITERATIONS
from pipeline.train.tag.silver import SilverItem, build_silver
from pipeline.train.tag.zhouli import read_records


def zhushu_records(markers=("", "注"), split="train") -> list[dict]:
    return [r for r in read_records(paths.ZHOULI_PUNCT) if r.get("split") == split and r.get("marker") in markers and r.get("text")]


def held_out(lex: Lexicon, seed: int = 7, frac: float = 1 / 3) -> tuple[list[str], set[str]]:
    """(offices, held-out forms): offices = the `zhouli:` sources, a third of them held out."""
    groups: dict[str, set[str]] = defaultdict(set)
    for s, e in lex.entries.items():
        if e.source.startswith("zhouli:"):
            groups[e.source].add(s)
    offices = sorted(groups)
    rng = random.Random(seed)
    rng.shuffle(offices)
    held = offices[: round(len(offices) * frac)]
    return held, {f for o in held for f in groups[o]}


def score(recs, preds, refs, forms: set[str]) -> dict:
    tp = n_pred = n_ref = hit = n_held = 0
    for r, pred, ref in zip(recs, preds, refs):
        ref = {sp for sp in ref if sp[2] in LABELS}
        pred = {sp for sp in pred if sp[2] in LABELS}
        tp += len(ref & pred)
        n_pred += len(pred)
        n_ref += len(ref)
        for sp in ref:
            if r["text"][sp[0] : sp[1]] in forms:
                n_held += 1
                hit += sp in pred
    p, rr = tp / max(n_pred, 1), tp / max(n_ref, 1)
    return {"p": round(p, 4), "r": round(rr, 4), "f1": round(2 * p * rr / max(p + rr, 1e-9), 4),
            "held_recall": round(hit / max(n_held, 1), 4), "held_hit": hit, "held_spans": n_held}


# the shipped training options (pipeline/train/tag/__init__.py)
SHIPPED = {"lex_dropout": 0.7, "max_iterations": ITERATIONS, "seed": 13, "mask_in": 0.3, "per_span": True, "sub_matches": 0.5,
           "partial": True, "agent": True}


def run_ablation(seed: int, zhushu_silver: bool, config: dict | None = None) -> dict:
    from pipeline.tag.crf import CRFModel
    from pipeline.train.tag.clusters import build_clusters, cluster_texts
    from pipeline.train.tag.crf import train_crf

    lex = load_lexicon()
    held, forms = held_out(lex, seed)
    kept_forms = {s for s, e in lex.entries.items() if e.source.startswith("zhouli:")} - forms
    lex2 = Lexicon([e for s, e in lex.entries.items() if s not in forms])
    items = build_silver(lex2)
    if zhushu_silver:
        items += [SilverItem(r["id"], "base" if r["marker"] == "" else "commentary", r["text"], project(r["text"], lex2)) for r in zhushu_records()]
    train = [it for it in items if not any(f in it.text for f in forms)]
    recs = zhushu_records()
    refs = [project(r["text"], lex) for r in recs]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.crfsuite"
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):
            clusters = build_clusters(cluster_texts())
        cfg = dict(SHIPPED, **(config or {}))
        train_crf(train, lex2, path, clusters=clusters, **cfg)
        model = CRFModel(path, lex2, clusters, agent=True)
        preds = [model.predict_fast(r["text"]) for r in recs]
    proj2 = [project(r["text"], lex2) for r in recs]  # the reduced lexicon alone, for comparison
    out = {
        "seed": seed, "zhushu_silver": zhushu_silver, "config": config or {},
        "offices": len({e.source for e in lex.entries.values() if e.source.startswith("zhouli:")}),
        "held_offices": len(held), "held_forms": len(forms), "training_units": len(train),
        "eval_records": len(recs), "eval_chars": sum(len(r["text"]) for r in recs),
        "tagger": score(recs, preds, refs, forms),
        "tagger_kept_offices": score(recs, preds, refs, kept_forms)["held_recall"],
        "reduced_projection": score(recs, proj2, refs, forms),
    }
    found = Counter()
    missed = Counter()
    missed_as = Counter()  # what the tagger gave instead (overlapping spans, or nothing)
    for r, pred, ref in zip(recs, preds, refs):
        ps = set(pred)
        for sp in ref:
            f = r["text"][sp[0] : sp[1]]
            if f in forms:
                (found if sp in ps else missed)[f] += 1
                if sp not in ps:
                    over = [r["text"][a:b] for a, b, _ in pred if a < sp[1] and sp[0] < b]
                    missed_as[f + "→" + ("/".join(over) or "∅")] += 1
    # where the held-out spans are: at the start of a record (a 序官 line, the opening of a 職,
    # a 注 that names the office first: the frames of name pattern 3) or in running text
    pos = {"start": [0, 0], "running": [0, 0]}
    for r, pred, ref in zip(recs, preds, refs):
        ps = set(pred)
        for sp in ref:
            if r["text"][sp[0] : sp[1]] in forms:
                k = "start" if sp[0] == 0 else "running"
                pos[k][0] += sp in ps
                pos[k][1] += 1
    out["held_recall_by_position"] = {k: {"recall": round(h / max(n, 1), 4), "hit": h, "spans": n} for k, (h, n) in pos.items()}
    out["found"] = found.most_common(40)
    out["missed"] = missed.most_common(40)
    out["missed_as"] = missed_as.most_common(40)
    print(json.dumps(out, ensure_ascii=False))
    return out


def run_sample(n: int, seed: int, juan: str) -> None:
    from pipeline.tag import kept_entities, load_tagger

    tagger = load_tagger()
    recs = [r for r in zhushu_records(markers=("", "注", "疏")) if juan in ("all", r["id"].split("#")[0])]
    by_kind: Counter = Counter()
    spans = []
    for r, ents in zip(recs, tagger.tag([r["text"] for r in recs])):
        for e in kept_entities(r["text"], r["marker"] or None, ents):  # what the tag stage keeps
            if e.label == "ROLE":
                by_kind[r["marker"] or "經"] += 1
                spans.append((r["id"], r["marker"] or "經", e.start, e.end, r["text"]))
    print(json.dumps({"juan": juan, "records": len(recs), "chars": sum(len(r["text"]) for r in recs), "role_spans": len(spans),
                      "by_kind": dict(by_kind)}, ensure_ascii=False))
    rng = random.Random(seed)
    for uid, kind, s, e, text in sorted(rng.sample(spans, n)):
        print(f"{uid}\t{kind}\t{text[s:e]}\t{text[max(0, s - 8):s]}【{text[s:e]}】{text[e:e + 8]}")


def main() -> None:  # pragma: no cover - an experiment driver
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["ablation", "sample"])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--no-zhushu-silver", action="store_true", help="ablation: train on the 集釋 silver data only")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--juan", default="all", help="sample: one train juan of 周禮注疏 (KR1d0003_017), or all train juan")
    ap.add_argument("--config", default=None, help='JSON overriding the shipped training options, e.g. \'{"sub_matches": 0.5}\'')
    a = ap.parse_args()
    if a.what == "ablation":
        run_ablation(7 if a.seed is None else a.seed, not a.no_zhushu_silver, json.loads(a.config) if a.config else None)
    else:
        run_sample(a.n, 13 if a.seed is None else a.seed, a.juan)


if __name__ == "__main__":  # pragma: no cover
    main()
