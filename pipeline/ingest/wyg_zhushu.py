"""The WYG 注疏 layout (周禮注疏 KR1d0003, 禮記註疏 KR1d0053): 經, 注, 音義 and 疏 inline.

Full-size text is 經 until the marker `注`; from there it is Zheng's note until the next
small note. A small note is a run of `(a/b)` groups (consecutive groups, also over lines,
are one note), opened by `音義` (Lu Deming's readings) or `疏`/`䟽` (the sub-commentary);
after it, full-size text is 經 again. `注` inside a 注 is text (Zheng quotes other 注), so a
注 that runs straight into the next 經 is one unit here: `resume.py` finds where the 經
resumes. Each section `卷N考證` is the Qing editors' collation report: one `report` unit
per entry. The `原目` is the 篇 list with Zheng's 目録 notes and their 疏 (ContentsReader). The
other front matter (目錄, 序, 提要 …) is read by the print grammar, as the 集釋's is
(wyg_print.PrintReader.front_matter: prose blocks are commentary, single lines headers).

Unlike the 集釋 layout, no small note of a juan's body is a collation remark: every `(a/b)`
group is text of the unit it stands in (as in SBCK); only the front matter's `(案…)` notes
are lifted into `Document.notes`, as in every layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.errors import InputError
from pipeline.ingest.source import INDENT_CHARS as BLANKS
from pipeline.ingest.source import SourceLine, Token
from pipeline.ingest.units import UnitBuilder
from pipeline.ingest.wyg import LINE_COLUMNS, line_text
from pipeline.ingest.wyg_print import NUMERALS, SKQS, PrintReader
from pipeline.model import CollationNote, Unit

ZHU = "注"
# small-note markers, as printed → the unit marker (䟽 is a variant form of 疏 in 禮記 juan 4)
NOTE_MARKERS = {"音義": "音義", "疏": "疏", "䟽": "疏"}
# a group printed right after 注 is a 疏 printed with the marker 注 (10 times in both books);
# a group with no marker that opens with 釋曰 / 正義曰, like every 疏, is a 疏 too (6 times)
SHU_OPENINGS = ("釋曰", "正義曰", "注釋曰", "注正義曰")
SMALL_NOTES = ("音義", "疏", "小注")
# the longest group read as text of the 注 it stands in (the one such group in the three books
# is `(乃/)`; the two other unmarked groups after a 注, 禮記 juan 21 and 34, run to 40+ characters)
MAX_INLINE_ZHU = 2
# how each marker may be printed (lossless.py checks the extent against these)
PRINTED_MARKERS = {"注": ("注",), "音義": ("音義",), "疏": ("疏", "䟽", "注", ""), "小注": ("",), "考證": ("",)}
# the author line under a juan's title: who wrote each layer, a dynasty before the first name and
# where it changes (漢鄭氏注　唐陸德明音義　賈公彥疏, 儀禮 juan 11 with no spaces; another classic's would
# read 晉杜氏注　唐陸德明音義　孔穎達疏)
AUTHOR_ROLES = {"注": "注", "註": "注", "音義": "音義", "疏": "疏", "䟽": "疏",
                # layers of other classics' 注疏 that this layout has no marker for: named, not used
                "傳": None, "箋": None, "集解": None, "解詁": None, "正義": None}
DYNASTIES = "漢魏晉吳宋齊梁陳隋唐元明清"
_AUTHOR_ITEM = rf"(\S{{1,5}}?)({'|'.join(sorted(AUTHOR_ROLES, key=len, reverse=True))})"
AUTHOR_ITEM_RE = re.compile(_AUTHOR_ITEM)
AUTHOR_LINE_RE = re.compile(rf"(?=[{DYNASTIES}]){_AUTHOR_ITEM}(?:[\u3000 ]*{_AUTHOR_ITEM})+")
# a juan's title line: 周禮注疏卷二, its 考證's 周禮注疏卷二考證; the 四庫 names the 論語 and 孟子 注疏
# 論語注疏解經, 孟子注疏解經 (without 解經 their closing title was read as 經 論語 + a 注 疏解經卷二)
HEADER_RE = re.compile(rf"{SKQS}.*|.+[注註][疏䟽](?:解經)?(?:[卷巻][{NUMERALS}]+|原目).*|.*漢鄭氏.{{1,3}}唐.*"  # 漢鄭氏泣 (sic) in 禮記 juan 15
                       rf"|漢鄭氏目[録錄].*"  # the 原目's author line: 漢鄭氏目録　　唐賈公彦疏
                       rf"|.{{1,8}}[卷巻][{NUMERALS}]+考[證蹬]"  # a 考證's title without 注疏 (禮記卷二十三考證, sic)
                       rf"|{AUTHOR_LINE_RE.pattern}")
# the section of the 篇 list with Zheng's 目録 notes and their 疏 (ContentsReader)
CONTENTS_SECTION = "原目"
MAIN_SECTION_RE = re.compile(rf"[卷巻][{NUMERALS}]+")


def author_line(units: list[Unit]) -> str | None:
    """The juan's author line as printed (`漢鄭氏注　唐陸德明音義　賈公彥疏`), or None."""
    for unit in units:
        text = unit.text.strip("\u3000 ")
        if unit.kind == "header" and AUTHOR_LINE_RE.fullmatch(text):
            return text
    return None


def author_line_names(units: list[Unit]) -> dict[str, str]:
    """Each layer's author as the juan's author line prints them (marker → printed name, the dynasty
    before it dropped): {"注": "鄭氏", "音義": "陸徳眀", "疏": "賈公彦"}; empty when the juan has no
    such line. A dynasty character is dropped only before two characters or more (陳澔, 宋均 are names)."""
    names: dict[str, str] = {}
    for match in AUTHOR_ITEM_RE.finditer(author_line(units) or ""):
        name, role = match.groups()
        if len(name) > 2 and name[0] in DYNASTIES:
            name = name[1:]
        marker = AUTHOR_ROLES[role]
        if marker is not None and marker not in names:
            names[marker] = name
    return names


def is_report_section(section: str) -> bool:
    # 卷二十二考蹬 (sic) in 禮記註疏
    return section.endswith(("考證", "考蹬"))


def parse_zhushu(path: str, lines: list[SourceLine]) -> tuple[list[Unit], list[CollationNote]]:
    """Units of a 注疏 juan, section by section (a `#+PROPERTY: JUAN` line opens a section), and
    the collation notes lifted out of its front matter (the 提要's `(案…)`: as in every layout)."""
    front = PrintReader()  # 序, 提要 …: the print grammar's front matter, as in the 集釋
    units = front.units  # one list: every reader numbers its units from its length
    for section, run in _sections(lines):
        if not section or MAIN_SECTION_RE.fullmatch(section):  # markup-free text has no sections
            units += MainReader(path, len(units)).read(run)
        elif is_report_section(section):
            units += _blocks(run, len(units), "report", "考證")
        elif section.endswith(CONTENTS_SECTION):
            units += ContentsReader(path, len(units)).read(run)
        else:
            front.front_matter(run)
    return units, front.notes


ON_ZHU = ("注釋曰", "注正義曰")  # a 疏 that opens so comments on the 注 before it


def misprinted_markers(path: str, source: str, units: list[Unit]) -> list[str]:
    """Warnings for a 疏 on a 注 (`注釋曰…`) with no 注 before it, only 經 (and 音義): the 注's
    marker was misprinted, as 疏 (儀禮 juan 5 and 10, 周禮 juan 6 and 30) or 江 (周禮 juan 30), so
    the 注 was read into the 經. Read as printed and reported (the dataset card lists it)."""
    warnings = []
    for i, unit in enumerate(units):
        if unit.marker != "疏" or not unit.text.startswith(ON_ZHU):
            continue
        j = i - 1
        while j >= 0 and units[j].marker == "音義":
            j -= 1
        if j < 0 or units[j].kind != "base":
            continue
        jing = units[j]
        line = source.count("\n", 0, unit.start) + 1
        at = max(jing.text.rfind("疏"), jing.text.rfind("䟽"))
        if at > 0:
            where = source.count("\n", 0, jing.offsets[at]) + 1
            shown = jing.text[max(0, at - 6) : at + 7]
            warnings.append(f"{path}:{where}: full-size 疏 inside the 經 ({shown}) where a 注 should start: the 疏 "
                            f"at line {line} comments on a 注 ({unit.text[:3]}) and none precedes it; read as printed (經)")
        else:
            warnings.append(f"{path}:{line}: the 疏 comments on a 注 ({unit.text[:3]}) but only 經 precedes it "
                            f"(…{jing.text[-12:]}): a 注 marker misprinted; read as printed (經)")
    return warnings


# a juan's own headings (周禮注疏卷十, 周禮注疏卷十考證; 禮記註疏卷二十二考蹬 sic), which open its body and
# its 考證 where no `#+PROPERTY: JUAN` line does (markup-free text, a file that lost its properties)
JUAN_HEADING_RE = re.compile(rf".+[注註][疏䟽][卷巻]([{NUMERALS}]+)(考[證蹬])?")


def _sections(lines: list[SourceLine]) -> Iterator[tuple[str, list[SourceLine]]]:
    """Runs of text and blank lines by section: a `#+PROPERTY: JUAN` line opens one, and so does a
    考證 heading outside a 考證 section, and a juan's heading inside one (a file that holds the end of
    one juan's 考證 before the next juan's body)."""
    run: list[SourceLine] = []
    name = ""
    for line in lines:
        if line.kind == "meta" and run:
            yield name, run
            run = []
        if line.kind not in ("text", "blank"):
            continue
        if not run:
            name = line.section
        heading = JUAN_HEADING_RE.fullmatch("".join(t.char for t in line.tokens)) if line.kind == "text" else None
        if heading and bool(heading.group(2)) != is_report_section(name):
            if run:
                yield name, run
            run, name = [], f"卷{heading.group(1)}" + ("考證" if heading.group(2) else "")
        run.append(line)
    if run:
        yield name, run


def _blocks(lines: list[SourceLine], seq: int, kind: str, marker: str | None) -> list[Unit]:
    """Front matter and 考證 by the WYG rule: a block runs on while its lines are full.

    In the 考證 each entry starts a line and its later lines hang by one column; the
    section's own header lines (`周禮注疏卷一考證`) are header units. A `(臣照/)` group is
    the editor's name in small print: text of the entry.
    """
    units: list[Unit] = []
    current: UnitBuilder | None = None
    prev_full = False
    for line in lines:
        if line.kind == "blank":
            prev_full = False
            continue
        header = HEADER_RE.fullmatch(line_text(line).strip("\u3000 ")) is not None
        if current is None or not prev_full or header or line.indent == 0 and kind == "report":
            if current is not None:
                units.append(current.build())
            # the 考證 marker is the section's, not printed in the entry: nothing to skip
            current = UnitBuilder(seq + len(units), "header" if header else kind, None if header else marker, skip=0)
        for tok in line.tokens:
            if tok.kind == "note":
                current.add_columns(tok)
            else:
                current.add([tok])
        prev_full = line.width >= LINE_COLUMNS and not header
    if current is not None:
        units.append(current.build())
    return units


class MainReader:
    """The body of a juan: opening headers and chapter title, then 經 / 注 / small notes."""

    # whether `注` right before a `疏(` / `音義(` ends a heading (`鄭氏注疏(…`) rather than
    # marking a 注 (which would be empty): only in the 原目 (ContentsReader)
    headings_end_in_zhu = False

    def __init__(self, path: str, seq: int):
        self.path, self.seq0 = path, seq
        self.units: list[Unit] = []
        self.current: UnitBuilder | None = None
        self.after_group = False  # the last token taken was a `(a/b)` group: a next one continues it
        self.numbers: dict[int, int] = {}  # token start -> file line, for errors
        self.marker_line: int | None = None  # file line of the current unit's marker

    def read(self, lines: list[SourceLine]) -> list[Unit]:
        opening = True
        after_skqs = False  # the line before opened the juan: 欽定四庫全書
        title: str | None = None  # the juan's title line (under 欽定四庫全書)
        body: list[Token] = []  # a marker or a note may run over lines: read the body as one stream
        for line in lines:
            if line.kind == "blank":
                continue
            text = line_text(line).strip("\u3000 ")
            # the line under 欽定四庫全書 is the juan's title, whatever it says, and where the juan
            # ends it is printed again: a header both times (read as 經 and 注, a title naming
            # 注疏 could pass for a 注: 論語注疏解經卷二 before stop 56)
            plain = line.indent > 0 and not any(tok.kind == "note" for tok in line.tokens)  # (a title has no small notes)
            juan_title = opening and after_skqs and plain
            closing = title is not None and plain and text == title
            after_skqs = opening and text.startswith(SKQS)
            if juan_title:
                title = text
            if HEADER_RE.fullmatch(text) and (opening or line.indent) or juan_title or closing:
                self._flush(body)
                self._single(line, "header")
            elif opening and line.indent:
                self._flush(body)
                self._title(line)
                opening = False
            else:
                opening = False
                body += line.tokens
                self.numbers.update((tok.start, line.number) for tok in line.tokens)
        self._flush(body)
        return self.units

    def _flush(self, body: list[Token]) -> None:
        self._tokens(body)
        self._close()
        body.clear()

    def _single(self, line: SourceLine, kind: str) -> None:
        self._open(kind, None)
        self.current.add(line.tokens)
        self._close()

    def _title(self, line: SourceLine) -> None:
        """`　天官冢宰第一音義(…)`: the chapter title, then its own small note if any."""
        at = _first_marker(line.tokens)
        self._open("title", None)
        self.current.add(line.tokens[:at])
        self.numbers.update((tok.start, line.number) for tok in line.tokens)
        self._tokens(line.tokens[at:])  # its note may run on over the next lines: left open

    def _tokens(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.kind == "char" and tok.char in BLANKS:
                # layout between columns (禮記 juan 51 leaves gaps between the groups of a 疏)
                if self.current is not None:
                    self.current.add([tok])
                i += 1
                continue
            if tok.kind == "note":
                if self._inside_zhu(tok, tokens[i + 1] if i + 1 < len(tokens) else None):
                    self.current.add_columns(tok)  # `於祭(乃/)行謂助祭也`: a character of the 注
                else:
                    self._group(tok)
                i += 1
                continue
            marker = _note_marker(tokens, i)
            if marker is None and tok.char == ZHU and self._in_small_note(or_base=True):
                # 注 right before a group: a 疏 printed with the wrong marker (see SHU_OPENINGS)
                followed = i + 1 < len(tokens) and tokens[i + 1].kind == "note"
                heading = self.headings_end_in_zhu and _note_marker(tokens, i + 1) is not None
                marker = None if heading else (ZHU, "疏" if followed else ZHU)
            if marker is not None:
                printed, name = marker
                self._open("commentary", name, skip=len(printed), at=tok)
                self.current.add(tokens[i : i + len(printed)])
                i += len(printed)
                continue
            kind = self._full_size_opens(tok)
            if kind is not None:
                self._open(kind, None, at=tok)
            self.current.add([tok])
            self.after_group = False
            i += 1

    def _full_size_opens(self, tok: Token) -> str | None:
        """The kind of unit a full-size character opens, or None when it goes on the current one:
        after a small note (or a title), full-size text is 經 again."""
        return "base" if self._in_small_note() else None

    def _in_small_note(self, or_base: bool = False) -> bool:
        c = self.current
        if c is None or c.kind in ("title", "header") or c.marker in SMALL_NOTES:
            return True
        return or_base and c.kind == "base"

    def _inside_zhu(self, tok: Token, after: Token | None) -> bool:
        """A group of a character or two inside a 注, the 注 going on full-size after it: text of
        the 注 squeezed in small (儀禮 士昏禮 `於祭(乃/)行謂助祭也`, the 注 of other editions
        reads 於祭乃行). A longer group, or one followed by a marker or another group, is a
        small note of its own (an 音義 or 疏 printed without its marker: 禮記 juan 21, 34)."""
        c = self.current
        if c is None or c.marker != ZHU or not c.chars or after is None or after.kind != "char":
            return False
        chars = "".join(tok.columns).strip("\u3000 ")
        return len(chars) <= MAX_INLINE_ZHU and after.char not in BLANKS and not any(
            after.char == printed[0] for printed in NOTE_MARKERS)

    def _group(self, tok: Token) -> None:
        if not "".join(tok.columns).strip("\u3000 "):
            raise InputError(self.path, self.numbers.get(tok.start), "empty small note '(…)'")
        c = self.current
        opened_by_marker = c is not None and c.marker in SMALL_NOTES and not c.chars
        if not (opened_by_marker or c is not None and c.marker in SMALL_NOTES and self.after_group):
            self._open("commentary", "小注", at=tok)  # a group with no marker: a small note of its own
        self.current.add_columns(tok)
        self.after_group = True

    def _open(self, kind: str, marker: str | None, skip: int = 0, at: Token | None = None) -> None:
        self._close()
        self.current = UnitBuilder(self.seq0 + len(self.units), kind, marker, skip=skip)
        self.after_group = False
        self.marker_line = self.numbers.get(at.start) if at is not None else None

    def _close(self) -> None:
        """Keep the unit being built; a marker with no text after it is an input error."""
        c = self.current
        self.current = None
        if c is None or c.empty:
            return
        if not c.chars:
            raise InputError(self.path, self.marker_line, f"marker {c.marker!r} with nothing after it")
        if c.marker == "小注" and "".join(c.chars).startswith(SHU_OPENINGS):
            c.marker = "疏"
        self.units.append(c.build())


class ContentsReader(MainReader):
    """The 原目: the 篇 one by one, each a title (`天官冢宰第一`, `曲禮上第一`), then Zheng's
    目録 note on it (full size after `注`) and its 音義 / 疏 (small notes); the book's and the
    commentary's own headings (`儀禮`, `鄭氏注`) with their 疏 among them. There is no 經:
    full-size text outside a 注 is a title, and a line after a line that is not full opens a
    new entry (a 注 runs on over full lines, by the WYG rule)."""

    headings_end_in_zhu = True  # `鄭氏注疏(…`: the heading 鄭氏注, then its 疏

    def read(self, lines: list[SourceLine]) -> list[Unit]:
        self.entry_starts: set[int] = set()
        body: list[Token] = []
        prev_full = True
        for line in lines:
            if line.kind == "blank":
                prev_full = False
                continue
            if HEADER_RE.fullmatch(line_text(line).strip("\u3000 ")):
                self._flush(body)
                self._single(line, "header")
                prev_full = False
                continue
            first = next((t for t in line.tokens if not (t.kind == "char" and t.char in BLANKS)), None)
            if first is not None and first.kind == "char" and not prev_full:
                self.entry_starts.add(first.start)
            body += line.tokens
            self.numbers.update((tok.start, line.number) for tok in line.tokens)
            prev_full = line.width >= LINE_COLUMNS
        self._flush(body)
        return self.units

    def _close(self) -> None:
        # a title is one short line; a longer one is text this reader has misread (a 注 whose
        # marker is missing, prose the 原目 of another book holds): refused, not kept as a title
        c = self.current
        if c is not None and c.kind == "title" and len(c.chars) > LINE_COLUMNS:
            title = "".join(c.chars)
            raise InputError(self.path, self.marker_line, f"a title of {len(title)} characters in the 原目 "
                             f"({title[:12]}…): the entries read as 篇 title, 注 (after 注), 音義 / 疏 notes")
        super()._close()

    def _full_size_opens(self, tok: Token) -> str | None:
        c = self.current
        if tok.start in self.entry_starts or c is None or c.kind == "header" or c.marker in SMALL_NOTES:
            return "title"
        return None


def _note_marker(tokens: list[Token], i: int) -> tuple[str, str] | None:
    """`音義` / `疏` at tokens[i] when a note group follows it: (as printed, unit marker)."""
    for printed, name in NOTE_MARKERS.items():
        j = i + len(printed)
        if j < len(tokens) and tokens[j].kind == "note" and all(
            tokens[i + k].kind == "char" and tokens[i + k].char == ch for k, ch in enumerate(printed)
        ):
            return printed, name
    return None


def _first_marker(tokens: list[Token]) -> int:
    for i, tok in enumerate(tokens):
        if tok.kind == "note" or _note_marker(tokens, i):
            return i
    return len(tokens)
