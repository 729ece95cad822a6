"""`zhushu train tagger`: rebuild the lexicon, project it into silver data, train the CRF (models/tagger).

Silver data: the units of the 集釋 (juan 1-30 less the dev juan 10) and the 經 and 注 records of
the train juan of 周禮注疏 (data/punct/KR1d0003.punct.jsonl), so that the tagger sees the
offices of the 周禮 in the text that names them (docs/entities.md, "The 注疏: offices of the 周禮")."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline import atomic, paths
from pipeline.tag import CLUSTERS_FILE, META_FILE, MODEL_FILE, TAGGER_DIR, TagStage, file_sha
from pipeline.tag.lexicon import LEXICON_PATH, load_lexicon
from pipeline.train.tag.clusters import build_clusters, cluster_texts, write_clusters
from pipeline.train.tag.crf import train_crf
from pipeline.train.tag.lexicon import write_lexicon
from pipeline.train.tag.silver import build_silver, build_zhouli_silver

SUB_MATCHES = 0.5  # a hidden lexicon match shows its longest sub-match instead, this often (鄉大夫 → 大夫)
# L-BFGS iterations. At 100 (stops 13-44) the fit stopped far from its optimum and a small change to
# the silver data moved some 340 spans elsewhere in the two 注疏 besides the ones it meant to move;
# at 400 the same change (stop 45's 爵 rule) moves 75 (docs/entities.md, "Stop 45"). ~4 min.
ITERATIONS = 400


def train(
    out_dir: str | Path | None = None,
    *,
    max_iterations: int = ITERATIONS,
    lex_dropout: float = 0.7,
    sub_matches: float = SUB_MATCHES,
    seed: int = 13,
    rebuild_lexicon: bool = True,
    log=print,
) -> dict:
    """Rebuild the lexicon, project it into silver data, train the CRF; write models/tagger."""
    out = Path(out_dir) if out_dir else TAGGER_DIR
    if rebuild_lexicon:
        entries = write_lexicon()
        log(f"lexicon: {len(entries)} entries -> {LEXICON_PATH.relative_to(paths.REPO)}")
    lexicon = load_lexicon()
    items = build_silver(lexicon)
    n_jishi = len(items)
    items += build_zhouli_silver(lexicon)
    n_chars = sum(len(i.text) for i in items)
    n_spans = sum(len(i.spans) for i in items)
    log(f"silver: {len(items)} units ({n_jishi} of the 集釋, {len(items) - n_jishi} 經/注 records of 周禮注疏), {n_chars} chars, {n_spans} spans (dev juan excluded)")
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # one thread: the same classes (and bytes) on every run
        clusters = build_clusters(cluster_texts())
    log(f"character classes: {len(clusters)} characters, {len(set(clusters.values()))} classes")
    with atomic.replaced_dir(out) as stage:
        write_clusters(stage / CLUSTERS_FILE, clusters)
        params = train_crf(items, lexicon, stage / MODEL_FILE, lex_dropout=lex_dropout, max_iterations=max_iterations,
                           seed=seed, clusters=clusters, mask_in=0.3, per_span=True, sub_matches=sub_matches, partial=True, agent=True)
        meta = {
            "kind": "crf",
            "lexicon": str(LEXICON_PATH.relative_to(paths.REPO)),
            "lexicon_sha256": file_sha(LEXICON_PATH),
            "lexicon_entries": len(lexicon),
            "silver": {"units": len(items), "units_jishi": n_jishi, "units_zhouli": len(items) - n_jishi, "chars": n_chars,
                       "spans": n_spans, "excluded": ["KR1d0030_010"], "zhouli": "data/punct/KR1d0003.punct.jsonl 經/注, split train"},
            "params": params,
        }
        atomic.write_text(stage / META_FILE, json.dumps(meta, ensure_ascii=False, indent=1) + "\n")
    TagStage.forget(out)
    log(f"model -> {out}")
    return meta
