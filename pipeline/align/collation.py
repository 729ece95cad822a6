"""The statements of a 注疏's 考證 (report units) about a word of its lemma, linked to that word in the juan's body.

An entry quotes the juan (its lemma: 經, then 注 / 疏 after their markers; pipeline/kaozheng.py) and then says what is
wrong with a word of the quotation:

    正歲稽其鄉器疏無過用朝服○朝當作祭                       → emendation: 朝 (in the 疏's 無過用朝服) should read 祭
    退而以鄉射之禮疏卿大夫士射先行鄉飲酒之禮○卿監本訛鄉…     → variant: for 卿 the 監本 misprints 鄉
    小司徒之職疏黨祭禜族祭酺○監本禜訛宗酺訛歩…             → variant: 禜 (and 酺) misprinted in the 監本
    職内疏云以逆邦國之賦用者○監本脱云字國字…               → variant: the 監本 lacks 云 (and 國)

Each is a Gloss of the report unit (type emendation or variant, as the glosses guideline names 「X當作Y」 and another
edition's wording), its lemma the word as the editors write it, anchored in the body unit whose text holds the lemma
stretch verbatim (a stretch the body does not hold leaves it unanchored, with the reason), and said by whom the entry
quotes for it (敖繼公云, or the signed editor: 臣召南; `said_by`, as printed). Only the formulas below are read; the editors'
arguments (臣召南按 …) are not glosses.
"""

from __future__ import annotations

import re

from pipeline.kaozheng import COMMENT_KIND, SEPARATOR, SIGNATURE, Body, report_pieces
from pipeline.model import Gloss, PUNCTUATION_MARKS

# the editions the editors compare (監本, the 唐石經, 陸德明's 釋文, 敖繼公's, 朱子's, 楊復's …); 夲 as the print writes 本
EDITION = r"(?:監[本夲]|石經|釋文|敖[本夲]|朱子[本夲]|楊[本夲]|各[本夲]|舊[本夲]|刋[本夲]|刊[本夲]|毛[本夲]|閩[本夲]|宋[本夲]|通解)"
EDITIONS = rf"{EDITION}(?:[及與]?{EDITION})*"  # 石經及楊本敖本
READS = r"(?:[訛譌]作?|誤作|作)"  # 訛 Y, 訛作 Y, 誤作 Y, 作 Y (誤 alone says the edition errs, not what it reads)
# X當作Y, X字當作Y: an emendation of X
COUNT = r"(?:[二三四五六七八九十]+字|字)?"  # X字, X二字 before the formula
EMEND = re.compile(rf"{COUNT}(?:當作|當爲|當為|應作|宜作)(?P<y>\S)")
# X監本訛(作)Y, X石經作Y: another edition's reading of X
EDITION_AFTER = re.compile(rf"{COUNT}{EDITIONS}{READS}(?P<y>\S)")
# 監本X訛(作)Y: the same, X named after the edition
EDITION_BEFORE = re.compile(rf"{EDITIONS}(?P<x>[^，。、；：？！]{{1,4}}?)(?:[訛譌]作?|誤作)(?P<y>\S)")
# 監本脫X字(Y字): the edition lacks X
LACKS = re.compile(rf"{EDITIONS}(?:脫|脱)(?P<x>[^，。、；：？！字]{{1,4}})字")
# after a statement that names its edition, more of the same edition's readings follow without the name: 「監本禜訛宗酺訛歩」,
# 「監本鄉訛卿又脫師字」 (酺, 師: 14 such statements over the three 注疏)
MORE_READS = re.compile(r"[訛譌]作?(?P<y>\S)")
MORE_LACKS = re.compile(r"又?(?:脫|脱)(?P<x>[^，。、；：？！字]{1,4})字")
# who makes a statement, as printed: the last scholar the editors quote before it (敖繼公云, 李光地云, 集説曰) at the start of a
# clause, or the last signature (臣召南按 → 臣召南); none where the editors speak unsigned
SPEAKER = re.compile(r"([^\W\d_]{2,5}?)[云曰]")
NOT_A_SPEAKER = re.compile(r"[文疏䟽注註傳記經本字此下上又其則亦乃故言]$|^[此又其則亦乃故言按案依據据今是]|[經注疏䟽則]")
MAX_LEMMA = 4
CONFIDENCE = 0.9


def collation_glosses(doc, unit, body: Body) -> list[Gloss]:
    """The emendation and variant statements of one 考證 entry, in entry order."""
    pieces = report_pieces(unit.text, body.texts)
    lemma = [(p, unit.text[p.start:p.end]) for p in pieces if p.lemma]
    if not lemma:
        return []
    found: list[Gloss] = []
    taken: list[tuple[int, int]] = []
    for p in pieces:
        if p.kind != COMMENT_KIND or p.lemma:
            continue
        for kind, x_start, x, end in _statements(unit.text, p.start, p.end, lemma):
            if any(s < end and x_start < e for s, e in taken):
                continue
            taken.append((x_start, end))
            gloss = _gloss(unit, kind, x_start, x, end, lemma, body)
            gloss.said_by = said_by(unit, x_start)
            found.append(gloss)
    return sorted(found, key=lambda g: g.note_start)


def said_by(unit, start: int) -> str | None:
    """Who the editors' words at `start` are by, as printed (SPEAKER): clauses open after ○, after a signature and at the
    segmenter's marks (unit.marks; without them only the first two)."""
    first = unit.text.find(SEPARATOR)
    if first < 0 or first >= start:
        return None
    who = None
    signatures = list(SIGNATURE.finditer(unit.text, first, start))
    if signatures:
        who = (signatures[-1].start(), signatures[-1].group(0)[:-1])
    for k in sorted({first + 1, *(m.end() for m in signatures), *(k for k in unit.marks if first < k < start)}):
        m = SPEAKER.match(unit.text, k)
        if m and m.end() <= start and not NOT_A_SPEAKER.search(m.group(1)) and (who is None or k > who[0]):
            who = (k, m.group(1))
    return who[1] if who else None


def _statements(text: str, start: int, end: int, lemma: list) -> list[tuple[str, int, str, int]]:
    """(type, where the statement starts, its lemma, where it ends) of each formula in text[start:end]."""
    out = []
    for m in EMEND.finditer(text, start, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x:
            out.append(("emendation", x_start, x, _statement_end(text, m.start("y"), len(x), end)))
    for m in EDITION_AFTER.finditer(text, start, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x:
            out.append(("variant", x_start, x, _statement_end(text, m.start("y"), len(x), end)))
    for m in EDITION_BEFORE.finditer(text, start, end):
        if _in_lemma(m.group("x"), lemma):
            out.append(("variant", m.start(), m.group("x"), _statement_end(text, m.start("y"), len(m.group("x")), end)))
    for m in LACKS.finditer(text, start, end):
        if _in_lemma(m.group("x"), lemma):
            out.append(("variant", m.start(), m.group("x"), m.end()))
    named = min((s for kind, s, _x, _e in out if kind == "variant"), default=None)
    if named is None:
        return out
    for m in MORE_READS.finditer(text, named, end):
        x_start, x = _lemma_before(text, start, m.start(), lemma)
        if x and not re.search(rf"{EDITION}$", text[start:x_start]):  # 監本X訛Y itself is named above
            out.append(("variant", x_start, x, _statement_end(text, m.start("y"), len(x), end)))
    for m in MORE_LACKS.finditer(text, named, end):
        if _in_lemma(m.group("x"), lemma) and not re.search(rf"{EDITIONS}$", text[start:m.start()]):
            out.append(("variant", m.start(), m.group("x"), m.end()))
    return out


def _lemma_before(text: str, start: int, at: int, lemma: list) -> tuple[int, str]:
    """The longest word right before `at` (up to MAX_LEMMA characters, not across a mark or the piece's start) that the
    lemma holds: (where it starts, it), or (at, "")."""
    for k in range(max(start, at - MAX_LEMMA), at):
        x = text[k:at]
        if not any(c in PUNCTUATION_MARKS for c in x) and _in_lemma(x, lemma):
            return k, x
    return at, ""


def _statement_end(text: str, y: int, n: int, end: int) -> int:
    """The statement ends after its replacement, read as long as the word it replaces (朝當作祭, 咸陽二字當作陽城: the
    print gives no other bound), and never past the piece."""
    return min(y + n, end)


def _in_lemma(x: str, lemma: list) -> bool:
    return bool(x) and any(x in stretch for _p, stretch in lemma)


def _gloss(unit, kind: str, x_start: int, x: str, end: int, lemma: list, body: Body) -> Gloss:
    # the last stretch that holds the word: an entry quotes the 經 to say where, then the 注 or 疏 it corrects
    # (庖人掌共六畜六獸六禽疏六禽之内…○禽監本訛畜: the 疏's 禽)
    for p, stretch in reversed(lemma):
        at = stretch.find(x)
        if at < 0:
            continue
        found = body.locate_word(stretch, at, len(x), p.kind)
        if found is None:
            return Gloss(note_start=x_start, note_end=end, text=unit.text[x_start:end], type=kind, lemma=x, base_seq=None,
                         lemma_start=None, lemma_end=None, confidence=CONFIDENCE,
                         reason="unanchored: no stretch of the entry's lemma around it is in this juan's body verbatim")
        source, offset = found
        return Gloss(note_start=x_start, note_end=end, text=unit.text[x_start:end], type=kind, lemma=x,
                     base_seq=source.seq, lemma_start=offset, lemma_end=offset + len(x), confidence=CONFIDENCE)
    raise ValueError(f"{x!r} is not in the lemma of {unit.text!r}")
