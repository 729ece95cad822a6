"""Ingest: a Kanripo mandoku file (or the same text without markup) into a Document.

`read_document` is the one entry point; each layout profile has its own module.
"""

from __future__ import annotations

import re
from pathlib import Path

from pipeline import paths
from pipeline.errors import InputError
from pipeline.ingest.resume import load_base_text, resume_base
from pipeline.ingest.sbck import parse_sbck
from pipeline.ingest.source import STDIN, STDIN_NAME, read_properties, read_text, split_lines
from pipeline.ingest.wyg import parse_wyg
from pipeline.ingest.wyg_zhushu import misprinted_markers, parse_zhushu
from pipeline.model import Document

LAYOUTS = ("wyg", "sbck", "wyg-zhushu")


def detect_layout(props: dict[str, str], text: str) -> str:
    """The layout profile from the file's properties; markup-free text falls back on content."""
    edition = (props.get("WITNESS") or props.get("BASEEDITION") or "").strip().upper()
    if edition in ("WYG", "SKQS"):
        # the 注疏 print names its commentators' notes inline: 注 … 音義(…) / 疏(…)
        zhushu = props.get("TITLE", "").endswith(("注疏", "註疏")) or "音義(" in text or "疏(" in text
        return "wyg-zhushu" if zhushu else "wyg"
    if edition == "SBCK":
        return "sbck"
    # no properties (markup-free text): commentary markers mean the 集釋 layout
    if "音義(" in text or "疏(" in text:
        return "wyg-zhushu"
    return "wyg" if ("鄭注" in text or "釋曰" in text) else "sbck" if "(" in text else "wyg"


def _stdin_id(props: dict[str, str], lines) -> str:
    """A document read from standard input has no file name: its id comes from its own markup,
    the first page id (`KR1d0003_WYG_001-1a` -> KR1d0003_001), as the file would be named (the
    segmenter reads the book from the id), else `#+PROPERTY: ID`, else "stdin"."""
    pb = next((line.pb for line in lines if line.pb), None)
    m = re.match(r"([A-Za-z0-9]+)_[A-Za-z0-9]+_(\d+)-", pb or "")
    if m:
        return f"{m.group(1)}_{m.group(2)}"
    return props.get("ID", "").strip() or "stdin"


def is_markup_free(text: str) -> bool:
    return "¶" not in text and "<pb:" not in text and "#+" not in text


def read_document(path: str | Path, layout: str = "auto", encoding: str = "utf-8",
                  base_text: str | Path | None = "auto") -> Document:
    """Read one source file into a Document of units; InputError on anything unreadable.

    `base_text` (注疏 layout only): a plain 經 text, file or folder, to split the 注 that run
    on into the next 經 (see resume.py); "auto": the embedded TLS text of the book when there is
    one (paths.BASE_TEXT_OF); None: by the markers alone.
    """
    path = str(path)
    text = read_text(path, encoding)
    if path == STDIN:
        path = STDIN_NAME
    lines = split_lines(path, text)
    props = read_properties(lines, text)
    if layout == "auto":
        layout = detect_layout(props, text)
    if layout not in LAYOUTS:
        raise InputError(path, None, f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    if not any(line.kind == "text" for line in lines):
        raise InputError(path, None, "no text lines: only headers or page breaks")
    if layout == "wyg":
        units, notes = parse_wyg(lines)
    elif layout == "wyg-zhushu":
        units, notes = parse_zhushu(path, lines), []
    else:
        units, notes = parse_sbck(lines)
    doc = Document(
        id=_stdin_id(props, lines) if path == STDIN_NAME else Path(path).stem,
        path=path,
        source=text,
        layout=layout + ("-plain" if is_markup_free(text) else ""),
        properties=props,
        units=units,
        notes=notes,
    )
    if layout == "wyg-zhushu":
        doc.warnings = misprinted_markers(path, text, units)
    if base_text == "auto":
        base_text = paths.BASE_TEXT_OF.get(props.get("ID", "").strip())
    if base_text is not None and layout == "wyg-zhushu" and Path(base_text).exists():
        resume_base(doc, load_base_text(str(base_text)))
    doc.pages = [(line.start, line.pb) for line in lines if line.kind == "pb"]
    # markup-free text has no page ids: its provenance is the physical line of the file
    doc.lines = [(line.start, line.pb or "", line.printed if line.pb else line.number)
                 for line in lines if line.kind == "text"]
    return doc
