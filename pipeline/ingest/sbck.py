"""The Sibu congkan (SBCK) layout of 儀禮 鄭注 (KR1d0026).

Base text runs on from line to line; Zheng's commentary stands inline as `(a/b)` two-column
notes with no marker. Each run of consecutive note groups (also across lines) is one
commentary unit, and the base text between two runs is one base unit.
"""

from __future__ import annotations

import re

from pipeline.ingest.source import SourceLine
from pipeline.ingest.units import UnitBuilder
from pipeline.ingest.wyg import line_text
from pipeline.model import CollationNote, Unit

HEADER_RE = re.compile(r"儀禮卷第[一二三四五六七八九十]+.*")
# "士冠禮第一　儀禮　鄭氏注": chapter, book and commentator on one line (also 鄕飮酒禮 spellings)
SBCK_TITLE_RE = re.compile(r".{1,8}第[一二三四五六七八九十]+[\u3000 ].*(?:儀禮|鄭氏注).*")


def parse_sbck(lines: list[SourceLine]) -> tuple[list[Unit], list[CollationNote]]:
    units: list[Unit] = []
    notes: list[CollationNote] = []
    current: UnitBuilder | None = None

    def close() -> None:
        nonlocal current
        if current is not None and not current.empty:
            units.append(current.build())
            notes.extend(current.notes)
        current = None

    for line in lines:
        if line.kind in ("blank", "meta"):
            close()
        if line.kind != "text":
            continue
        text = line_text(line)
        if HEADER_RE.fullmatch(text) or SBCK_TITLE_RE.fullmatch(text):
            # a header line may carry a note of its own (the character counts at a juan's end)
            close()
            current = UnitBuilder(len(units), "header" if HEADER_RE.fullmatch(text) else "title")
            current.add(line.tokens)
            close()
            continue
        for tok in line.tokens:
            kind = "commentary" if tok.kind == "note" else "base"
            if current is None or current.kind != kind:
                close()
                current = UnitBuilder(len(units), kind)
            if kind == "commentary":
                # here a note is commentary text, not a collation remark: its columns are the text
                current.add_columns(tok)
            else:
                current.add([tok])
    close()
    return units, notes
