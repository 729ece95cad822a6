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

from pipeline.kaozheng import SEPARATOR, SIGNATURE, Body, report_pieces, statements
from pipeline.model import Gloss
from pipeline.people import person

# who makes a statement, as printed: the last scholar the editors quote before it (敖繼公云, 李光地云, 集説曰) at the start of a
# clause, or the last signature (臣召南按 → 臣召南); none where the editors speak unsigned
SPEAKER = re.compile(r"([^\W\d_]{2,5}?)[云曰]")
NOT_A_SPEAKER = re.compile(r"[文疏䟽注註傳記經本字此下上又其則亦乃故言]$|^[此又其則亦乃故言按案依據据今是]|[經注疏䟽則]")
CONFIDENCE = 0.9


def collation_glosses(doc, unit, body: Body) -> list[Gloss]:
    """The emendation and variant statements of one 考證 entry (kaozheng.statements), in entry order, each with who
    makes it (said_by, and the person the speaker table knows by that name in the book)."""
    pieces = report_pieces(unit.text, body.texts)
    lemma = [(p, unit.text[p.start:p.end]) for p in pieces if p.lemma]
    found = []
    for st in statements(unit.text, pieces):
        gloss = _gloss(unit, st.type, st.start, st.lemma, st.end, lemma, body)
        gloss.said_by = said_by(unit, st.start)
        gloss.said_by_name = person(gloss.said_by, doc.book) if gloss.said_by else None
        found.append(gloss)
    return found


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
