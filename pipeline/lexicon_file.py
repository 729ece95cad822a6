"""The ritual-term lexicon's file (models/lexicon/lexicon.tsv: surface, label, source, note), read and written.

Core, because two stages read it: tag (the tagger's lexicon: pipeline/tag/lexicon.py loads, looks up and projects it;
pipeline/train/tag/lexicon.py builds it) and align (`ritual_roles`: the persons of the rite, to tell a person heading
his own clause from a gloss of him, pipeline/align/grammar.py). A stage may not import another (tests/test_architecture.py),
so the file format lives here, once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.errors import InputError


@dataclass(frozen=True)
class LexEntry:
    surface: str
    label: str  # ROLE | OBJECT | PLACE (| ACT | MUSIC); NONE = reviewed rejection
    source: str
    note: str


def read_tsv(path: str | Path) -> list[LexEntry]:
    """Read a lexicon TSV (comment lines start with #, first non-comment line is the header)."""
    path = Path(path)
    entries, header_seen = [], False
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if not header_seen:
                header_seen = True
                if cols[:2] == ["surface", "label"]:
                    continue
            if len(cols) != 4 or not cols[0] or not cols[1] or not cols[2]:
                raise InputError(str(path), lineno, "expected 4 tab-separated columns: surface, label, source, note")
            entries.append(LexEntry(*cols))
    return entries


def write_tsv(path: str | Path, entries: list[LexEntry], header_comment: str = "") -> None:
    from pipeline import atomic

    lines = [f"# {c}" for c in header_comment.splitlines()] if header_comment else []
    lines.append("surface\tlabel\tsource\tnote")
    for e in entries:
        lines.append("\t".join((e.surface, e.label, e.source, e.note.replace("\t", " "))))
    atomic.write_text(path, "\n".join(lines) + "\n")


@functools.lru_cache(maxsize=1)
def ritual_roles() -> frozenset[str]:
    """The words of the lexicon (built by `zhushu train tagger`) labelled ROLE: the officers and persons of the rite
    (司正, 上射, 擯者, 宗人 …)."""
    return frozenset(e.surface for e in read_tsv(paths.LEXICON) if e.label == "ROLE")
