"""Who speaks: the attributions that open the quotations of a gathered commentary.

禮記集說, 儀禮述註 … gather earlier commentators and name each one as the print goes:
`鄭氏曰…`, `藍田吕氏曰…`, `王氏(子墨/)曰…`, `註曰…○疏曰…○楊氏曰…`, `愚按…`. A commentary
unit is split at each attribution that opens it or follows a `○`; the pieces are units of
their own with

- `marker`: the formula as printed, `○` included when there is one (`鄭氏曰`, `○疏曰`): like
  the 集釋's 鄭注 it stands outside `text`, so `text` is what the speaker says and the
  round trip (extent = marker + text) holds;
- `source`: the speaker as printed, small print included (`鄭氏`, `藍田吕氏`, `王氏子墨`, `疏`, `愚`);
- `source_name`: the person, where the text makes it clear (models/speakers/speakers.tsv, each
  row with its provenance; `愚` and the author's own name are the author of the header line).

`又曰` (the same speaker again) does not split. A formula anywhere else in the text is a
quotation inside the comment and does not split either.
"""

from __future__ import annotations

import functools
import re

from pipeline.ingest.source import SourceLine
from pipeline.ingest.sources import author_person
from pipeline.ingest.wyg_print import AUTHOR_PART
from pipeline.model import CollationNote, Unit
from pipeline.people import book_keys, normalise, people_by_fold, person, speaker_table
from pipeline.variants import fold

_C = r"[^\W\d_○]"  # one character of a name
VERBS = "曰云謂按案"
# speakers printed without 氏 / 子 / 先生: the commentary and sub-commentary the book quotes
# and the masters named by their surname and 子 (a free `X子曰` is mostly 孔子, 君子 … quoted)
FIXED = ("鄭目錄", "鄭目録", "孔疏", "賈疏", "講義", "註", "注", "疏", "䟽", "傳", "𫝊", "箋", "愚",
         "朱子", "程子", "張子")
# `X氏`, `王氏(子墨/)` (the given name in small print), `X先生`
_GENERIC = rf"(?P<who>{_C}{{0,4}}氏)(?P<given>{_C}{{0,3}}?)|(?P<who2>{_C}{{1,3}}先生)"
SPLIT_AFTER = "○"  # 儀禮述註 runs its quotations on in one block: `…廟神○疏曰…`
# After a ○, the separator of the sources a comment gathers, any source of 2-4 characters with 曰 opens
# the next one: a book (`○問喪曰`, the 禮記's chapter) or a person the speaker table lacks (`○陸佃曰` read
# under a book ID it has no rows for), and `今按` the author's own remark; not `又曰` (the same source goes
# on), nor one character the table does not know (a ○ may stand for a lost character: `○之曰`).
# 儀禮述註 juan 11 `…○問改葬朱先生曰湏告廟…`: someone asked 朱熹 about reburial; his answer follows (the 語類's
# way of quoting him), not the 疏's words before the ○. The question is short, and the speaker one the book
# knows: `X先生` would take the question's last character in (`葬朱先生`); `○問喪曰` (the 禮記's 問喪) stays a book
ASKED, QUESTION_CHARS = "問", 8
_AFTER_CIRCLE = re.compile(rf"(?P<who>(?!又){_C}{{2,4}}?)曰|(?P<own>今)[按案]")
_AUTHOR_RE = re.compile(rf"([^\u3000 ]{{2,4}})[\u3000 ]*{AUTHOR_PART}$")  # 宋　衛湜　撰, … 李光坡　輯注


@functools.lru_cache(maxsize=16)
def _formula_re(extra: tuple[str, ...]) -> re.Pattern:
    fixed = sorted(set(FIXED) | set(extra), key=len, reverse=True)
    return re.compile(rf"(?:(?P<fixed>{'|'.join(map(re.escape, fixed))})|{_GENERIC})(?P<verb>[{VERBS}])")


class Speakers:
    """The attribution formulas of one book: the fixed ones, its table's names, its author's, and the
    names the document itself opens comments with (`named`: `opening_names`)."""

    def __init__(self, book: str, author: str | None, named: tuple[str, ...] = ()):
        self.book, self.author, self.named = book, author, set(named)
        table = speaker_table()
        names = {form for (b, form) in table if b in (book, "*") and not form.endswith(("氏", "子", "先生"))}
        # the table's people for the book by their full names (`崔靈恩曰`, where the book prints some in full)
        keys = book_keys(book)
        self.people = {name for (b, _form), name in table.items() if b in keys
                       and len(name) >= 2 and not name.endswith(("氏", "子", "先生", "臣"))}
        names |= self.people
        # the author speaks of himself by his given name (李光坡: 坡謂, 光坡按)
        self.own = {author[1:], author[-1]} if author and len(author) >= 3 else set()
        self.re = _formula_re(tuple(sorted(names | self.own | self.named)))

    def match(self, text: str, at: int, is_small) -> tuple[int, str] | None:
        """(length of the formula, speaker as printed) when one starts at text[at]."""
        m = self.re.match(text, at)
        if not m:
            return None
        if m.group("fixed"):
            return m.end() - at, m.group("fixed")
        if m.group("who2"):
            return m.end() - at, m.group("who2")
        who, given = m.group("who"), m.group("given")
        if who == "氏" or who.startswith("又"):
            return None
        if given and not all(is_small(i) for i in range(m.start("given"), m.end("given"))):
            return None  # a given name is printed small (王氏(子墨/)曰); full size it is the sentence
        return m.end() - at, who + given

    def after_circle(self, text: str, at: int, is_small) -> tuple[int, str] | None:
        """(length of the formula, speaker as printed) of an attribution right after a ○, known to
        the table or not (`_AFTER_CIRCLE`); `今` (今按) speaks for the author; a question put to a
        speaker the book knows opens his answer, the question in the formula (`○問改葬朱先生曰`)."""
        hit = self.match(text, at, is_small)
        if hit:
            return hit
        if text.startswith(ASKED, at):
            for end in range(at + 2, min(at + 2 + QUESTION_CHARS, len(text))):
                hit = self.match(text, end, is_small)
                if hit and (hit[1] in FIXED or self.name(hit[1])):
                    return end - at + hit[0], hit[1]
        m = _AFTER_CIRCLE.match(text, at)
        if not m:
            return None
        return m.end() - at, m.group("who") or m.group("own")

    def name(self, who: str) -> str | None:
        if who in ("愚", "今") or who in self.own:
            return self.author
        if who in self.named or who in self.people:  # a name in full: a row's form (鄭康成), else a person (陳祥道)
            return person(who, self.book) or people_by_fold().get(fold(who))
        return person(who, self.book)

    def line_head(self, line: SourceLine, after_full: bool = False, attributed: bool = False) -> str | None:
        """The formula a printed line opens with (it opens a commentary block), if any.

        After a full line the line may just as well run on a sentence that quotes someone:
        there only a speaker the table knows, or a fixed one (註, 疏, 愚 …), opens a block — or any
        speaker where the document's comments open with attributions (`attributed`: 禮記集說's
        `東萊吕氏曰`, a name of two people the table leaves unnamed; a book the table does not know)."""
        chars: list[str] = []
        small: list[bool] = []
        for tok in line.tokens[:8]:
            if tok.kind == "note":
                col = "".join(tok.columns)
                chars += col
                small += [True] * len(col)
            elif tok.char not in "\u3000 ":
                chars.append(tok.char)
                small.append(False)
        text = "".join(chars)
        lemma = re.match(r"[^\u3000 ]{1,4}[\u3000 ]", "".join(t.char for t in line.tokens[:6]))
        if lemma and not after_full:  # a lemma head and a blank before the formula: `眂　注曰…` (the unit
            # starts at the lemma; it has no source: none of the four books prints this form)
            hit = self.match(text, len(lemma.group(0)) - 1, small.__getitem__)
            if hit:
                return text[: len(lemma.group(0)) - 1 + hit[0]]
        hit = self.match(text, 0, small.__getitem__)
        if hit and after_full and not attributed and hit[1] not in FIXED and self.name(hit[1]) is None:
            return None
        return text[: hit[0]] if hit else None


# A commentator named in full, surname and given name (`王昭禹曰`, `鄭鍔曰`: a book such as 周禮訂義 names some
# of its sources so and others `X氏`): a comment the print grammar opens with one is his, as after a ○
# (`_AFTER_CIRCLE`), where the document's comments open with attributions; not `X子曰` (孔子, 孟子 … quoted),
# nor words that are no name: a question (`曷不曰`, `兩烝者何曰`) or a phrase (`易之小過曰`)
_NAMED_RE = re.compile(rf"(?P<who>(?!又){_C}{{2,4}}?)曰")
NOT_A_NAME = set("之其而也者以所故則不乃或此是皆亦云謂為爲於于與曷何乎哉矣焉若如有無又今按案問答言")


def opening_names(units: list[Unit], speakers: Speakers) -> tuple[str, ...]:
    """The names with 曰 that open a comment of the print grammar's (the start of an indented block)
    where no formula the book knows does: the candidates for `Speakers(named=…)`."""
    names: set[str] = set()
    for unit in units:
        if unit.kind != "commentary" or unit.marker is not None or speakers.match(unit.text, 0, lambda i: True):
            continue
        m = _NAMED_RE.match(unit.text)
        if m and not m.group("who").endswith("子") and not NOT_A_NAME & set(m.group("who")):
            names.add(m.group("who"))
    return tuple(sorted(names))


def author_of(units: list[Unit]) -> str | None:
    """The author named in the juan's opening header (`宋　衛湜　撰`, `安溪　李光坡　撰`)."""
    return next((author[0] for unit in units if unit.kind == "header" and (author := _author_line(unit))), None)


# an author line whose author annotates the classic printed above his notes: `北周　盧辯　注`, `漢　鄭𤣥　注`,
# 集註, 輯注 (a 撰 book's unattributed stretch may be a citation — 表記集傳's 春秋 entries — or a comment
# run on past an empty page — 禮記集說 juan 1 —: the print does not say whose, so it names nobody); and the
# SBCK's chapter title that names the annotator last (`士昬禮第二　儀禮　鄭氏注`; not `…　鄭氏箋`: the 毛詩's
# notes are 毛傳 and 鄭箋 both)
ANNOTATOR_VERBS = "注註"
_TITLE_ANNOTATOR_RE = re.compile(rf"[\u3000 ]({_C}{{2,4}})([{ANNOTATOR_VERBS}])$")


def _author_line(unit: Unit) -> tuple[str, str] | None:
    """(author as printed, the author's part) where a header is an author line or an SBCK chapter title
    names the annotator; None else."""
    text = unit.text.strip("\u3000 ")
    if unit.kind == "header":
        m = _AUTHOR_RE.search(text)
        return (m.group(1), text[-1]) if m else None
    m = _TITLE_ANNOTATOR_RE.search(text) if unit.kind == "title" else None
    return (m.group(1), m.group(2)) if m else None


def _annotator(who: str, book: str | None) -> str | None:
    """The person an author line names: `X氏` through the table's rows for the book, a full name in the
    table's spelling where it knows him, else as printed."""
    return author_person(who, book) if who.endswith("氏") else people_by_fold().get(fold(who), who)


def annotator_notes(units: list[Unit], book: str | None) -> tuple[str, str] | None:
    """The commentary of a book that annotates a classic (its 夾注 and indented blocks) that no
    attribution opens is the annotator's 注, as the 注疏's 注 units are: `source` 注, `source_name`
    the author the juan's author line names — a surname with 氏 through the speaker table's rows for
    the book (`鄭氏` is 鄭玄 in the 經部), a full name in the table's spelling where it knows the person
    in another graphic form (鄭𤣥 → 鄭玄), else as printed (as `愚` names the author). Each run of
    headers and titles that names an author decides for the units after it: its author lines, if they
    name one man and end in 注 (an author line and a chapter title's `鄭氏注` may both name 鄭玄); nobody
    where it names two (`漢　鄭𤣥　注` over `唐　陸德明　音義`: whose is each note?), another part (撰, 箋 …)
    or opens a 考證 (the Qing editors'). Returns (the author line, how it named them) for the evidence,
    or None."""
    line = named = None
    first: tuple[str, str] | None = None
    heads: list[Unit] = []
    for unit in units:
        if unit.kind in ("header", "title"):
            heads.append(unit)
            continue
        authors = [(h, a) for h in heads for a in [_author_line(h)] if a]
        kaozheng = any(h.kind == "header" and "考證" in h.text for h in heads)
        heads = []
        if authors or kaozheng:  # (a chapter title or a closing header alone: the same man's notes go on)
            line = named = None
            people = [(head, who, part, _annotator(who, book)) for head, (who, part) in authors]
            one_man = len({(part in ANNOTATOR_VERBS, man or who) for _, who, part, man in people}) == 1
            if one_man and not kaozheng and people[0][2] in ANNOTATOR_VERBS:  # one man, who annotates
                head, who, _part, named = people[0]
                line = head.text.strip("\u3000 ")
                first = first or (line, f"{named or 'none'} (printed {who})")
        if line and unit.kind == "commentary" and unit.source is None:
            unit.source, unit.source_name = "注", named
    return first


def split_attributions(units: list[Unit], notes: list[CollationNote], source: str,
                       speakers: Speakers) -> tuple[list[Unit], list[CollationNote]]:
    """Each commentary unit cut at the attributions that open it or follow a ○; seqs renumbered."""
    out: list[Unit] = []
    new_seq: dict[int, list[tuple[int, int, int]]] = {}  # old seq -> (new seq, text start, text end)
    for unit in units:
        cuts = _cuts(unit, source, speakers) if unit.kind == "commentary" and unit.marker is None else []
        if not cuts:
            new_seq[unit.seq] = [(len(out), 0, len(unit.text))]
            unit.seq = len(out)
            out.append(unit)
            continue
        if cuts[0][0] > 0:
            cuts.insert(0, (0, 0, None))
        pieces = []
        for i, (at, length, who) in enumerate(cuts):
            stop = cuts[i + 1][0] if i + 1 < len(cuts) else len(unit.text)
            start = unit.start if i == 0 else unit.offsets[at]
            end = unit.offsets[stop] if stop < len(unit.text) else unit.end
            text_from = at + length
            piece = Unit(seq=len(out), kind="commentary", marker=unit.text[at:text_from] or None,
                         text=unit.text[text_from:stop], start=start, end=end,
                         offsets=unit.offsets[text_from:stop], source=normalise(who) if who else None,
                         source_name=speakers.name(who) if who else None)
            pieces.append((len(out), text_from, stop))
            out.append(piece)
        new_seq[unit.seq] = pieces
    for note in notes:
        for seq, lo, hi in new_seq[note.unit_seq]:
            if note.offset <= hi:
                note.unit_seq, note.offset = seq, max(0, note.offset - lo)
                break
    _circle_to_its_formula(out, notes)
    return out, notes


def _circle_to_its_formula(units: list[Unit], notes: list[CollationNote]) -> None:
    """A ○ that ends a printed line opens the attribution on the next (`…下士共廟○¶ 疏曰…`: 31 times in
    儀禮述註): it goes to that unit's marker, as when both stand on one line (`○疏曰`), not to the
    text of the comment before."""
    for prev, unit in zip(units, units[1:]):
        if (prev.kind == unit.kind == "commentary" and len(prev.text) > 1 and prev.text.endswith(SPLIT_AFTER)
                and unit.marker and not unit.marker.startswith(SPLIT_AFTER)
                and not any(n.unit_seq == prev.seq and n.offset >= len(prev.text) - 1 for n in notes)):
            circle = prev.offsets[-1]
            prev.text, prev.offsets, prev.end = prev.text[:-1], prev.offsets[:-1], circle
            unit.marker, unit.start = SPLIT_AFTER + unit.marker, circle


def _cuts(unit: Unit, source: str, speakers: Speakers) -> list[tuple[int, int, str | None]]:
    """(text index, formula length, speaker) of each attribution of a unit."""
    text = unit.text
    def small(i: int) -> bool:
        return _in_note(source, unit.offsets[i])

    cuts = []
    hit = speakers.match(text, 0, small)
    if hit:
        cuts.append((0, hit[0], hit[1]))
    for i, ch in enumerate(text):
        if ch == SPLIT_AFTER and i + 1 < len(text):
            hit = speakers.after_circle(text, i + 1, small)
            if hit:
                cuts.append((i, hit[0] + 1, hit[1]))
    return cuts


def _in_note(source: str, at: int) -> bool:
    """Whether a source index lies inside a `(…)` small note (the nearest bracket opens one)."""
    return source.rfind("(", 0, at) > source.rfind(")", 0, at)
