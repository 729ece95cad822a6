"""Data for the segmenter: punctuation records (gold / punct-data JSONL) and extra training text.

A record is a dict {"id", "kind", "text", "marks": {k: mark}} (+ "split", "aligned" in the
punct data). `marks` keys are ints here (the JSON has strings). Extra punctuated text (the TLS
禮記 and 周禮 in data/extra/) is turned into records of kind "ext".
"""

from __future__ import annotations

from pathlib import Path

from pipeline import paths
from pipeline.errors import InputError
from pipeline.jsonlines import read_jsonl
from pipeline.model import PUNCTUATION_MARKS

MARKS = PUNCTUATION_MARKS  # "，、：；。？！"
LABELS = ("",) + tuple(MARKS)  # label 0 = no mark after this character
LABEL_OF = {m: i for i, m in enumerate(LABELS)}
KINDS = ("base", "note", "ext")
KIND_OF = {"base": 0, "note": 1, "commentary": 1, "ext": 2}

PUNCT_FILE = paths.PUNCT_FILE
EXTRA_DIR = paths.EXTRA_DIR


def read_records(path: str | Path, split: str | None = None) -> list[dict]:
    """Read a gold or punct-data JSONL file. Malformed lines raise InputError(path, line).

    Accepts both shapes (the punct data adds "split" and "aligned"). With `split`, keeps only
    the records whose "split" equals it (records without a split are kept only if split is None).
    """
    path = str(path)
    out = []
    for lineno, obj in read_jsonl(path):
        rec = _check_record(obj, path, lineno)
        if split is not None and rec.get("split") != split:
            continue
        out.append(rec)
    return out


def _check_record(obj, path: str, lineno: int) -> dict:
    if not isinstance(obj, dict):
        raise InputError(path, lineno, "a record must be a JSON object")
    text = obj.get("text")
    if not isinstance(text, str):
        raise InputError(path, lineno, 'missing or non-string "text"')
    kind = obj.get("kind", "base")
    if kind not in ("base", "note", "commentary"):
        raise InputError(path, lineno, f'"kind" must be "base" or "note", not {kind!r}')
    marks_in = obj.get("marks", {})
    if not isinstance(marks_in, dict):
        raise InputError(path, lineno, '"marks" must be an object {k: mark}')
    marks: dict[int, str] = {}
    for key, mark in marks_in.items():
        try:
            k = int(key)
        except (TypeError, ValueError):
            raise InputError(path, lineno, f"mark key {key!r} is not an integer") from None
        if not isinstance(mark, str) or mark not in MARKS:
            raise InputError(path, lineno, f"unknown mark {mark!r} at {key}")
        if text and not 0 <= k <= len(text):  # empty texts are skipped by the scorer anyway
            raise InputError(path, lineno, f"mark position {k} outside 1..{len(text)}")
        marks[k] = mark
    rec = dict(obj)
    rec["kind"] = "note" if kind == "commentary" else kind
    rec["marks"] = marks
    return rec


def labels_of(text: str, marks: dict[int, str]) -> list[int]:
    """Per character i (0-based): the label of the mark after it (k = i + 1)."""
    return [LABEL_OF.get(marks.get(i + 1, ""), 0) for i in range(len(text))]


# --- extra punctuated text (TLS 禮記 / 周禮, one clause a line) ---------------------------


def read_extra(extra_dir: str | Path = EXTRA_DIR) -> list[dict]:
    """All records of data/extra/*.punct.jsonl (built by `build_extra`)."""
    out = []
    for path in sorted(Path(extra_dir).glob("*.punct.jsonl")):
        out.extend(read_records(path))
    for r in out:
        r["kind"] = "ext"
    return out


