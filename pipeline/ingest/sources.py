"""Who speaks in a commentary unit: a commentator's name as printed → Unit.source / source_name.

`Unit.source` is the commentator as the print names them (鄭注, 釋曰, 注, 疏, 鄭氏, 藍田吕氏, 愚 …),
with graphic variants of one name made one (鄭目錄 → 鄭目録, so that counts by source do not
split a commentator in two); `Unit.source_name` is the person, only where the print makes it
clear. A printed name means different people in different books (疏 is 賈公彦's in the 周禮 and
儀禮 注疏, 孔穎達's in the 禮記; 釋曰 and 愚 are the book's own author), so the person is looked
up in models/speakers/speakers.tsv (built by scripts/speakers_table.py) under the book's own
Kanripo ID (`#+PROPERTY: ID`), then its category (KR1d: names that mean one person in every
book of the 禮 classics), then its division (KR1, the 經部: 鄭氏 is 鄭玄 there), then "*"; a book
in none, or a file without an ID, gets no source_name: never a guess.

Every row says where the print states it (file and line of the data/ or ../shared/ corpus).
Readers call `person(printed, book)`; `attribute_markers` fills the fields from the markers of
the 集釋 and 注疏 layouts.
"""

from __future__ import annotations

import csv
import functools

from pipeline import paths
from pipeline.model import Unit
from pipeline.variants import fold

# graphic variants of one printed name (錄 / 録: both spellings open the 集釋's 目録 quotations,
# 12 × 鄭目録云 and 5 × 鄭目錄云 in KR1d0030)
VARIANTS = {"鄭目錄": "鄭目録"}

# the marker of a unit (as the readers store it) → the source it names
MARKER_SOURCE = {
    # 儀禮集釋 (wyg.py)
    "鄭注": "鄭注",
    "釋曰": "釋曰",
    "鄭目録云": "鄭目録",
    "鄭目錄云": "鄭目録",
    # the 注疏 (wyg_zhushu.py); 小注 (a small note with no marker) names nobody
    "注": "注",
    "音義": "音義",
    "疏": "疏",
    "考證": "考證",
}


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


def person(printed: str, book: str | None) -> str | None:
    """The person a printed name means in a book (Kanripo ID such as KR1d0030), or None when
    neither the book's rows, its category's (KR1d), its division's (KR1) nor the rows for any book
    say. A name printed in another graphic form of a row's characters is that row's (禮記集說 prints
    陸佃 as 山陰陸氏 twice, as 山隂陸氏, its 名氏 list's form, 8 times)."""
    source = normalise(printed)
    if not book:
        return None
    book = book.strip()
    table = speaker_table()
    keys = (book, book[:4], book[:3], "*")
    for key in keys:
        if (key, source) in table:
            return table[(key, source)]
    folded, source = _folded_table(), fold(source)
    for key in keys:
        if (key, source) in folded:
            return folded[(key, source)]
    return None


def author_person(printed: str, book: str | None) -> str | None:
    """The person a book's own author line names (`漢鄭氏注　唐陸徳眀音義　賈公彦疏`), only where the
    table knows them: a surname with 氏 through the table's rows for the book (鄭氏 is 鄭玄 in the
    經部; 杜氏, or 孔氏 outside the 禮 classics: None), a full name where it is one of the table's
    people in another graphic form (陸徳眀 → 陸德明, 孔頴達 → 孔穎達). A name the table does not know
    is None, not the printed form: author lines misprint names (周禮注疏 juan 39: 睦徳明)."""
    if printed.endswith("氏"):
        return person(printed, book)
    return people_by_fold().get(fold(printed))


@functools.lru_cache(maxsize=1)
def people_by_fold() -> dict[str, str]:
    """The table's people by their variant-folded name (one spelling a person: speakers_table.py)."""
    return {fold(name): name for name in speaker_table().values()}


# the abstract the 四庫 editors set before every book of the collection (書前提要): it opens 臣等謹按 (or 謹案)
# and ends 恭校上 (乾隆四十三年三月恭校上), whatever layout reads it and however many units it falls into
TIYAO_OPENING, TIYAO_CLOSING = ("臣等謹按", "臣等謹案"), "恭校上"


def attribute_markers(units: list[Unit], book: str | None, authors: dict[str, str] | None = None) -> dict[str, str]:
    """Fill source / source_name of the commentary and report units from their markers (the
    集釋's 鄭注 / 釋曰 / 鄭目録云, the 注疏's 注 / 音義 / 疏 / 考證) and of the 四庫 editors' 提要 (by its
    opening 臣等謹按 / 謹案, through the unit that ends 恭校上: 提要 → 四庫館臣); a source a reader already set
    (an attribution it read in the text, named through `person` by speakers.py) is kept. Where
    the table has no row for the book, `authors` (marker → name as the file's own author line
    prints it, wyg_zhushu.author_line_names) names the person: a 注疏 of another classic.
    Returns how each source the author line was asked for was named (for the evidence):
    {"音義": "陸德明 (printed 陸徳明)", "注": "none (printed 杜氏)"}."""
    authors = authors or {}
    from_line: dict[str, str] = {}
    in_tiyao = False
    for unit in units:
        if unit.kind not in ("commentary", "report") or unit.source is not None:
            in_tiyao = False  # (a 提要 that does not end 恭校上 ends at its signature, a header)
            continue
        # the 提要: the 四庫 editors' (a commentary unit no marker names, from its opening to its closing)
        in_tiyao = unit.marker is None and (in_tiyao or unit.text.startswith(TIYAO_OPENING))
        if in_tiyao:
            unit.source, unit.source_name = "提要", person("提要", book)
            in_tiyao = not unit.text.endswith(TIYAO_CLOSING)
            continue
        source = MARKER_SOURCE.get(unit.marker or "")
        if source is None:
            continue
        unit.source = source
        unit.source_name = person(source, book)
        if unit.source_name is None and source in authors:
            unit.source_name = author_person(authors[source], book)
            from_line[source] = f"{unit.source_name or 'none'} (printed {authors[source]})"
    return dict(sorted(from_line.items()))
