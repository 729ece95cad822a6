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
# Kind ids seen by the model. The first three are today's (base / note / ext); punctuation v2
# adds the 注疏 markers: 經 = base, 注 = note (the 集釋's 鄭注 is a 注 too), then 疏, 音義, 小注.
# A model trained with three kinds (config arch n_kinds = 3) reads 疏 / 音義 / 小注 as note.
KIND_OF = {"base": 0, "經": 0, "note": 1, "commentary": 1, "注": 1, "ext": 2, "疏": 3, "音義": 4, "小注": 5}
N_KINDS = 6
# The kind of each marker: the 注疏 data's `marker` field and the 集釋's commentary markers.
MARKER_KIND = {"": "base", "注": "注", "疏": "疏", "音義": "音義", "小注": "小注",
               "鄭注": "注", "鄭目録云": "注", "鄭目錄云": "注", "釋曰": "疏"}
# Book ids (a book embedding): the 集釋 (and any text not listed: the pipeline's corpus), the two
# 注疏, the TLS extra text.
BOOK_OF = {"KR1d0030": 0, "KR1d0003": 1, "KR1d0053": 2, "KR1d0052": 3, "KR1d0001": 3, "ext": 3}
N_BOOKS = 4
PUNCT_FILES_V2 = ("KR1d0003.punct.jsonl", "KR1d0053.punct.jsonl")


def record_kind(rec: dict) -> str:
    """The model kind of a record: its `marker` mapped (經 → base, 注, 疏, 音義, 小注) when it has one,
    else its `kind` (base / note / ext)."""
    m = rec.get("marker")
    if m is not None and m in MARKER_KIND:
        return MARKER_KIND[m]
    return rec.get("kind", "base")


def book_of(unit_id: str | None) -> str:
    """The book part of a record or document id ("KR1d0003_010#5" -> "KR1d0003")."""
    return (unit_id or "").split("_")[0].split("#")[0]


def kind_id(kind: str, n_kinds: int = N_KINDS) -> int:
    k = KIND_OF.get(kind, 1)
    return 1 if k >= n_kinds else k


def book_id(book: str | None) -> int:
    return BOOK_OF.get(book or "", 0)


# A book the model does not know is read as the 集釋 (book 0) — but the 集釋 has no 疏, 音義 or 小注: those kinds
# were only ever trained under the two 注疏's embeddings, so in a book of unknown id (a 注疏 of another classic)
# they are read under the mean of the two (stop 82: the tune juan's 疏 read so, as if their book were unknown,
# +1.4 / +0.7 seg F1 over the 集釋's embedding; docs/segmentation.md).
ZHUSHU_BOOKS = (1, 2)
ZHUSHU_ONLY_KINDS = frozenset(("疏", "音義", "小注"))
MEAN_OF_ZHUSHU = -1  # the book index that stands for that mean (bilstm.Tagger)


def book_index(book: str | None, kind: str) -> int:
    """The book embedding a unit is read under: its book's; for a book not in BOOK_OF, the 集釋's, or the
    mean of the 注疏's (MEAN_OF_ZHUSHU) for a kind only the 注疏 have. None (or "") is the 集釋 itself."""
    if not book or book in BOOK_OF:
        return book_id(book)
    return MEAN_OF_ZHUSHU if kind in ZHUSHU_ONLY_KINDS else 0


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


