"""Training the 疏 quotation tagger (pipeline/align/quote_tagger.py) on the train split of data/quotes.

Each train record's 疏 is one sequence, tagged B / I / O from its gold `quotes` spans; the
characters of an `uncertain` stretch (a quotation whose ends did not carry over) are cut out, so
that neither label is learned there (the pieces train as sequences). `other` spans (quoted by the
edition, not from the passage) are O: the align stage links quotations of the passage only.
L-BFGS is deterministic: the same data and code give the same model bytes.

Rebuild: `zhushu train quotations` (about 5 min on one free core; 12 on the shared machine).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from pipeline import paths
from pipeline.align.quote_passage import QuotePassage
from pipeline.align.quote_tagger import MODEL_PATH, char_features, to_bio
from pipeline.evaluate.quotations import read_gold, reader_inputs

# c2 1.0 over 0.01: F1 0.679 vs 0.673 on the tune juan (train juan 1-3 of each book, held out);
# minfreq 3 and c1 0.2 keep the model at 6 MB (8 MB with c1 0.05, every feature)
PARAMS = {"c1": 0.2, "c2": 1.0, "max_iterations": 50, "feature.minfreq": 3, "feature.possible_transitions": True}


def sequences(records: list[dict]):
    """(features, tags) pieces of every record, uncertain stretches cut out."""
    for rec in records:
        shu, passage, notes = reader_inputs(rec)
        if not shu:
            continue
        feats = char_features(shu, QuotePassage(passage, notes))
        tags = to_bio(len(shu), [(q["start"], q["end"]) for q in rec["quotes"]])
        cut = {i for u in rec["uncertain"] for i in range(u["start"], u["end"])}
        piece: list[int] = []
        for i in range(len(shu) + 1):
            if i == len(shu) or i in cut:
                if piece:
                    yield [feats[k] for k in piece], [tags[k] for k in piece]
                piece = []
            else:
                piece.append(i)


def train(out: Path = MODEL_PATH, max_iterations: int | None = None, log=print, verbose: bool = False,
          hold_out: frozenset[str] = frozenset()) -> dict:
    """`hold_out`: train juan (KR1d0053_001 …) left out, to measure a change on them (tuning)."""
    import pycrfsuite

    t0 = time.perf_counter()
    records = []
    for book in sorted(paths.QUOTES):
        records += [r for r in read_gold(paths.QUOTES[book], split="train") if r["id"].split("#")[0] not in hold_out]
    trainer = pycrfsuite.Trainer(verbose=verbose)
    n_seq = n_chars = 0
    for feats, tags in sequences(records):
        trainer.append(feats, tags)
        n_seq += 1
        n_chars += len(tags)
    log(f"{len(records)} train records, {n_seq} sequences, {n_chars} characters ({time.perf_counter() - t0:.0f} s)")
    params = dict(PARAMS)
    if max_iterations:
        params["max_iterations"] = max_iterations
    trainer.set_params(params)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    trainer.train(str(tmp))
    tmp.chmod(0o644)
    tmp.replace(out)
    info = {"hold_out": sorted(hold_out), "records": len(records), "sequences": n_seq, "characters": n_chars, "params": params,
            "train_seconds": round(time.perf_counter() - t0), "bytes": out.stat().st_size}
    (out.parent / "meta.json").write_text(json.dumps({k: v for k, v in info.items() if k != "train_seconds"},
                                                     ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                          encoding="utf-8")
    log(json.dumps(info, ensure_ascii=False))
    return info
