"""Silver training data for the tagger: the lexicon projected over the corpus units.

Unit texts come from the lead's ingest (`pipeline.ingest.read_document`) over
data/corpus/KR1d0030/KR1d0030_001..030.txt, base and commentary units (鄭注, 釋曰, 鄭目録云);
the dev juan KR1d0030_010 is always excluded. If ingest is unavailable the texts of
data/punct/KR1d0030.punct.jsonl are used instead (base + 鄭注 only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.tag.lexicon import DEV_JUAN, PUNCT_PATH, Lexicon, load_lexicon, project

CORPUS_DIR = paths.CORPUS


@dataclass
class SilverItem:
    id: str
    kind: str  # base | commentary
    text: str
    spans: list[tuple[int, int, str]]


def corpus_units(exclude: tuple[str, ...] = (DEV_JUAN,), corpus_dir: Path = CORPUS_DIR) -> list[tuple[str, str, str]]:
    """(unit id, kind, text) of every base and commentary unit of juan 1..30 (less `exclude`)."""
    out: list[tuple[str, str, str]] = []
    try:
        from pipeline.ingest import read_document
    except ImportError:  # pragma: no cover - only before ingest existed
        read_document = None
    if read_document is not None:
        for path in sorted(Path(corpus_dir).glob("KR1d0030_0[0-9][0-9].txt")):
            if path.stem in exclude or path.stem.endswith("_000"):
                continue
            doc = read_document(path)
            for u in doc.units:
                if u.kind in ("base", "commentary") and u.text:
                    out.append((doc.unit_id(u), u.kind, u.text))
        if out:
            return out
    with open(PUNCT_PATH, encoding="utf-8") as fh:  # pragma: no cover - fallback
        for line in fh:
            r = json.loads(line)
            if r["id"].split("#")[0] in exclude:
                continue
            out.append((r["id"], "base" if r["kind"] == "base" else "commentary", r["text"]))
    return out


def build_silver(lexicon: Lexicon | None = None, exclude: tuple[str, ...] = (DEV_JUAN,)) -> list[SilverItem]:
    lexicon = lexicon or load_lexicon()
    return [SilverItem(uid, kind, text, project(text, lexicon)) for uid, kind, text in corpus_units(exclude)]


def zhouli_units(path: Path = paths.ZHOULI_PUNCT, markers: tuple[str, ...] = ("", "注")) -> list[tuple[str, str, str]]:
    """(record id, kind, text) of the 經 and 注 records of the train juan of 周禮注疏
    (data/punct/KR1d0003.punct.jsonl, split "train"; the dev and held-out juan are never read)."""
    from pipeline.jsonlines import read_jsonl

    out = []
    for _, r in read_jsonl(path):
        if r.get("split") == "train" and r.get("marker") in markers and r.get("text"):
            out.append((r["id"], "base" if r["marker"] == "" else "commentary", r["text"]))
    return out


def build_zhouli_silver(lexicon: Lexicon | None = None) -> list[SilverItem]:
    lexicon = lexicon or load_lexicon()
    return [SilverItem(uid, kind, text, project(text, lexicon)) for uid, kind, text in zhouli_units()]


