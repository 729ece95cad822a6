"""Who a printed name is: the speaker table (models/speakers/speakers.tsv, built by scripts/speakers_table.py,
each row with the line of the print that states it), read by the stages that name people — ingest (who speaks in
a unit: pipeline/ingest/sources.py, speakers.py) and align (whom a gloss is by). Core: pure, the table only.

A printed name means different people in different books (疏 is 賈公彦's in the 周禮 and 儀禮 注疏, 孔穎達's in the
禮記), so a name is looked up under the book's own Kanripo ID, then its category (KR1d: names that mean one person
in every book of the 禮 classics), then its division (KR1, the 經部), then "*"; a book in none gets no person:
never a guess.
"""

from __future__ import annotations

import csv
import functools

from pipeline import paths
from pipeline.variants import fold

# graphic variants of one printed name (錄 / 録: both spellings open the 集釋's 目録 quotations,
# 12 × 鄭目録云 and 5 × 鄭目錄云 in KR1d0030)
VARIANTS = {"鄭目錄": "鄭目録"}


def normalise(printed: str) -> str:
    """The source of a printed name: graphic variants made one."""
    return VARIANTS.get(printed, printed)


@functools.lru_cache(maxsize=1)
def speaker_table() -> dict[tuple[str, str], str]:
    """(book ID, category such as KR1d, or "*"; form as printed) -> name, from
    models/speakers/speakers.tsv."""
    table: dict[tuple[str, str], str] = {}
    with open(paths.SPEAKERS_TABLE, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader((ln for ln in fh if not ln.startswith("#")), delimiter="\t"):
            table[(row["book"], row["form"])] = row["name"]
    return table


@functools.lru_cache(maxsize=1)
def _folded_table() -> dict[tuple[str, str], str]:
    """The table by variant-folded form (山陰陸氏 and 山隂陸氏 one key); a folded form that two rows
    of one book give different names is left out."""
    folded: dict[tuple[str, str], str | None] = {}
    for (book, form), name in speaker_table().items():
        key = (book, fold(form))
        folded[key] = name if folded.get(key, name) == name else None
    return {key: name for key, name in folded.items() if name is not None}


def book_keys(book: str) -> tuple[str, str, str, str]:
    """The table's keys a book's names are looked up under, first to last: its ID, its category (KR1d), its
    division (KR1), any book ("*")."""
    return (book, book[:4], book[:3], "*")


def person(printed: str, book: str | None) -> str | None:
    """The person a printed name means in a book (Kanripo ID such as KR1d0030), or None when
    neither the book's rows, its category's (KR1d), its division's (KR1) nor the rows for any book
    say. A name printed in another graphic form of a row's characters is that row's (禮記集說 prints
    陸佃 as 山陰陸氏 twice, as 山隂陸氏, its 名氏 list's form, 8 times)."""
    source = normalise(printed)
    if not book:
        return None
    table = speaker_table()
    keys = book_keys(book.strip())
    for key in keys:
        if (key, source) in table:
            return table[(key, source)]
    folded, source = _folded_table(), fold(source)
    for key in keys:
        if (key, source) in folded:
            return folded[(key, source)]
    return None


@functools.lru_cache(maxsize=1)
def people_by_fold() -> dict[str, str]:
    """The table's people by their variant-folded name (one spelling a person: speakers_table.py)."""
    return {fold(name): name for name in speaker_table().values()}


# the layers of a 注疏, by the marker its print gives each (the table's rows for the 注疏 headers: 注 → 鄭玄, 疏 → 賈公彦 …)
LAYERS = ("注", "音義", "疏")


@functools.lru_cache(maxsize=1)
def layer_authors() -> dict[str, str]:
    """Person -> the layer of a 注疏 (注, 音義, 疏) whose author a 注疏's header names them (the rows whose form is the
    layer's own marker): 鄭玄 → 注, 陸德明 → 音義, 賈公彦 and 孔穎達 → 疏."""
    out: dict[str, str] = {}
    for (_book, form), name in sorted(speaker_table().items()):
        if form in LAYERS:
            out.setdefault(name, form)
    return out
