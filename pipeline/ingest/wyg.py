"""The Siku Quanshu Wenyuange (WYG) layout of 儀禮集釋 (KR1d0030).

Base text (經) and commentary blocks (opened by 鄭注 / 釋曰 / 鄭目録云) are printed in
21-column lines. A block runs on while its lines are full: the line that is not full ends
it. A marker at the start of a line always opens a new commentary block. Indentation is
not consistent from page to page (juan 9 indents base lines too), so it is used only to
break a commentary block whose last line happened to be full, when a flush-left line follows.
"""

from __future__ import annotations

import re

from pipeline.ingest.source import SourceLine
from pipeline.ingest.units import UnitBuilder, marker_at
from pipeline.ingest.wyg_print import LINE_COLUMNS, PrintReader, is_front_matter, line_text, sections
from pipeline.model import CollationNote, Unit

__all__ = ["LINE_COLUMNS", "line_text", "parse_wyg"]  # the other layouts take the print's line from here

# The seventeen 篇 of the 儀禮 (with the spellings of this edition), as chapter titles:
# "大射儀第七" opens juan 9, the running title "大射儀" opens juan 10.
CHAPTERS = (
    "士冠禮", "士昏禮", "士昬禮", "士相見禮", "鄉飲酒禮", "鄉射禮", "燕禮", "大射儀", "聘禮",
    "公食大夫禮", "覲禮", "喪服", "士喪禮", "既夕禮", "既夕", "士虞禮", "特牲饋食禮",
    "少牢饋食禮", "有司徹",
)
TITLE_RE = re.compile(
    "(?:" + "|".join(CHAPTERS) + r")(?:第[一二三四五六七八九十]+(?:之[一二三四五六七八九十])?)?(?:[\u3000 ].*)?"
)
HEADER_RE = re.compile(r"欽定四庫全書.*|.*卷[一二三四五六七八九十百]+.*撰|儀禮集釋卷.*|.*[\u3000 ]撰")


def parse_wyg(lines: list[SourceLine]) -> tuple[list[Unit], list[CollationNote]]:
    """Units of a WYG 集釋 juan. Front matter (目錄, 提要, 序) is read by the print grammar
    (wyg_print.PrintReader.front_matter: prose blocks, header lines)."""
    reader = PrintReader()
    for section, run in sections(lines):
        if is_front_matter(section):
            reader.front_matter(run)
        else:
            _body(run, reader.units, reader.notes)
    return reader.units, reader.notes


def _body(lines: list[SourceLine], units: list[Unit], notes: list[CollationNote]) -> None:
    """The body of a juan: headers, chapter title, base and 鄭注 / 釋曰 blocks."""
    current: UnitBuilder | None = None
    prev_full = False
    current_indent = 0  # indentation of the current block's first line
    opening = True  # still in the juan's opening lines (headers, then the chapter title)

    def close() -> None:
        nonlocal current
        if current is not None and not current.empty:
            unit = current.build()
            units.append(unit)
            notes.extend(current.notes)
        current = None

    for line in lines:
        if line.kind in ("blank", "meta"):  # a header line inside the text is a break too
            close()
            prev_full = False
            opening = opening or line.kind == "meta"  # a new section opens with its own headers
            continue
        if line.kind != "text":
            continue
        text = line_text(line)
        marker = marker_at(line.tokens)
        if opening and HEADER_RE.fullmatch(text.strip("\u3000 ")):
            kind = "header"
        elif opening and TITLE_RE.fullmatch(text):
            kind = "title"
        else:
            kind = "commentary" if marker else "base"
        if kind in ("header", "title"):
            close()
            current = UnitBuilder(len(units), kind)
            current.add(line.tokens)
            close()
            opening = kind == "header"
            prev_full = False
            continue
        opening = False
        continues = (
            current is not None
            and prev_full
            and marker is None
            and not (current.kind == "commentary" and line.indent == 0 and current_indent > 0)
        )
        if not continues:
            close()
            current = UnitBuilder(len(units), kind, marker)
            current_indent = line.indent
        current.add(line.tokens)
        prev_full = line.width >= LINE_COLUMNS
    close()
