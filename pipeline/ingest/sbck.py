"""The Sibu congkan (SBCK) layout of 儀禮 鄭注 (KR1d0026), and of another classic so printed (禮記卷第N …).

Base text runs on from line to line; Zheng's commentary stands inline as `(a/b)` two-column
notes with no marker. Each run of consecutive note groups (also across lines) is one
commentary unit, and the base text between two runs is one base unit.
"""

from __future__ import annotations

import re

from pipeline.ingest.source import SourceLine
from pipeline.ingest.units import UnitBuilder
from pipeline.ingest.wyg import line_text
from pipeline.ingest.wyg_print import NUMERALS
from pipeline.model import CollationNote, Unit

# "儀禮卷第二", opening and closing a juan; another SBCK classic's reads 禮記卷第二, 周禮卷第二, 毛詩卷第二
# (read as 儀禮's only, such a line was base text and its character counts a 注)
HEADER_RE = re.compile(rf"[^\u3000 (]{{1,8}}卷第[{NUMERALS}]+.*")
# "士冠禮第一　儀禮　鄭氏注": chapter, book and commentator on one line (also 鄕飮酒禮 spellings;
# another classic's: 曲禮上第一　禮記　鄭氏注, 周南關雎詁訓傳第一　毛詩國風　鄭氏箋)
SBCK_TITLE_RE = re.compile(rf"[^\u3000 (]{{1,10}}第[{NUMERALS}]+(?:之[{NUMERALS}]+)?[\u3000 ]+[^\u3000 ].*")
# the print's count of a juan's characters, after its closing header: (經八百四十四字/注二千六百三十一字)
# (juan 8 without 字 and with 万, juan 13 with its numerals out of order across the groups)
COUNT_RE = re.compile(rf"[經注傳箋][{NUMERALS}千萬万零〇經注傳箋字]+")


def parse_sbck(lines: list[SourceLine]) -> tuple[list[Unit], list[CollationNote]]:
    units: list[Unit] = []
    notes: list[CollationNote] = []
    current: UnitBuilder | None = None
    after_header = False  # the line before was a header line

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
        if after_header and _counts_only(line):
            # the print's counts on a line of their own after the closing header (`儀禮卷第十` /
            # `(經八百四十四字/注二千六百三十一字)`): a header of their own, in reading order, not a 注
            current = UnitBuilder(len(units), "header")
            for tok in line.tokens:
                if tok.kind == "note":
                    current.add_columns(tok)
                else:
                    current.add([tok])
            close()
            after_header = False
            continue
        after_header = False
        if HEADER_RE.fullmatch(text) or SBCK_TITLE_RE.fullmatch(text):
            # a header line may carry a note of its own (the character counts at a juan's end)
            close()
            current = UnitBuilder(len(units), "header" if HEADER_RE.fullmatch(text) else "title")
            current.add(line.tokens)
            after_header = current.kind == "header"
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


def _counts_only(line: SourceLine) -> bool:
    """Whether a printed line is nothing but the juan's character counts, opening in small print
    (`(經二千五百一/注五千四十七)十(六字/字)`: juan 13 sets one numeral full size between the groups)."""
    tokens = [tok for tok in line.tokens if not (tok.kind == "char" and tok.char in "\u3000 ")]
    text = "".join("".join(tok.columns) if tok.kind == "note" else tok.char for tok in tokens)
    return bool(tokens) and tokens[0].kind == "note" and bool(COUNT_RE.fullmatch(text))
