"""Ingest: a Kanripo mandoku file (or the same text without markup) into a Document.

`read_document` is the one entry point; each layout profile has its own module.
"""

from __future__ import annotations

import re
from pathlib import Path

from pipeline import paths
from pipeline.errors import InputError
from pipeline.ingest.check import (
    MAX_SHARE_GAP,
    disagreements,
    layout_evidence,
    not_chinese,
    refusal,
    simplified,
    zhu_missing,
)
from pipeline.ingest.punctuated import heading_length, parse_punctuated
from pipeline.ingest.resume import find_base_text, load_base_text, resume_base, split_paragraphs, unsplit_jing
from pipeline.ingest.sbck import parse_sbck
from pipeline.ingest.source import (INDENT_CHARS, LINE_END, MID_LINE_END_RE, STDIN, STDIN_NAME, doubled_blanks, drop_invisible,
                                    fullwidth_notes, one_juan, page_index, read_properties, read_text, split_lines,
                                    too_wide, unended_line)
from pipeline.ingest.sources import attribute_markers
from pipeline.ingest.speakers import Speakers, annotator_notes, author_of, opening_names, split_attributions
from pipeline.ingest.wyg import parse_wyg
from pipeline.ingest.wyg_print import NUMERALS, SKQS, parse_print
from pipeline.ingest.wyg_zhushu import author_line, author_line_names, misprinted_markers, parse_zhushu
from pipeline.model import PUNCTUATION_MARKS, Document, book_of, document_id, juan_of_page

# wyg: the 集釋's dialect (鄭注 / 釋曰 blocks, every small note collation); wyg-print: the WYG
# print grammar itself (indentation, 夾注, attributions); wyg-zhushu: 經 注 音義 疏 inline;
# punctuated: editions that print modern punctuation (TLS, CHANT)
LAYOUTS = ("wyg", "wyg-print", "sbck", "wyg-zhushu", "punctuated")
# editions that print modern punctuation (punctuated.py); a text with no edition named that has
# one of our marks every 50 characters or more is one too (the WYG and SBCK prints have none)
PUNCTUATED_EDITIONS = ("TLS", "CHANT")
PUNCTUATED_SHARE = 0.02
# the 集釋 opens its commentary blocks with 鄭注 / 釋曰 at the head of a line: 74-252 times a juan
# of its 30, never in the other WYG books here (禮記集說, 儀禮述註, 表記集傳, 儀禮釋宮, 儀禮注疏,
# the SBCK 儀禮: 0 in 99 files). 鄭目錄云 is left out: 儀禮述註 opens a chapter with it. One such
# line makes the 集釋's dialect, so that a short cut of a juan (a test fixture, an excerpt) is
# read as the 集釋 too; its front matter (KR1d0030_000) has none and is read by the print grammar.
# (a tab-indented copy too, and a printed line that starts after a `¶` in a copy whose lines were joined)
_MARKER_LINE_RE = re.compile(rf"(?:^|¶)[{INDENT_CHARS}]*(?:鄭注|釋曰)", re.M)
MIN_MARKER_LINES = 1


def detect_layout(props: dict[str, str], text: str) -> str:
    """The layout profile from the file's properties; markup-free text falls back on content."""
    edition = (props.get("WITNESS") or props.get("BASEEDITION") or "").strip().upper()
    if edition in PUNCTUATED_EDITIONS:
        return "punctuated"
    jishi = len(_MARKER_LINE_RE.findall(text)) >= MIN_MARKER_LINES
    if edition in ("WYG", "SKQS"):
        # the 注疏 print names its commentators' notes inline: 注 … 音義(…) / 疏(…)
        zhushu = props.get("TITLE", "").endswith(("注疏", "註疏")) or "音義(" in text or "疏(" in text
        return "wyg-zhushu" if zhushu else "wyg" if jishi else "wyg-print"
    if edition == "SBCK":
        return "sbck"
    if sum(text.count(m) for m in PUNCTUATION_MARKS) >= PUNCTUATED_SHARE * len(text):
        return "punctuated"
    # no properties (markup-free text): commentary markers mean the 集釋 layout
    if "音義(" in text or "疏(" in text:
        return "wyg-zhushu"
    if "鄭注" in text or "釋曰" in text:
        return "wyg"
    # notes in parentheses: the SBCK prints, or a WYG print whose commentary is set indented as well; the
    # SBCK print indents no line (1 of 5,689 text lines of the SBCK 儀禮), the print-grammar books most
    # (0.68-0.95 of theirs): 表記集傳 juan 2 without its markup was read as SBCK, 203 units for 299, its
    # headers and chapter titles run into the 經 (stop 51)
    if "(" in text and _indented_share(text) < MIN_INDENTED_SHARE:
        return "sbck"
    return "wyg-print"


MIN_INDENTED_SHARE = 0.2


def _indented_share(text: str) -> float:
    lines = [ln for ln in text.split("\n") if ln.strip(INDENT_CHARS + "\r")]
    return sum(ln[0] in INDENT_CHARS for ln in lines) / len(lines) if lines else 0.0


# the book's name in a juan's opening header (禮記集説卷一, 表記集傳卷二): the title where no TITLE line gives
# it (markup-free text), by which the print grammar knows the header that closes the juan
_HEADER_TITLE_RE = re.compile(rf"^[\u3000 \t]*(?:{SKQS}[\u3000 \t]*)?(\S{{2,12}}?)[卷巻][{NUMERALS}]+", re.M)


def _title_of_header(text: str) -> str:
    m = _HEADER_TITLE_RE.search(text[:2000])
    return m.group(1) if m else ""


def _not_printed(line, text: str) -> bool:
    """An empty physical line without a `¶` (or with ASCII blanks only, which split_lines drops)."""
    return line.kind == "blank" and line.start == line.end and not text.startswith(LINE_END, line.end)


def _stdin_id(props: dict[str, str], lines) -> str:
    """A document read from standard input has no file name: its id comes from its own markup,
    the first page id (`KR1d0003_WYG_001-1a` -> KR1d0003_001), as the file would be named (where
    the text has no `#+PROPERTY: ID`, Document.book is read from the id), else `#+PROPERTY: ID`,
    else "stdin"."""
    pb = next((line.pb for line in lines if line.pb), None)
    return juan_of_page(pb) or props.get("ID", "").strip() or "stdin"


def _org_headings_as_markup(lines) -> None:
    """An org heading (`* 曲禮上`, `** 卷一`) is the digital editor's, not a printed line: in a print
    layout it is markup like `#+PROPERTY: JUAN`, and its text went into a base unit with its stars
    (stop 47). A punctuated edition reads it as a title (punctuated.py)."""
    for line in lines:
        if line.kind == "text" and heading_length(line.tokens):
            line.kind = "meta"


def is_markup_free(text: str) -> bool:
    return "¶" not in text and "<pb:" not in text and "#+" not in text


def check_markup(path: str | Path, encoding: str = "utf-8") -> None:
    """The source-level checks of `read_document` alone (decoding, lines, notes, entities, page
    breaks, some text): InputError on the first problem. About a third of the cost of reading
    (the layout's reader is what it leaves out), so that a batch can be checked before it runs."""
    path = str(path)
    text = drop_invisible(path, read_text(path, encoding))[0]  # the text read_document reads
    lines = split_lines(path, text)
    one_juan(path, text, lines)
    if not any(line.kind == "text" for line in lines):
        raise InputError(path, None, "no text lines: only headers or page breaks")


def read_document(path: str | Path, layout: str = "auto", encoding: str = "utf-8",
                  base_text: str | Path | None = "auto") -> Document:
    """Read one source file into a Document of units; InputError on anything unreadable.

    `base_text` (注疏 layout only): a plain 經 text, file or folder, to split the 注 that run
    on into the next 經 (see resume.py); "auto": the embedded plain text the book's ID names
    (paths.BASE_TEXT_OF), else the embedded one that holds its 經 (resume.find_base_text), else
    none (with a warning); None: by the markers alone.
    """
    path = str(path)
    text = read_text(path, encoding)
    if path == STDIN:
        path = STDIN_NAME
    text, dropped = drop_invisible(path, text)
    lines = split_lines(path, text)
    one_juan(path, text, lines)
    props = read_properties(lines, text)
    auto = layout == "auto"
    if auto:
        layout = detect_layout(props, text)
    if layout not in LAYOUTS:
        raise InputError(path, None, f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    markup_free = is_markup_free(text)
    if layout != "punctuated":
        if MID_LINE_END_RE.search(text):  # a print's line ends inside a physical line: read its printed lines
            lines = split_lines(path, text, printed_lines=True)
        _org_headings_as_markup(lines)
        if not markup_free:
            fullwidth_notes(path, text, lines)  # (before too_wide: notes read as text make a line wide)
            doubled_blanks(path, text, lines)
            too_wide(path, lines)
            unended_line(path, text, lines)
    if not any(line.kind == "text" for line in lines):
        raise InputError(path, None, "no text lines: only headers or page breaks")
    if layout.startswith("wyg") and not markup_free:
        # Kanripo encodes every printed line of a WYG print, an empty one too, with its `¶` (「¶」,
        # 「　　¶」: 2,033 in the eight WYG books here); a line with nothing at all on it is in none of them — an
        # editor's. Read as an empty printed line (a break), a copy spaced out by a tool came out as other
        # units (stop 50: 表記集傳 juan 1, 1,308 for 342)
        lines = [line for line in lines if not _not_printed(line, text)]
    doc_id = _stdin_id(props, lines) if path == STDIN_NAME else document_id(path)
    book = book_of(props, doc_id)  # the ID line, else the file's name (markup-free text has no ID line)
    named_in_full: tuple[str, ...] = ()  # commentators the print grammar found named in full (王昭禹曰)
    if layout == "wyg":
        units, notes = parse_wyg(lines)
    elif layout == "wyg-print":
        units, notes, named_in_full = _read_print(lines, props.get("TITLE", "") or _title_of_header(text), book)
        units, notes = split_attributions(units, notes, text, Speakers(book, author_of(units), named_in_full))
    elif layout == "wyg-zhushu":
        units, notes = parse_zhushu(path, lines)
    elif layout == "punctuated":
        units, notes = parse_punctuated(path, lines), []
    else:
        units, notes = parse_sbck(lines)
    doc = Document(
        id=doc_id,
        path=path,
        source=text,
        layout=layout + ("-plain" if markup_free else ""),
        properties=props,
        units=units,
        notes=notes,
    )
    doc.warnings = list(dropped)
    if layout == "wyg-zhushu":
        doc.warnings += misprinted_markers(path, text, units)
    jing_text = None  # where the 注疏's plain 經 came from (the evidence says)
    # a classic with its annotator's notes (`漢　鄭𤣥　注`, the SBCK's `士冠禮第一　儀禮　鄭氏注`)
    annotated = annotator_notes(units, book) if layout in ("wyg-print", "sbck") else None
    if layout == "wyg-zhushu":
        base_text, jing_text = _plain_jing_text(base_text, book, units)
        split_paragraphs(doc)  # the print's own cue first: the pointer into the plain text follows those 經 too
        if base_text is not None:
            resume_base(doc, load_base_text(str(base_text)))
        else:
            doc.warnings += unsplit_jing(path, text, doc.units, book)
    # who speaks: the markers of the 集釋 and 注疏 name the commentator (sources.py); after the
    # 經 that runs on in a 注 was split off, so that only commentary carries a source (a reader
    # that named the speaker already, wyg-print's attributions, keeps its own)
    from_line = attribute_markers(doc.units, book, author_line_names(doc.units) if layout == "wyg-zhushu" else None)
    doc.pages, doc.lines = page_index(lines)
    # never silently wrong: the units must agree with the print, unless the user named the layout
    doc.evidence = ev = layout_evidence(doc)
    if jing_text:
        ev["jing_text"] = jing_text
    if from_line:  # who wrote each layer, from the juan's own author line (a book the table has no rows for)
        ev["author_line"] = f"{author_line(doc.units)}: " + ", ".join(f"{k} {v}" for k, v in from_line.items())
    elif annotated:  # the annotator's notes, named from the author line
        ev["author_line"] = f"{annotated[0]}: unattributed commentary 注 {annotated[1]}"
    if named_in_full:  # the names the document opens comments with, read as attributions
        ev["named_in_full"] = "、".join(named_in_full)
    problems = disagreements(ev) if auto else []
    if problems:  # say which layout, if any, reads it as the print shows it
        if zhu_missing(ev):  # every layout reads such a commentary as base text: the shares cannot tell
            hint = "; no layout of this version reads a 注疏 whose commentary has a marker other than 注"
        elif not_chinese(ev) or simplified(ev):  # the script, not the layout: no other reads it better
            hint = ""
        else:
            hint = _agreeing_layouts(path, encoding, base_text, layout, ev)
        raise InputError(doc.path, None, refusal(problems) + hint)
    return doc


def _read_print(lines, title: str, book: str) -> tuple[list, list, tuple[str, ...]]:
    """The print grammar's units and notes, and the commentators the document names in full (`王昭禹曰`,
    speakers.opening_names). Where comments open with such names it reads the document again with them as
    formulas (after a full line too, a comment of theirs is then not run into the one before), and keeps
    that reading where the comments are then attributed; elsewhere (表記集傳's `商應椿曰` opens a
    question and its answer, 儀禮釋宮's `邢昺曰` a citation in 李如圭's own comment) the first."""
    first = Speakers(book, None)
    units, notes, _attributed = parse_print(lines, title, heads=first.line_head)
    named = opening_names(units, first)
    if named:
        again = parse_print(lines, title, heads=Speakers(book, None, named).line_head)
        if again[2]:
            return again[0], again[1], named
    return units, notes, ()


def _plain_jing_text(base_text, book: str, units) -> tuple[Path | None, str]:
    """The plain 經 text a 注疏 is read with, and how it was chosen (for the evidence): the one given;
    for "auto" the embedded text its ID names, else the embedded text that holds its 經 (a 注疏 of
    another book, a file without its ID); none (markers alone) when base_text is None or none does."""
    if base_text is None:
        return None, "none (the markers alone)"
    if base_text != "auto":
        return Path(base_text), f"{base_text} (given)"
    if book in paths.BASE_TEXT_OF and paths.BASE_TEXT_OF[book].exists():
        return paths.BASE_TEXT_OF[book], f"{paths.BASE_TEXT_OF[book].name} (embedded; the book's ID)"
    found = find_base_text(units, [p for p in paths.JING_TEXTS if p.exists()])
    if found is None:
        return None, "none (no embedded text holds its 經)"
    return found[0], f"{found[0].name} (embedded; holds {found[1]:.3f} of its 經's 4-grams)"


def _agreeing_layouts(path: str, encoding: str, base_text, refused: str, evidence: dict) -> str:
    """'; --layout X reads it as the print shows it (…)' for each other layout whose units agree
    with the print as the refused reading measured it (its commentary share within
    check.MAX_SHARE_GAP) and pass every check of their own; or a sentence saying none does. Only
    on the refusal path: each layout is a full read of the file again."""
    if path == STDIN_NAME:
        return ""
    printed = evidence["commentary_share_print"]
    found = []
    for other in LAYOUTS:
        if other == refused:
            continue
        try:
            ev = read_document(path, layout=other, encoding=encoding, base_text=base_text).evidence
        except (InputError, ValueError):
            continue
        if not disagreements(ev) and abs(ev["commentary_share_read"] - printed) <= MAX_SHARE_GAP:
            found.append(f"--layout {other} reads it as the print shows it (commentary {ev['commentary_share_read']:.3f})")
    return "; " + "; ".join(found) if found else "; no other layout reads it as the print shows it either"
