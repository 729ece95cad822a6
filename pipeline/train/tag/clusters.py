"""Building the tagger's distributional character classes (read at run time by pipeline/tag/clusters.py).

Each character seen at least `min_count` times is described by its left and right neighbours
(positive PMI over the most frequent characters), reduced by a truncated SVD and grouped by
k-means. Texts: the KR1d0030 units less the dev juan, plus the punctuated 禮記 / 周禮 of
data/extra if present (ritual genre, no 儀禮 text).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from pipeline import paths
from pipeline.train.tag.silver import corpus_units


EXTRA = [paths.EXTRA_DIR / "KR1d0052.punct.jsonl", paths.EXTRA_DIR / "KR1d0001.punct.jsonl"]


def cluster_texts() -> list[str]:

    texts = [t for _, _, t in corpus_units()]
    for path in EXTRA:
        if path.exists():
            with open(path, encoding="utf-8") as fh:
                texts.extend(json.loads(line)["text"] for line in fh if line.strip())
    return texts


def build_clusters(texts: list[str], *, k: int = 160, dim: int = 48, min_count: int = 3, n_ctx: int = 1500, seed: int = 13) -> dict[str, int]:
    from sklearn.cluster import KMeans

    freq = Counter(ch for t in texts for ch in t)
    vocab = [c for c, n in freq.most_common() if n >= min_count]
    idx = {c: i for i, c in enumerate(vocab)}
    ctx = {c: i for i, c in enumerate(vocab[:n_ctx])}
    nc = len(ctx)
    m = np.zeros((len(vocab), 2 * nc), dtype=np.float64)
    for t in texts:
        for i, ch in enumerate(t):
            r = idx.get(ch)
            if r is None:
                continue
            if i > 0 and (c := ctx.get(t[i - 1])) is not None:
                m[r, c] += 1
            if i + 1 < len(t) and (c := ctx.get(t[i + 1])) is not None:
                m[r, nc + c] += 1
    total = m.sum()
    row = m.sum(1, keepdims=True) + 1e-9
    col = m.sum(0, keepdims=True) + 1e-9
    with np.errstate(divide="ignore"):
        pmi = np.log((m * total) / (row * col))
    ppmi = np.where(m > 0, np.maximum(pmi, 0.0), 0.0)
    u, s, _ = np.linalg.svd(ppmi, full_matrices=False)
    emb = u[:, :dim] * np.sqrt(s[:dim])
    emb /= np.linalg.norm(emb, axis=1, keepdims=True) + 1e-9
    km = KMeans(n_clusters=k, n_init=3, random_state=seed).fit(emb)
    return {c: int(lab) for c, lab in zip(vocab, km.labels_)}


def write_clusters(path: str | Path, clusters: dict[str, int]) -> None:
    from pipeline import atomic

    lines = [f"{c}\t{k}" for c, k in sorted(clusters.items(), key=lambda x: (x[1], x[0]))]
    atomic.write_text(path, "\n".join(lines) + "\n")
