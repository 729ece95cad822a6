"""Reading a source file: decoding, input checks, and splitting into physical lines.

Every later step works on `SourceLine`s, which keep their offsets into the decoded source
string, so that any unit or note can point back at the bytes it came from.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError
from pipeline.model import juan_of_page
from pipeline.pua import COMPOSED_RE, ENTITY_RE, SPELLED_RE, ComposedClash, composed_char, entity_char

MAX_BYTES = 64 * 1024 * 1024  # a juan is ~50 KB; anything this large is not a mandoku text
LINE_END = "¶"
PB_RE = re.compile(r"<pb:([^>]+)>")
_BREAK_RE = re.compile(r"<pb:([^>]+)>|¶")
INDENT_CHARS = "\u3000 \t"
# "&...;" that is not a well-formed Kanripo entity: the reader must not guess what it was
_ANY_ENTITY_RE = re.compile(r"&[^;&\s]{0,16};?")
_JUAN_RE = re.compile(r"#\+PROPERTY:\s*JUAN\s+(.*?)\s*$")


@dataclass
class Token:
    """One column-taking piece of a text line: a character, or one `(a/b)` note group."""

    kind: str  # "char" | "note"
    start: int  # source offsets
    end: int
    char: str = ""  # for "char": the character (an entity decoded to its PUA character)
    columns: tuple[str, ...] = ()  # for "note": the raw columns, in reading order (usually two)

    @property
    def width(self) -> int:
        if self.kind == "char":
            return 1
        return max(len(SPELLED_RE.sub("X", col)) for col in self.columns)


@dataclass
class SourceLine:
    number: int  # 1-based line number in the file
    start: int  # offset of the first character of the line
    end: int  # offset just past the content (before "¶" and the newline)
    kind: str  # "meta" (#… header lines), "pb" (page-break line), "text", "blank"
    pb: str | None = None  # the page this line is printed on
    printed: int = 0  # printed line number on that page (text lines), 1-based
    indent: int = 0  # leading blank columns
    tokens: list[Token] = field(default_factory=list)
    section: str = ""  # the `#+PROPERTY: JUAN` value in force (卷十, 目錄, 序, 提要 …)
    # `<pb:…>` tags on this line: (source index of the tag, page id); on a text line a tag may
    # stand anywhere (CHANT/TLS editions end a paragraph's last line with it)
    breaks: list[tuple[int, str]] = field(default_factory=list)
    # printed lines that begin inside this line, after a tag or a `¶`: (source index, page id, printed line)
    starts: list[tuple[int, str, int]] = field(default_factory=list)

    @property
    def width(self) -> int:
        return self.indent + sum(t.width for t in self.tokens)

    @property
    def content_start(self) -> int:
        return self.tokens[0].start if self.tokens else self.end


STDIN = "-"  # the path that names standard input
STDIN_NAME = "<stdin>"  # how errors name it
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """Decode a file ("-": standard input), refusing empty, binary, huge or wrongly-encoded input
    with a clear error. A UTF-16 file with its byte-order mark is read as UTF-16 (Windows
    editors save so), whatever `encoding` says."""
    path = str(path)
    try:
        data = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
    except OSError as err:
        raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
    if path == STDIN:
        path = STDIN_NAME
    if data.startswith(_UTF16_BOMS) and len(data) % 2 == 0:
        encoding = "utf-16"
    if not data.strip():
        raise InputError(path, None, "empty file: no text to ingest")
    if len(data) > MAX_BYTES:
        raise InputError(path, None, f"file is {len(data) // 1048576} MiB; the limit is {MAX_BYTES // 1048576} MiB")
    if b"\x00" in data[:65536] and not encoding.lower().startswith("utf-16"):
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(path, line, f"binary file (NUL byte): not a text file{_utf16_hint(data)}")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        hint = " (GB18030 and Big5 texts exist: try --encoding gb18030 or --encoding big5)"
        raise InputError(path, line, f"not valid {encoding}: byte 0x{data[err.start]:02x} cannot be decoded{hint}") from None
    except LookupError:
        raise InputError(path, None, f"unknown encoding {encoding!r}") from None
    text = text.removeprefix("\ufeff")
    if "\n" not in text and "\r" in text:  # classic Mac OS line ends: one line, a header, "no text lines"
        text = text.replace("\r", "\n")  # one character for one: no offset moves
    return text


# format characters that no print has and no Kanripo file holds (none in the 675 files here): a
# byte-order mark inside the file (juan saved with one, then concatenated), zero-width spaces and
# joiners, a soft hyphen (text copied from a web page). Read as text they became characters of
# the units, or hid a header line (a `#` after a BOM is no header: its properties read as text)
INVISIBLE_RE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad]")


NO_BREAK_SPACE = "\u00a0"  # a blank column copied from a web page's rendering of the print


def drop_invisible(path: str, text: str) -> tuple[str, list[str]]:
    """The text without INVISIBLE_RE's characters and with a no-break space read as the print's blank
    column (U+3000, one for one), and a warning for each naming how many and the first line."""
    warnings = []
    first = text.find(NO_BREAK_SPACE)
    if first >= 0:
        n = text.count(NO_BREAK_SPACE)
        warnings.append(f"{path}:{text.count(chr(10), 0, first) + 1}: {n} no-break space(s) (U+00A0) read as "
                        "blank columns (U+3000), as a web page renders the print's")
        text = text.replace(NO_BREAK_SPACE, "\u3000")
    found = INVISIBLE_RE.findall(text)
    if found:
        kinds = ", ".join(f"U+{ord(ch):04X} ×{found.count(ch)}" for ch in sorted(set(found)))
        line = text.count("\n", 0, INVISIBLE_RE.search(text).start()) + 1
        warnings.append(f"{path}:{line}: {len(found)} invisible format character(s) dropped ({kinds}): "
                        "no print has them; they were not read as text")
        text = INVISIBLE_RE.sub("", text)
    return text, warnings


def _utf16_hint(data: bytes) -> str:
    """Advice when NUL bytes are a UTF-16 text without its byte-order mark (its ASCII markup,
    `#+PROPERTY`, `<pb:`, newlines and ¶, has a NUL in every other byte)."""
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text:
            return f" (it reads as {codec.upper()} without a byte-order mark: try --encoding {codec})"
    return ""


# a `¶` with more of the line after it (blanks aside): a printed line's end inside a physical line
MID_LINE_END_RE = re.compile("¶(?=[ \t\r\u3000]*[^ \t\r\u3000\n])")  # (a lookahead: `¶¶`, an empty printed line, is two)


def _lines(text: str, printed_lines: bool):
    """(line number, offset, text) of each physical line; with printed_lines, of each printed line: a
    physical line is cut after each `¶` that more of the line follows (a copy whose lines were joined,
    `…¶…¶`, holds the print's lines all the same)."""
    offset = 0
    # split on "\n" only: str.splitlines would also break at U+2028, \x1c … inside text
    for number, physical in enumerate(text.split("\n"), start=1):
        at = 0
        if printed_lines and not physical.startswith("#"):
            for m in MID_LINE_END_RE.finditer(physical):
                yield number, offset + at, physical[at : m.start() + 1]
                at = m.start() + 1
        yield number, offset + at, physical[at:]
        offset += len(physical) + 1


def split_lines(path: str, text: str, printed_lines: bool = False) -> list[SourceLine]:
    """Physical lines (with printed_lines: printed lines, see _lines) with their kind, page, printed
    line number, indentation and tokens."""
    lines: list[SourceLine] = []
    pb: str | None = None
    printed = 0
    section = ""
    for number, start, raw in _lines(text, printed_lines):
        # trailing ASCII blanks (an editor's, after the `¶` or without one) are not columns of the print:
        # kept, they became characters of the text and the `¶` before them a break inside the line
        body = raw.rstrip("\r").rstrip(" \t")
        stop = start + len(body)
        if body.endswith(LINE_END):
            stop -= 1
        content = text[start:stop]
        if content.startswith("#"):
            m = _JUAN_RE.match(content)
            if m:
                section = m.group(1)
            lines.append(SourceLine(number, start, stop, "meta", pb, section=section))
            continue
        if content.count("<pb:") != len(PB_RE.findall(content)):
            raise InputError(path, number, "malformed page break: '<pb:' without a page id and a closing '>'")
        cuts = list(_BREAK_RE.finditer(content))  # `<pb:…>` tags and `¶` anywhere in the line
        breaks = [(start + m.start(), m.group(1)) for m in cuts if m.group(1)]
        pieces = [(start + (cuts[i - 1].end() if i else 0), start + (cuts[i].start() if i < len(cuts) else len(content)))
                  for i in range(len(cuts) + 1)]
        if not "".join(text[a:b] for a, b in pieces).strip(INDENT_CHARS):  # only layout blanks: str.strip() would also eat U+2028 …
            if breaks:
                pb, printed = breaks[-1][1], 0
            lines.append(SourceLine(number, start, stop, "pb" if breaks else "blank", pb, breaks=breaks))
            continue
        indent, tokens, taken = 0, [], []  # taken: tokens before each piece
        for a, b in pieces:
            if not tokens:  # leading blanks, also after a leading tag, are the line's indentation
                blanks = len(text[a:b]) - len(text[a:b].lstrip(INDENT_CHARS))
                indent, a = indent + blanks, a + blanks
            taken.append(len(tokens))
            tokens += tokenize(path, number, text, a, b)
        # A tag before the line's first character puts the whole line on the new page; a tag or
        # a `¶` after it starts a new printed line where the next character stands; a tag at the
        # end leaves the next physical line to be the new page's first.
        starts: list[tuple[int, str, int]] = []
        line_pb, line_printed = pb, printed + 1
        cur_pb, cur_printed = line_pb, line_printed
        for m, before in zip(cuts, taken[1:]):
            page = m.group(1) or cur_pb
            if before == 0:
                if m.group(1):
                    line_pb, line_printed = cur_pb, cur_printed = page, 1
            elif before < len(tokens):
                cur_pb, cur_printed = page, 1 if m.group(1) else cur_printed + 1
                starts.append((start + m.end(), cur_pb, cur_printed))
            elif m.group(1):
                cur_pb, cur_printed = page, 0
        pb, printed = cur_pb, cur_printed
        lines.append(SourceLine(number, start, stop, "text", line_pb, line_printed, indent, tokens, section,
                                breaks=breaks, starts=starts))
    return lines


# the lines that open a Kanripo file: `# -*- mode: mandoku-view; -*-`, `#+TITLE:`, `#+PROPERTY: ID`
_FILE_HEADER_RE = re.compile(r"#\s*-\*-|#\+TITLE:|#\+PROPERTY:\s*ID\b")


def one_juan(path: str, text: str, lines: list[SourceLine]) -> None:
    """InputError where a second juan file begins: Kanripo saves one juan a file, and a document is one
    juan (its unit ids, its dev / train split and documents.juan are the first juan's). Two juan files
    concatenated were read as one document, the second juan's units under the first's ids (stop 51).
    The evidence is both: the page ids name another juan, and a file's header (`-*- mode`, TITLE, ID)
    stands before its first page (an edition whose page ids count volumes, not juan, turns to the next
    without one). No embedded or shared file's page breaks name two juan."""
    first = None
    for i, line in enumerate(lines):
        for _, page in line.breaks:
            juan = juan_of_page(page)
            if juan is None:
                continue
            if first is None:
                first = juan
            elif juan != first:
                j = i  # back over the header block (meta and blank lines) that opens the second juan
                while j > 0 and lines[j - 1].kind in ("meta", "blank"):
                    j -= 1
                if any(ln.kind == "meta" and _FILE_HEADER_RE.match(text, ln.start) for ln in lines[j:i]):
                    raise InputError(path, lines[j].number, f"a second juan begins here (page {page}; the file's first pages "
                                     f"are {first}'s): a document is one juan, as Kanripo saves them; split the file here")
                first = juan


# the widest printed line of the embedded and shared prints, in columns (indent + characters, a note
# group by its longer column): WYG 26 (a 注疏 juan 0), SBCK 18; a line of 40+ is no printed line
MAX_PRINTED_COLUMNS = 40


def too_wide(path: str, lines: list[SourceLine]) -> None:
    """InputError at the first text line too wide for a printed line: the layout readers take a physical
    line for a printed one (its indentation, where it ends), and a copy whose lines were joined without
    their `¶` (one line a page, a paragraph) was read to other units with exit 0 (stop 51: 周禮注疏 juan
    5, 228 units for 242; the SBCK 儀禮 juan 3, 98 for 102)."""
    for line in lines:
        # (a line holds no more columns than characters: most are passed without counting them)
        if line.kind == "text" and line.end - line.start > MAX_PRINTED_COLUMNS and line.width > MAX_PRINTED_COLUMNS:
            raise InputError(path, line.number, f"a line of {line.width} columns, where a printed line of a Kanripo print "
                             f"holds at most about 26: its printed lines were joined? Give each its own line, or end each "
                             f"with `¶`")


# where a printed line of a print ends: its `¶`, blanks and page tags after it aside
_LINE_ENDED_RE = re.compile(r"¶(?:[ \t\r\u3000]|<pb:[^>\n]*>)*$")


def unended_line(path: str, text: str, lines: list[SourceLine]) -> None:
    """InputError at the first text line without its `¶` in a file whose printed lines end with one.
    Every text line of the 675 embedded and shared prints ends with `¶`; a copy re-wrapped by an editor
    (each line cut at 10, 20 … characters) was read with exit 0 to other units, a piece of a printed line
    taken for a printed line (stop 52: 周禮注疏 juan 2, 201 units for 135; 禮記集說 juan 2, 1,862 for
    102). A `¶` dropped by hand is refused too: a physical line without one may be a printed line or a
    piece of one, and which of the two only the `¶` tells."""
    ended = unended = None
    for i, line in enumerate(lines):
        if line.kind != "text":
            continue
        # (a printed line cut from a physical one ends at its `¶`; the last, or a whole line, may have blanks
        # or tags after it: to the physical line's end, -1 the text's end)
        stop = text.find("\n", line.start) % (len(text) + 1)
        if text.startswith("¶", line.end) or _LINE_ENDED_RE.search(text, line.start, stop):
            ended = ended or line
        else:
            unended = unended or (i, line)
        if ended and unended:
            i, line = unended
            if not any(later.kind == "text" for later in lines[i + 1 :]):  # a download or a copy cut short
                why = "the file's last text line: was the file cut short? A whole juan ends where its last printed line does"
            else:
                why = ("were the lines re-wrapped by an editor? Join the pieces of each printed line; a printed line of "
                       "its own ends with `¶`")
            raise InputError(path, line.number, f"no `¶` ends this line, where the file's printed lines end with one "
                             f"(line {ended.number} does): {why}")


_FULLWIDTH_PAREN_RE = re.compile("[（）]")
_SPACES_RE = re.compile(" +")


def fullwidth_notes(path: str, text: str, lines: list[SourceLine]) -> None:
    """InputError at the first text line with a full-width parenthesis `（` `）`: no Kanripo print holds one
    (none of the 675 embedded and shared print files; the punctuated editions do, as the edition's own
    brackets), and a copy whose `(…/…)` notes a tool made full-width (`（…／…）`) was read with the notes
    as text: the SBCK 儀禮 juan 3 to 5 units for 102, with exit 0 (stop 52)."""
    for line in lines:
        m = _FULLWIDTH_PAREN_RE.search(text, line.start, line.end) if line.kind == "text" else None
        if m:
            raise InputError(path, line.number, f"a full-width parenthesis {m.group()!r} (column {m.start() - line.start + 1}), "
                             f"which no Kanripo print holds: a print's small notes are written (a/b) in ASCII; were "
                             f"they made full-width by a tool? Write them back as ( / )")


def doubled_blanks(path: str, text: str, lines: list[SourceLine]) -> None:
    """InputError where each blank column of the print seems written as two ASCII spaces (nkf -Z2 and
    other width-keeping conversions of `　`): the readers count a blank a column, and such a copy was
    read to other units with exit 0 (stop 52: every one of nine print-layout books, e.g. 儀禮述註 juan 2 376
    units for 378). The evidence: no `　` in the file's text lines, and every run of spaces there of even
    length — the prints' blank runs are of any length (indents of 1 column are 91 % of all), so a copy
    with one space a column (NFKC) holds odd runs and is read (but for 2 of the 385 print files, whose runs
    are all even: such a copy of them is refused too)."""
    first, runs = None, 0
    for line in lines:
        if line.kind != "text":
            continue
        if text.find("\u3000", line.start, line.end) >= 0:
            return
        for m in _SPACES_RE.finditer(text, line.start, line.end):
            if len(m.group()) % 2:
                return
            runs += 1
            first = first or line
    if runs:
        raise InputError(path, first.number, f"no ideographic space `　` in the text, and each of its {runs} runs of "
                         f"spaces is of even length: was each blank column of the print written as two spaces by a "
                         f"tool (nkf -Z2 does)? Write the print's blank columns as `　`, one each")


def page_index(lines: list[SourceLine]) -> tuple[list[tuple[int, str]], list[tuple[int, str, int]]]:
    """Document.pages (every `<pb:…>` tag) and Document.lines (each printed line's start, page and
    number; markup-free text has no page ids: there the physical line of the file)."""
    pages = [brk for line in lines for brk in line.breaks]
    starts: list[tuple[int, str, int]] = []
    for line in lines:
        if line.kind == "text":
            starts.append((line.start, line.pb or "", line.printed if line.pb else line.number))
            starts += line.starts
    return pages, starts


def tokenize(path: str, number: int, text: str, start: int, stop: int) -> list[Token]:
    """Characters and `(a/b)` note groups of one line's content."""
    tokens: list[Token] = []
    i = start
    while i < stop:
        ch = text[i]
        if ch == "(":
            close, columns = _note_columns(path, number, text, i, stop)
            inner = text[i + 1 : close]
            _check_entities(path, number, inner)
            tokens.append(Token("note", i, close + 1, columns=columns))
            i = close + 1
        elif ch == "[":
            m = _composed_match(path, number, text, i, stop)
            tokens.append(Token("char", i, m.end(), char=_composed_char(path, number, m)))
            i = m.end()
        elif ch == ")":
            raise InputError(path, number, "unbalanced ')': no '(' opens it on this line")
        elif ch in _STRAY_MARKUP:  # markup this reader does not know would become text characters
            raise InputError(path, number, _stray_markup(text, i, stop))
        elif ch == "&":
            m = ENTITY_RE.match(text, i, stop)
            if not m:
                bad = _ANY_ENTITY_RE.match(text, i, stop)
                shown = bad.group(0) if bad else "&"
                raise InputError(path, number, f"unknown entity {shown!r}: only &KRnnnn; is known")
            tokens.append(Token("char", i, m.end(), char=entity_char(int(m.group(1)))))
            i = m.end()
        else:
            tokens.append(Token("char", i, i + 1, char=ch))
            i += 1
    return tokens


# Markup characters that a mandoku line holds only inside what the tokenizer reads (a note's `/`,
# a page break's `<pb:…>`, a composed character's `]`); none stands elsewhere in any of the 675
# files of the embedded and shared books, where it would be read as a character of the text.
_STRAY_MARKUP = frozenset("/<>]")


def _stray_markup(text: str, i: int, stop: int) -> str:
    ch = text[i]
    if ch == "/":
        return "'/' outside a note: it separates the columns of a small note (a/b)"
    if ch == "]":
        return "unbalanced ']': no '[' opens a composed character before it on this line"
    if ch == "<":
        close = text.find(">", i, min(stop, i + 40))
        shown = text[i : close + 1] if close >= 0 else text[i : i + 12]
        return f"unknown markup {shown!r}: the only tag read is the page break <pb:…>"
    return "stray '>': no '<pb:' opens it"


def _composed_match(path: str, number: int, text: str, i: int, stop: int) -> re.Match:
    """The composed character `[…]` opening at text[i] (a `[` that opens none is refused)."""
    m = COMPOSED_RE.match(text, i, stop)
    if not m:
        close = text.find("]", i, min(stop, i + 20))
        shown = text[i : close + 1] if close >= 0 else text[i : i + 10]
        raise InputError(path, number, f"{shown!r} is not a composed character ([A*B], [A/B], [A@B], [A-B+C])")
    return m


def _composed_char(path: str, number: int, m: re.Match) -> str:
    try:
        return composed_char(m.group(1))
    except ComposedClash as err:
        raise InputError(path, number, str(err)) from None


def _note_columns(path: str, number: int, text: str, i: int, stop: int) -> tuple[int, tuple[str, ...]]:
    """The `)` closing the note opened at text[i], and its columns: a composed character inside
    (`([孑*(焉-正+?)]而注反…/…)`) is one character, its `(`, `)` and `/` are not the note's."""
    columns, col_start, j = [], i + 1, i + 1
    while j < stop:
        ch = text[j]
        if ch == "[":
            m = _composed_match(path, number, text, j, stop)
            _composed_char(path, number, m)
            j = m.end()
            continue
        if ch == ")":
            columns.append(text[col_start:j])
            return j, tuple(columns)
        if ch == "(":
            raise InputError(path, number, "nested '(' inside a collation note")
        if ch == "/":
            columns.append(text[col_start:j])
            col_start = j + 1
        j += 1
    raise InputError(path, number, "unbalanced '(': a collation note is not closed on its line")


def _check_entities(path: str, number: int, inner: str) -> None:
    for m in _ANY_ENTITY_RE.finditer(inner):
        if not ENTITY_RE.fullmatch(m.group(0)):
            raise InputError(path, number, f"unknown entity {m.group(0)!r} in a collation note")


_KAOZHENG_RE = re.compile(r"考[證蹬证]\]?$")  # a JUAN that opens a juan's 考證 section (卷三十三考證)


def read_properties(lines: list[SourceLine], text: str) -> dict[str, str]:
    """`#+PROPERTY: KEY value` and `#+TITLE: …` lines; later values of a key win, but for JUAN:
    a later JUAN header opens a section of the same juan (`卷一考證` of each 注疏 juan, kept per
    line in SourceLine.section), so the first names the juan (the first that opens no 考證 section); and for ID: the Kanripo id comes
    first, an edition's own may follow it (the CHANT 論語: `ID KR1h0004`, then `ID H15-21-0081`),
    and the id names the book (Document.book)."""
    props: dict[str, str] = {}
    for line in lines:
        if line.kind != "meta":
            continue
        content = text[line.start : line.end]
        m = re.match(r"#\+PROPERTY:\s*(\S+)\s*(.*?)\s*$", content)
        if m:
            if m.group(1) in ("JUAN", "ID") and m.group(1) in props:
                # …unless the first JUAN is the 考證 before the body (a file that opens with the end of
                # the juan before: 禮記註疏 juan 33's 「卷二十二考蹬」 sic): the body's juan names it
                if m.group(1) == "JUAN" and _KAOZHENG_RE.search(props["JUAN"]) and not _KAOZHENG_RE.search(m.group(2)):
                    props["JUAN"] = m.group(2)
                continue
            props[m.group(1)] = m.group(2)
            continue
        m = re.match(r"#\+(\w+):\s*(.*?)\s*$", content)
        if m:
            props[m.group(1)] = m.group(2)
    return props
