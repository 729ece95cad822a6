"""Distributional character classes for the tagger: characters used alike get one class id.

Each character seen at least `min_count` times is described by its left and right neighbours
(positive PMI over the most frequent characters), reduced by a truncated SVD and grouped by
k-means. Texts: the KR1d0030 units less the dev juan, plus the punctuated 禮記 / 周禮 of
data/extra if present (ritual genre, no 儀禮 text). A class feature lets the CRF carry what it
learned about 弓 to a bow-like character it has never seen labelled.
"""

from __future__ import annotations

from pathlib import Path




def read_clusters(path: str | Path) -> dict[str, int]:
    out = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if "\t" in line:
                c, k = line.rstrip("\n").split("\t")
                out[c] = int(k)
    return out
