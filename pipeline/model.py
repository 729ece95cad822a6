"""The document model: plain dataclasses, standoff annotations over one clean string per unit.

Every stage is a function Document -> Document that fills in its own fields; nothing here
knows how a stage works. Offsets are Python string indices (code points): an `&KRnnnn;`
entity is one character (U+F0000+nnnn) in `Unit.text`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

# commentary: a unit of any commentary, its marker says which (鄭注 / 釋曰 / 鄭目録云 of the 集釋;
# 注 / 音義 / 疏 / 小注 of the 注疏); report: a juan's 考證 (the Qing editors' collation report)
UnitKind = Literal["header", "title", "base", "commentary", "report"]

# Commentary markers of the WYG 集釋 layout, longest first so that matching is greedy.
MARKERS: tuple[str, ...] = ("鄭目録云", "鄭目錄云", "鄭注", "釋曰")
SENTENCE_FINAL = frozenset("。？！")
PUNCTUATION_MARKS = "，、：；。？！"
EDITION = "edition"  # Unit.marks_source of marks an edition prints itself (the punctuated layout)


@dataclass
class Page:
    """A printed line of the source edition: where a text character was printed."""

    pb: str  # page id without the brackets, e.g. "KR1d0030_WYG_010-1a"
    line: int  # printed line on that page, 1-based


@dataclass
class Sentence:
    """A stretch of unit text ended by a restored mark (or by the end of the unit)."""

    start: int
    end: int
    mark: str | None  # the mark restored after `end`, None at an unpunctuated unit end


# The entity labels the tagger produces (models/tagger/model.crfsuite knows B-/I- of these four;
# ROLE, OBJECT and PLACE are scored, MUSIC is not: docs/entities.md)
ENTITY_LABELS = ("ROLE", "OBJECT", "PLACE", "MUSIC")


@dataclass
class Entity:
    start: int
    end: int
    label: str  # one of ENTITY_LABELS
    text: str
    source: str = "model"  # model | lexicon | rule


# The gloss types of guidelines/glosses.md, in the guideline's order.
GLOSS_TYPES = ("definition", "equivalence", "reference", "explanation", "sound", "reading", "emendation", "variant")


@dataclass
class Gloss:
    """One statement of a commentary unit about a lemma of its base unit."""

    note_start: int  # span of the gloss in the commentary unit's text
    note_end: int
    text: str
    type: str  # definition, equivalence, reference, explanation, sound, reading, emendation, variant
    lemma: str
    base_seq: int | None  # seq of the base unit the lemma is looked up in
    lemma_start: int | None  # span in that base unit's text; None when unanchored
    lemma_end: int | None
    confidence: float = 1.0
    reason: str | None = None  # why a gloss stayed unanchored
    # who the note says the statement is by, as printed: an earlier commentator the 注 quotes or whose reading it
    # gives (鄭司農云 …, 杜子春讀X為Y), 或 (someone), 𤣥 (鄭玄's own 𤣥謂 after them); None where it names nobody
    # (align.grammar.quoted_speaker)
    said_by: str | None = None
    said_by_name: str | None = None  # the person, where the speaker table knows the name in the book (鄭司農: 鄭衆)


# the reason of a gloss whose anchor the align stage withdrew because chance explains it (its
# juan's heads of that length stand as often in other passages): "<CHANCE_REASON>: … <CHANCE_END>"
CHANCE_REASON = "anchor withdrawn"
CHANCE_END = "chance, not a gloss of the passage"


def withdrawn_as_chance(reason: str | None) -> bool:
    """Does a gloss's reason say the align stage withdrew its anchor as chance?"""
    return (reason or "").startswith(CHANCE_REASON)


@dataclass
class Sound:
    """One reading of a head."""

    kind: str  # "fanqie" | "homophone" | "ruzi" | "word" (近附近之近: 近 as in 附近)
    start: int  # span of the formula in the note text
    end: int
    upper: str | None = None  # 反切 upper (initial) and lower (rhyme) characters
    lower: str | None = None
    homophone: str | None = None  # 音X
    authority: tuple[str, ...] = ()  # 徐, 劉, 一 (一音), 又 … as printed before the formula


@dataclass
class Reading:
    """One entry of an 音義 note: a head, its reading, alternatives, scope, anchor."""

    head: str
    head_start: int  # span of the head in the note text
    head_end: int
    sounds: list[Sound] = field(default_factory=list)  # the first is the reading, then alternatives
    scope: str | None = None  # 下同, 注同, 下及注同 …
    # where the head stands: the seq of the unit (經, 注 or title) it glosses, and the span in
    # that unit's text (parse_note alone, given bare target strings, gives the index into them)
    target: int | None = None
    anchor_start: int | None = None
    anchor_end: int | None = None

    @property
    def reading(self) -> Sound:
        return self.sounds[0]

    @property
    def alternatives(self) -> list[Sound]:
        return self.sounds[1:]


@dataclass
class CollationNote:
    """A `(a/b)` small note of the WYG layout: an editor's collation remark (案…)."""

    raw: str  # the note as printed: columns in reading order, joined, without ( / )
    text: str  # the same with entities decoded, as in Unit.text
    start: int  # raw extent in the source string, first "(" to last ")"
    end: int
    unit_seq: int  # the unit it stands in
    offset: int  # text offset in that unit it follows (characters of unit text before it)


@dataclass
class Word:
    """A node of a dependency tree over one restored sentence (the parse stage).

    `start`/`end` index the unit text; a restored punctuation mark is a word of its own with
    start == end (it stands after the start-th character) and `form` = the mark. `id` is the
    1-based position in the sentence's tree, `head` the id of the governing word (0 = root).
    `form` is the NFC form of the span (a CJK compatibility ideograph becomes its unified
    character; a Kanripo character stays the private-use character).
    """

    sentence: int  # index into Unit.sentences (0 for an unsegmented unit)
    id: int
    start: int
    end: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int
    deprel: str


@dataclass
class Unit:
    seq: int  # position in the document, 0-based, counted over all units
    kind: UnitKind
    marker: str | None
    text: str
    start: int  # raw extent in Document.source, marker and notes included
    end: int
    offsets: list[int] = field(default_factory=list)  # source index of each text character
    # who speaks in a commentary unit: `source` as the print names it (鄭注, 疏, 鄭氏, 藍田吕氏, 愚 …),
    # `source_name` the person where the text makes it clear (鄭玄, 孔穎達, 賈公彦, 陸德明 …), else None.
    # One field for the 集釋's 鄭注 / 釋曰, the 注疏's 注 / 疏 / 音義 and the attributions
    # (鄭氏曰, 朱子曰, 愚按) that split the commentary of other WYG books into units.
    source: str | None = None
    source_name: str | None = None
    # punctuation the edition itself prints (TLS texts): read out of `text` into `marks` at ingest,
    # and the segmenter leaves such a unit alone ("edition"); None when zhushu restores them.
    marks_source: str | None = None
    # what such an edition prints between characters, exactly as printed, k -> the run after the
    # k-th character (k = 0: before the first): its marks (also in `marks`), the quotation and
    # book-title brackets 「」『』《》〈〉 our mark alphabet lacks, editorial （）, paragraph numbers
    # (`1.1`); empty for the other layouts. `Unit.printed()` rebuilds the edition's text.
    signs: dict[int, str] = field(default_factory=dict)
    # filled by later stages
    marks: dict[int, str] = field(default_factory=dict)  # k -> mark after the k-th char
    # the segmenter's own marks (its threshold and final_threshold, no prior's breaks or finals)
    # where a prior read the unit with its passage and changed them (else None): what the 注 gloss
    # reader reads (Segmenter.predict_both); `marks` are what every export publishes
    model_marks: dict[int, str] | None = None
    sentences: list[Sentence] = field(default_factory=list)
    clauses: list[Sentence] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    glosses: list[Gloss] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)  # of an 音義 unit
    words: list[Word] = field(default_factory=list)  # the parse stage: trees of the sentences, in order

    def printed(self) -> str:
        """The unit text with the edition's signs re-inserted, as the edition prints it."""
        return self.signs.get(0, "") + "".join(ch + self.signs.get(i + 1, "") for i, ch in enumerate(self.text))

    def punctuated(self) -> str:
        """The unit text with its restored marks inserted."""
        out = []
        for i, ch in enumerate(self.text):
            out.append(ch)
            mark = self.marks.get(i + 1)
            if mark:
                out.append(mark)
        return "".join(out)


def document_id(path: str) -> str:
    """A document's id: its file's stem, a whitespace character as `_` — the id goes into CoNLL-U's
    sent_id and MISC and into TEI's xml:id, none of which may hold a space (`my juan.txt` made an
    invalid CoNLL-U file before stop 48)."""
    return re.sub(r"\s", "_", PurePath(path).stem)


def juan_of_page(pb: str | None) -> str | None:
    """The Kanripo juan a page id names (`KR1d0003_WYG_010-1a` -> KR1d0003_010), None if it names none."""
    m = re.match(r"([A-Za-z0-9]+)_[A-Za-z0-9]+_(\d+)-", pb or "")
    return f"{m.group(1)}_{m.group(2)}" if m else None


def book_of(properties: dict[str, str], doc_id: str) -> str:
    """Document.book of a file with these properties and this id (readers ask it before the Document is made)."""
    return properties.get("ID", "").strip() or doc_id.split("_")[0]


@dataclass
class Document:
    id: str  # the file's stem, e.g. "KR1d0030_010"
    path: str
    source: str  # the whole file as read (decoded), the reference for every raw extent
    layout: str  # "wyg" | "sbck" | "plain-wyg" ...
    properties: dict[str, str] = field(default_factory=dict)
    units: list[Unit] = field(default_factory=list)
    notes: list[CollationNote] = field(default_factory=list)
    # page breaks: (source index of the "<pb:" tag, page id); line starts: source index of
    # each printed line's first character, with its page and line number
    pages: list[tuple[int, str]] = field(default_factory=list)
    lines: list[tuple[int, str, int]] = field(default_factory=list)
    # what ingest read beside what the print shows (ingest/check.py): the dataset card lists it
    evidence: dict[str, float | int | str] = field(default_factory=dict)
    # what ingest warns of ("FILE:LINE: message"; the dataset card lists them): a marker the print seems
    # to have got wrong, read as printed (KR1d0028_010: 疏 printed for 注); a 注疏 read without a plain 經
    # text, its run-on 經 left in the 注; characters no print has, dropped (ingest.source.drop_invisible)
    warnings: list[str] = field(default_factory=list)

    @property
    def book(self) -> str:
        """The Kanripo id of the book (KR1d0003): the file's own `#+PROPERTY: ID` line, else the file
        name up to its first `_` (KR1d0003_012). The id, not the name the file has on disk, says what
        the models know of the book: a juan saved as `zhouli_12.txt` is still the 周禮注疏."""
        return book_of(self.properties, self.id)

    @property
    def juan_id(self) -> str:
        """The Kanripo juan the file holds (KR1d0003_010), from its first page break
        (`<pb:KR1d0003_WYG_010-1a>`), else the file's stem: what the dev split names, whatever the
        file is called on disk (every embedded and shared file's page breaks agree with its name)."""
        return juan_of_page(self.pages[0][1] if self.pages else None) or self.id

    def unit_id(self, unit: Unit) -> str:
        return f"{self.id}#{unit.seq}"

    def base_before(self, unit: Unit) -> Unit | None:
        """The base unit a commentary unit comments on: the nearest base unit before it."""
        for prev in reversed(self.units[: unit.seq]):
            if prev.kind == "base":
                return prev
        return None

    def page_of(self, source_index: int) -> Page | None:
        """The printed page and line holding a source index (None before the first page)."""
        i = bisect_right(self.lines, (source_index, "\U0010ffff", 1 << 30)) - 1
        if i < 0:
            return None
        _, pb, line = self.lines[i]
        return Page(pb=pb, line=line)

    def text_page(self, unit: Unit, offset: int) -> Page | None:
        """Page provenance of a text offset of a unit."""
        if not unit.offsets:
            return self.page_of(unit.start)
        offset = min(max(offset, 0), len(unit.offsets) - 1)
        return self.page_of(unit.offsets[offset])


def spans_from_marks(n: int, marks: dict[int, str], final_only: bool) -> list[Sentence]:
    """Cut a text of n characters at its marks: sentences (final_only) or clauses."""
    spans, start = [], 0
    for k in sorted(marks):
        mark = marks[k]
        if final_only and mark not in SENTENCE_FINAL:
            continue
        if 0 < k <= n and k > start:
            spans.append(Sentence(start, k, mark))
            start = k
    if start < n:
        spans.append(Sentence(start, n, None))
    return spans


def sentences_of(unit: Unit) -> list[Sentence]:
    """The restored sentences of a unit, or the whole unit as one when it was not segmented: the
    sentences the parse stage builds trees for and the exports write (their indices must agree)."""
    if unit.sentences:
        return list(unit.sentences)
    if not unit.text:
        return []
    return [Sentence(0, len(unit.text), unit.marks.get(len(unit.text)))]
