"""Who speaks in a commentary unit: a commentator's name as printed → Unit.source / source_name.

`Unit.source` is the commentator as the print names them (鄭注, 釋曰, 注, 疏, 鄭氏, 藍田吕氏, 愚 …),
with graphic variants of one name made one (鄭目錄 → 鄭目録, so that counts by source do not
split a commentator in two); `Unit.source_name` is the person, only where the print makes it
clear. A printed name means different people in different books (疏 is 賈公彦's in the 周禮 and
儀禮 注疏, 孔穎達's in the 禮記; 釋曰 and 愚 are the book's own author), so the person is looked
up in the book's own table (by its Kanripo ID, `#+PROPERTY: ID`), then in the table of names
that mean one person in every book of the 禮 classics (Kanripo KR1d); a book in neither, or a
file without an ID, gets no source_name: never a guess.

Every entry says where the print states it (file and line of the data/ or ../shared/ corpus).
Readers call `person(printed, book)`; `attribute_markers` fills the fields from the markers of
the 集釋 and 注疏 layouts.
"""

from __future__ import annotations

from pipeline.model import Unit

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

# the Qing editors of the 考證 at the end of each 注疏 juan: the entries are signed `(臣照/)按`
# and the like (KR1d0003_001.txt:500), no one author
QING_EDITORS = "考證諸臣"

# printed name → person, in every book of the 禮 classics (Kanripo KR1d)
CATEGORY_PERSONS: dict[str, dict[str, str]] = {
    "KR1d": {
        # 鄭玄 (康成): the 注疏 juan headers name him 漢鄭氏 (`漢鄭氏注`, KR1d0003_001.txt:10,
        # KR1d0053_001.txt:10, KR1d0028_001.txt:10); the 集釋 prints his 注 as 鄭注 and quotes
        # his 三禮目録 as 鄭目録云 (KR1d0030_001.txt:11); 儀禮釋宮's 提要 `鄭康成註` (KR1d0031_000.txt:12)
        "鄭注": "鄭玄",
        "鄭目録": "鄭玄",
        "鄭氏": "鄭玄",
        "鄭康成": "鄭玄",
        "考證": QING_EDITORS,
    },
}

# printed name → person, in one book (by Kanripo ID)
BOOK_PERSONS: dict[str, dict[str, str]] = {
    # 周禮注疏: `漢鄭氏注　唐陸德明音義　賈公彥疏` (KR1d0003_001.txt:10); 彥 and 彦 are one name
    "KR1d0003": {"注": "鄭玄", "音義": "陸德明", "疏": "賈公彦"},
    # 儀禮注疏: `漢鄭氏注　唐陸徳明音義　賈公彦疏` (../shared/corpus/KR1d0028/KR1d0028_001.txt:10)
    "KR1d0028": {"注": "鄭玄", "音義": "陸德明", "疏": "賈公彦"},
    # 禮記註疏: `漢鄭氏注　唐陸德明音義　孔穎達疏` (KR1d0053_001.txt:10)
    "KR1d0053": {"注": "鄭玄", "音義": "陸德明", "疏": "孔穎達"},
    # 儀禮集釋: `儀禮集釋卷一　　　　宋　李如圭　撰` (KR1d0030_001.txt:9); 釋曰 opens the author's
    # own explanation
    "KR1d0030": {"釋曰": "李如圭"},
    # 禮記集說: `禮記集説卷一　　　　　　宋　衛湜　撰` (../shared/corpus/KR1d0057/KR1d0057_001.txt:9);
    # its 孔氏 is 孔穎達 (the 禮記正義 it quotes), 藍田吕氏 吕大臨 (his 禮記解)
    "KR1d0057": {"孔氏": "孔穎達", "藍田吕氏": "吕大臨", "愚": "衛湜"},
    # 儀禮述註: `安溪　李光坡　撰` (../shared/corpus/KR1d0040/KR1d0040_001.txt:10); 註曰 quotes 鄭注
    # (KR1d0040_001.txt:163 `註曰缺讀如有頍者弁之頍…` is 鄭玄's note on 士冠禮)
    "KR1d0040": {"註": "鄭玄", "愚": "李光坡"},
    # 表記集傳: `明　黄道周　撰` (../shared/corpus/KR1d0063/KR1d0063_001.txt:10)
    "KR1d0063": {"愚": "黄道周"},
}


def normalise(printed: str) -> str:
    """The source of a printed name: graphic variants made one."""
    return VARIANTS.get(printed, printed)


def person(printed: str, book: str | None) -> str | None:
    """The person a printed name means in a book (Kanripo ID such as KR1d0030), or None when
    neither the book's table nor its category's says."""
    source = normalise(printed)
    if not book:
        return None
    book = book.strip()
    if source in BOOK_PERSONS.get(book, {}):
        return BOOK_PERSONS[book][source]
    return CATEGORY_PERSONS.get(book[:4], {}).get(source)


def attribute_markers(units: list[Unit], book: str | None) -> None:
    """Fill source / source_name of the commentary and report units from their markers (the
    集釋's 鄭注 / 釋曰 / 鄭目録云, the 注疏's 注 / 音義 / 疏 / 考證); a source a reader already set
    (an attribution it read in the text, named through `person` by speakers.py) is kept."""
    for unit in units:
        if unit.kind not in ("commentary", "report") or unit.source is not None:
            continue
        source = MARKER_SOURCE.get(unit.marker or "")
        if source is None:
            continue
        unit.source = source
        unit.source_name = person(source, book)
