"""The WYG print grammar, read as the print shows it.

Most Siku Quanshu (Wenyuange) books share one grammar; the 集釋 (wyg.py) and the 注疏
(wyg_zhushu.py) are dialects of it with markers of their own. This reader is the grammar
itself, for the books that have no such markers: 禮記集說 (KR1d0057), 儀禮述註 (KR1d0040),
表記集傳 (KR1d0063), 儀禮釋宮 (KR1d0031) …

- A printed line holds 21 columns; a block runs on while its lines are full (LINE_COLUMNS),
  but not into a line set further left, nor from a line of small print into full-size text.
- Full-size text flush left is the main text (base); a block whose first line is indented
  under it is the author's commentary. Indentation is measured, not assumed: some pages are
  set one column to the right (禮記集說 juan 4, page 39a: 經 at 1, commentary at 2), which
  `page_shifts` finds from the levels the document uses on its ordinary pages, and which
  `PrintReader._confirmed` keeps only where the page's text does not say otherwise.
- A line that opens with an attribution (`鄭氏曰`, `註曰`, `愚按` …: speakers.py) opens a
  commentary block; a lemma head and a full-width space before it (`眂　注曰…`) too.
- A two-column small note `(a/b)` is the author's commentary (夾注) unless it reads as the
  Qing editors' collation (`is_collation`). Inside commentary (or a header) it is text of the
  unit; inside base it is a commentary unit of its own; a block of small notes is one.
- Front matter (提要, 序, 目錄 …, `front_matter`): a block of more than one line is prose (a
  commentary unit, segmented like any other), a line on its own is a header.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from pipeline.ingest.source import SourceLine, Token
from pipeline.ingest.units import UnitBuilder
from pipeline.model import CollationNote, Unit

LINE_COLUMNS = 21
NUMERALS = "一二三四五六七八九十百"  # a juan's or chapter's number as printed (sbck, wyg_zhushu too)
# opening lines: 欽定四庫全書, 禮記集説卷一 … 宋　衛湜　撰, the author line on its own; its last
# word is the author's part, 撰 in every book here, in other books 編, 輯, 注, 述 … (奉敕撰, 集註), and where a
# second line names the layer another man added, that layer (`唐　陸德明　音義`, 疏, 傳, 箋, 集解, 正義, 章句)
AUTHOR_VERBS = "撰編輯纂注註著述疏䟽傳𫝊箋解義句"
AUTHOR_PART = rf"[\u3000 ][^\u3000 ]{{0,3}}[{AUTHOR_VERBS}]"  # `　撰` closing an author line (printcount, speakers too)
SKQS = "欽定四庫全書"  # the collection's name, the first line of every juan
# a juan's number: 卷二 in every book here; 卷之二, 卷第二, 卷上 / 卷下 in others
JUAN_NUMBER = rf"[卷巻][之第]?(?:[{NUMERALS}]+|[上中下])"
HEADER_RE = re.compile(rf"{SKQS}.*|.+{JUAN_NUMBER}.*|.*{AUTHOR_PART}")
# a chapter title on a line of its own, anywhere: 曲禮上第一, 士冠禮第一, 歸表章第一; a field or two after a gap
# name its book or the author of a layer (the 集釋's `喪服第十一　子夏傳`, the SBCK's `士昬禮第二　儀禮　鄭氏注`)
CHAPTER_RE = re.compile(rf"[^\u3000 ]{{1,8}}第[{NUMERALS}]+(?:之[{NUMERALS}]+)?(?:[\u3000 ]+[^\u3000 ]{{1,8}}){{0,2}}")
# the `#+PROPERTY: JUAN` values of front (and back) matter: 提要, [提要], 序, 儀禮疏序, 序周禮廢興,
# 目錄, 原目, 跋, 御製…, 三禮注解傳述人, and 禮記集說's 表, 統說, 名氏 (a juan is 卷N, or 附録 …)
FRONT_MATTER_RE = re.compile(r"提要|序|跋|目[錄録]|原目|凡例|名氏|統[說説]|^表$|御製|傳述人")
# the Qing editors' collation: it opens with 案 / 按 / 謹案 / 臣…按, or speaks of editions
COLLATION_OPENING_RE = re.compile(r"謹?[案按]|臣.{0,4}?[案按]")
EDITION_RE = re.compile(r"據.{0,12}?改正|本作|訛作")
SIGNATURE_INDENT = 8
# 擡頭: the Qing print breaks a line and raises the next above its paragraph to open it with a word
# for the throne (…若隠若顯間今 / 聖朝 / 欽定禮記義疏…); the sentence runs on across the break
RAISED_WORD_RE = re.compile(r"[國聖本皇]朝|欽定|御[定纂製選批註]|皇[上帝]|聖[祖諭]|聖天子|世[祖宗]|高宗|列聖|上諭|特[命旨]|命|[敕勅]")
# the compilers' signature closing a 提要 (總纂官臣紀昀…, 總　校　官　臣　陸　費　墀): a header line
SIGNATURE_RE = re.compile(r"(?:總纂|總校|纂修|詳校|校對)官")
# a line set out in columns (禮記集說　　　　禮類三禮記之屬: the title, the class at the foot): a header
COLUMNS_RE = re.compile(r"[^\u3000 ][\u3000 ]{2,}[^\u3000 ]")  # (a space for a blank: a copy through NFKC)
# the author line of a preface, on a line or two of its own (唐朝散大夫…臣賈公彦撰, …等奉 / 勅撰): a header
BYLINE_RE = re.compile(r"[^\u3000 ]{4,40}撰")
# columns a line may fall short of full and still run on, where the comments are attributed (a new
# comment opens with its attribution; a 經 paragraph has no such mark and does end a few columns short:
# 儀禮述註, docs/ingest.md "Stop 53")
NEAR_FULL = 2
NEAR_FULL_COMMENT = 4
ATTRIBUTED_SHARE = 0.8  # of indented block starts with an attribution: the book attributes its comments
MAX_SUBTITLE = 8  # characters of a line of a chapter title under it (CHAPTER_RE: up to 8 before 第)
MIN_BLOCKS = 10  # front matter: a line set this far in is a signature or an author line, never prose


def _unspaced(text: str) -> str:
    """The text without its blanks (`　`, or a space where a copy went through NFKC)."""
    return text.replace("\u3000", "").replace(" ", "")


def line_text(line: SourceLine) -> str:
    return "".join(t.char for t in line.tokens if t.kind == "char")


def is_front_matter(section: str) -> bool:
    return bool(FRONT_MATTER_RE.search(section))


def is_collation(text: str) -> bool:
    """Whether a small note's text reads as the Qing editors' collation rather than the author's."""
    return bool(COLLATION_OPENING_RE.match(text) or EDITION_RE.search(text))


def note_text(tokens: list[Token], i: int) -> str:
    """The text of the note whose first group is tokens[i]: it and the groups right after it."""
    out = []
    while i < len(tokens) and tokens[i].kind == "note":
        out.append("".join(tokens[i].columns))
        i += 1
    return "".join(out)


def page_shifts(lines: list[SourceLine]) -> dict[str | None, int]:
    """How many columns each page is set to the right of the document's ordinary pages.

    The levels in use are measured on the pages that print something flush left: a level is
    ordinary when it is found on at least a tenth of them. A page with nothing flush left whose
    deepest level lies beyond the deepest ordinary one is shifted by the difference (禮記集說
    juan 4: ordinary levels 0 and 1; page 39a uses 1 and 2, so its 經 is at 1). A page with
    nothing flush left and no deeper level is all commentary (a long comment that fills it).
    """
    levels: dict[str | None, set[int]] = defaultdict(set)
    for line in lines:
        if line.kind == "text" and not _is_heading(line):
            levels[line.pb].add(line.indent)
    ordinary = [s for s in levels.values() if 0 in s]
    if not ordinary:
        return {}
    seen = Counter(level for s in ordinary for level in s)
    deepest = max(level for level, n in seen.items() if n * 10 >= len(ordinary))
    return {pb: min(min(s), max(s) - deepest) for pb, s in levels.items() if 0 not in s and max(s) > deepest}


def _is_heading(line: SourceLine) -> bool:
    if line.width >= LINE_COLUMNS:  # (most lines: asked first, as the reader asks it of every line three times)
        return False
    text = line_text(line).strip("\u3000 ")
    return bool(HEADER_RE.fullmatch(text) or CHAPTER_RE.fullmatch(text))


class PrintReader:
    """Builds the units of one document; `front_matter` and `main` read one section each."""

    def __init__(self, heads=None):
        self.units: list[Unit] = []
        self.notes: list[CollationNote] = []
        self.current: UnitBuilder | None = None
        self.heads = heads  # line -> attribution formula at its start, or None (speakers.py)
        self.verbs = {"曰"}  # the verbs an attribution after a full line may end with (_head)
        self.attributed = False  # enough comments, and they open with attributions (main; _head)
        self.unattributed = False  # enough comments, and they do not
        self._note: str | None = None  # role of the note being read: "collation" | "text" | "unit"
        self._resume: str | None = None  # kind to go back to after a 夾注 unit split off base

    # --- building --------------------------------------------------------------------------
    def close(self) -> None:
        c, self.current = self.current, None
        self._note = self._resume = None
        if c is not None and not c.empty:
            self.units.append(c.build())
            self.notes.extend(c.notes)

    def open(self, kind: str, marker: str | None = None) -> None:
        self.close()
        self.current = UnitBuilder(len(self.units), kind, marker, skip=0)

    def add(self, tokens: list[Token]) -> None:
        for i, tok in enumerate(tokens):
            if tok.kind != "note":
                if self._note == "unit":  # a 夾注 split off base: the base runs on after it
                    kind, self._note = self._resume, None
                    self.units.append(self.current.build())
                    self.current = UnitBuilder(len(self.units), kind, skip=0)
                self._note = None
                self.current.add([tok])
                continue
            if self._note is None:  # the first group of a note decides what the note is
                if is_collation(note_text(tokens, i)):
                    self._note = "collation"
                elif self.current.kind == "base":
                    self._note, self._resume = "unit", "base"
                    if not self.current.empty:
                        self.units.append(self.current.build())
                        self.notes.extend(self.current.notes)
                    self.current = UnitBuilder(len(self.units), "commentary", skip=0)
                else:
                    self._note = "text"
            if self._note == "collation":
                self.current.add([tok])
            else:
                self.current.add_columns(tok)

    def single(self, line: SourceLine, kind: str) -> None:
        self.open(kind)
        self.add(line.tokens)
        self.close()

    # --- sections --------------------------------------------------------------------------
    def front_matter(self, lines: list[SourceLine]) -> None:
        """目錄, 提要, 序 …: blocks of more than one line are prose, single lines headers."""
        for block in _blocks(lines):
            first = line_text(block[0])
            whole = _unspaced("".join(line_text(line) for line in block))
            prose = (len(block) > 1 and block[0].indent < SIGNATURE_INDENT
                     and not SIGNATURE_RE.match(_unspaced(first))
                     and not (len(block) <= 2 and BYLINE_RE.fullmatch(whole)))
            self.open("commentary" if prose else "header")
            for line in block:
                self.add(line.tokens)
            self.close()

    def main(self, lines: list[SourceLine], title: str = "") -> None:
        """The body of a juan: headers and chapter titles, then base and commentary blocks."""
        shifts = page_shifts(lines)
        starts, heads, by_level = self._block_starts(lines, shifts)
        # the comments open with attributions (禮記集說: 0.97 of them; 儀禮述註 0.9x; 表記集傳 none), at the
        # level most comments start at; a comment runs on over a line a few columns short only at a level
        # whose comments do (儀禮述註 juan 11: 0.91 at 1, none in the 喪服 tables at 2 and 3)
        ordinary = max(by_level, key=lambda lvl: by_level[lvl][0], default=None)
        attributed_levels = {lvl for lvl, (n, h) in by_level.items() if h >= ATTRIBUTED_SHARE * n}
        attributed = self.attributed = starts >= MIN_BLOCKS and ordinary in attributed_levels
        self.unattributed = starts >= MIN_BLOCKS and not attributed  # (a short juan: undecided)
        shifts = self._confirmed(lines, shifts, heads >= MIN_BLOCKS)
        opening = True
        after_skqs = False  # the line before was the opening 欽定四庫全書
        opening_title = ""  # the line under it: the juan's title
        title_indent: int | None = None  # the chapter title's, on the line after it
        prev_full, prev_width, prev_level, prev_small = False, 0, 0, False
        block_kind = ""
        for line in lines:
            if line.kind != "text":
                if line.kind == "blank":
                    self.close()
                    prev_full = False
                continue
            text = line_text(line).strip("\u3000 ")
            full = line.width >= LINE_COLUMNS
            # a closing header: the book's title with the juan's number, or the juan's own title line (under
            # the opening 欽定四庫全書, below) printed again where the juan ends, whatever it says
            closing = (bool(title) and text.startswith(title[:2]) and not full and HEADER_RE.fullmatch(text)
                       or bool(opening_title) and not opening and line.indent > 0 and text == opening_title)
            # full-size text does not run on from a line of small print (表記集傳: three chapter titles
            # under a comment whose last line of small notes is full were read as its last words)
            from_small = prev_small and not any(t.kind == "note" for t in line.tokens)
            runs_on = prev_full and not from_small
            chapter = not full and not runs_on and CHAPTER_RE.fullmatch(text) and not re.search("[卷巻]第", text)
            # an opening header fits on a printed line (the longest of the 959 in the embedded and
            # shared books: 20 columns); text set on longer lines is the juan's own, however it begins
            # (markup-free text pasted as one line that opens with 欽定四庫全書 was one header, stop 47)
            fits = line.width <= LINE_COLUMNS
            head = self._head(line, runs_on)
            # a short line set as far in as the chapter title right under it is a line of the title
            # (儀禮述註's `䘮服第十一` / `子夏𫝊`, the 傳's author: the one such line in the print books)
            subtitle = (title_indent == line.indent and not full and head is None
                        and len(text) <= MAX_SUBTITLE)
            title_indent = line.indent if chapter else None
            # the line under the opening 欽定四庫全書 is the juan's title, whatever it says (`春秋表記問業附録`,
            # an appendix with no 卷N, was read as a comment, and the author line after it too)
            juan_title = opening and after_skqs and fits and line.indent > 0 and not chapter and bool(text)
            after_skqs = opening and fits and text.startswith(SKQS)
            if juan_title:
                opening_title = text.split()[0]  # (the author may stand on the same line, after a gap)
            if opening and fits and HEADER_RE.fullmatch(text) or closing or chapter or subtitle or juan_title:
                self.single(line, "title" if chapter or subtitle else "header")
                opening, prev_full = opening and not (chapter or subtitle), False
                continue
            opening = False
            level = line.indent - shifts.get(line.pb, 0)
            # flush is base whatever it opens with: 儀禮述註 prints 喪服's `傳曰…` flush, the 儀禮's own text
            # as every edition has it (a formula there opens a new base unit, see `continues`)
            kind = "commentary" if level > 0 else "base"
            continues = (
                self.current is not None and head is None and (block_kind == "base") == (kind == "base")
                # a block does not run on into a line set further left (a 春秋 entry under a full
                # line of 表記集傳's comment, 喪服 tables of 儀禮述註), unless it is a 擡頭 break
                and (level >= prev_level or bool(RAISED_WORD_RE.match(text)))
                and (runs_on or attributed and not from_small and (kind == "base" or level in attributed_levels)
                     and prev_width >= LINE_COLUMNS - (NEAR_FULL if kind == "base" else NEAR_FULL_COMMENT))
            )
            if not continues:
                self.open(kind)
                block_kind = kind
            self.add(line.tokens)
            prev_full, prev_width, prev_level = full, line.width, level
            prev_small = bool(line.tokens) and all(t.kind == "note" or t.char in "\u3000 " for t in line.tokens)
        self.close()

    def _confirmed(self, lines: list[SourceLine], shifts: dict, speaks: bool) -> dict[str | None, int]:
        """The shifts that the page's own text does not gainsay. A shift that sets a page's
        shallowest lines flush reads them as 經; it is dropped where they are commentary by what
        they say: the page's first line runs on a full line of the page before at the level that
        line stood at, or one of them opens with an attribution, or (`speaks`: 10 or more of the
        document's comments open with one) none of the deeper lines does. 儀禮述註 juan 1 and 11
        read so: a 疏 running on at 1 (page 1b; 15b, above a 喪服 table at 2 and 3), a 鄭目錄 at 1
        under `子夏𫝊` at 2, the tables' own headings at 2 were 經."""
        if not shifts:  # (nearly every document: nothing to confirm, no walk over its lines)
            return shifts
        pages: dict[str | None, list[tuple[SourceLine, bool]]] = defaultdict(list)  # line, after a full one
        ran_on: dict[str | None, SourceLine] = {}  # a page's first line -> the full line it runs on
        prev: SourceLine | None = None
        for line in lines:
            if line.kind == "blank":
                prev = None
            if line.kind != "text" or _is_heading(line):
                continue
            after_full = prev is not None and prev.width >= LINE_COLUMNS
            if line.pb not in pages and after_full and prev.pb != line.pb:
                ran_on[line.pb] = prev
            pages[line.pb].append((line, after_full))
            prev = line
        kept: dict[str | None, int] = {}
        for pb, page in pages.items():
            shift = shifts.get(pb, 0)
            low = min(line.indent for line, _ in page)
            if shift and shift >= low:
                before = ran_on.get(pb)
                runs_on = (before is not None and page[0][0].indent == low
                           and low == before.indent - kept.get(before.pb, 0))
                attributed_at = {line.indent for line, after in page if self._head(line, after)}
                said = low in attributed_at or speaks and not any(level > low for level in attributed_at)
                if runs_on or said:
                    continue
            if shift:
                kept[pb] = shift
        return kept

    def _head(self, line: SourceLine, after_full: bool) -> str | None:
        """The attribution a line opens a comment with. After a full line the sentence may run on
        citing a book: `…特牲記魚十有五¶ 註云隂中之物…`, `…遂師¶ 注云蜃車…`, `…莊氏云尸居而龍見` (the
        莊子, quoted by 藍田吕氏): there only a formula with a verb the document's comments open with
        (`verbs`: 曰 in all four print books; every 云 after a full line there, 6, ran a sentence on)
        opens one; and none does in a document whose comments are not attributed (儀禮釋宮: `…案士喪禮為銘
        置于宇西階上¶ 注曰宇梠也說文曰…`, 李如圭 citing the 注 in his own comment). Where they are, any
        speaker with that verb does, known to the table or not (Speakers.line_head)."""
        head = self.heads(line, after_full, self.attributed) if self.heads else None
        if head and after_full and (head[-1] not in self.verbs or self.unattributed):
            return None
        return head

    def _block_starts(self, lines: list[SourceLine], shifts: dict) -> tuple[int, int, dict[int, tuple[int, int]]]:
        """How many indented blocks the document has, how many open with an attribution, and both by
        level. Where nearly all do, an unattributed line after a line a few columns short of full runs on
        (NEAR_FULL, NEAR_FULL_COMMENT; the transcription drops a column now and then: `…○疏¶
        曰按雜記云大饗卷三牲之爼歸于賔館是賔所¶ 當得也…`, 20 columns)."""
        if self.heads is None:
            return 0, 0, {}
        starts = heads = 0
        by_level: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # level -> [starts, heads]
        verbs: Counter[str] = Counter()
        prev_full, prev_width, prev_level = False, 0, None
        for line in lines:
            if line.kind != "text":
                prev_full = prev_full and line.kind == "pb"
                prev_width, prev_level = (prev_width, prev_level) if line.kind == "pb" else (0, None)
                continue
            level = line.indent - shifts.get(line.pb, 0)
            if not prev_full and level > 0 and not _is_heading(line):
                starts += 1
                head = self.heads(line)
                if head is not None:
                    heads += 1
                    verbs[head[-1]] += 1
                # by level, only where a comment starts for certain: not after a line at its level a few
                # columns short (儀禮述註 juan 7: 67 of its 69 unattributed starts at 1 are such, each the
                # comment going on over a line of 19 or 20 columns)
                if prev_level != level or prev_width < LINE_COLUMNS - NEAR_FULL_COMMENT:
                    by_level[level][0] += 1
                    by_level[level][1] += head is not None
            prev_full, prev_width, prev_level = line.width >= LINE_COLUMNS, line.width, level
        # a book whose comments open with `X云` (none here) keeps them after a full line too
        self.verbs = {"曰"} | {verbs.most_common(1)[0][0]} if verbs else {"曰"}
        return starts, heads, {lvl: (n, h) for lvl, (n, h) in by_level.items()}


def _blocks(lines: list[SourceLine]) -> list[list[SourceLine]]:
    """Text lines grouped by the run-on rule: a block runs on while its lines are full, and over
    a 擡頭 break (a line raised above the block to open with RAISED_WORD_RE). A line set out in
    columns or a compilers' signature is a block of its own (a header: `front_matter`)."""
    blocks: list[list[SourceLine]] = []
    prev_full = prev_prose = False
    for line in lines:
        if line.kind != "text":
            prev_full = prev_full and line.kind == "pb"
            prev_prose = prev_prose and line.kind == "pb"
            continue
        text = line_text(line).strip("\u3000 ")
        # a small note counts as one column entry (周禮注疏's 目録: 天官　　(司書/司裘)　　(職内/掌皮) …)
        laid_out = "".join(t.char if t.kind == "char" else "〇" for t in line.tokens).strip("\u3000 ")
        own = bool(COLUMNS_RE.search(laid_out) or SIGNATURE_RE.match(_unspaced(text)))
        left = bool(blocks) and line.indent < blocks[-1][0].indent  # set left of the block's first line
        raised = left and prev_prose and bool(RAISED_WORD_RE.match(text)) and not HEADER_RE.fullmatch(text)
        # a full line runs on, but not into a line set further left that is no 擡頭 (the byline
        # `　唐朝散大夫…臣賈公彦撰` and the 序 flush left under it)
        runs_on = prev_full and not left or raised
        if blocks and not own and runs_on and line.indent < SIGNATURE_INDENT:
            blocks[-1].append(line)
        else:
            blocks.append([line])
        prev_full = line.width >= LINE_COLUMNS and not own
        # a line that may be broken for a 擡頭: any line but a header's (set out in columns, a
        # signature) or one set as far in as a signature
        prev_prose = not own and blocks[-1][0].indent < SIGNATURE_INDENT
    return blocks


def sections(lines: list[SourceLine]) -> list[tuple[str, list[SourceLine]]]:
    """The lines of each `#+PROPERTY: JUAN` section (the meta line closes the one before)."""
    out: list[tuple[str, list[SourceLine]]] = []
    for line in lines:
        if line.kind == "meta":
            out.append((line.section, []))
        elif out:
            out[-1][1].append(line)
        else:
            out.append((line.section, [line]))
    return [(name, run) for name, run in out if any(x.kind == "text" for x in run)]


def parse_print(lines: list[SourceLine], title: str = "", heads=None) -> tuple[list[Unit], list[CollationNote], bool]:
    """Units and collation notes of a WYG document read by the print grammar, and whether a section's
    comments open with attributions (`PrintReader.attributed`)."""
    reader = PrintReader(heads)
    attributed = False
    for section, run in sections(lines):
        if is_front_matter(section):
            reader.front_matter(run)
        else:
            reader.main(run, title)
            attributed = attributed or reader.attributed
    return reader.units, reader.notes, attributed
