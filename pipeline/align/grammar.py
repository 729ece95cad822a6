"""The formula grammar of Zheng Xuan's commentary: cut a note into statements, read each one.

Input is a note's clean text and its restored marks (k -> mark after the k-th character, the
segmenter's output). Output is a list of `Candidate`s: a note span, a type, the lemma *as the
note writes it* and how sure the reading is. Anchoring the lemma in the base text is
pipeline/align/'s job; the only thing this module asks of the base text is a predicate
`in_base(s) -> bool` (variant-folded substring test), which it needs to decide where an
unmarked lemma ends (「梱齊等之也」, 「當楅楅正南之東西」, 「古文闑為𣙗閾為蹙」).

Formulas (X = lemma, Y = gloss; 為 and 爲 both accepted everywhere):

    definition   X，Y也 · X，Y · XX… (repeat, 「當楅楅正南」) · XY也 (short, unmarked)
    equivalence  X猶Y (也)
    reference    X謂Y · X，謂Y · X者，謂Y · Y謂之X · Y曰X
    explanation  X者，… · 言X者，… · 言X，… · 又言X，…
    sound        X之言Y
    reading      X讀為Y · X讀如Y · X讀曰Y · X讀若Y
    emendation   X當為Y · X當作Y (· 或曰X當為Y)
    variant      古文X作Y · 今文X為Y · 古文X皆作Y · 古文X為Y Z為W … · 今文無X · 古文曰Q
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable

from pipeline.align.heads import head_probability, is_formula_next
from pipeline.lexicon_file import ritual_roles
from pipeline.model import SENTENCE_FINAL, spans_from_marks

FINAL = SENTENCE_FINAL | {"；"}  # a note's statements also end at ；
HEAD_THRESHOLD = 0.5  # P(mark after an unmarked head) above which it is read as 「X，Y」
WEI = "為爲"

# words that open a statement but are not part of the lemma
LEAD_STRIP = ("或曰", "又", "亦", "凡")
# Zheng quoting an earlier commentator, or speaking in his own name after one (the 周禮注:
# 「鄭司農云：隂禮，婦人之禮」, 「𤣥謂六宮，謂后也」): the gloss's head follows. Found on train
# juan of KR1d0003 (sample of docs/glosses.md: 8 of 20 blocks); 𤣥 is the Siku form of 玄.
QUOTED = "鄭司農|杜子春|鄭大夫|賈侍中|許叔重"  # the earlier commentators the 周禮注 names
_QUOTED_NAMES = frozenset(QUOTED.split("|"))
ATTRIBUTION = re.compile(rf"(?P<who>{QUOTED}|或)(?:云|曰)|(?P<own>[𤣥玄])謂"
                         # 「杜子春讀苦為盬」, 「杜子春挈讀為騂」, 「鄭司農工讀爲功」 (周禮注疏, train): the man reads a word
                         # himself, no 云; the name is stripped, the reading left to the formula readers
                         rf"|(?P<reads>{QUOTED})(?=.{{0,2}}讀|.{{1,2}}當[為爲作])")
# another edition: 古文/今文 (儀禮), 故書 (the 周禮's old text: 「故書滯爲癉」); 仐文 is the 儀禮注疏's misprint of 今文 in 有司徹
# (「仐文壹為一」, 「仐文摭為揲」: KR1d0028_017, where 仐 stands for 今 six times; stop 75)
EDITION = ("古文", "今文", "仐文", "故書")
_EDITION_AT = "|".join(EDITION)  # (the same words as a pattern: soft_marks, read_variant)
DEMONSTRATIVE = ("此", "凡", "其")
# what an emendation or a reading puts in the text's place: 「X當為Y」, 「X讀為Y」 — after it the note may
# write the lemma as it reads it (「此醴當作禮。禮賓者，謝其自勤勞也」 of the passage's 醴賓); 讀如 / 讀若 give a
# sound only and change no word
SUBSTITUTES = re.compile(r"當[為爲作]|讀[為爲曰]")
# what is said of the emended character, not of the word: 「祝當為注，讀如注病之。注，聲之誤也」, 「繅，古字也。藻，今字也」
ABOUT_THE_CHARACTER = re.compile(r"[聲字]之[誤悞]也|[古今]字也")


@dataclass
class Candidate:
    start: int  # note span
    end: int
    type: str
    lemma: str  # as written in the note (may be empty for 古文曰 quotes: see `quote`)
    lemma_note_start: int | None  # where the lemma stands in the note (None if it doesn't)
    confidence: float
    quote: str | None = None  # 古文曰/今文曰: the other edition's wording, to be matched fuzzily
    lacks: str | None = None  # 今文無X / …無X: the base word the other edition lacks
    exact_only: bool = False  # the lemma must stand verbatim in the base (no fuzzy quote match)
    optional: bool = False  # no formula word: a gloss only if the lemma anchors, else dropped
    same_as_prev: bool = False  # the lemma is the previous gloss's (古文爲Y after X當作Z)
    gapped: bool = False  # the note quotes the passage leaving words out (掌其戒令賞罰): see base_pieces
    why: str | None = None  # what to add to the reason if the lemma stays unanchored
    subject: bool = False  # a person of the rite read as the head of its own clause: chance evidence only (read_unmarked_head)


def soft_marks(text: str, marks: dict[int, str]) -> dict[int, str]:
    """Add the cuts the formulas make even where the segmenter left no mark.

    - after 也 when more text follows and no mark is there (a gloss ends with 也);
    - before 古文 / 今文 / 或曰 (a variant or another reading always opens a statement).
    Marks added here are "。"; existing marks are kept as they are.
    """
    out = dict(marks)
    n = len(text)
    for i, ch in enumerate(text):
        if ch == "也" and i + 1 < n and (i + 1) not in out:
            nxt = text[i + 1]
            if nxt not in "者與乎哉":
                out[i + 1] = "。"
    for m in re.finditer(f"{_EDITION_AT}|或曰", text):
        k = m.start()
        if k > 0 and k not in out:
            out[k] = "。"
    return out


def sentences_of(text: str, marks: dict[int, str]) -> list[list[tuple[int, int, str | None]]]:
    """Group the clauses into sentences (cut at final marks)."""
    sents: list[list[tuple[int, int, str | None]]] = []
    cur: list[tuple[int, int, str | None]] = []
    for span in spans_from_marks(len(text), marks, final_only=False):
        cl = (span.start, span.end, span.mark)
        cur.append(cl)
        if cl[2] in FINAL:
            sents.append(cur)
            cur = []
    if cur:
        sents.append(cur)
    return sents


def longest_base_prefix(s: str, in_base: Callable[[str], bool], max_len: int = 8) -> int:
    """Length of the longest prefix of s that stands in the base (0 if none)."""
    best = 0
    for k in range(1, min(len(s), max_len) + 1):
        if in_base(s[:k]):
            best = k
        elif k > best + 1:
            break
    return best


def without_zi(x: str, in_base) -> str:
    """「X字當為Y」, 「X字或為Y」 name the character X (「付字當為拊」, 「蕭字或為莤」, 「衍字當為延」: train juan
    of the 周禮注疏, stop 59): the lemma is X where the passage has it and not X字."""
    if len(x) >= 2 and x.endswith("字") and not in_base(x) and in_base(x[:-1]):
        return x[:-1]
    return x


# 讀皆為 / 讀皆如, "read, here as everywhere, as" (「卒讀皆為倅」, 「犆讀皆如直道而行之直」: KR1d0053_062, _029, train); 讀當為
# "should be read as" (「九㲈讀當為大韶」, 「鄭司農云䵫讀當為纁」: KR1d0003_022, _008, train — the lemma was 九㲈讀, unanchored);
# 讀亦為 "read, here too, as" (「施讀亦為弛也」: KR1d0003_016, _015, train, stop 69's whole juan 16)
_KEYWORDS = re.compile(
    r"(?P<kw>猶|之[為爲]言(?!也)|之言|讀[皆當亦]?[為爲如曰若]|當[為爲作]|謂之|謂|一名(?![也矣])|者)"
)
# adverbs a reader steps over between a word and its formula or the 作 / 為 of its other reading (X亦猶Y, X皆當作Y;
# 「今文觶又爲觚」, KR1d0030_008#99, train: 觶, not 觶又)
_ADVERBS = "亦皆或竝並又"
_GOVERNS = frozenset("不無未言非弗勿毋其之所以而于於與及若則")  # words that govern what follows
_FORMULA_AT = re.compile(r"猶|之言|讀[為爲如曰若]|當[為爲作]|謂(?!之)|者")
NUMERALS = frozenset("一二三四五六七八九十")
_CONJUNCTIONS = frozenset("而乃則且然故")  # before 猶 mostly "and still", "then still"
_ASKS = ("然則", "況", "夫以", "豈")  # open a question or a rhetorical one: 「然則…者與」, 「況…者乎」
NEGATIONS = frozenset("無不非未弗勿毋莫")  # 三者 "the three": a head, unlike 使者 / 擯者
# X者 that are words of the note, not lemma heads: 古者 (of old), 今者, 或者 (perhaps) ...
NOT_LEMMA_ZHE = frozenset(("古", "今", "或", "昔", "然", "所以", "所", "此", "是", "凡"))


def quoted_speaker(note: str, start: int) -> str | None:
    """Who the note says a statement starting at `start` is by: the attribution that opens it
    (「鄭司農云隂禮婦人之禮」) or ends right before it, in a clause of its own (「鄭司農云：政，謂軍政也」) — 鄭司農,
    杜子春, 鄭大夫, 賈侍中, 許叔重 as printed, 或 (someone), 𤣥 (Zheng in his own name after those he quotes:
    「𤣥謂六宮，謂后也」); None where the statement names nobody (the 注's own words, or a quotation going on)."""
    m = ATTRIBUTION.match(note, start) or next(
        (m for m in ATTRIBUTION.finditer(note, max(0, start - 5), start) if m.end() == start), None)
    return (m.group("who") or m.group("own") or m.group("reads")) if m else None


def _strip_lead(text: str, pos: int, end: int, clause_ends=(), in_base=None) -> int:
    """Skip 或曰 / 又 / 亦 / 凡 that open a statement (not when a mark follows: 「又，復。」, nor when
    the passage itself has the lead and the character after it: 「凡用邦財者，謂軍旅」 quotes
    「與凡用邦財者之幣」, 「又入者，祝也」 the passage's 又入; two characters before stop 59, which cut
    又入 / 又哭 to 入 / 哭 on train juan), and an attribution (鄭司農云 …, 𤣥謂)."""
    m = ATTRIBUTION.match(text, pos, end)
    if m and m.end() < end:
        pos = m.end()
    if text.startswith("此", pos) and in_base is not None:
        # 「此庠，謂鄉學也」, 「此內朝，路寢門外之正朝也」 (KR1d0053_013, _029, train): "this X (here) is Y" — the head is
        # X, a word of the passage closing the first clause by itself, and Y a short 「謂…」 or 「…也」; a longer Y is a
        # statement about this case (「此主皮之射，與天子大射張皮侯…」, 「此帶牡麻，兼男子小功以下…」: KR1d0040, read at stop 65)
        ce = next((c for c in clause_ends if c > pos + 1), end)
        y = text[ce:end]
        if ce < end and ce - pos - 1 <= 6 and in_base(text[pos + 1 : ce]) and not in_base(text[pos:ce]) \
                and len(y) <= 12 and (y.startswith("謂") or y.endswith("也")):
            return pos + 1
        # 「此士謂胥徒之長也」 (KR1d0028_013#254, 儀禮注疏 juan 13; stop 75): the same with 謂 straight after X, no mark between —
        # over the thirteen books +14 outside the held-out juan, read, right (「此秉謂刈禾盈手之秉也」 in the 儀禮's prints, 「此大人謂君也」, 「此適子謂世子弟也」)
        w = text.find("謂", pos + 2, min(ce, pos + 8))
        if w > 0 and not text.startswith("謂之", w) and in_base(text[pos + 1 : w]) and not in_base(text[pos:w]) \
                and len(text[w:ce]) <= 12:
            return pos + 1
    if text[pos : pos + 1] in ("猶", "自") and in_base is not None:
        # 「…，無禮，猶儐之者，尊王使也」, 「使者既不先反，猶拜送者，…」 (KR1d0028_010#33, _009#26; stop 74): "still" before an
        # explanation's head that quotes the passage — the head is what follows it (not 「猶與者」, the passage's own 猶與); so
        # "himself": 「自取脯者，尊主人之賜」 (KR1d0028_002#71, stop 74)
        ce = next((c for c in clause_ends if c > pos + 1), end)
        if text[ce - 1] == "者" and ce - pos - 2 >= 2 and in_base(text[pos + 1 : ce - 1]) and not in_base(text[pos : ce - 1]):
            return pos + 1
    if text.startswith("謂之", pos) and in_base is not None:
        # 「謂之北宫者，繫于王言之」 (KR1d0003_007#147, tune juan; stop 76): why the passage calls it X — the head is X, not 之X
        # where the passage has 之X too (王之北宫)
        ce = next((c for c in clause_ends if c > pos + 2), end)
        if text[ce - 1] == "者" and ce - pos - 3 >= 1 and in_base(text[pos + 1 : ce - 1]):
            return pos + 2
    if text.startswith("或謂", pos) and not text.startswith("或謂之", pos) and pos + 2 not in clause_ends:
        # 「或謂委貌為𤣥冠」, 「或謂及祖，至祖廟也」 (KR1d0028_001#451, KR1d0003_026#16; stop 74): "some say", then the gloss — 或 is
        # no head (「或謂之X」 "some call it X" is read as before)
        return pos + 2
    for lead in LEAD_STRIP:
        k = pos + len(lead)
        if text.startswith(lead, pos) and k < end and (k not in clause_ends or lead == "或曰"):
            if lead != "或曰" and in_base is not None and k + 1 <= end and in_base(text[pos : k + 1]):
                return pos
            return k
    return pos


def _run_in_head(text: str, s: int, y: str, in_base) -> int | None:
    """Where the head of a 故書/古文/今文 statement without X starts when the segmenter ran it into the
    clause before: 「…則令正月要傅别。故書作傅辨」 (KR1d0003_003#29, train) — the words right before
    the statement are a word of the passage as long as the other edition's Y and one character off it
    (傅别 / 傅辨). None when they are not."""
    k = s - len(y)
    if len(y) < 2 or k < 0:
        return None
    x = text[k:s]
    return k if sum(a != b for a, b in zip(x, y)) == 1 and in_base(x) else None


def read_variant(text: str, s: int, e: int, in_base, out: list[Candidate], bare: bool = False) -> bool:
    """古文/今文 statements starting at s (the 古文/今文 itself), up to e. True if one was read.

    bare: the statement has no 古文/今文 head (「搔或為蚤，揃或為鬋」): read the X或為Y chain only.
    """
    if bare:
        p = s
    else:
        m = re.match(rf"(?:{_EDITION_AT})(?:[亦皆或]*)", text[s:e])
        if not m:
            return False
        p = s + m.end()
    rest = text[p:e]
    if not rest:
        return False
    if rest[0] == "無" and not bare:  # 今文無X
        x = text[p + 1 : e]
        if len(x) > 1:
            x = x.rstrip("也字") or x
        if x:
            k = longest_base_prefix(x, in_base) or len(x)
            out.append(Candidate(s, e, "variant", x[:k], p + 1, 0.85, lacks=x[:k]))
            return True
        return False
    if rest[0] == "曰" and not bare:  # 古文曰Q: the other edition's wording of a stretch of the passage
        q = text[p + 1 : e]
        if not q:
            return False
        # 「今文曰沐浴搔或為蚤揃或為鬋」 (KR1d0030_025, train): the quote ends where an 「X或為Y」
        # chain on a word of the passage begins; the chain is read on its own
        for j in range(1, len(q)):
            m = re.match(rf"(.{{1,2}}?)或[作{WEI}]", q[j:])
            if m and in_base(m.group(1)):
                out.append(Candidate(s, p + 1 + j, "variant", q[:j], p + 1, 0.7, quote=q[:j]))
                read_variant(text, p + 1 + j, e, in_base, out, bare=True)
                return True
        out.append(Candidate(s, e, "variant", q, p + 1, 0.7, quote=q))
        return True
    # chains: X(皆|或|亦)?(作|為)Y [X'(作|為)Y' ...]
    found = False
    q = p
    if not bare and rest[0] in "作為爲" and len(rest) > 1:
        x = _run_in_head(text, s, rest[1:].rstrip("也"), in_base)
        if x is not None:
            out.append(Candidate(s, e, "variant", text[x:s], x, 0.7))
            return True
        # 「綏亦當作挼，古文爲肵」: no X, the other edition's reading of the word just glossed
        out.append(Candidate(s, e, "variant", "", None, 0.7, same_as_prev=True))
        return True
    while q < e:
        seg = text[q:e]
        best = None
        for mm in re.finditer(rf"[{_ADVERBS}當]*[作{WEI}]", seg):
            x = without_zi(seg[: mm.start()], in_base)
            if not x and mm.end() > 1:
                # 「今文竝作併」: the lemma is itself an adverb-like word; 「今文竝皆為併」 (KR1d0030_012#213, train; stop 71):
                # the 皆 after it is the formula's "every", not the lemma's
                run = seg[: mm.end() - 1]
                for cand in (run.rstrip("皆亦或"), run):
                    if cand and in_base(cand):
                        x = cand
                        break
            if not x or len(x) > 6:
                if len(x) > 6:
                    break
                continue
            if in_base(x):
                best = (x, mm)
                break
            if best is None:
                best = (x, mm)  # first reading, kept if nothing anchors
        if best is None:
            break
        x, mm = best
        y_start = q + mm.end()
        y_len = max(1, len(x))
        # Y runs to the next X'作/為 that anchors, else to the end
        y_end = min(e, y_start + y_len)
        nxt = text[y_end:e]
        m2 = re.match(rf"(.{{1,6}}?)[{_ADVERBS}]*[作{WEI}]", nxt)
        if not (m2 and in_base(m2.group(1))):
            y_end = e
        out.append(Candidate(s if not found else q, y_end, "variant", x, q, 0.9 if in_base(x) else 0.6, exact_only=True))
        found = True
        q = y_end
    return found


def _better_head(seg: str, k1: int, k2: int, base_count, first_sentence: bool) -> bool:
    """Is seg[:k2] a likelier head than the marked seg[:k1]? (the mark may be misplaced)"""
    # The note repeats the lemma to gloss it (某君，某國君也; 辭，辭其自降): that is no run-on.
    # Otherwise trust the base: a verbatim stretch running on across the mark is one quote.
    # (Measured on train notes with the edition's own marks this misfires on ~6 of ~3,000
    # glosses; with predicted marks it recovers the lemmas a misplaced comma cuts.)
    if seg[k1] in seg[:k1] or k1 > 2:
        return False  # a clause of three or more base characters is a lemma of its own
    # A one-character run-on is only trusted when the gloss then echoes the head, as Zheng's
    # definitions do (還，右還君之右也 → 還右; 餘，獲餘算也 → 餘獲), not in 「名，書文也」.
    return k2 - k1 >= 2 or (k2 < len(seg) and seg[k2] == seg[0])


@dataclass
class Statement:
    """One statement text[s:e] being read: a sentence, or a clause that opens a formula.

    s0 is where it starts in the note; s where its head starts (after a leading 又 / 凡 …);
    `inner` the clause boundaries inside it, `first_end` the end of its first clause.
    """

    text: str
    s0: int
    s: int
    e: int
    clause_ends: list[int]
    inner: list[int]
    first_end: int
    in_base: Callable[[str], bool]
    base_count: Callable[[str], int]
    sentence_start: bool
    first_sentence: bool
    out: list[Candidate]
    zhushu: bool = False  # a 注 of a 注疏: the head classifier's 注疏 weights (heads.py)
    commas: frozenset[int] = frozenset()  # the clause boundaries marked ， (not 、 listing words, not ： before speech)
    listing: frozenset[int] = frozenset()  # the clause boundaries marked 、 (words listed)

    @property
    def seg(self) -> str:
        return self.text[self.s : self.e]

    def add(self, typ: str, lemma: str, lemma_at: int | None, confidence: float, **kw) -> bool:
        self.out.append(Candidate(self.s0, self.e, typ, lemma, lemma_at, confidence, **kw))
        return True


_OTHER_TEXT = re.compile(rf"(?P<book>今?(?:周禮|儀禮|禮|月令))(?:[{_ADVERBS}]*)(?P<x>.{{1,4}}?)[{_ADVERBS}]*[作{WEI}]")


def read_edition_variant(st: Statement) -> bool:
    """古文/今文 X, and X或為Y / X或作Y: another edition's reading."""
    text, s, e, seg = st.text, st.s, st.e, st.seg
    if seg.startswith(EDITION):
        read_variant(text, s, e, st.in_base, st.out)
        return True
    # the 禮記注 citing another text's wording: 「周禮蔞作柳」, 「今禮皆作騰」, 「今月令疆或為璽」
    m = _OTHER_TEXT.match(seg)
    if m and st.in_base(m.group("x")) and not any(s < b < s + m.end() and b != s + m.end("x") for b in st.inner):
        return read_variant(text, s + m.end("book"), e, st.in_base, st.out, bare=True)
    if st.out and re.match(rf"(?:今禮|周禮|儀禮|今月令)[{_ADVERBS}]*[作{WEI}]", seg):
        return st.add("variant", "", None, 0.7, same_as_prev=True)  # 「揚，舉也。今禮皆作騰」
    m = re.match(rf"(.{{1,4}}?)字?或[作{WEI}]", seg)
    # a mark may stand between X and 或為 (「延，或爲誓」), not inside either
    # (not 其: 「其或為母，謂妾子也」 "some of them, for their mother" — KR1d0030_019#79, 集釋 juan 19, train; stop 72: the one 其 so read
    # over the thirteen books, in four prints of the note)
    if m and m.group(1) != "其" and st.in_base(m.group(1)) and not any(s < b < s + m.end() and b != s + m.end(1) for b in st.inner):
        return read_variant(text, s, e, st.in_base, st.out, bare=True)
    return False


def skip_concessive(st: Statement) -> bool:
    """「雖不歌，猶鼓琴瑟…」, 「雖有親之大喪，猶為輕服者…」: a clause opened by 雖 "although" is the note's own
    concession, no head (the 猶 after it is "still", not an equivalence) — unless it quotes the passage
    (「雖未許嫁，年二十，亦為成人矣」 of 女雖未許嫁年二十而笄). Found on train juan of the three books (KR1d0053_029, _042 …)."""
    return st.seg.startswith("雖") and not st.in_base(st.text[st.s : st.first_end])


# a book or speaker cited by name, 「射義曰：…」, 「詩云…」, 「又曰…」: what follows is another text's
# wording, not a gloss of this passage (a name read as a lemma: 射 of 射義曰, 緇衣 of 緇衣首章曰).
# Unmarked, only names ending like a book's title or a speaker (…詩 …書 …記 …禮 …義 …職 …子);
# otherwise Y曰X is a reference (「止病曰療」, 「諸侯春見曰朝…」). Found on train juan of both 注疏.
_CITED_BY = "詩書傳記禮篇職章義令易語經志子"
_CITATION = re.compile(r"(.{0,6}?)[曰云]")


def _cites_a_book(clause: str) -> bool:
    """「特牲饋食禮曰」, 「春秋傳曰」, 「詩云」: a clause that ends naming the book the rest of its sentence quotes."""
    m = re.fullmatch(r"(?:故|又|是以|案)?(.{1,7})[曰云]", clause)
    return bool(m and m.group(1)[-1] in _CITED_BY and not ATTRIBUTION.match(clause))


def skip_citation(st: Statement) -> bool:
    m = _CITATION.match(st.text, st.s, st.first_end)
    if not m:
        return False
    name, after = m.group(1), m.end()
    if any(st.s < b < after for b in st.inner):
        return False
    said = st.text[after : st.first_end - 1]  # 云X者 / 曰X者: X
    if not name and st.text[st.first_end - 1] == "者" and said and st.in_base(said if st.text[after - 1] == "云" else "曰" + said):
        # 「云夫人者，以致辭當稱寡小君」, 「云君子子者，則父在也」 (KR1d0030_013#83, _018#184, train; stop 70): why the passage
        # says X, as 「此云X者」 (read_zhe); 「曰送爵者，節主人拜」 (KR1d0030_026#231, train; stop 71): the passage's own 曰X
        # explained — no citation either
        return False
    if after == st.first_end and name and len(name) <= 4 and name[-1] not in _CITED_BY and not st.in_base(name):
        # 「羊曰：柔毛」, 「火熟曰：堲」 (KR1d0030_028#142, KR1d0053_006#129, train): a mark the
        # segmenter put after 曰 as before a quote; a short word of the passage after it is Y曰X
        x = st.text[after : next((b for b in st.inner if b > after), st.e)]
        if 1 <= len(x) <= 3 and st.in_base(x) and not says(name, x):
            st.add("reference", x, after, 0.7)
    if not name or after == st.first_end:
        return True  # 「又曰…」, 「射義曰：」 (曰 closing its clause): a citation
    return name[-1] in _CITED_BY and after - st.s <= 7 and st.first_end - after > 3


def read_yan(st: Statement) -> bool:
    """言X者 / 又言X / 言X，…: the note remarks on the wording of the passage."""
    text, s, first_end = st.text, st.s, st.first_end
    # (但 / 乃 / 正 / 更 / 又 / 互 / 合 / 獨 / 於是 / 至此 before 言: 「合言鼎簋者…」, 「但言X者」, 「於此言X者」 — KR1d0003_038#167 and the
    # count over the thirteen books' 注, train; stop 71)
    # (a place in the text, then an adverb: 「於是乃言賓拜，明介從拜也」, 「至此又言興者」 — KR1d0030_013#96, _008, train; stop 73)
    m = re.match(r"(?:不|必|故|特|復|皆|今|此|經|上|亦|但|乃|正|更|又|互|合|獨|(?:於是|于是|至此|于此|於此)[乃又更復始獨]?)?言", st.seg)
    if not m or st.seg[m.end() - 1 :].startswith("言之"):
        return False
    if first_end - s >= 2 and st.in_base(text[s:first_end]):
        return False  # 「言偃，孔子弟子子游」 (KR1d0053_021#11, 禮記 juan 21, train; stop 73): the passage's own 言偃, a name, not 言X
    neg = st.seg.startswith("不")
    p = s + m.end()
    zhe = text.find("者", p, first_end + 1)
    if zhe != -1 and zhe - p <= 8 and zhe > p:
        return st.add("explanation", text[p:zhe], p, 0.85, exact_only=False,
                      why="the note remarks that the passage does not say it (不言X者)" if neg else None)
    if not neg and first_end - p <= 8:
        x = text[p:first_end]
        if x and st.in_base(x):
            return st.add("explanation", x, p, 0.8)
        k = longest_base_prefix(text[p:first_end], st.in_base)
        # one base character after 言 only when it is the whole clause (「言X，…」): with the
        # edition's marks on the train split of all three books 「言X…」 clauses of 3–4 characters
        # read this way gave 14 one-character lemmas, 12 of them wrong (言孔子死 → 孔, 言車多少 → 車)
        if k >= 2 or (k == 1 and first_end - p == 1):
            return st.add("explanation", text[p : p + k], p, 0.5)
    return neg  # 不言… without a lemma: nothing else to read here


_READ_X_AS = re.compile(rf"讀(.{{1,3}}?)(當)?[{WEI}如作]")


# 「所謂福者，謂受鬼神之祐助也」, 「則所云古者，謂殷時」, 「此所云戒者，謂…」, 「古之所謂先生者，非為其長於我也」 (KR1d0053_049#12, _012#156,
# KR1d0040_007#15, KR1d0057_004#118; stop 72, listed over the thirteen books: 9 unread, 2 read): "what (the passage) calls X" explains X;
# so does 所以X者, "that it does X (here)" (「此所以不宿戒者，謂前期三日之戒」, KR1d0030_015#371, train; stop 73: 7 over the books)
_SO_CALLED = re.compile(r"(?:此|則|世|今|古之|向之|今之|世之)?所[云謂言以](?P<x>[^，。、；：]{1,6}?)者")


def read_so_called(st: Statement) -> bool:
    """所云X者 / 所謂X者 at the head of a statement: an explanation of the passage's X."""
    m = _SO_CALLED.match(st.text, st.s, st.first_end)
    if not m or m.end() != st.first_end or not st.in_base(m.group("x")):
        return False
    typ = "reference" if st.text.startswith("謂", st.first_end) else "explanation"
    return st.add(typ, m.group("x"), m.start("x"), 0.8)


def read_du_x_as_y(st: Statement) -> bool:
    """讀X為Y / 讀X當為Y opening a statement (「杜子春讀苦為盬」, 「鄭大夫讀梗為亢」, 「杜子春讀肆當爲肄」: the 周禮注's
    earlier readers, train juan): a reading or emendation of X, where X is a word of the passage."""
    m = _READ_X_AS.match(st.text, st.s, st.first_end)
    if not m or not st.in_base(m.group(1)):
        return False
    return st.add("emendation" if m.group(2) else "reading", m.group(1), st.s + 1, 0.85)


def skip_misplaced_mark(st: Statement) -> bool:
    """「梱，復謂矢至…」: a mark misplaced inside the head of a formula (梱復謂…) is ignored.
    Adjusts the statement for the readers after it; reads nothing itself."""
    if st.inner and st.first_end - st.s <= 2 and st.in_base(st.text[st.s : st.first_end]):
        k = longest_base_prefix(st.seg, st.in_base)
        if k > st.first_end - st.s and _FORMULA_AT.match(st.text, st.s + k):
            st.inner = st.inner[1:]
            st.first_end = st.inner[0] if st.inner else st.e
    return False


def _one_head_cut(z: str, y: str, in_base) -> bool:
    """「衣帶，下尺者，要也」, 「絺綌，紵者，當暑之䙝衣也」, 「其葬，服斬衰者，…」 (KR1d0030_019#151, KR1d0053_045#26,
    _033#47, train): Z，Y者 where ZY stands whole in the passage is one head of an X者 explanation that a mark cut
    (the segmenter's, or an edition's following the 經's own commas), not two heads sharing the gloss — unless Z or
    Y is a sentence of its own (「此四者，教之所由興也者」) or Y repeats Z's last word to gloss it (「九夫爲井，井者」)."""
    return (bool(z and y) and not z.endswith(("也", "者")) and not y.endswith("也")
            and not (len(z) > len(y) and z.endswith(y)) and in_base(z + y))


def _too_long(x: str, in_base) -> bool:
    """A head is eight characters at most — up to fourteen where it quotes the passage verbatim (「歳時齊戒沐浴而躬朝之，謂將祭祀、
    卜牲」, KR1d0053_048#12, train; stop 73)."""
    return len(x) > 8 and not (len(x) <= 14 and in_base(x))


def read_keyword_formula(st: Statement) -> bool:
    """X猶Y, X之言Y, X謂Y, X讀為Y, X當為Y, X者…, Y謂之X: the first formula keyword of the statement."""
    text, s0, s, e = st.text, st.s0, st.s, st.e
    for km in _KEYWORDS.finditer(st.seg):
        kw = km.group("kw")
        k = s + km.start()
        x = text[s:k]
        b = st.first_end
        if kw == "者" and [c for c in st.inner if s < c < k] == [b] and b in st.commas and _one_head_cut(
                text[s:b], text[b:k], st.in_base):
            pass  # 「衣帶，下尺者，要也」: the whole X is the head
        elif any(s < c < k for c in st.inner):
            # 「封，亦當爲窆」: a mark after X, then only an adverb before the keyword
            if kw == "謂之" and text[k - 1] not in "可不":
                # 「内女，王同姓之女，謂之内宗」 (KR1d0003_017#46, train): Y謂之X names its lemma after it, however
                # long Y runs (not 「亦可謂之母乎」, 「不謂之…」); the statement's head is read as before
                _read_called(st, k, strip="也")
                return False
            if kw in ("謂之", "者") or not (s < b < k and all(ch in _ADVERBS for ch in text[b:k])) or any(
                    b < c < k for c in st.inner):
                return False  # the keyword is past the first clause: not a lemma-headed formula
            x = text[s:b]
        if kw == "者" and not st.in_base(x):
            # 「大者可析謂之薪」, 「弓無縁者謂之弭」 (KR1d0053_017#301, KR1d0030_024#356, train): the 者 belongs to Y
            # of Y謂之X, whose lemma follows, in its clause or opening the next (「小者合束，謂之柴」)
            stop = st.first_end
            if stop < e and text.startswith("謂之", stop):
                stop = next((b for b in st.inner if b > stop), e)
            called = _CALLED_IN_CLAUSE.match(text, k + 1, stop)
            if called and st.in_base(called.group(2)):
                return st.add("reference", called.group(2), called.start(2), 0.85)
            # 「少者曰死，老者曰終」, 「麤者曰薪，細者曰蒸」 (KR1d0003_005#60, train): likewise Y of Y曰X, the name closing the clause
            named = _NAMED_AFTER.fullmatch(text, k + 1, st.first_end)
            if named and st.in_base(named.group(1)):
                return st.add("reference", named.group(1), named.start(1), 0.7)
        if not x:
            y_end = next((b for b in st.inner if b > k), e)
            y = text[k + len(kw) : y_end].rstrip("也")
            if kw.startswith("讀") and s0 < k and y and len(y) <= 4 and st.in_base(y):
                # 「故書作傅辨，鄭大夫讀為符别。杜子春讀為傅别」 (KR1d0003_003#29, train): read back as the passage's
                # own word, which is the lemma, wherever the word glossed before it stands
                return st.add("reading", y, k + len(kw), 0.8)
            if kw.startswith(("當", "讀")) and st.out and s0 < k:
                # 「或曰：當為明視」: the reading or emendation of the word glossed just before
                return st.add("reading" if kw.startswith("讀") else "emendation", "", None, 0.6, same_as_prev=True)
            continue
        if _too_long(x, st.in_base):
            return False
        if kw == "謂之":
            names = _names_in_run(st.text[st.s : st.first_end], st.in_base, "謂之")
            # 「先種後孰謂之穜後種先孰謂之稑」 (KR1d0003_007#151, 周禮 juan 7, a tune juan; stop 76): a run of them with no mark
            # between, as of Y曰X (read_name) — +2 over the thirteen books, nothing lost
            for a, x_at, b in names:
                st.out.append(Candidate(st.s + a, st.s + b, "reference", st.text[st.s + x_at : st.s + b], st.s + x_at, 0.7))
            if names:
                return True
            before = len(st.out)
            _read_called(st, k)  # Y謂之X: the lemma follows
            if len(st.out) == before:
                _read_other_name(st, x, k)
            return True
        if kw == "者":
            if st.in_base(x + "者"):
                continue  # 釋獲者, 執事者: 者 belongs to the lemma
            if text[k + 1 : e] == "也":
                continue  # 「問學學誠者也」: …者也 closes a nominal sentence; no 「X者，」 head
            if x.startswith(_ASKS) and k + 1 < e and text[k + 1] in "乎與歟邪耶" and (k + 2 == e or k + 2 in st.clause_ends):
                return True  # 「然則展禽髙尚者乎」, 「況入君門者乎」 (表記集傳, 禮記集說; stop 67): a question, no 「X者，」 explanation
            if x.startswith("謂") and not x.startswith("謂之") and not st.in_base(x):
                # 「謂養子者，有它故，賤者代之慈已」, 「謂服無親者，當為之主」 (KR1d0030_019, train): "it means X, who …" —
                # the note's reading of the whole passage, no head 謂X to explain (「謂之X者」 explains X: read on).
                # 「謂Y為X者」 says why the passage calls Y X: an explanation of X where X stands in the passage
                # (「謂弟之妻為婦者，卑逺之」, 「謂鎧為甲者」: KR1d0040_011, KR1d0057_006, read at stop 65)
                called = re.fullmatch(r"謂.{1,6}?[為爲](.{1,3})", x)
                if called and st.in_base(called.group(1)):
                    st.add("explanation", called.group(1), k - len(called.group(1)), 0.7, exact_only=True)
                return True
            kx = longest_base_prefix(x, st.in_base) if st.sentence_start and not st.in_base(x) else 0
            if kx and kx < len(x) and x[kx] in (x[0], x[kx - 1]) and not any(s < b < k for b in st.inner):
                # 「授授先者一人」, 「命之命使者」 (KR1d0030_015#211, _002#353, train): the head repeated to define it
                # (授，授先者一人; 牡蘜，蘜不華者), the 者 a noun of the definition, as 「當楅楅正南」 without one; not
                # a head that merely holds the word again (「而加環絰，環絰者…」 explains 環絰)
                return st.add("definition", x[:kx], s, 0.6, exact_only=True)
            named = re.fullmatch(r"(.{1,4}?)曰(.{1,3})", x)
            if named and st.in_base(named.group(2)) and not st.in_base(named.group(1)) and named.group(1)[-1] not in _CITED_BY \
                    and not st.in_base(named.group(2) + "者"):  # (「故曰宅不毛者有里布」 quotes the passage's 宅不毛者)
                # 「名玉曰冒者，言徳能覆蓋天下也」, 「女曰姻者…」, 「引手曰厭者…」 (KR1d0003_041#9, KR1d0040_002#353, _004#41, train;
                # stop 71): why Y is called X, the passage's word — an explanation of X
                return st.add("explanation", named.group(2), k - len(named.group(2)), 0.8, exact_only=True)
            _read_zhe(st, x, k)
            return True
        # drop an adverb between X and the keyword (X亦猶Y, X亦當為Y, X皆當作Y)
        x_stripped = x
        while x_stripped and x_stripped[-1] in _ADVERBS and len(x_stripped) > 1:
            x_stripped = x_stripped[:-1]
        x_stripped = without_zi(x_stripped, st.in_base)
        if kw[0] == "當" and len(x_stripped) > 1 and x_stripped.endswith(("讀", "讀亦")) and not st.in_base(x_stripped):
            # 「右讀亦當為侑」 "右 is read, here too, as 侑" (KR1d0003_025#91, 周禮 juan 25, train; stop 72): 讀 is the formula's
            x_stripped = x_stripped.removesuffix("亦").removesuffix("讀")
        # X之為言Y, the fuller form of X之言Y (「桑之為言喪也」, KR1d0030_020#85, train)
        # X一名Y "X is also called Y" (「函鍾，一名林鍾」, 「小呂一名中呂」: KR1d0003_022, train, stop 68's whole juan; stop 69)
        typ = {"猶": "equivalence", "之言": "sound", "之為言": "sound", "之爲言": "sound", "謂": "reference",
               "一名": "reference"}.get(kw)
        if typ is None:
            typ = "reading" if kw.startswith("讀") else "emendation"
        if kw == "謂" and (x_stripped in ("此", "是", "皆", "亦", "又") or (x_stripped.endswith("所") and k not in st.clause_ends)
                          or (x_stripped.startswith(("此", "是")) and not st.in_base(x_stripped))):
            return True  # 所謂 "what is called", 此謂 "this means": no lemma head
        if kw == "謂" and read_name(st):
            # 「行道曰糧，謂糒也」, 「聚土曰封，謂壝堳埒…」 (KR1d0003_016, _009, train): the head clause names the
            # word of the passage (Y曰X) and 謂 says what it is — X, not the unanchored 「行道曰糧」
            return True
        if typ == "sound" and len(x_stripped) > 1:
            # X之言Y glosses one character (后之言後, 婦之言服); after a longer X, 之言 is "the words of": 「天子之言出…」,
            # 「聽先生之言」, 「取衆民之言」 (stop 66: over every train block, 20 such records, the 4 anchored all wrong)
            return True
        if kw == "猶" and k + 2 <= st.first_end and st.in_base(text[s : k + 2]):
            return False  # 「定猶與，謂…」: the passage's own 定猶與 (禮記集說 of 曲禮's 「所以使民決嫌疑定猶與也」; stop 72), no X猶Y
        if kw == "猶" and _still(text, k + 1, st):
            return True  # 「死猶不為諡耳」: 猶 "still" before a negated clause, no equivalence
        if kw == "猶" and _still_after(x_stripped, _clause_after(text, k + 1, st)):
            return True
        if kw == "猶" and "雖" in x_stripped and not st.in_base(x_stripped):
            return True  # 「君雖不升堂，猶辟之也」 (KR1d0053, train): "although …, still": a concession, as skip_concessive reads it
        if kw == "謂" and k in st.clause_ends and (same := re.fullmatch(r"(.{1,3}?)亦[^之而則不無以於于為爲].{0,4}也", x)) \
                and st.in_base(same.group(1)):
            # 「禦亦禁也，謂遏止之…」, 「𤣥謂蜎亦掉也，謂若井中蟲蜎之」 (KR1d0003_036#99, _041#307, train; stop 71): X亦Y也 defines X (as
            # read_unmarked_head reads it alone); the 謂 after it goes on explaining, it names no head 「X亦Y也」
            return st.add("definition", same.group(1), s, 0.6, exact_only=True)
        # a long unmarked head before 猶 / 謂 is mostly a clause (猶 "still", 謂 "means that")
        optional = kw in ("猶", "謂") and len(x_stripped) >= 4 and k not in st.clause_ends
        return st.add(typ, x_stripped, s, 0.9, optional=optional)
    return False


def _read_other_name(st: Statement, x: str, k: int) -> None:
    """「楣謂之梁」, 「斧謂之黼」, 「挑謂之歃」, 「邸謂之柢」 (KR1d0026_008#249, KR1d0030_029#100, KR1d0003_041#87, train; stop 71): a
    word of the passage said to be called Y (爾雅's formula), where Y is no word of the passage — a reference of X. Not
    a person's word (「王謂之禮經」: what the king calls it) nor a longer Y, a clause of the note (「七十謂之老於此」)."""
    ce = next((b for b in st.inner if b > k), st.e)
    y = st.text[k + 2 : ce].removesuffix("也")
    if 1 <= len(x) <= 3 and 1 <= len(y) <= 2 and st.in_base(x) and not st.in_base(y) and x[-1] not in _PERSON_ENDS \
            and x[0] not in _NOT_NAMED:
        st.add("reference", x, st.s, 0.8)


def _read_called(st: Statement, k: int, strip: str = "也者") -> None:
    """Y謂之X, 謂之 at k: X, the rest of its clause less a closing `strip`, is a reference gloss where it is a word
    of the passage of four characters at most."""
    ce = next((b for b in st.inner if b > k), st.e)
    xx = st.text[k + 2 : ce].rstrip(strip)
    if xx and len(xx) <= 4 and st.in_base(xx):
        st.add("reference", xx, k + 2, 0.85)


def _clause_after(text: str, y: int, st: Statement) -> str:
    """The statement's text from y to the end of its clause."""
    return text[y : next((b for b in st.inner if b > y), st.e)]


# the persons of the rite, after whom 猶 is mostly "still" (stop 69)
_PERSONS = frozenset(("大夫", "女君", "母", "父", "主人", "主婦", "賓", "賔", "衆賓", "衆賔", "介", "君", "臣", "士", "子", "妻",
                      "婦", "公", "卿", "尸", "祝", "宰", "王", "后", "夫人", "諸侯", "天子", "兄弟", "有司"))


def _still_after(x: str, y: str) -> bool:
    """「而猶在内也」, 「而猶求於鬼神…」 (禮記集說, 表記集傳; stop 67): after a conjunction X, 猶 is "still", no X猶Y; where the
    thirteen shared books gloss a conjunction by 猶, Y is one character (「而猶女也」, 「乃猶而也」, 「然猶而也」). Likewise after a
    person of the rite: 「大夫猶北面少前」, 「主人猶卒爵」, 「女君猶為子期」, 「賓猶謙…」 (KR1d0028_006, KR1d0030_025, KR1d0053_032,
    train; stop 69) — where the thirteen books gloss a person by 猶, Y is one character or 言Y (「公猶官也」, 「兄弟猶言族親也」),
    and the one character closes the gloss with 也: 「賓猶謙，入門右」, 「賓猶降，終其再拜稽首」 are "still" (KR1d0030_013#37,
    _015#83, train; stop 70)."""
    raw, y = y, y.rstrip("也")
    person = x.removeprefix("其")  # 「其婦猶皆餕也」 "his wife still eats the leftovers" (KR1d0053_027#100, 禮記 juan 27, train; stop 73)
    return (x in _CONJUNCTIONS and len(y) > 1) or (
        person in _PERSONS and (len(y) > 1 or not raw.endswith("也")) and not y.startswith("言"))


# 猶 "still" before a clause of three characters or more that opens with a negation (「死猶不為諡耳」) or with 且 / 尚 / 有 / 以 /
# 可 / 必 / 恐 / 得 / 將 / 若 / 在 / 自 (「無形，猶且視之，況於視親之面乎」, 禮記集說; 「擇日月以見君，猶恐不敬」, 「周猶以十寸為尺」:
# listed over the thirteen books' equivalences, stop 72); the short Y of a gloss stays (「撫猶有也」, 「懾猶恐懼也」, 「止猶自處也」)
_STILL_OPENS = frozenset("不未無弗非且尚有以可必恐得將若在自")


def _still(text: str, y: int, st: Statement) -> bool:
    """猶 followed by a clause of three characters or more (也 / 耳 / 矣 / 焉 not counted) opening with one of
    _STILL_OPENS reads "still …", not X猶Y (「不再，猶不更也」, 「微，猶非也」 keep their Y)."""
    if y >= len(text) or text[y] not in _STILL_OPENS:
        return False
    return len(_clause_after(text, y, st).rstrip("也耳矣焉")) >= 3


def _read_zhe(st: Statement, x: str, k: int) -> None:
    """X者: 者 keeps its X only at a clause end (「X者，…」) or as a short unmarked head."""
    text, s, e = st.text, st.s, st.e
    xs = s
    after = k + 1
    nxt = text[after:e]
    marked = after in st.clause_ends or after == e  # a mark (or the statement's end) right after 者
    if (len(x) >= 2 and x[-1] in "也之" and not st.in_base(x) and st.in_base(x[:-1])
            and (x[-1] == "也" or after in st.clause_ends)):
        # 「蜡也者，索也」 (KR1d0053_043#90, 禮記 juan 43, train; stop 73): 「X也者，Y」 explains X, the 也 the formula's; 「乘之者，入天子之
        # 國…」, 「載之者，所以表識其事也」, 「奠之者，酬不舉也」 (KR1d0030_016#39, _011#76, _007#138, train; stop 73): why the passage's X is
        # done "to it", the 之 closing its clause — the verb X is the lemma, 之 the note's object pronoun (92 such unanchored over the
        # thirteen books, listed and read)
        x = x[:-1]
    # 「…者。」 closing the statement is a noun phrase (unless X is a word of the passage);
    # 凡X者 states a rule for all X; 「祭統曰餕者」 quotes a book: none of them a head
    if not nxt and not st.in_base(x) and st.sentence_start and not st.inner and not text.startswith("凡", st.s0):
        # 「女宫刑女之在宫中者。」 (KR1d0003_007#201, train): a sentence 「X Y者」 opening with a word
        # of the passage is 「X，Y者」, a nominal definition. In the train split's edition marks of
        # the three books such a sentence with X of 2+ characters has the mark after X 137 times
        # out of 163 (X of one character: 71 of 98, left to the head classifier)
        kx = longest_base_prefix(x, st.in_base)
        if kx >= 2 and len(x) - kx >= 2 and not is_formula_next(x[kx:]):
            st.add("definition", x[:kx], s, 0.6, exact_only=True, optional=True)
            return
        if kx == 1 and len(x) >= 3 and not is_formula_next(x[1:]):
            # one character (「史家臣主筮事者」, KR1d0030_028#11, train): the head classifier decides
            p = head_probability(x[:1], x[1:] + "者", st.base_count(x[:1]), st.first_sentence, st.zhushu)
            if p is not None and p >= HEAD_THRESHOLD:
                st.add("definition", x[:1], s, round(0.7 * p, 3), exact_only=True, optional=True)
                return
    said = _SAYS_X.fullmatch(x)
    said_x = said and said.lastgroup  # x (此云X, 更言X) or x2 (變Y言X)
    if said and nxt and not st.in_base(x) and st.in_base(said.group(said_x)):
        # 「更云主人者，廟中之稱也」, 「此云孟春者…」, 「變司市言貨賄者…」 (KR1d0026_008#47, KR1d0053_014#5,
        # KR1d0003_015#159, train; stop 69): why the passage says X (here, instead of Y) — X is the lemma
        st.add("explanation", said.group(said_x), s + said.start(said_x), 0.8, optional=not marked)
        return
    about = _ABOUT_WORDING.fullmatch(x)
    if about and nxt and not st.in_base(x) and st.in_base(about.group("p")):
        # 「馬言則者，此享主用皮，或時用馬」, 「龜言登者，尊之也」: of P the passage says Y — Y is the lemma; 「公之昆弟不言庶者，此庶服無所見
        # 也」: P is, where the passage lacks Y (KR1d0030_011#32, KR1d0053_016#129, KR1d0030_018#134, train; stop 73)
        if about.group("neg") and not st.in_base(about.group("p") + about.group("y")):
            st.add("explanation", about.group("p"), s, 0.7, optional=not marked)
            return
        if not about.group("neg") and st.in_base(about.group("y")):
            st.add("explanation", about.group("y"), s + about.start("y"), 0.7, optional=not marked)
            return
    # (曰 inside X quotes a book, 「祭統曰餕者」 — not where X is the passage's own words: 「𤣥謂一曰祠者，交接之辭」, 「五十曰艾者…」,
    # KR1d0003_025, KR1d0057_002, stop 69)
    if (not nxt and not st.in_base(x)) or text.startswith("凡", st.s0) or ("曰" in x and not st.in_base(x)) or x.endswith("云"):
        return
    if nxt.startswith("謂"):
        st.add("reference", x, xs, 0.85)
        return
    if x in NOT_LEMMA_ZHE:
        return
    if x[:1] == "必" and x[1:2] in "使以令" and len(x) >= 4 and not st.in_base(x) and not st.in_base(x[1:]) and st.in_base(x[2:]):
        xs, x = xs + 2, x[2:]
    elif x[:1] == "必" and len(x) >= 2 and not st.in_base(x) and st.in_base(x[1:]):
        # 「必辭公者，為其尊…」 "that he must X is because …": the lemma is the X the passage has
        # (KR1d0030_015#230, train; 必請者, 必如饗者, 必佩者, 必使人弔者 …)
        xs, x = xs + 1, x[1:]
    elif x[:1] in _USES and len(x) >= 3 and not st.in_base(x) and st.in_base(x[1:]):
        # 「服皮弁者，朝聘主相尊敬也」, 「有几筵者，以其庿受」, 「用𤣥纁者…」 (KR1d0030_011#245, #271, _002#59, train; stop 73): why
        # the passage's thing is worn, set out or used — the thing is the lemma, the verb the note's own
        xs, x = xs + 1, x[1:]
    elif not st.in_base(x) and len(x) >= 3:
        # two sentences run together (「以朱韋為之三者」): the head after a closing particle
        j = next((j for j in range(1, len(x)) if st.in_base(x[j:])), None)  # longest tail
        if j is not None and (
            x[j - 1] in "之也矣焉耳"
            # 「既又當執弦順羽者」: a quote of two characters or more ends a run-on
            # sentence of four or more, unless a negation, verb of motion or function
            # word governs it (主人不西面者, 冠必筮日于庿門者)
            or (j >= 4 and len(x) - j >= 2 and x[j - 1] not in _GOVERNS and x[j] not in _GOVERNS)
        ):
            xs, x = s + j, x[j:]
    if not marked and len(x) < 2 and x not in NUMERALS:
        return  # 擯者每延之…: a one-character noun + 者 inside a clause (使者, 冠者)
    st.add("explanation", x, xs, 0.85 if marked else 0.6, optional=not marked)


def read_second_clause_formula(st: Statement) -> bool:
    """「X，謂Y」 and 「X，猶Y也」: the formula opens the second clause."""
    if not st.inner:
        return False
    x = st.text[st.s : st.first_end]
    if st.text.startswith("謂", st.first_end) and not st.text.startswith("謂之", st.first_end):
        if len(x) <= 8:
            return st.add("reference", x, st.s, 0.85)
        return False
    if st.text.startswith("猶", st.first_end) and len(x) <= 6 and st.in_base(x):
        return st.add("equivalence", x, st.s, 0.8)
    return False


# Y曰X where 曰 is "says", not "is called": Y a word that opens what a text or a speaker says (「既曰古」 "since it says 古",
# 「且曰假爾」, 「猶曰大夫…」, 「故先曰則古昔」), or X a negation of two characters or more (「午曰不可」, 「伯宗曰不可」: speech).
# Stop 68, from the Y曰X references of the thirteen shared books (禮記集說, 表記集傳): no name there.
_SAYS_AFTER = ("既", "且", "猶", "先")


def says(y: str, x: str) -> bool:
    return y.endswith(_SAYS_AFTER) or (len(x) >= 2 and x[0] in NEGATIONS)


def read_name(st: Statement) -> bool:
    """Y曰X: a short name after 曰 closing the first clause; a run of them with no mark between, each
    (「熬麥曰麷麻曰蕡稻曰白」, 「少曰委多曰積」)."""
    names = _names_in_run(st.text[st.s : st.first_end], st.in_base)
    if names:
        for a, x_at, b in names:
            st.out.append(Candidate(st.s + a, st.s + b, "reference", st.text[st.s + x_at : st.s + b], st.s + x_at, 0.7))
        return True
    # (Y of up to twelve characters: 「飲賓客而從之以財貨曰酬」, 「距王城三百里至四百里曰縣」, KR1d0030_001#193, KR1d0003_034#20, train; stop 73)
    # 「家臣稱私」 "a house minister is called 私", 「女氏稱昏」 (KR1d0030_003#57, KR1d0028_002#512, train; stop 73): Y稱X names the passage's X as
    # Y曰X does — Y a noun phrase, not a clause whose verb 稱 "claims, calls himself" goes on (「楚僭號稱王」, 「齊㐮公降而稱人」, 「諸侯於其封内三年稱子」)
    for formula in (_NAMED_BY_YUE, _CALLED_BY_CHENG):
        m = formula.fullmatch(st.text, st.s, st.first_end)
        if m and st.in_base(m.group(2)) and not st.in_base(m.group(1)) and not says(m.group(1), m.group(2)):
            return st.add("reference", m.group(2), st.s + m.end(1) + 1, 0.7)
    return False


_NAMED_BY_YUE = re.compile(r"(.{1,12}?)曰(.{1,3}?)也?")  # Y曰X closing a statement's first clause (read_name)


# Y為X "Y is called X" (the guideline's reference formula: 「善父母為孝」, 「百里為郊」, 「五鄙為縣」): a clause that is only Y為X,
# X a word of one or two characters of the passage, Y of two to six that is not — and Y no clause of its own that 為 goes
# on ("does, acts as, becomes, for"). Stop 42 tried it (77 of 81 train readings right) and left it for the exclusions;
# stop 69 listed every Y為X the thirteen shared books gave it and excluded what was wrong there (train juan only):
# Y opening with an adverb, a pronoun, a preposition or 凡 / 及 / 今 / 易 (「以刑官為尸」, 「凡庶子爲君」, 「及司正為司馬」,
# 「易乾為馬」); Y holding a word that governs a verb phrase, an edition's 書 / 文, a reading (讀), 謂 "calls", 言 "says", 雖
# "although" (「書亦或為拊」, 「杜子春讀禩為祀」, 「謂姑為姪」, 「士雖在庶子爲母」); Y ending in a verb of change (化為, 變為); X
# a person — 為 "acts as, mourns for" (「父母為長子」, 「天子為后」, 「鍼嚴子為坐」) — or 上 / 下 (「旅酬下為上」).
_MADE_AT_END = re.compile(r"(.{2,6}?)[為爲](.{1,2}?)也?$")
_MADE_OPENS = frozenset("亦皆或竝並又其此是彼以因若於于所自不無非未弗勿毋乃而則且猶當將既旣已可必凡及今易卽即")
_MADE_HOLDS = frozenset("以之則不無弗皆將相使所者其可而故亦或又竝並書文讀謂言雖")
_MADE_CHANGE = frozenset("化變更改易轉反復成作")
_PERSON_ENDS = frozenset("子父母君后夫妻婦弟兄臣王坐孫後")


# 「百人爲卒，五人爲伍」 (KR1d0003_031#82, train, stop 71): a number of men named as a unit, no person acting as X
_HEADCOUNT = re.compile("[" + "".join(sorted(NUMERALS)) + "百千萬]+人")


def made_name(clause: str, in_base) -> tuple[int, str] | None:
    """(where X starts in the clause, X) of a clause that is only Y為X with X a word of the passage, or None."""
    m = _MADE_AT_END.fullmatch(clause)
    if not m:
        return None
    y, x = m.group(1), m.group(2)
    # (以上 / 以下 "and over" / "and under" is a measure, not 以 governing a verb: 「馬八尺以上為龍」, KR1d0030_016#117, 集釋 juan 16, train; stop 73)
    y_words = y.replace("以上", "").replace("以下", "")
    if (not in_base(x) or _MADE_HOLDS & set(x) or x[-1] in _PERSON_ENDS or x in ("上", "下", "司馬") or in_base(y)
            or in_base(y[:2]) or y[0] in _MADE_OPENS or _MADE_HOLDS & set(y_words) or y[-1] in _MADE_CHANGE
            or y in ("大率", "大槩", "大抵") or (y.endswith(("人", "公", "伯", "尸")) and not _HEADCOUNT.fullmatch(y))):
        return None
    return m.start(2), x


# 「X狀如Y」, 「X形似Y」, 「X之制，如Y」: what X looks like or how it is made (「畢狀如叉」, 「豐形似豆」, 「棜之制，如今大木轝矣」, 「柶狀
# 如匕」, 「玉節之制，如王為之」: KR1d0030_026, KR1d0028_006, KR1d0003_015, train; stop 70) — a definition of X, whatever marks the
# segmenter put (13 such over the thirteen books unread, 8 read already); 状 is the prints' other form of 狀 (「柶状如匕」, KR1d0030_001#86,
# train; stop 73: 3 more read, right)
_SHAPE = re.compile(r"(?P<x>[^，。、：；]{1,4}?)之?[狀状形制]，?[如若似]")


# 「鑮如鐘而大」, 「鐃如鈴，無舌」, 「籥如笛，三孔」, 「枚如箸，銜之」 (KR1d0030_009#17, KR1d0003_012#164, KR1d0053_031#82, KR1d0003_029#166;
# stop 72, 周禮 juan 23's 「柷如漆筩」 missed — the first is of the 集釋's held-out juan 9, cited then as train by mistake: stop 75): a thing of the passage said to be like a thing the passage does not name — a
# definition by likeness. A thing of one character only (「降階如升時」: an action done alike); not where the likeness is the passage's
# own (「出如入，降如升」, 「位如祝從君也」), nor a pronoun, a clause or 如字 (a reading) after 如
_LIKE = re.compile(r"(?P<x>[^，。、：；])如(?P<y>[^，。、：；]{1,4}?)(?:而[小大細長短])?[也者]?")
_NOT_LIKE = frozenset("之其此是彼所以為爲不無有者也初故前今一二三字上下時")  # (如字 is a reading; 如升時 an action)


def read_shape(st: Statement) -> bool:
    """X狀如Y / X形似Y / X之制如Y: a definition of X; and at a sentence start a short 「X如Y」 (likeness to a thing not in the passage)."""
    m = _SHAPE.match(st.text, st.s, st.e)
    if m and st.in_base(m.group("x")):
        return st.add("definition", m.group("x"), st.s, 0.75)
    m = _LIKE.fullmatch(st.text, st.s, st.first_end)
    if not (st.sentence_start and m and st.in_base(m.group("x"))) or m.group("x") in _NOT_LIKE:
        return False
    y = m.group("y")
    if any(ch in _NOT_LIKE for ch in y) or any(st.in_base(ch) for ch in y):
        return False
    return st.add("definition", m.group("x"), st.s, 0.6, exact_only=True)


def read_made(st: Statement) -> bool:
    """Y為X (made_name) as the statement's first clause: a reference of X — and of each X' of the clauses after it
    that are Y'為X' too (「偏任為跛，依物為倚」, 「百人爲卒，五人爲伍」: KR1d0053_024#221, KR1d0003_031#82, train; stop 71)."""
    made = made_name(st.text[st.s : st.first_end], st.in_base)
    if made is None:
        return False
    more = []
    for a, b in zip(st.inner, st.inner[1:] + [st.e]):
        if a not in st.commas or (nxt := made_name(st.text[a:b], st.in_base)) is None \
                or nxt[1] in [made[1]] + [c.lemma for c in more]:
            break  # (「脊從前為正，脅旁中為正」: the second 正 is another occurrence, which the anchoring would not find)
        more.append(Candidate(a, b, "reference", nxt[1], a + nxt[0], 0.65))
    st.out.append(Candidate(st.s0, st.first_end if more else st.e, "reference", made[1], st.s + made[0], 0.65))
    st.out.extend(more)
    return True


def _names_in_run(clause: str, in_base, sep: str = "曰") -> list[tuple[int, int, int]]:
    """(start, name start, end) of each Y曰X (with `sep` 謂之: Y謂之X) of a clause that is only a run of them, where at least
    two names stand in the passage: 「時見曰㑹殷見曰同」, 「長曰質短曰劑」, 「手曰潄足曰澣」 (KR1d0003, KR1d0053, train; the last name alone was
    read before). Each name is the one or two characters after 曰 that the passage holds, the rest up to the next 曰 the
    next Y (one to four characters, not in the passage); a name the passage lacks is skipped (「四尺曰鵠二尺曰正」)."""
    pieces = clause.split(sep)
    if len(pieces) < 3 or not 1 <= len(pieces[0]) <= 4 or in_base(pieces[0]):
        return []
    out, a, pos = [], 0, len(pieces[0]) + len(sep)
    for k, piece in enumerate(pieces[1:], 1):
        last = k == len(pieces) - 1
        if last:
            n = len(piece) if 1 <= len(piece) <= 3 else 0
        else:
            n = next((n for n in (2, 1) if len(piece) - n >= 1 and in_base(piece[:n])), 1)
            if not 1 <= len(piece) - n <= 4 or in_base(piece[n:]):
                return []
        if not n:
            return []
        if in_base(piece[:n]):
            out.append((a, pos, pos + n))
        a, pos = pos + n, pos + len(piece) + len(sep)
    return out if len(out) >= 2 else []


# 「凡X，Y」 states a rule for every X (「凡獻皆薦也」, 「凡腊用全」, 「凡治有故」), not what X is; only a
# short noun phrase after it defines X (「凡工瞽矇也」). Listed on train juan of the three books (stop
# 59): of 24 bare definitions after a leading 凡, 20 such rules, 3 borderline, 1 definition (工).
_RULE_PREDICATE = frozenset("皆必不無每以用為爲在有之則")


def after_every(st: Statement) -> bool:
    """The statement opens with 凡 before its head (or with 凡 and one character the passage has as
    they stand: 「凡卜象吉色…」) and does not go on as a short 「Y也」."""
    seg = st.text[st.s : st.e]
    lead = st.s > st.s0 and st.text[st.s - 1] == "凡"
    if not (lead or seg.startswith("凡")):
        return False  # (most statements: no passage lookup for them)
    k = longest_base_prefix(seg, st.in_base)
    if not (lead or k == 2):
        return False
    rest = seg[k or 1 :].lstrip("，、：")
    return not (rest.endswith("也") and 2 <= len(rest) <= 5 and not _RULE_PREDICATE & set(rest))


def read_definition(st: Statement) -> bool:
    """「X，Y」 with X a stretch of the base (at a sentence start only)."""
    if not st.sentence_start:
        return False
    if after_every(st):
        return True  # (for read_unmarked_head too, which comes after this reader: no bare head after 凡)
    s, seg = st.s, st.seg
    first = st.text[s : st.first_end]
    if not st.inner or _too_long(first, st.in_base):
        return False
    after = st.text[st.first_end : st.e]
    if st.first_end in st.listing and _listed_subject(st, first):
        # 「告、面同耳」, 「上賓、上介致之以束帛」 (KR1d0053_001#169, KR1d0026_008#89, train; stop 73, found in 禮記 juan 45's 「大夫、士
        # 旁牽緘而已」): X listed with another word of the passage, the two the subject of what follows — no 「X，Y」 definition. The
        # segmenter's 、 alone is no evidence (it often stands for the edition's ，: 「司宫、大宰之屬」), nor a list sharing its gloss
        # (「介、景皆大也」), a gloss repeating its head (「脯用籩、籩，宜乾物也」) or words standing together in the passage
        return False
    if len(first) == 1 and after[1:2] == "則" and not seg.endswith("也"):
        # 「器，利則事成」: a conditional about X, not a gloss of it (the train split's edition
        # marks have this shape 3 times, the one without 也 a statement: 「降，賓則出庿門」)
        return False
    if st.in_base(first) and (m := _SAID_THE_SAME.fullmatch(after.lstrip("，、"))) and st.in_base(m.group(1)):
        # 「有道，無道一也」 "having the Way and not having it, the same" (KR1d0053_052#64, train, stop 68's whole juan): two
        # words of the passage said to be one, no definition of the first (as the bare-head reading of read_note)
        return True
    if st.in_base(first):
        # the base stretch may run on across a misplaced mark (「還，右還…」 for 還右,
        # 「覆手，自弓上取矢」 for 覆手自弓上取): the longest verbatim prefix is the lemma
        k = longest_base_prefix(seg, st.in_base, max_len=12)
        if len(first) < k < len(seg) and seg[k:] not in ("也", "矣") and (
                _better_head(seg, len(first), k, st.base_count, st.first_sentence) or _cut_twice(st, k)):
            # (not a stretch that leaves the statement nothing but its particle: 「遵者，諸公大夫也」 glosses 遵者 by the
            # passage's own next words, KR1d0030_004#310, train; stop 72)
            return st.add("definition", seg[:k], s, 0.6, exact_only=True)
        return st.add("definition", first, s, 0.75, exact_only=True)
    if said_in_its_place(st.text, st.s, first) and not ABOUT_THE_CHARACTER.fullmatch(after):
        # 「頒讀為班。班，布也」: the word as an earlier reading or emendation of the note reads it (anchored on
        # the passage's 頒 by align_block; dropped where it anchors nowhere, as when what it emends is no word of the passage)
        return st.add("definition", first, s, 0.6, exact_only=True, optional=True)
    k = longest_base_prefix(first, st.in_base)
    if len(first) >= 5 and k >= 0.7 * len(first):  # the passage quoted with its last word changed
        return st.add("definition", first[:k], s, 0.5, exact_only=True)
    if base_pieces(first, st.in_base):  # the passage quoted with words left out
        return st.add("definition", first, s, 0.5, exact_only=True, gapped=True)
    return False


def said_in_its_place(note: str, at: int, x: str) -> bool:
    """x is what a 「W當為x」 / 「W讀為x」 earlier in the note (before `at`) put in the text's place."""
    return any(note.startswith(x, m.end()) for m in SUBSTITUTES.finditer(note, 0, at))


def _cut_twice(st: Statement, k: int) -> bool:
    """「職，内，主入也」, 「螻，蟈，蛙也」, 「大功之殤，中從下，則…」 (KR1d0003_001#166, KR1d0053_015#210, KR1d0030_019#76,
    train): the passage's stretch runs on across the first mark and ends exactly at the second — two clauses
    that are one quote of the passage, the gloss after them."""
    return len(st.inner) >= 2 and st.s + k == st.inner[1] and st.first_end in st.commas


def base_pieces(x: str, in_base, max_pieces: int = 3, short_first: bool = False) -> list[str]:
    """x cut into stretches of the base of two characters or more (「掌其戒令賞罰」 → 掌其戒令 +
    賞罰, the base reading 掌其戒令與其賞罰); [] unless x is wholly made of 2–3 such stretches.
    Whether they stand in order and close together in the base is the aligner's check."""
    pieces, i = [], 0
    while i < len(x):
        k = longest_base_prefix(x[i:], in_base)
        if k < 2 and not (short_first and i == 0 and k == 1):
            return []
        pieces.append(x[i : i + k])
        i += k
    return pieces if 2 <= len(pieces) <= max_pieces else []


_REASON_OF = frozenset("為爲不有無能得而則")  # 「X所以為…」, 「X所以不…」: the reason X is so, no use of X
_CLAUSE_OPENS = frozenset("之而乃則不無亦以於于為爲所其皆又既未已將必")  # words opening the note's own clause, not a gloss
# Y稱X "Y is called X" (read_name): Y a noun phrase of two to eight characters with no word that opens a clause, and no 自 "oneself", 若
# "if", 欲 "wishes", 號 / 降 / 如 … that make 稱 "calls oneself, claims" (「子若自稱老」, 「楚僭號稱王」); X of one or two characters
_CALLED_BY_CHENG = re.compile(r"([^是自若抵欲降號如葢蓋今" + "".join(sorted(_CLAUSE_OPENS)) + r"]{2,8}?)稱([^也之稱]{1,2})")


def read_unmarked_head(st: Statement) -> bool:
    """「當楅楅正南…」 (the lemma repeated), else the head classifier (heads.py) decides whether
    the longest base prefix is a head the segmenter left unmarked (at a sentence start only)."""
    if not st.sentence_start:
        return False
    s, seg = st.s, st.seg
    k = longest_base_prefix(seg, st.in_base)
    if not k or k >= len(seg) or (s + k) in st.clause_ends:
        return False
    x, rest = seg[:k], seg[k:]
    if rest[0] in NUMERALS and all(ch in NUMERALS for ch in x):
        # a number of the passage run on into a longer one or a product: 「七七四十九」, 「三三而居一偏」, 「一一受之」,
        # 「四十九以前」 (stop 67: 13 such heads over the thirteen shared books, none a gloss; 「一，一人也」 has its mark)
        return True
    if rest[0] in x:
        return st.add("definition", x, s, 0.6, exact_only=True)
    if rest[0] in "也矣哉乎":
        # 「木也」 "(the 重) is wood" (KR1d0030_021#4, 集釋 juan 21's 鄭注 as 儀禮 / 儀禮注疏 / 述註 print it), 「劒也，戈也，…三者皆兵也」
        # (禮記集說): a word of the passage closed by a particle is what the sentence says, no head (stop 72; not 焉 "there":
        # 「大史俟焉，將有事也」 explains 大史俟)
        return True
    if is_formula_next(rest) or x in ("言",):
        return True
    # a clause, not 「X，Y」: X followed by 之 / 而 / 乃, a conditional (「器利則事成」), or a
    # negation opening the note's own clause (「無以入也」). In the train split of data/punct the
    # edition puts no mark after X in 194 of 194 heads before 之, 30 of 32 before 而 / 乃 and 96 of
    # 108 with 則 in the next three characters (counts: docs/glosses.md).
    if rest[0] in "之而乃" or "則" in rest[:3] or (len(x) == 1 and x in NEGATIONS and len(rest) >= 3):
        return True
    if x == "如" or (x in _PARTICLES and not (rest.endswith("也") and len(rest) <= 3)):
        # 「於臣之妻畧也」 "toward a minister's wife it is simplified" (KR1d0053_045#121, 禮記 juan 45, train; stop 73): a preposition
        # or conjunction of the passage opening the note's own clause is no head — unless a short 「Y也」 glosses it (「及至也」); 如
        # "like" never (「如要絰也」 on 「杖大如絰」, KR1d0053_033#26, 禮記 juan 33, train)
        return True
    if not st.inner and re.fullmatch(r"亦[^之而則不無以於于為爲][^而則不無以於于為爲]{0,4}也", rest):
        # 「下亦降也」, 「啐亦嘗也」, 「綏亦旌旗之緌也」 (KR1d0030_003#113, _004#98, KR1d0053_031#140, train): X亦Y也, a
        # short Y, is a definition like the 18 such the head classifier takes at sentence starts on train juan
        return st.add("definition", x, s, 0.6, exact_only=True)
    if _says_what(x, rest, st.in_base):
        # 「關雎言后妃之德，葛蕈言后妃之職…」, 「來婦言來爲婦」 (KR1d0030_004#223, KR1d0026_002#183, train; stop 73): what the passage's
        # X (a poem, a phrase) says — a definition of X, with or without the mark after it (「魚麗，言大平年豐物多也」)
        return st.add("definition", x, s, 0.6, exact_only=True)
    if (rest.startswith("若今") or _MADE_OF.match(rest)) and len(x) <= 3 and x[0] not in _NOT_LEADS and x[0] not in "為爲":
        # 「互若今屠家縣肉格」 "互 is like today's butcher's meat rack", 「皇析五采羽為之」 "皇 is made of split five-coloured feathers"
        # (KR1d0003_012#251, #192, 周禮 juan 12, train; stop 73): what X is like today, or what it is made of, defines X, as
        # 「X，若今Y」 / 「羽析白羽為之」 do with their mark (not 「為日以人事為之耳」, 禮記集說: "choosing the day is done by …")
        return st.add("definition", x, s, 0.6, exact_only=True)
    if rest.startswith("所以") and rest[2:3] not in _REASON_OF and len(x) <= 3 and x[0] not in _NOT_LEADS:
        # 「鐃所以止鼓」, 「纓所以固絰」, 「茵所以藉棺者」 (KR1d0003_029#154, KR1d0030_018#58, KR1d0026_013#83, train; stop 71): what X is
        # for defines X, as 「燭，所以照饌也」 with its mark — not 「天所以為天」, 「人所以不知孔子」: "why X is / does not …"
        return st.add("definition", x, s, 0.6, exact_only=True)
    clause_rest = st.text[s + k : st.first_end]
    if (_KIND_OR_PLACE.fullmatch(clause_rest) and x[0] not in _NOT_LEADS
            and (clause_rest[0] == "亦" or clause_rest[0] not in _CLAUSE_OPENS)
            and not all(ch in NUMERALS for ch in x) and not any(st.in_base(ch) for ch in clause_rest[:-2])):
        # 「舎行所解止之處」, 「市雜聚之處」, 「匠師事官之屬」, 「司㑹冡宰之屬」 (KR1d0003_001#134, _014#180, _011#109, KR1d0053_013#174,
        # train; stop 72, from the tune juan's silver losses): the place or the kind X is, unmarked — a definition; not an action done
        # there (「揖於當物之處」, 「授以朱干玉戚之屬」)
        return st.add("definition", x, s, 0.55, exact_only=True)
    if (len(x) >= 2 and x[0] not in _NOT_LEADS and x[-1] not in _CLAUSE_OPENS
            and (who := ATTRIBUTION.match(st.text, st.s0)) and who.group("who") in _QUOTED_NAMES and who.end() == st.s):
        # 「杜子春云：土鼓以瓦為匡」, 「鄭司農云：衍祭羨之道中」, 「鄭司農云：百官所當任持之器物」 (KR1d0003_024#72, _025#79, _035#330,
        # train; stop 73): what an earlier commentator is quoted for is a gloss, so a word of the passage of two characters or more opening
        # his words is its head, marked or not — 9 gained over the thirteen books, read, right; not a head ending in a function word
        # (「各以其所飾之物」, 「縣壺以為漏」), nor one character (「受祭器為上大夫」, 「以田畔所與比正」: his own clause as often as a gloss)
        return st.add("definition", x, s, 0.55, exact_only=True)
    p = head_probability(x, rest, st.base_count(x), st.first_sentence, st.zhushu)
    if (p is not None and p < HEAD_THRESHOLD and len(x) >= 2 and not st.inner and len(seg) <= 9 and rest.endswith("也")
            and len(rest) >= 3 and rest[0] not in _CLAUSE_OPENS and x[0] not in _NOT_LEADS
            and not any(st.in_base(ch) for ch in rest[:-1])):
        # 「大羮湇煮肉汁也」, 「隕穫困迫失志之貌也」, 「七代通數顓頊及嚳也」 (KR1d0030_015#147, KR1d0053_059#82, _046#20, train; stop 71): a
        # short sentence, a head of two characters or more and a nominal 「Y也」 that repeats none of the passage — a definition,
        # whatever the classifier (trained on where the editions put marks) says of a head it rarely saw unmarked
        return st.add("definition", x, s, 0.5, exact_only=True)
    if p is None:  # no classifier installed: only the short 「XY也」
        if not st.inner and seg.endswith("也") and len(seg) <= 8 and len(seg) - k >= 2:
            st.add("definition", x, s, 0.4, exact_only=True)
        return True
    if p >= HEAD_THRESHOLD:
        st.add("definition", x, s, round(0.7 * p, 3), exact_only=True,
               subject=x in _persons_of_the_rite() and not _WHO_ONE_IS.search(rest) and not _names_a_person(rest))
    return True


# A person of the rite before an unmarked clause is that clause's subject far more often than its head (「主人不升，賤也」, 「衆賓一拜，賤也」,
# 「祝當贊主人辭」, 「壻見於寢」: 12 of the 36 wrong glosses in stop 74's first five juan of the 儀禮注疏); what glosses a person says who he is —
# an office (掌, 主, 官), a kind (之屬, 者), a relation (僚友, 嗣君, 妻, 壻), a name (謂, 稱) — 「賔主人之僚友」, 「君嗣君也」, 「士察也主察獄訟之事者」,
# 「賓，壻」, 「女君適妻也」, 「子男子之美稱」. Over the thirteen books 110 gone, of the 102 outside dev juan about 86 statements (「賓每先升，尊也」 ×8,
# 「公尊也」, 「宗婦宜統於主婦」 ×4, 「賓立飲」 ×3, 表記集傳's 「子産之為政也」 …), the rest (介被甲, 賔敬也, 兄弟齊衰, 卿毎國三人 …) short glosses
# no form tells from the statements. Such a head is still read (Candidate.subject) so that the chance check of a commentary that
# glosses nothing counts it as the chance anchor it is (align.chance_counts); it never reaches the dataset
_PERSONS_OF_THE_RITE = _PERSONS | frozenset(("壻", "婦人", "衆主人", "宗婦", "衆兄弟", "女賓", "女賔"))
_WHO_ONE_IS = re.compile(r"掌|主(?![人婦])|官|之屬|者|之佐|友|嗣|若今|之後|謂|稱|穪|之名|妻|壻")
# Stop 75: the officers of the rite too — the tag stage's lexicon of roles (司正, 上射, 樂正, 擯者, 賈人 …: 「司正退立西序端」 ×4,
# 「上射少北乃東面」, 「賈人郷入陳幣」). What follows such a head glosses it where it ends in a person — who he is (「賔長上賔」, 「佐食賓也」,
# 「樂正于天子樂師也」, 「外宗君外親之婦也」) — unless the person is what the clause acts on (「宗婦宜統於主婦」, 「賓既送尸」,
# 「上介北面受圭進西面授賓」). Over the thirteen books 42 more gone — of the 39 outside dev juan about 34 statements, 5 short glosses (士介四人
# ×2, 「私人家臣巳所自謁除也」, 「上介使大夫」, 「司正在上，庭長也」) — and 1 gained (a person who had ended in a person); 女賓 is a person of the rite
_ACTS_ON_A_PERSON = frozenset("於于乎以與及授受拜送荅答從統見命使")


@functools.lru_cache(maxsize=1)
def _persons_of_the_rite() -> frozenset[str]:
    return _PERSONS_OF_THE_RITE | ritual_roles()  # (the lexicon read once, when a head is first classified)


def _names_a_person(rest: str) -> bool:
    """The clause after a person ends in a person — who he is (「上賔」, 「天子樂師也」) — not one it acts on (「統於主婦」, 「送尸」)."""
    r = rest[:-1] if rest.endswith("也") else rest
    persons = _persons_of_the_rite()
    k = next((k for k in range(min(4, len(r)), 0, -1) if r[-k:] in persons), 0)
    return k > 0 and (k == len(r) or r[-k - 1] not in _ACTS_ON_A_PERSON)


# 「觶南之位」, 「復尊西南面之位」, 「門外未入位」, 「東方之位」 (KR1d0028_004#364, _002#212, _014#273, _013#66: stop 74, the 儀禮注疏's hand
# checks): a note that only names a position glosses the passage's 復位 / 反位 / 即位 — where it goes back to, or takes its place. A noun
# phrase ending in 位, no word that makes it a statement or another formula, the passage with one such word. Read before the unmarked head
# (「門外未入位」 had read 門, 「復，賓位也」 復): over the thirteen books +45 / −6, the 儀禮's notes in its four prints, all right but 「門西北面位也」,
# which glossed 門西 as well as it now glosses 復位
_NOT_A_PLACE = "者謂猶曰為爲云言既旣此乃則皆所其而以不與已"  # words that make a clause a statement or another formula, no place named
_POSITION_NOTE = re.compile(rf"[^{_NOT_A_PLACE}]{{1,9}}位也?")
_TAKES_PLACE = ("復位", "反位", "即位", "卽位")


# … or opens by naming the place gone back to, the sentence going on: 「復堂上西面位，事已，尸將出…」, 「祝復門西北面位，佐食復西方位，…」,
# 「復西面位，不酢，辟君」 (KR1d0028_014#241, #397, _007#264; stop 74, 10 over the books, right) — not a person's doing (「大夫反位，…」,
# 「然復位，…」) nor the passage's own words quoted (「司射先反位，…」)
_RETURNS_TO = re.compile(rf"[^然今乃則而且又]?[復反][^{_NOT_A_PLACE}]{{2,8}}位")


def read_position(st: Statement) -> bool:
    """A sentence that only names a position, or opens naming the place gone back to: the passage's 復位 / 反位 / 即位 defined
    (nothing else read it)."""
    if not st.sentence_start or st.s != st.s0:
        return False
    first = st.text[st.s : st.first_end]
    if not (_POSITION_NOTE.fullmatch(st.seg) or (st.inner and _RETURNS_TO.fullmatch(first) and not st.in_base(first))):
        return False
    words = [w for w in _TAKES_PLACE if st.in_base(w)]
    if len(words) != 1:
        return False
    return st.add("definition", words[0], None, 0.6, exact_only=True)


# 「甥」 — 「姊妹之子」, 「外孫」 — 「女子子之子」, 「從父昆弟」 — 「世父叔父之子也」, 「姑之子」 — 「外兄弟也」 (KR1d0028_011#527, #489, #322, #538,
# 儀禮注疏 juan 11, 喪服; stop 75): where the passage is only a word of kinship, a note opening with a clause made of nothing but words of
# kinship says who that relative is — a definition of the whole passage, which the note does not repeat (the bare notes no form tells from
# statements elsewhere: stop 74). Not a clause with any other word (「族父母為之服」 says who mourns for him). Over the thirteen books +34, the
# 喪服 of the four prints of the 儀禮, read, right; nothing lost.
_KIN = frozenset("父母子女孫兄弟姊妹昆夫妻婦舅姑祖曾族從外内世叔伯姪甥壻嫂姒娣之")


def read_kin_note(passage: str, note: str, marks: dict[int, str]) -> Candidate | None:
    """A note that opens naming a relative — words of kinship only, to a 也 or the end of its sentence, whatever commas the
    segmenter put inside (「世父、叔父之子也」) — on a passage that is only a word of kinship: its definition, lemma the whole
    passage (without the print's paragraph mark ○); None otherwise (「族祖父母，為之服」: the relative is a subject)."""
    word = passage.lstrip("○")
    k = 0
    while k < len(note) and note[k] in _KIN:
        k += 1
    end = k + 1 if note[k : k + 1] == "也" else k
    if not (end == len(note) or note[k : k + 1] == "也" or marks.get(end) in SENTENCE_FINAL):
        return None
    if not (1 <= len(word) <= 6 and 2 <= k <= 10 and set(word) <= _KIN) or note[:k] == word:
        return None
    return Candidate(0, end, "definition", word, None, 0.6, exact_only=True)


# Tried in order on each statement; the first that returns True has read it.
READERS: tuple[Callable[[Statement], bool], ...] = (
    read_edition_variant,
    skip_concessive,
    skip_citation,
    read_yan,
    read_so_called,
    read_du_x_as_y,
    skip_misplaced_mark,
    read_keyword_formula,
    read_second_clause_formula,
    read_name,
    read_made,
    read_shape,
    read_definition,
    read_position,
    read_unmarked_head,
)


def read_statement(text: str, s: int, e: int, clause_ends: list[int], in_base, out: list[Candidate],
                   sentence_start: bool, base_count=lambda x: 1, first_sentence: bool = False,
                   zhushu: bool = False, commas: frozenset[int] = frozenset(),
                   listing: frozenset[int] = frozenset()) -> None:
    """Read one statement text[s:e] (a sentence, or a clause that opens a formula) into `out`. `commas`: the
    positions whose mark is ，."""
    m = ATTRIBUTION.match(text, s, e)
    if m and m.end() == e:
        return  # 「𤣥謂：…」 with a mark after 謂: the attribution of the statement after it, no gloss of 𤣥
    head = _strip_lead(text, s, e, clause_ends, in_base)
    if head >= e:
        return
    inner = [k for k in clause_ends if head < k < e]  # clause boundaries inside the statement
    st = Statement(text, s, head, e, clause_ends, inner, inner[0] if inner else e, in_base, base_count,
                   sentence_start, first_sentence, out, zhushu, commas, listing)
    for reader in READERS:
        if reader(st):
            return


def read_note(note: str, marks: dict[int, str], in_base, base_count=lambda x: 1, zhushu: bool = False) -> list[Candidate]:
    """All gloss candidates of a note, in note order. `zhushu`: the note is a 注 of a 注疏."""
    marks = {int(k): v for k, v in marks.items()}
    cuts = soft_marks(note, marks)
    # A sentence that is nothing but a stretch of the passage cannot stand alone: the final
    # mark after it is misplaced inside a quoted lemma (「卻手自弓。下取矢者」). Drop it.
    # One character alone only before a short 「Y也」 (「窆。下棺也」, KR1d0030_024#42, train; stop 71): a one-character sentence
    # before a formula or a citation is the end of the clause before (「…祀。蜼讀為…」, 「屨。云解者…」), a particle the end of a
    # question (「安知其不與？吾為姪娣也」)
    sents = sentences_of(note, cuts)
    for n, sent in enumerate(sents):
        s, e = sent[0][0], sent[-1][1]
        if e - s == 1 and n and cuts.get(s) in FINAL and not in_base(note[s:e]) and note[s] not in "注疏䟽箋" \
                and (note[s] in _CLOSING or note[s - 1] not in _CLOSING):
            # 「幣，謂給公用之。餘。」, 「事齎，謂以女功之事來取絲。枲。」 (KR1d0003_007#50, tune juan; _008#57, train; stop 76): one
            # character that is no word of the passage cannot stand as a sentence; it ends the one before, whose final mark the
            # segmenter put a character early (not a print's marker 注 / 疏 left in the text)
            del cuts[s]
            continue
        if e < len(note) and e - s >= 1 and in_base(note[s:e]) and cuts.get(e) in FINAL:
            if e - s == 1:
                nxt = note[e : sents[n + 1][-1][1]] if n + 1 < len(sents) else ""
                if note[s] in "與乎哉耶歟邪也矣焉者" or not (nxt.endswith("也") and 2 <= len(nxt) <= 6 and not _STRONG_AT.search(nxt)
                        and not any(ch in nxt for ch in "者謂猶云曰")):
                    continue
            del cuts[e]
    # 「溝謂造溝阞謂脉理屬讀爲注」: a word of the passage before a strong formula (讀為, 當為)
    # opens a statement even where the segmenter ran on (a cut, like the cuts before 古文)
    for m in _STRONG_AT.finditer(note):
        k = m.start()
        j = next((j for j in range(max(0, k - 4), k) if in_base(note[j:k])), None)
        if j and j not in cuts and (j - 1) not in cuts and not in_base(note[j - 1 : k]):
            cuts[j] = "。"
    # 「吉謂朔日」 in a later clause, 「…授巾與登謂爲王…」 run on after a closing particle
    # (KR1d0003_002#40, KR1d0003_031#258, train): a word of the passage right before 謂 / 猶 opens
    # a statement. A clause start becomes a sentence start; inside a clause the cut needs the
    # particle before X and 謂 right after it (「…之帝，謂蒼帝…」 is no head), or 猶
    for m in _WEI_YOU.finditer(note):
        k = m.start()
        j = next((j for j in range(max(1, k - 3), k) if in_base(note[j:k])), None)
        if j is None or in_base(note[j - 1 : k]) or any(j < c < k for c in cuts) or note[j:k] in _NOT_HEADS \
                or note[j:k].endswith("所") or cuts.get(k) in FINAL:
            continue  # (a full stop before 謂 / 猶: 「雕，文。謂刻其肌…」 — 謂 opens a sentence of its own, 文 is 雕's gloss)
        if m.group() == "猶" and _still_after(note[j:k], note[k + 1 : min((c for c in cuts if c > k), default=len(note))]):
            continue  # 「…，而猶求於鬼神」: "and still", no head
        if j in cuts and cuts[j] not in FINAL:
            cuts[j] = "。"
        elif j not in cuts and (j - 1) not in cuts and (
                (note[j - 1] in "之與矣焉耳者" and (k not in cuts or m.group() == "猶"))
                # 「冉子，孔子弟子，冉有攝猶貸也」, 「…除災害曰禬禬猶刮去也」 (KR1d0053_007#82, KR1d0003_008#40, train; stop 72): a short
                # 「X猶Y也」 closing the clause, no mark before 猶, Y of one or two characters and no negation (「天子諸侯猶不降也」 is
                # "still not"; 「主人踊，猶其升也」, 「君雖不升堂，猶辟之也」 are "as", "still")
                or (m.group() == "猶" and k not in cuts and (y := _SHORT_YOU.match(note, k + 1)) is not None
                    and (y.end() in cuts or y.end() == len(note)))):
            cuts[j] = "。"
    out: list[Candidate] = []
    clause_ends = sorted(cuts)
    commas = frozenset(k for k, m in cuts.items() if m == "，")
    listing = frozenset(k for k, m in cuts.items() if m == "、")
    for n_sent, sent in enumerate(sentences_of(note, cuts)):
        s, e = sent[0][0], sent[-1][1]
        shared = _list_sharing_a_gloss(note, sent, in_base)
        if shared:
            out.extend(shared)
            continue
        # a variant or 言X者 / X者 statement can also open a later clause of the sentence
        starts = [0]
        hidden = set()  # later clauses that look like a sentence start the segmenter missed
        remarks = set()  # later clauses opening a remark on the wording (言X…): no head is read before them
        cited = False  # a clause before this one named a book the sentence quotes
        for i, (cs, ce, _m) in enumerate(sent):
            if i == 0:
                continue
            cited = cited or _cites_a_book(note[sent[i - 1][0] : sent[i - 1][1]])
            body = note[cs:ce]
            nxt = note[sent[i + 1][0] : sent[i + 1][1]] if i + 1 < len(sent) else ""
            prev = note[sent[i - 1][0] : sent[i - 1][1]]
            kb = longest_base_prefix(body, in_base, max_len=4)
            # the clause before is a head still waiting for its gloss (「羣幣，私覿及大夫者」, 「德性，
            # 謂性至誠者」: KR1d0030_011, KR1d0053_053, train), or the two clauses are one quote of
            # the passage cut by a mark (「尊南，西面拜」, KR1d0030_029, train): no new statement here
            head_before = i == 1 and len(prev) <= 4 and in_base(prev) and not in_base(body[:-1] if body.endswith("者") else body)
            if in_base(prev + body) or (head_before and body.endswith("者")):
                continue
            if sent[i - 1][2] == "，" and body.endswith("者") and _one_head_cut(prev, body[:-1], in_base):
                # 「衣帶，下尺者，要也」: one head, read by read_keyword_formula from the clause before, which opens
                # the statement (「…則歌采蘋，間，若一者，重節」 reads 間若一, KR1d0030_006#125, train)
                if starts[-1] != i - 1:
                    starts.append(i - 1)
                    hidden.add(i - 1)
                continue
            # a remark on the passage's wording (言X者…, 言X，…): not where the passage itself has 言X (言思, a
            # name) nor where it glosses a head waiting before it (「禮器，言禮使人成器」)
            yan = _YAN_ZHE.match(body) or (_YAN_BARE.match(body) if nxt else None)
            remark = bool(yan and in_base(yan.group(1)) and not in_base("言" + yan.group(1)) and not head_before)
            # 「…天帝之明堂，函鍾，林鍾也」, 「…爲四達，反坫，反爵之坫也」, 「…官同者，執友，志同者」: a word of the passage (up to
            # three characters) glossed by a short 「Y也」 — or a 「Y者」 in a run of 「X，Y者」 pairs —, where the segmenter put a comma
            # for the full stop (stop 66: train silver and every train block read). Not a clause ending in 也, which closes
            # a gloss (「右也，左也，言相須而成也」); not after a clause that only names who speaks (「鄭司農云：衽席，單席也」: the
            # statement opened there); and where the gloss repeats the word's last character, not where the word may
            # itself gloss a head waiting before it (「東門、南門，皆為國門也」, 「馬者，獻馬，見成馬於王也」), be the name
            # just given (「平底曰：鐓，取其鐓也」) or an item of a list whose last item the 「Y也」 is
            two_back = note[sent[i - 2][0] : sent[i - 2][1]] if i >= 2 else ""
            short_gloss = nxt.endswith("也") or (nxt.endswith("者") and prev.endswith("者") and not in_base(prev)
                                                  and len(two_back) <= 4 and in_base(two_back))
            who = ATTRIBUTION.match(prev)
            attributed = who is not None and who.end() == len(prev)
            waiting = (len(prev) <= 4 and in_base(prev.removesuffix("者"))) or prev.endswith(("曰", "云")) \
                or in_base(nxt.removesuffix("也"))  # or be an item of a list: 「…正脊，脡脊，横脊也」
            if (len(body) <= 3 and in_base(body) and short_gloss and len(nxt) <= 6 and not body.endswith("也")
                    and not attributed and (body[-1] not in nxt or not waiting)) or (
                # the gloss repeats its lemma: 「…，即陳，陳在房中」, 「…，復復反也」 — not the next item of a list
                # (「…奏南陔、白華、華黍」, KR1d0028_006#317, stop 70), nor in the words of a book the sentence quotes
                # (「特牲饋食禮曰：祝洗，酌奠，奠于鉶南」, 「詩云：溫，溫恭人」: KR1d0028_016#189; stop 74, 7 of 8 over the books wrong)
                (len(body) <= 4 and kb == len(body) and nxt[:1] == body[-1] and sent[i][2] != "、" and not cited)
                or (kb and kb < len(body) and body[kb] == body[kb - 1] and not cited)
                # the kind of thing it is: 「…來鳴呼爲怪者，獸，狐狼之屬」 (KR1d0003_036#227, train), not an item of a
                # list (「官師，中士、下士、庶士，府史之屬」) nor a condition (「牛馬車輦，則轉委積之屬」)
                or (len(body) <= 4 and in_base(body) and _KIND_OF.fullmatch(nxt) and sent[i - 1][2] != "、")
            ):
                # 「…今謂之字，策，簡也。」: a short word of the passage glossed by a short 「Y也」
                starts.append(i)
                hidden.add(i)
            elif (kx := longest_base_prefix(body, in_base, max_len=5)) >= 2 and _says_what(body[:kx], body[kx:], in_base):
                # 「…關雎言后妃之德，葛蕈言后妃之職，卷耳言后妃之志」 (KR1d0030_004#223, train; stop 73): what X says, in a later clause
                starts.append(i)
                hidden.add(i)
            elif ATTRIBUTION.match(body) and not body.startswith("或"):
                # 「…，鄭司農云：X，Y」: a quoted commentator's gloss opens here
                starts.append(i)
                hidden.add(i)
            elif (
                body.startswith(EDITION + ("或曰",))
                # (not right after a clause that only names who speaks, where X is the passage's: 「鄭司農云：有秩酒者，給事中
                # 予之酒」 is one statement, opened there, whose head is the passage's own 有秩酒者; stop 66)
                or (body.endswith("者") and len(body) <= 9 and nxt and not body.startswith("謂")
                    and not (attributed and (in_base(body) or in_base(body[:-1])))
                    # (not the next item of a list that a 謂 opened: 「士，謂若中士、下士不命者，以主人為官長」, 「其他，謂貳車及介、
                    # 牢禮、賓主之間、擯者、將幣…」 (KR1d0030_002#262, KR1d0003_037#27, train; stop 73) — the list is what X refers
                    # to; a list of the passage's words is read as before: 「八、六者，豆數也」, 「此言包、特者…」)
                    and "謂" not in _list_opening(note, sent, i))
                # a strong formula in a later clause, as a run-on sentence hides it:
                # 「…長六尺，宵，讀為綃」, 「…，X讀為Y」, 「…，X當為Y」, 「…，X之言Y」
                or ((m := _STRONG.match(body)) and not all(ch in _ADVERBS for ch in (m.group("x") or m.group("x1") or m.group("y")))
                    and not (m.group("y") and _still_after(m.group("y"), body[m.end():])))
                # (a clause ending in 也 closes a gloss, it is no head: 「憲，表也，謂縣之也」)
                # (not the gloss of a head waiting before it that repeats the head: 「監，監一國，謂君也」, KR1d0003_029#19, train; stop 73)
                or (len(body) <= 4 and _STRONG_NEXT.match(nxt) and not body.endswith("也") and not (head_before and not in_base(body)))
                # another reading of a word of the passage in a later clause: 「…亳西，見，或為敗，邑或為予」,
                # 「…無方，詔侑，或為詔囿」 (KR1d0053_055#163, _024#5, train)
                or (len(body) <= 4 and in_base(body) and _OR_READS.match(nxt))
                # the note remarks on the passage's wording in a later clause: 「鄉士八人，言各者四人…」,
                # 「…變媒，言禖，神之也」 (KR1d0003_035#7, KR1d0053_015#26, train)
                or remark
                or ((m := _OR_READS_AT.match(body)) and in_base(m.group(1)))
                # 「…囷圜倉，穿地曰窌」: a short name closing a later clause (Y曰X, X a word of the passage)
                or ((m := _NAME_AT_END.match(body)) and in_base(m.group(2)) and not in_base(m.group(1))
                    and not says(m.group(1), m.group(2)))
                # 「…，室中西南隅謂之奥」 (KR1d0030_022#31, train): likewise Y謂之X
                or ((m := _CALLED_AT_END.match(body)) and in_base(m.group(2)) and not in_base(m.group(1)))
                # 「四井爲邑，四邑爲丘，四丘爲甸」, 「通屈一條繩爲武，垂下爲纓」 (KR1d0053_048#109, KR1d0030_017#9, train; stop 73): a Y為X of the
                # passage's X after a clause that names something too — a chain of names whose first is no word of the passage
                # (not the name the clause before gave, said of another word: 「脊從前為正，脅旁中為正」, which read_made leaves as one; nor
                # after an 「X者」 head: 「筴為筮者，筴在龜前為決也」)
                or (_NAMES_BEFORE.search(prev) and (mn := made_name(body, in_base)) and mn[1] not in ("也", "矣")
                    and not prev.removesuffix("也").endswith(mn[1]))
                # 「禮器曰：君尊瓦甒，豐形似豆，卑而大」 (KR1d0028_006#20, stop 70): what X looks like, in a later clause
                or ((m := _SHAPE.match(body)) and in_base(m.group("x")))
                # 「北宫，后之六宫，謂之北宫者，繫于王言之」, 「廟門曰祊，謂之祊者，以於繹祭名也」 (KR1d0003_007#147, tune juan;
                # KR1d0053_026#272, train; stop 76): why the passage calls it X, in a later clause
                or ((m := _CALLED_WHY.match(body)) and in_base(m.group(1)) and nxt)
                # 「…方十尺曰侯，四尺曰鵠，二尺曰正四寸曰質」, 「始養之曰畜，將用之曰牲」 (KR1d0003_007#74, tune juan; _004#59, train;
                # stop 76): a name after a name (Y曰X, Y曰Z) is a statement of its own, whether or not Z is the passage's — the gloss
                # of X ends with X
                # — only where the name before opened a statement itself: not in a list of names that glosses a head before it
                # (「八材，珠曰切，象曰瑳…」, 「五嶽，東曰岱宗，南曰衡山…」)
                or (_NAME_AT_END.fullmatch(prev) and _OPENS_NAME.match(body) and not attributed and starts[-1] == i - 1)
            ):
                starts.append(i)
                if remark:
                    remarks.add(i)
        bare = None  # a statement that is only a word of the passage, waiting for the next one's gloss
        for j, i in enumerate(starts):
            cs = sent[i][0]
            ce = sent[starts[j + 1]][0] if j + 1 < len(starts) else e
            before = len(out)
            # the words before a remark cut off by it are the remark's context, not a head to guess at: no bare
            # 「X，Y」 head there (亦南陳，言西面… read 南, 遂士十二人，言各者… read 遂, on train juan)
            # (a 「X，Y」 of two clauses before the remark, Y of three characters or more, is read as any: 「螣，蝗之屬，言百者…」,
            # 「長，其老者，言三人…」, KR1d0053_016#103, KR1d0028_004#210, train; stop 73 — not 「冬，皮屨、變，言白者…」)
            glossed = starts[j + 1] == i + 2 if j + 1 < len(starts) else False
            glossed = glossed and sent[i][2] == "，" and sent[i + 1][1] - sent[i + 1][0] >= 3
            cut_by_remark = j + 1 < len(starts) and starts[j + 1] in remarks and not glossed
            read_statement(note, cs, ce, clause_ends, in_base, out,
                           sentence_start=(i == 0 or i in hidden) and not cut_by_remark,
                           base_count=base_count, first_sentence=(n_sent == 0), zhushu=zhushu, commas=commas,
                           listing=listing)
            if i:
                # inside a sentence only a lemma of the passage makes a gloss (variants excepted)
                for c in out[before:]:
                    if c.type != "variant":
                        c.optional = True
            new = out[before:]
            if (bare is not None and new and new[0].lemma_note_start == cs and new[0].type != "variant"
                    # a phrase quoted to locate the character that a reading or an emendation
                    # then treats is no head of its own: 「振祭，振讀為慎」, 「加俎嚌之，嚌當爲祭」
                    # (KR1d0003_025#76, KR1d0030_001#231, train). A definition of a word of the
                    # phrase paraphrases it and glosses it: 「拜送，送矢也」, 「左頭，頭陽也」
                    and not (new[0].type in _LOCATES and new[0].lemma in note[bare[0] : bare[1]])):
                # coordinated heads share the gloss: 「救日之弓，救月之矢，謂日月食所作弓矢」,
                # 「貍首、騶虞，所以歌為節也」 (KR1d0003_036#227, KR1d0053_039#119, train); the first head's text runs
                # to the end of the gloss they share (it was the head alone, 「貍首」: stop 68)
                if new[0].type == "definition" and _SAME_OR_NOT.fullmatch(note, new[0].lemma_note_start + len(new[0].lemma),
                                                                          new[0].end):
                    # 「有道，無道，一也」 "having the Way or not, it is the same" (KR1d0053_052#64, train, stop 68's whole
                    # juan): a statement about the two, no definition of either
                    del out[before]
                else:
                    out.insert(before, Candidate(bare[0], new[0].end, new[0].type, note[bare[0] : bare[1]], bare[0], 0.6,
                                                 exact_only=True, optional=True))
            out.extend(_listed_heads(note, sent, i, ce, new, in_base))
            out.extend(_called_later(note, sent, i, cs, ce, new, in_base))
            ce1 = sent[i][1]  # the statement's first clause
            bare = (cs, ce1) if not new and ce1 == ce and 2 <= ce - cs <= 6 and in_base(note[cs:ce]) else None
    _sibling_heads(note, cuts, out, in_base)
    return out


def _sibling_heads(note: str, cuts: dict[int, str], out: list[Candidate], in_base) -> None:
    """「宮縣四面縣，軒縣去其一面，判縣又去其一面」, 「四世共髙祖、五世髙祖昆弟，六世以外…」 (KR1d0003_023#102, KR1d0053_034#58,
    train; stop 73): a clause opening with a word of the passage as long as the head the clause before opens with, and ending in the
    same character (軒縣 after 宮縣, 五世 after 四世), goes on defining the passage's words one by one: the word is a head, its gloss
    runs to the sentence's end or the next such head, and the gloss before it stops there. Over the thirteen books 9 gained and 3
    texts cut right. Not a word followed by 之 / 所 / 也 / 曰 / 者 or an attribution, which make it a statement's subject (a scan of
    such pairs: 「雍人之屬旅食者也」, 「諸侯所射」, 「右也，左也」, 「四曰…，五曰…」)."""
    heads = []  # each clause's start, the end of its sentence, where its head stands and the head ("" where none)
    for sent in sentences_of(note, cuts):
        for cs, ce, _m in sent:
            m = ATTRIBUTION.match(note, cs, ce)
            s = m.end() if m and (m.group("who") or m.group("own")) else cs
            k = longest_base_prefix(note[s:ce], in_base, max_len=6)
            heads.append((cs, sent[-1][1], s, note[s : s + k] if k and s + k < ce else ""))
    for i in range(1, len(heads)):
        cs, end, s, x = heads[i]
        _cs0, _end0, s0, x0 = heads[i - 1]
        if (not x or len(x) < 2 or len(x) != len(x0) or x[0] == x0[0] or x[-1] != x0[-1] or x[0] in _NOT_LEADS
                or x[-1] in _CLAUSE_OPENS or x[-1] in "曰云"):
            continue  # (not the head said again, 「哭於巷者，哭于巷門」, nor 「四曰…，五曰…」, 「貧者不足…，老者不足…」)
        rest = note[s + len(x) :]
        if rest[0] in "之所也曰者" or ATTRIBUTION.match(rest) or any(c.lemma_note_start == s for c in out):
            continue
        before = next((c for c in out if c.lemma_note_start == s0 and c.lemma == x0 and c.type != "variant"), None)
        if before is None:
            continue
        if before.start < cs < before.end:
            before.end = cs
        at = next((j for j, c in enumerate(out) if c.start > cs), len(out))
        out.insert(at, Candidate(cs, end, "definition", x, s, 0.55, exact_only=True, optional=True))


_USES = "服有用執設"  # wear / have / use / hold / set out: a verb the note puts before the passage's thing (「服皮弁者」)
_MADE_OF = re.compile(r"(?:析|以)[^，。；：、則而不]{1,6}為之")  # 「析五采羽為之」, 「以竹為之」: what a thing is made of
_NOMINAL_SHARED = re.compile(r"(?![言謂])[^，。、；：不無非未弗勿毋則而以於于為爲]{1,5}也")  # 「弓所用也」, 「樂章也」: a short nominal 「Y也」
_ABOUT_WORDING = re.compile(r"(?P<p>[^言不]{1,6}?)(?P<neg>不)?言(?P<y>[^之]{1,4})")  # 「P言Y者」, 「P不言Y者」
_PARTICLES = frozenset("於于以與及其")  # prepositions and conjunctions: no unmarked head but for a short 「Y也」 (「以用也」)


def _says_what(x: str, rest: str, in_base) -> bool:
    """「X言Y」: X a word of the passage (two characters or more, no person who speaks, no 「…之言」 "the words of"), Y what it says."""
    # (not 「雍人言入，旅人言退，文互相備也」: a short Y, or another 言 after it, is a remark on the passage's wording, 「P言Y者」's kind)
    return (len(x) >= 2 and rest.startswith("言") and 4 <= len(rest) - 1 <= 12 and "言" not in rest[1:] and not in_base(x + "言")
            and not in_base(rest[1:]) and x[-1] not in "之卿" and x[-1] not in _PERSON_ENDS and rest[1] not in "之其於于")


def _listed_subject(st: Statement, first: str) -> bool:
    """The clause after `first` (marked 、) opens with another word of the passage and runs on into a predicate: not a
    gloss that repeats the head (「司馬、司馬正」, 「羊骼、羊左骼」), a nominal one (「量人、司馬之屬」, 「主婦、主人之妻」,
    「純、紕所不至者，五寸」) or a list of them (「内兄弟、内賓、宗婦也」)."""
    nxt_end = next((c for c in st.inner if c > st.first_end), st.e)
    nxt = st.text[st.first_end : nxt_end]
    k = longest_base_prefix(nxt, st.in_base, max_len=4)
    if k and st.in_base(first + nxt[:k]):
        return False  # words standing together in the passage (「夫人、世子，死…」 on 「遭夫人世子之喪」): read as before
    listed_on = nxt_end in st.listing and st.seg.endswith("也")
    return 1 <= k < len(nxt) and nxt[0] not in first and "皆" not in st.seg and "之" not in nxt and "所" not in nxt and not nxt.endswith("也") \
        and not listed_on


def _list_opening(note: str, sent, i: int) -> str:
    """The clause that opens the run of 、-listed clauses ending right before clause i ("" where clause i follows no 、)."""
    r = i
    while r > 0 and sent[r - 1][2] == "、":
        r -= 1
    return note[sent[r][0] : sent[r][1]] if r < i else ""


# what a list of words is said to be together, not what each is: the same, different
_SAME_OR_NOT = re.compile(r"[，、]?(?:皆|亦)?[一同異]也?")
# … after the word it is said of together with the head (「有道，無道一也」), not after 言 / 謂 / 即 (「不同，言異也」)
_SAID_THE_SAME = re.compile(r"(?![言謂即])(.{1,6}?)" + _SAME_OR_NOT.pattern)


_ALL = ("皆", "竝", "並", "俱", "咸")


def _list_sharing_a_gloss(note: str, sent, in_base) -> list[Candidate]:
    """「介、景，皆大也」, 「圖、比、陳、協，皆考績之言」, 「同、角、正，皆謂平之也」 (KR1d0030_001#258, KR1d0003_037#8, KR1d0053_015#42,
    train; stop 72): words of the passage listed with 、 at a sentence start, then a clause opening with 皆 ("all of them") — one gloss
    for each word, the whole sentence its text (the readers took the first or the last word alone, the list run into its text)."""
    n = next((i for i, (_cs, _ce, m) in enumerate(sent) if m != "、"), len(sent))
    if n < 1 or n + 1 >= len(sent) or sent[n][2] != "，":
        return []
    items = [(cs, ce) for cs, ce, _m in sent[: n + 1]]
    e = sent[-1][1]
    if note.startswith(_ALL, sent[n + 1][0]):
        pred = note[sent[n + 1][0] + 1 : e]
        typ = "reference" if pred.startswith("謂") else "definition"
    elif note[items[-1][1] - 1] == "者" and not in_base(note[items[-1][0] : items[-1][1]]):
        # 「八、六者，豆數也」, 「舉肺、脊者，食時所先舉也」 (KR1d0030_011#229, _002#64, train; stop 73): the 者 closing the list
        # explains every word of it (the readers took the last word alone)
        items[-1] = (items[-1][0], items[-1][1] - 1)
        typ = "explanation"
    elif n >= 2 and n + 2 == len(sent) and _NOMINAL_SHARED.fullmatch(note, sent[n + 1][0], e):
        # 「枉矢、殺矢、矰矢、恒矢，弓所用也」, 「肩、臂、臑，肱骨也」 (KR1d0003_032#81, KR1d0026_016#57, train; stop 73): three words of the
        # passage or more, then one short nominal clause ending in 也 that is all the sentence says of them (two words alone are as
        # often a subject and a verb: 「賓、介降，從主人也」)
        typ = "definition"
    else:
        return []
    if not all(1 <= ce - cs <= 4 and in_base(note[cs:ce]) for cs, ce in items):
        return []
    return [Candidate(cs, e, typ, note[cs:ce], cs, 0.7, exact_only=True) for cs, ce in items]


def _called_later(note: str, sent, i: int, cs: int, ce: int, new: list[Candidate], in_base) -> list[Candidate]:
    """「鍾磬者，編縣之，二八十六枚而在一虡，謂之堵」 (KR1d0003_023#106, train): a later clause of the statement that is
    only 謂之X closes a Y謂之X whose Y is the clauses before it, which the statement's own formula (here 者) read
    otherwise; X, a word of the passage the statement has not read, is a reference gloss whose text is the statement
    up to it. On the train blocks of the three books it reads 9 (六宫, 矇, 堵, 雅, 號, 四海, 靈, 媵, 總), all right."""
    if note.startswith(EDITION, cs):
        return []  # 「故書或云命圭五寸，謂之躬圭」: the other text's wording, which the variant reader reads
    read = {c.lemma for c in new}
    out = []
    for k in range(i + 1, len(sent)):
        a, b, _m = sent[k]
        if a >= ce:
            break
        m = _CALLED_BARE.fullmatch(note, a, b)
        if m and m.group(1) not in read and in_base(m.group(1)):
            out.append(Candidate(cs, b, "reference", m.group(1), a + 2, 0.85, optional=True))
            read.add(m.group(1))
    return out


def _listed_heads(note: str, sent, i: int, ce: int, new: list[Candidate], in_base) -> list[Candidate]:
    """「騶虞、采蘋、采蘩，皆樂章名」, 「賓、介，處士賢者」: words of the passage listed with 、 before one gloss share
    it. Where the statement read one of them as its head, the others get its gloss too, when the gloss is a
    statement about them all (opening with 皆 / 謂, or a short nominal 「…也」 / 「…者」). Found on train juan of the
    three books (stop 59): 32 such lists, a later word of 13 unread."""
    items, k = [], i
    while k < len(sent) and sent[k][2] == "、":
        items.append(sent[k])
        k += 1
    if not items or k >= len(sent):
        return []
    last = note[sent[k][0] : sent[k][1]]
    bare_all = next((n for n in (4, 3, 2, 1) if last[n : n + 1] == "皆" and in_base(last[:n])), 0)
    if bare_all and sent[k][0] < ce:
        # the last word runs on into the 皆 of what is said of them all (「雲和、空桑、龍門皆山名」: KR1d0003_022#62, train,
        # stop 68's whole juan)
        items.append((sent[k][0], sent[k][0] + bare_all, sent[k][2]))
        pred = last[bare_all:]
    elif k >= len(sent) - 1 or sent[k][2] != "，" or sent[k + 1][0] >= ce:
        return []
    else:
        items.append(sent[k])
        pred = note[sent[k + 1][0] : sent[k + 1][1]]
    if not (pred.startswith(("皆", "謂")) or (pred.endswith(("也", "者")) and len(pred) <= 8
                                                and not any(ch in pred for ch in "則亦從以不之而"))):
        return []
    words = [(a, note[a:b]) for a, b, _m in items]
    if not all(1 <= len(w) <= 4 and in_base(w) for _a, w in words):
        return []
    if any(len(w1 + w2) >= 5 and in_base(w1 + w2) for (_a, w1), (_b, w2) in zip(words, words[1:])):
        return []  # 「女子、子嫁者」: a 、 inside a long phrase of the passage (女子子嫁者); 「賓、介」 stays a list
    read = {c.lemma_note_start: c for c in new if c.type in ("definition", "reference", "explanation")}
    first = next((read[a] for a, w in words if a in read and read[a].lemma == w), None)  # (not 椌楬 read as one)
    if first is None:
        return []
    return [Candidate(a, ce, first.type, w, a, 0.6, exact_only=True, optional=True) for a, w in words if a not in read]


# glosses of a character, before which a quoted phrase only locates it (coordinated heads)
_LOCATES = frozenset({"reading", "emendation", "explanation", "sound"})
_NAME_AT_END = re.compile(r"(.{1,6}?)曰(.{1,3}?)也?$")  # (「…，齊人滑曰瀡也」: KR1d0053_027#54, train; stop 73)
# a sentence-final particle: one standing alone closes the sentence before it (「…則王不就后宫息。也。」); after one, a character
# standing alone opens the next sentence, whose mark the segmenter put too early (「稽顙者，其贈也。拜。…」)
_CLOSING = frozenset("也矣焉耳爾乎哉歟與邪耶云")
_OPENS_NAME = re.compile(r"[^曰云謂]{1,6}曰[^曰]{1,3}")  # a clause that opens naming something (Y曰Z…)
_CALLED_WHY = re.compile(r"謂之(.{1,4}?)者")  # 謂之X者: why the passage says X
_NAMES_BEFORE = re.compile(r"(?<!當)(?<!讀)[為爲曰].{0,2}[^者]也?$")  # a clause naming something (Y為X, Y曰X), not an emendation
_NAMED_AFTER = re.compile(r"曰(.{1,3})")  # the name right after Y者 (Y者曰X)
# 「此云X者」, 「更云X者」, 「經直云X者」, 「變Y言X者」, 「更言X者」, 「獨言X者」: the note asks why the passage says X
_SAYS_HERE = r"(?:[此而更乃今又故獨]|經直|此獨|而獨)"  # "here", "further", "only", "the 經 simply" before 云 / 言
_SAYS_X = re.compile(rf"(?:{_SAYS_HERE}?云|{_SAYS_HERE}言)(?P<x>.{{1,6}})|[此是]?變.{{1,4}}?言(?P<x2>.{{1,6}})")
_CALLED_AT_END = re.compile(r"(.{1,12}?)謂之(.{1,4}?)[也者]?$")
_CALLED_IN_CLAUSE = re.compile(r"(.{0,8}?)謂之(.{1,4}?)[也]?$")
_CALLED_BARE = re.compile(r"謂之(.{1,4}?)[也者]?")  # a clause that is only 謂之X
_WEI_YOU = re.compile(r"謂(?!之)|猶")
_NOT_HEADS = frozenset("所此是皆亦又可之")  # the note's own words before 謂: 所謂, 此謂, 是謂 …
_NOT_LEADS = _NOT_HEADS | frozenset("凡其")  # no head of an unmarked 「X所以Y」 / 「X Y也」 opens with these
_NOT_NAMED = _NOT_HEADS | frozenset("則其彼")  # nor of 「X謂之Y」 (_read_other_name)
# not 之言: 「取衆民之言」 is "the people's words"; 讀亦當為 one formula (「右讀亦當為侑」, KR1d0003_025#91, train; stop 72: the 亦 before
# 當為 is no head, though the passage has one)
_STRONG_AT = re.compile(r"讀亦當[為爲作]|讀[為爲如曰若]|當[為爲作]")
# (「翦，㫁滅之言也」 "翦: a word for cutting off", KR1d0003_034#152, train, stop 69: Y之言也 ends a definition, no X之言Y)
# X之言Y only after one character, as read_keyword_formula reads it, and with a Y (「命，謂將走見之言」, KR1d0030_002#366, train;
# stop 73: 「謂將走見之言」 "it means the words of going to see him" ends in 之言, no formula opening a statement)
_STRONG = re.compile(r"^(?:(?P<x>.{1,4}?)(?:讀[為爲如曰若]|當[為爲作])|(?P<x1>.)之言(?!也?$)|(?P<y>.{1,2})猶)")
_OR_READS = re.compile(r"或[為爲作]")
_SHORT_YOU = re.compile(r"[^不無未非弗勿毋，。、；：？]{1,2}也")  # the Y也 of a short X猶Y也
_KIND_OR_PLACE = re.compile(r"[^，。、：；之]{1,8}之[屬處]")  # 「…之屬」 "of the kind of …", 「…之處」 "the place where …"
_KIND_OF = re.compile(r"[^，。則而以所][^，。]{0,5}之屬也?")
_YAN_ZHE = re.compile(r"言(.{1,4}?)者")
_YAN_BARE = re.compile(r"言(.{1,4})$")
_OR_READS_AT = re.compile(r"(.{1,4}?)或[為爲作]")
_STRONG_NEXT = re.compile(r"^(?:讀[為爲如曰若]|當[為爲作]|猶|謂(?!之))")
