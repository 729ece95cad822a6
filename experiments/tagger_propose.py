"""Lexicon growth by review: names the model finds that the lexicon lacks.

Silver data marks every unlisted name as O, so a model trained on all of it learns that those
names are not entities. To let a model propose them, the corpus is cut in two by juan parity;
a character-only CRF (no lexicon features; distributional character classes; the identity of
a share of characters hidden in training so that context counts) is trained on one half and
run on the other. Its confident spans outside every lexicon match are the proposals, written
as a TSV for review; accepted ones go into models/lexicon/reviewed.tsv with a note.

    python -m experiments.tagger_propose > proposals.tsv      # ~2 min on one core
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from pipeline.tag.lexicon import load_lexicon
from pipeline.train.tag.clusters import build_clusters, cluster_texts
from pipeline.tag.crf import CRFModel
from pipeline.train.tag.crf import train_crf
from pipeline.train.tag.silver import build_silver


def propose(min_p: float = 0.5, seed: int = 13) -> list[tuple[str, str, int, list[str]]]:
    lexicon = load_lexicon()
    items = build_silver(lexicon)
    clusters = build_clusters(cluster_texts(), seed=seed)
    found: Counter = Counter()
    where: dict = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for fold in (0, 1):
            train = [it for it in items if int(it.id.split("#")[0][-3:]) % 2 != fold]
            test = [it for it in items if int(it.id.split("#")[0][-3:]) % 2 == fold]
            path = Path(tmp) / f"fold{fold}.crfsuite"
            train_crf(train, None, path, lex_dropout=0.0, clusters=clusters, mask_in=0.5, mask_out=0.2, seed=seed)
            model = CRFModel(path, None, clusters)
            for it in test:
                covered = {i for s, e, _ in it.spans for i in range(s, e)}
                for s, e, lab, p in model.predict(it.text):
                    if p >= min_p and not covered.intersection(range(s, e)):
                        key = (it.text[s:e], lab)
                        found[key] += 1
                        if len(where[key]) < 3:
                            where[key].append(f"{it.id}:{it.text[max(0, s - 5):e + 5]}")
    return [(w, lab, n, where[(w, lab)]) for (w, lab), n in found.most_common()]


def main() -> None:  # pragma: no cover - a review tool
    print("surface\tlabel\tcount\texamples")
    for w, lab, n, ex in propose():
        print(f"{w}\t{lab}\t{n}\t{' | '.join(ex)}")
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
