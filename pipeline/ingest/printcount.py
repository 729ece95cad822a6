"""What the print itself shows, counted from the raw markup alone (no reader involved).

The post-ingest check (check.py) compares a reader's units with these counts; the two must be
independent, so this module reads the mandoku text with a few regular expressions of its own
and knows nothing of units, markers or attributions:

- a text line's full-size characters are `flush` (no leading blank) or `indented`;
- a two-column small note `(a/b)` (consecutive groups, also over lines, are one note) is
  `small`; a note that opens like the Qing editors' collation (案 / 按 / 謹案 / 臣…按) or
  speaks of editions (據…改正, …本作…, 訛作) is counted apart as `collation_like`;
- front-matter sections (目錄, 提要, 序 …) and the opening header lines of a juan
  (欽定四庫全書, X卷N, the author line … 撰) are left out: they are neither text nor comment.

Indentation is taken as printed: a page set one column to the right (禮記集說 juan 4 p. 39a)
counts its 經 as indented here, which is part of why the check allows a margin.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from pipeline.ingest.wyg_print import AUTHOR_PART, JUAN_NUMBER, LINE_COLUMNS, SKQS, is_front_matter  # the print's line; section names

_JUAN_RE = re.compile(r"#\+PROPERTY:\s*JUAN\s+(.*?)\s*$")
_PB_RE = re.compile(r"<pb:[^>]*>")
_NOTE_RE = re.compile(r"\(([^()]*)\)")
_ENTITY_RE = re.compile(r"&KR\d{4};")
# a composed character `[孑*(焉-正+?)]` (Kanripo's notation) is one character, its brackets no note
_COMPOSED_RE = re.compile(r"\[[^\[\]\n]*\]")
_ORG_HEADING_RE = re.compile(r"\*+[ \u3000]")
_HEADING_RE = re.compile(rf"{SKQS}.*|.{{1,12}}{JUAN_NUMBER}.*|.*{AUTHOR_PART}")
_COLLATION_RE = re.compile(r"^(?:謹?[案按]|臣.{0,4}?[案按])|據.{0,12}?改正|本作|訛作")
_BLANKS = "\u3000 \t"
# a `¶` with more of the line after it ends a printed line inside a physical one (lines joined): cut there
_MID_LINE_END_RE = re.compile("(?<=¶)(?=[ \t\r\u3000]*[^ \t\r\u3000])")


@dataclass
class PrintCounts:
    flush: int = 0  # full-size characters of lines printed flush left
    indented: int = 0  # full-size characters of indented lines
    small: int = 0  # characters of small notes
    collation_like: int = 0  # of which in notes that open like collation or speak of editions
    lines: int = 0  # text lines counted

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _count(text: str) -> int:
    return len(_ENTITY_RE.sub("X", text)) - sum(text.count(b) for b in _BLANKS + "/")


def count_print(source: str, printed_lines: bool = True) -> PrintCounts:
    """The counts of the print; with printed_lines, a physical line holding several printed lines (`…¶…¶`) is
    cut at each `¶` as the layout readers cut it (not in an edition already punctuated, where a `¶` ends a
    paragraph)."""
    counts = PrintCounts()
    section = ""
    note: list[str] = []  # the groups of the note being read (it may run on over lines)

    def end_note() -> None:
        if note:
            text = "".join(note)
            n = _count(text)
            counts.small += n
            if _COLLATION_RE.search(text.replace("/", "")):
                counts.collation_like += n
            note.clear()

    opening = True
    after_skqs = False
    cut = _MID_LINE_END_RE.split if printed_lines else (lambda physical: [physical])
    for raw in (piece for physical in source.split("\n") for piece in cut(physical)):
        line = _PB_RE.sub("", raw.rstrip("\r").removesuffix("¶"))
        if line.startswith("#") or _ORG_HEADING_RE.match(line):  # `#+…` and org headings (`* 卷一`): markup
            m = _JUAN_RE.match(line)
            if m:
                section, opening = m.group(1), True
            continue
        line = _COMPOSED_RE.sub("X", line)
        content = line.lstrip(_BLANKS)
        if not content.strip(_BLANKS) or is_front_matter(section):
            end_note()
            continue
        full = _NOTE_RE.sub("", content)
        fits = len(line) <= LINE_COLUMNS
        # the line under the opening 欽定四庫全書 is the juan's title, whatever it says (as wyg_print reads it)
        juan_title = opening and after_skqs and fits and len(line) > len(content)
        after_skqs = opening and fits and full.startswith(SKQS)
        if opening and fits and (_HEADING_RE.fullmatch(full.strip(_BLANKS)) or juan_title):
            end_note()
            continue
        opening = False
        counts.lines += 1
        pos = 0
        for m in _NOTE_RE.finditer(content):
            if content[pos : m.start()].strip(_BLANKS):
                end_note()  # full-size text between two groups: a new note after it
            note.append(m.group(1))
            pos = m.end()
        if content[pos:].strip(_BLANKS):
            end_note()
        n = _count(full)
        if len(line) > len(content):
            counts.indented += n
        else:
            counts.flush += n
    end_note()
    return counts
