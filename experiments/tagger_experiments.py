"""The experiments behind docs/entities.md (not used by the pipeline at run time).

    python -m experiments.tagger_experiments spacy [--epochs 4] [--rare 40]
    python -m experiments.tagger_experiments crf [--rare 40] [--chars-only | --shipped | --config JSON]
    python -m experiments.tagger_experiments hybrid [--rare 40]
    python -m experiments.tagger_experiments by-use

Every run scores on the dev gold (annotations/gold/entities.dev.KR1d0030_010.jsonl) and on
"silver10" (the lexicon projection over all units of juan 10), both never trained on.
`--rare N` is the unseen-name ablation: half of the lexicon names occurring at most N times in
the silver data (random, seed 7) are removed from the lexicon *and* every training unit that
contains one is dropped, so those names are never seen in training; `unseen_recall` is then
the recall on them. Single-threaded; each run takes one to two minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from pipeline.evaluate.entities import read_gold, score  # noqa: E402
from pipeline.tag.lexicon import BY_USE, REPO, Lexicon, load_lexicon, project  # noqa: E402
from pipeline.train.tag.silver import build_silver, corpus_units  # noqa: E402

GOLD = REPO / "annotations" / "gold" / "entities.dev.KR1d0030_010.jsonl"


SHIPPED = dict(lex_dropout=0.7, per_span=True, sub_matches=0.0, mask_in=0.3, partial=True, agent=True)  # + classes


def setup(rare: int):
    """(full lexicon, training lexicon, training items)."""
    lex = load_lexicon()
    items = build_silver(lex)
    if not rare:
        return lex, lex, items
    freq = Counter(it.text[s:e] for it in items for s, e, _ in it.spans)
    cand = sorted(s for s in lex.entries if 0 < freq[s] <= rare)
    rng = random.Random(7)
    held = {s for s in cand if rng.random() < 0.5}
    lex2 = Lexicon([e for s, e in lex.entries.items() if s not in held])
    items2 = [it for it in build_silver(lex2) if not any(h in it.text for h in held)]
    print(f"held out {len(held)} names; {len(items2)} training units")
    _HELD.clear()
    _HELD.update(held)
    return lex, lex2, items2


_HELD: set[str] = set()


def report(name: str, predict, lex, lex2) -> dict:
    gold = read_gold(GOLD)
    r1 = score(gold, [predict(g["text"]) for g in gold], lex2)
    units = [(u, t) for u, _, t in corpus_units(exclude=()) if u.startswith("KR1d0030_010")]
    recs = [{"id": u, "text": t, "spans": project(t, lex)} for u, t in units]
    t0 = time.perf_counter()
    preds = [predict(r["text"]) for r in recs]
    dt = time.perf_counter() - t0
    r2 = score(recs, preds, lex2)
    out = {"model": name}
    for tag, r in (("dev", r1), ("silver10", r2)):
        out[tag] = {k: (v["f1"] if isinstance(v, dict) else v) for k, v in r.items() if k not in ("errors", "records")}
        out[tag]["p"] = r["micro"]["p"]
    # silver10 recall on the held-out names alone (unseen_recall also counts the names that only
    # the productive patterns of pipeline.tag.lexicon.name_patterns find, 執弓者 …)
    hit = n_held = 0
    for r, pred in zip(recs, preds):
        ps = set(pred)
        for sp in r["spans"]:
            if sp[2] in ("ROLE", "OBJECT", "PLACE") and r["text"][sp[0] : sp[1]] in _HELD:
                n_held += 1
                hit += sp in ps
    if n_held:
        out["silver10"]["held_recall"] = round(hit / n_held, 4)
        out["silver10"]["held_spans"] = n_held
    out["chars_per_s"] = round(sum(len(r["text"]) for r in recs) / dt)
    print(json.dumps(out, ensure_ascii=False))
    return out


def run_crf(rare: int, chars_only: bool, shipped: bool = False, config: dict | None = None):
    from pipeline.train.tag.clusters import build_clusters, cluster_texts
    from pipeline.tag.crf import CRFModel
    from pipeline.train.tag.crf import train_crf

    lex, lex2, items = setup(rare)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.crfsuite"
        if shipped or config:
            cfg = dict(SHIPPED, **(config or {}))
            if "unknown_pattern" in cfg:  # try another pattern of doubtful spans
                import re

                from pipeline.train.tag import crf as tagger_crf

                tagger_crf.UNKNOWN_PATTERN = re.compile(cfg.pop("unknown_pattern"))
            clusters = build_clusters(cluster_texts()) if cfg.pop("clusters", True) else None
            train_crf(items, lex2, path, clusters=clusters, max_iterations=100, **cfg)
            model = CRFModel(path, lex2, clusters, agent=cfg["agent"])
            return report("crf-shipped " + json.dumps(cfg), model.predict_fast, lex, lex2)
        if chars_only:
            clusters = build_clusters(cluster_texts())
            train_crf(items, None, path, clusters=clusters, mask_in=0.5, mask_out=0.2)
            model = CRFModel(path, None, clusters)
        else:
            train_crf(items, lex2, path)
            model = CRFModel(path, lex2)
        return report("crf-chars-only" if chars_only else "crf", model.predict_fast, lex, lex2)


def run_hybrid(rare: int, taus=(0.95, 0.9, 0.8, 0.6)):
    from pipeline.train.tag.clusters import build_clusters, cluster_texts
    from pipeline.tag.crf import CRFModel
    from pipeline.train.tag.crf import train_crf

    lex, lex2, items = setup(rare)
    clusters = build_clusters(cluster_texts())
    with tempfile.TemporaryDirectory() as tmp:
        train_crf(items, lex2, Path(tmp) / "a.crfsuite")
        train_crf(items, None, Path(tmp) / "b.crfsuite", clusters=clusters, mask_in=0.5, mask_out=0.2)
        a = CRFModel(Path(tmp) / "a.crfsuite", lex2)
        b = CRFModel(Path(tmp) / "b.crfsuite", None, clusters)
        for tau in taus:

            def predict(text, tau=tau):
                first = a.predict_fast(text)
                cov = {i for s, e, _ in first for i in range(s, e)}
                extra = [(s, e, lab) for s, e, lab, p in b.predict(text) if p >= tau and not cov.intersection(range(s, e))]
                return sorted(first + extra)

            report(f"hybrid tau={tau}", predict, lex, lex2)


def run_spacy(rare: int, epochs: int):
    from experiments.tagger_spacy import load_spacy, predict_spacy, train_spacy

    lex, lex2, items = setup(rare)
    with tempfile.TemporaryDirectory() as tmp:
        train_spacy(items, tmp, epochs=epochs)
        nlp = load_spacy(tmp)
        return report(f"spacy-{epochs}ep", lambda t: predict_spacy(nlp, [t])[0], lex, lex2)


def run_by_use():
    """Train with the rule view of the by-use words withheld: can the CRF read use from context?"""
    from pipeline.tag.crf import CRFModel
    from pipeline.train.tag.crf import train_crf

    lex = load_lexicon()
    items = build_silver(lex)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.crfsuite"
        train_crf(items, lex, path, context_words=BY_USE)
        model = CRFModel(path, lex, context_words=BY_USE)
        report("crf-by-use-from-context", model.predict_fast, lex, lex)
        agree = total = majority = 0
        counts: Counter = Counter()
        for u, _, t in corpus_units(exclude=()):
            if not u.startswith("KR1d0030_010"):
                continue
            gold = {s for s, e, _ in project(t, lex) if e - s == 1 and t[s] in BY_USE}
            pred = {s for s, e, _ in model.predict_fast(t) if e - s == 1 and t[s] in BY_USE}
            for i, ch in enumerate(t):
                if ch in BY_USE:
                    total += 1
                    agree += (i in gold) == (i in pred)
                    counts[(ch, i in gold)] += 1
        majority = sum(max(counts[(c, True)], counts[(c, False)]) for c in BY_USE)
        print(json.dumps({"by_use_occurrences": total, "agree_with_rules": round(agree / total, 4),
                          "majority_baseline": round(majority / total, 4)}))


def main() -> None:  # pragma: no cover - an experiment driver
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["spacy", "crf", "hybrid", "by-use"])
    ap.add_argument("--rare", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--chars-only", action="store_true")
    ap.add_argument("--shipped", action="store_true", help="crf: the shipped configuration (SHIPPED + classes)")
    ap.add_argument("--config", default=None, help='crf: JSON overriding SHIPPED, e.g. \'{"partial": false}\'')
    a = ap.parse_args()
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    if a.what == "spacy":
        run_spacy(a.rare, a.epochs)
    elif a.what == "crf":
        run_crf(a.rare, a.chars_only, a.shipped, json.loads(a.config) if a.config else None)
    elif a.what == "hybrid":
        run_hybrid(a.rare)
    else:
        run_by_use()


if __name__ == "__main__":  # pragma: no cover
    main()
