"""Who speaks in a commentary unit: a commentator's name as printed → Unit.source / source_name.

`Unit.source` is the commentator as the print names them (鄭注, 釋曰, 注, 疏, 鄭氏, 藍田吕氏, 愚 …),
with graphic variants of one name made one (鄭目錄 → 鄭目録, so that counts by source do not
split a commentator in two); `Unit.source_name` is the person, only where the print makes it
clear. A printed name means different people in different books (疏 is 賈公彦's in the 周禮 and
儀禮 注疏, 孔穎達's in the 禮記; 釋曰 and 愚 are the book's own author), so the person is looked
up in the speaker table (pipeline/people.py, core: align names whom a gloss is by from it too) under
the book's own Kanripo ID (`#+PROPERTY: ID`), then its category, its division, then "*"; a book in
none, or a file without an ID, gets no source_name: never a guess.

Readers call `people.person(printed, book)`; `attribute_markers` fills the fields from the markers of
the 集釋 and 注疏 layouts.
"""

from __future__ import annotations

from pipeline.model import Unit
from pipeline.people import people_by_fold, person
from pipeline.variants import fold

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


def author_person(printed: str, book: str | None) -> str | None:
    """The person a book's own author line names (`漢鄭氏注　唐陸徳眀音義　賈公彦疏`), only where the
    table knows them: a surname with 氏 through the table's rows for the book (鄭氏 is 鄭玄 in the
    經部; 杜氏, or 孔氏 outside the 禮 classics: None), a full name where it is one of the table's
    people in another graphic form (陸徳眀 → 陸德明, 孔頴達 → 孔穎達). A name the table does not know
    is None, not the printed form: author lines misprint names (周禮注疏 juan 39: 睦徳明)."""
    if printed.endswith("氏"):
        return person(printed, book)
    return people_by_fold().get(fold(printed))


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
