"""The align stage: the glosses of each commentary unit, each linked to its lemma in the base unit.

    align_block(base, note, note_marks) -> list[Gloss]
    align_document(doc) -> doc        (fills unit.glosses of every commentary unit)

Requires: segment (unit.marks of commentary units; without marks the formula grammar still cuts
at 也 / 古文 / 今文, with lower recall). Provides: Unit.glosses.

How: grammar.py reads the note into statements (type + lemma as the note writes
it); here each lemma is anchored in the base text through the variant-folded view
(variants.py), so 于/於, 荅/答, 毎/每 ... compare equal:

1. verbatim (folded) occurrence; when the lemma repeats in the passage, the first occurrence at
   or after the previous gloss's lemma (else the first one);
2. a note that quotes the passage with a word changed (卻手自弓下取矢 for 卻手自弓下取一个):
   the longest stretch of the base the note repeats verbatim, if it covers >= 70% of the quote
   and >= 2 characters;
3. 古文曰Q / 今文曰Q: the base window of Q's length sharing most characters with Q (ties: more
   characters in the same position); 「…無X」: X, nearest to the quoted context;
4. otherwise the gloss stays unanchored (lemma_start None) with a reason.

A juan whose commentary does not gloss its passage (an essay on it, 黃道周's 表記集傳) still has
sentences that open with a word of the passage by chance. `chance_classes` measures it: every
block is read again against other passages of the juan, and a class of heads (one character,
longer) that anchors there at least half as often as in its own passage has its anchors
withdrawn, the evidence in each gloss's reason; in such a juan a head of the other class that
stands in another passage of the juan too is no evidence either (docs/glosses.md, "Stop 44").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pipeline import variants
from pipeline.align import heads, subcommentary
from pipeline.align.chains import chain_candidates
from pipeline.align.collation import collation_glosses
from pipeline.align.grammar import ATTRIBUTION, EDITION, SUBSTITUTES, Candidate, base_pieces, quoted_speaker, read_kin_note, read_note
from pipeline.readings import READING_NOTES, document_readings
from pipeline.align.subcommentary import quotations
from pipeline.kaozheng import Body, entries_of
from pipeline.model import CHANCE_END, CHANCE_REASON, Document, Gloss, withdrawn_as_chance
from pipeline.people import person, speaker_table
from pipeline.stage import Stage
from pipeline.variants import fold

FUZZY_MIN_SHARE = 0.7
# one-character "lemmas" that are pronouns or particles of the note itself (不言之者, 其…者)
FUNCTION_WORDS = frozenset("之其此也者所焉乎矣哉是彼")
# the chance check (chance_classes): each block is read against the passages this many places
# after its own (mod the juan's count), and a head class needs this many anchors in the juan to
# be judged. Glossing commentary stays under 0.25 in every juan of the corpus (the 集釋, both
# 注疏, 禮記集說, KR1d0026, KR1d0040); the essays of 表記集傳 give 0.61 and 0.73 for one character
CHANCE_SHIFTS = (3, 7, 11)
CHANCE_SHARE = 0.5
CHANCE_MIN_ANCHORED = 10
# the reason of a person read as the head of his own clause (grammar.Candidate.subject): counted by the chance check, then dropped
SUBJECT = "a person of the rite heading his own clause"



def _occurrences(fb: str, fx: str) -> list[int]:
    out, i = [], fb.find(fx)
    while i != -1:
        out.append(i)
        i = fb.find(fx, i + 1)
    return out


def _choose(occ: list[int], prev: tuple[int, int] | None) -> int:
    if prev is not None:
        for i in occ:
            if i >= prev[1]:
                return i
        for i in occ:
            if i >= prev[0]:
                return i
    return occ[0]


def _longest_common(fx: str, fb: str) -> tuple[int, list[int], int]:
    """Longest common substring of fx and fb: (length, starts in fb, start in fx)."""
    best, starts, xs = 0, [], 0
    n = len(fx)
    for i in range(n):
        for j in range(n, i + best, -1):
            sub = fx[i:j]
            if sub in fb:
                if j - i > best:
                    best, starts, xs = j - i, _occurrences(fb, sub), i
                break
    return best, starts, xs


class _Anchor:
    __slots__ = ("start", "end", "factor", "reason")

    def __init__(self, start=None, end=None, factor=1.0, reason=None):
        self.start, self.end, self.factor, self.reason = start, end, factor, reason


def anchor_lemma(base: str, fb: str, lemma: str, prev, exact_only: bool = False,
                 particles_ok: bool = False) -> _Anchor:
    """Find a lemma (as the note writes it) in the base passage."""
    if not base:
        return _Anchor(reason="no base passage before this commentary")
    if not lemma:
        return _Anchor(reason="empty lemma")
    if lemma in FUNCTION_WORDS and not particles_ok:
        return _Anchor(reason=f"lemma 「{lemma}」 is a function word (a pronoun or particle, not a word of the passage)")
    fx = fold(lemma)
    occ = _occurrences(fb, fx)
    if occ:
        # the word the gloss before was of, glossed again, is the same occurrence (「布八十縷為升，升字當為登」: both of 冠六升's
        # 升, not the next 升 of 衰三升; KR1d0028_011#15, train, stop 69)
        i = prev[0] if prev is not None and fb[prev[0] : prev[1]] == fx else _choose(occ, prev)
        return _Anchor(i, i + len(lemma), 1.0 if base[i : i + len(lemma)] == lemma else 0.95)
    # 此X / 凡X / 其X: a demonstrative before the lemma
    if len(lemma) >= 2 and lemma[0] in "此凡其是":
        occ = _occurrences(fb, fx[1:])
        if occ:
            i = _choose(occ, prev)
            return _Anchor(i, i + len(lemma) - 1, 0.85)
    if exact_only or len(lemma) < 3:
        return _Anchor(reason=f"lemma 「{lemma}」 not in base passage")
    n, starts, _xs = _longest_common(fx, fb)
    if n >= 2 and n >= FUZZY_MIN_SHARE * len(lemma):
        i = _choose(starts, prev)
        return _Anchor(i, i + n, 0.7)
    return _Anchor(reason=f"lemma 「{lemma}」 not in base passage (longest verbatim stretch {n} of {len(lemma)} chars)")


MAX_GAP = 3  # characters of the passage a quote may leave out between two of its stretches


def anchor_gapped(base: str, fb: str, lemma: str, prev, in_base, short_first: bool = False) -> _Anchor | None:
    """A note quoting the passage with words left out (掌其戒令賞罰 for 掌其戒令與其賞罰): the base
    stretch from its first piece to its last, each piece following the one before within
    MAX_GAP characters. None when the pieces do not stand so."""
    pieces = [fold(p) for p in base_pieces(lemma, in_base, short_first=short_first)]
    if not pieces:
        return None
    spans = []
    for i in _occurrences(fb, pieces[0]):
        end = i + len(pieces[0])
        for p in pieces[1:]:
            j = fb.find(p, end, end + MAX_GAP + len(p))
            if j == -1:
                break
            end = j + len(p)
        else:
            spans.append((i, end))
    if not spans:
        return None
    i = _choose([a for a, _b in spans], prev)
    return _Anchor(i, dict(spans)[i], 0.8)


def anchor_quote(base: str, fb: str, quote: str, prev) -> tuple[_Anchor, str | None]:
    """古文曰Q / 今文曰Q: the base stretch the other edition words as Q."""
    if not base:
        return _Anchor(reason="no base passage before this commentary"), None
    fq = fold(quote)
    if "無" in quote:  # 今文曰阼階下無適: the other edition lacks X
        k = quote.index("無")
        ctx, lacks = fq[:k], fq[k + 1 :]
        # the longest prefix of what follows 無 that stands in the base
        best = ""
        for j in range(len(lacks), 0, -1):
            if lacks[:j] in fb:
                best = lacks[:j]
                break
        if best:
            occ = _occurrences(fb, best)
            cpos = fb.find(ctx) if ctx else -1
            i = min(occ, key=lambda o: abs(o - cpos)) if cpos >= 0 else _choose(occ, prev)
            return _Anchor(i, i + len(best), 0.8), base[i : i + len(best)]
        return _Anchor(reason=f"word 「{lacks}」 said to be lacking is not in base passage"), None
    occ = _occurrences(fb, fq)
    if occ:
        i = _choose(occ, prev)
        return _Anchor(i, i + len(quote), 0.6), base[i : i + len(quote)]
    L = len(fq)
    if L == 0 or L > len(fb):
        return _Anchor(reason=f"quoted wording 「{quote}」 longer than the passage"), None
    # the passage with one word more: the lemma is the word the other edition lacks, as for
    # 「…無X」 (今文曰奠于薦右 for 奠觶于薦右 → 觶; 今文曰祝拜受 for 祝拜坐受 → 坐: KR1d0030_027, _028, train).
    # An inner word only: a quote lacking an edge character stands in the passage as it is (above)
    lacked = sorted({i + k for i in range(len(fb) - L) for k in range(1, L)
                     if fb[i : i + k] + fb[i + k + 1 : i + L + 1] == fq})
    if lacked:
        i = _choose(lacked, prev)
        return _Anchor(i, i + 1, 0.7), base[i]
    # the windows sharing most with the quote (ties: more characters in the same position)
    best_key, ties = (0, 0), []
    for i in range(len(fb) - L + 1):
        w = fb[i : i + L]
        pos = sum(1 for a, b in zip(w, fq) if a == b)
        rest = list(w)
        shared = 0
        for ch in fq:
            if ch in rest:
                rest.remove(ch)
                shared += 1
        key = (shared, pos)
        if key > best_key:
            best_key, ties = key, [i]
        elif key == best_key and ties:
            ties.append(i)
    if ties and best_key[0] * 2 >= L:
        # windows as alike as each other: the one after the previous gloss's lemma, as for a repeated lemma (「訝，迎也。今文曰梧受」
        # is 訝受, not the 介受 before it: KR1d0030_015#275, train; stop 70)
        i = _choose(ties, prev)
        j = i + L
        if best_key[1] < best_key[0]:
            # the shared characters stand shifted: the other edition adds a word (今文曰沐浴 for
            # 浴, KR1d0030_025, train), so the window's edge characters the quote lacks are not
            # part of the lemma (a changed word keeps its place and is kept)
            while j - i > 1 and fb[i] not in fq:
                i += 1
            while j - i > 1 and fb[j - 1] not in fq:
                j -= 1
        return _Anchor(i, j, 0.6), base[i:j]
    return _Anchor(reason=f"quoted wording 「{quote}」 shares under half its characters with any stretch of the passage"), None


def head_class(lemma: str) -> str:
    return "one-character" if len(lemma) == 1 else "longer"


def align_block(base: str, note: str, note_marks: dict[int, str] | None = None, zhushu: bool = False,
                withdrawn: Callable[[str], str | None] | None = None, subjects: bool = False) -> list[Gloss]:
    """The glosses of one commentary block (note) on its base passage. `zhushu`: the note is a 注
    of a 注疏 (marker 注), read with the head classifier's 注疏 weights. `withdrawn`: given a
    lemma, the reason its anchor is not taken, or None (the chance check: _chance_reason).
    `subjects`: also the persons of the rite read as the head of their own clause (Candidate.subject),
    anchored, after the glosses and with the reason SUBJECT — for the chance check to count, never kept."""
    base = base or ""
    fb = fold(base)
    cache: dict[str, bool] = {}

    def in_base(s: str) -> bool:
        r = cache.get(s)
        if r is None:
            r = cache[s] = bool(s) and fold(s) in fb
        return r

    cands: list[Candidate] = read_note(note, note_marks or {}, in_base, lambda x: fb.count(fold(x)), zhushu)
    kin = read_kin_note(base, note, {int(k): v for k, v in (note_marks or {}).items()})
    if kin is not None and not any(c.start < kin.end for c in cands):  # (nothing read in that clause)
        cands.insert(0, kin)
    subject_cands = [c for c in cands if c.subject]
    cands = [c for c in cands if not c.subject]
    if zhushu:  # 「食飯也飲酒漿也膳牲肉也羞有滋味者」: glosses of a list run together (chains.py)
        taken = {c.lemma_note_start for c in cands if c.lemma_note_start is not None and in_base(c.lemma)}
        extra = chain_candidates(base, note, note_marks or {}, taken, lambda x: fb.count(fold(x)))
        if extra:
            cands = sorted(cands + extra, key=lambda c: c.start)
    glosses: list[Gloss] = []
    prev: tuple[int, int] | None = None
    emended: dict[str, tuple[str, tuple[int, int]]] = {}  # {Y: (X, X's span)} of the note's 「X當為Y」 so far
    for c in cands:
        lemma = c.lemma
        if c.same_as_prev:
            if glosses and glosses[-1].lemma_start is not None:
                a = _Anchor(glosses[-1].lemma_start, glosses[-1].lemma_end, 0.8)
                lemma = glosses[-1].lemma
            else:
                a = _Anchor(reason="variant without a lemma, and no glossed word before it")
        elif c.quote is not None:
            a, lem = anchor_quote(base, fb, c.quote, prev)
            if lem:
                lemma = lem
        elif c.gapped and (g := anchor_gapped(base, fb, c.lemma, prev, in_base)) is not None:
            a, lemma = g, base[g.start : g.end]
        else:
            if c.gapped:  # the pieces do not stand together: the longest verbatim stretch is the lemma
                lemma = c.lemma = max(base_pieces(c.lemma, in_base), key=len)
            # a variant may well concern a particle (今文無也); other glosses of one are spurious
            a = anchor_lemma(base, fb, c.lemma, prev, exact_only=c.exact_only,
                             particles_ok=c.type == "variant")
            if a.start is None and c.type != "variant" and (read := _as_emended(c.lemma, emended)) != fold(c.lemma):
                # the lemma as the note's emendation or reading has it, turned back to the passage's word (禮賓 →
                # 醴賓 after 「醴當作禮」); the word the emendation named itself where it was named (「綏當為緌。緌，…」)
                at = next((span for x, span in emended.values() if x == read), None)
                b = _Anchor(*at) if at else anchor_lemma(base, fb, read, prev, exact_only=True)
                a = _Anchor(b.start, b.end, 0.9 * b.factor) if b.start is not None else a
            # (an 「X者」 explanation's head may open with a piece of one character: 「公再拜者」 of 公北面再拜, 「皆訝受者」 of 皆進訝受,
            # KR1d0030_012#97, #144, train; stop 73 — 45 anchored over the thirteen books, read, right; for any head it read statements
            # as gapped definitions, 「秋取龜，及萬物成也」)
            if a.start is None and c.type != "variant" and not c.gapped and (
                    g := anchor_gapped(base, fb, c.lemma, prev, in_base, short_first=c.type == "explanation" and len(c.lemma) >= 3)):
                # a head that quotes the passage with words left out, whatever reader took it (「繫之弗别，謂若今宗室屬籍也」 on 「繫之以姓
                # 而弗别」, KR1d0053_034#64, 禮記 juan 34, train; stop 73), as read_definition's gapped heads are
                a = g
            if c.type != "variant" and (a.start is None or a.end - a.start < len(c.lemma)):
                # 己 / 已 / 巳 printed for one another, where the lemma anchored nowhere or only in part (「民致行己者」 of
                # 民致行已, KR1d0053_055, train)
                for form in _lookalike_forms(c.lemma):
                    b = anchor_lemma(base, fb, form, prev, exact_only=True)
                    if b.start is not None:
                        a = _Anchor(b.start, b.end, 0.9 * b.factor)
                        break
            if a.start is not None:
                lemma = base[a.start : a.end]
        if withdrawn and a.start is not None and c.type != "variant" and (why := withdrawn(lemma)):
            a = _Anchor(reason=why)
        if (a.start is not None and c.type == "explanation" and c.lemma_note_start and not lemma.endswith("者")
                and note[c.lemma_note_start - 1] == "言"
                and note[c.lemma_note_start + len(c.lemma) : c.lemma_note_start + len(c.lemma) + 1] == "者"
                and base[a.end : a.end + 1] == "者" and not re.match(r"[^者]{1,12}?也", base[a.end + 1 :])):
            # 「言從者，謙不敢斥也」 on the passage's 請醴從者, 「乃言儐使者」 on 儐使者 (KR1d0028_002#440, _010#119; stop 74): a remark on
            # the wording whose 者 the passage has too quotes the word with it (從者, 獲者, 卒受者, 冠者, 嫁於大夫者 …) — not 「謂之緦者」,
            # the name 緦 of the passage's 「緦者十五升」, nor 「云君子子者」 on the 傳's 「君子子者，貴人之子也」, nor where the passage's 者 is
            # the topic of a 「X者，Y也」 of its own (「正言小功者」 on 「小功者，兄弟之服也」: the remark is on 小功). Over the thirteen books
            # 29 lemmas gain their 者
            a = _Anchor(a.start, a.end + 1, a.factor)
            lemma = base[a.start : a.end]
        anchored = a.start is not None
        if c.optional and not anchored:
            continue
        if not anchored and c.type != "variant" and lemma in FUNCTION_WORDS:
            continue  # 「其，士也」: a pronoun heading a sentence is no lemma
        glosses.append(
            Gloss(
                note_start=c.start,
                note_end=c.end,
                text=note[c.start : c.end],
                type=c.type,
                lemma=lemma,
                base_seq=None,
                lemma_start=a.start,
                lemma_end=a.end,
                confidence=round(c.confidence * a.factor, 3) if anchored else round(c.confidence * 0.5, 3),
                reason=None if anchored else (f"{a.reason}: {c.why}" if c.why else a.reason),
                said_by=quoted_speaker(note, c.start),
            )
        )
        if anchored:
            prev = (a.start, a.end)
            if c.type in ("emendation", "reading"):
                emended.update(_substitution(glosses[-1]))
            elif c.type == "variant":
                for y, xs in _edition_word(glosses[-1]).items():
                    emended.setdefault(y, xs)
            elif c.type in ("definition", "equivalence"):
                for y, xs in _one_for_one(glosses[-1]).items():
                    emended.setdefault(y, xs)
    if subjects:
        for c in subject_cands:
            a = anchor_lemma(base, fb, c.lemma, None, exact_only=c.exact_only)
            if a.start is not None:
                glosses.append(Gloss(note_start=c.start, note_end=c.end, text=note[c.start : c.end], type=c.type,
                                     lemma=base[a.start : a.end], base_seq=None, lemma_start=a.start, lemma_end=a.end,
                                     confidence=c.confidence, reason=SUBJECT))
    return glosses


def _one_for_one(g: Gloss) -> dict[str, tuple[str, tuple[int, int]]]:
    """{Y: (X, X's span)} of an anchored 「X，Y也」 / 「X猶Y也」 that glosses one character by one: the note goes on to say the
    passage's words with Y in X's place (「省，善也。善於其君，謂免於大難也」, 「干猶空也。空祫，謂無廟」, 「坏，益也。蟄蟲益户，謂稍小之
    也」: KR1d0053_034#10, KR1d0053_016#372, train; stop 73), which read back anchor as 省於其君, 干祫, 蟄蟲坏户."""
    x = g.lemma
    said = ATTRIBUTION.match(g.text)  # 「𤣥謂恆，久也。巫久者…」 (KR1d0003_026#65, 周禮 juan 26, train; stop 73): Zheng's own gloss after 杜子春's
    m = re.fullmatch(re.escape(x) + r"猶?(.)也", g.text[said.end() if said else 0 :])
    if len(x) != 1 or not m or fold(m.group(1)) == fold(x):
        return {}
    return {fold(m.group(1)): (fold(x), (g.lemma_start, g.lemma_end))}


# the prints write 己, 已 and 巳 for one another: 「已猶大也」 of the passage's 為己偞卑, 「己則否者」 of 已則否, 「已之言起也」
# of 戊巳 (KR1d0053_029, _032, _016, train). Not in the variant fold, which would anchor every reading of 已 on a 己
_LOOKALIKES = "己已巳"


def _lookalike_forms(lemma: str) -> list[str]:
    """The lemma with its 己 / 已 / 巳 (at most two) written as the others; [] when it has none."""
    at = [i for i, ch in enumerate(lemma) if ch in _LOOKALIKES]
    if not at or len(at) > 2:
        return []
    forms = [""]
    for i, ch in enumerate(lemma):
        forms = [f + c for f in forms for c in (_LOOKALIKES if i in at else ch)]
    return [f for f in forms if f != lemma]


def _substitution(g: Gloss) -> dict[str, tuple[str, tuple[int, int]]]:
    """{Y: (X, X's span in the passage)} of an anchored 「X當為Y」 / 「X讀為Y」 whose Y is as long as X
    (one word for one)."""
    m = SUBSTITUTES.search(g.text)
    n = g.lemma_end - g.lemma_start
    y = g.text[m.end() : m.end() + n] if m else ""
    ok = len(y) == n and fold(y) != fold(g.lemma)
    return {fold(y): (fold(g.lemma), (g.lemma_start, g.lemma_end))} if ok else {}


_EDITION_WORD = re.compile(rf"(?:{'|'.join(EDITION)})(.{{1,2}}?)[為爲作](.{{1,2}})")


def _edition_word(g: Gloss) -> dict[str, tuple[str, tuple[int, int]]]:
    """{Y: (X, X's span)} of an anchored 「故書X為Y」 / 「今文X為Y」 (one word for one): the note may go on to quote the passage as
    that edition has it, and a reading or an emendation of that edition's word names the passage's own (「故書庀為比。鄭司農云：
    比讀為庀」, 「故書蜡為蠶，杜子春云：蠶當為蜡」, 「故書録爲禄，杜子春云：禄當爲録」: KR1d0003_015#221, _024#87, train; _007#57, a
    tune juan, where stop 76 found it) — read back, Y anchors on X: over the thirteen books 64 readings and emendations of the
    周禮注疏 anchored that were not (or were on another word), every one read, one anchored on the other of two 和."""
    m = _EDITION_WORD.fullmatch(g.text)
    if not m or len(m.group(1)) != len(m.group(2)) or fold(m.group(1)) != fold(g.lemma) or fold(m.group(2)) == fold(g.lemma):
        return {}
    return {fold(m.group(2)): (fold(g.lemma), (g.lemma_start, g.lemma_end))}


def _as_emended(lemma: str, emended: dict[str, tuple[str, tuple[int, int]]]) -> str:
    """The lemma (folded) with each word an earlier emendation or reading of the note put in the text's
    place turned back to the text's own (禮賓 → 醴賓 after 「醴當作禮」)."""
    out = fold(lemma)
    for y, (x, _span) in emended.items():
        out = out.replace(y, x)
    return out


class AlignStage(Stage):
    """Its models are three small files: the variant table, the gloss-head weights and the 疏
    quotation tagger."""

    name = "align"
    requires = ("units", "marks")
    provides = ("glosses", "readings")

    @classmethod
    def load_model(cls, path: Path | None) -> None:
        variants.load_table()  # raises when models/variants/fold.tsv is missing
        variants.reading_alternates("")  # … or models/variants/readings.tsv
        if not heads.MODEL_PATH.exists():
            raise FileNotFoundError(f"no gloss-head weights at {heads.MODEL_PATH} (rebuild: `zhushu train gloss-heads`)")
        heads.load_weights()
        speaker_table()  # … or models/speakers/speakers.tsv (whom a gloss is by)
        if subcommentary.SHIPPED == "tagger":
            from pipeline.align import quote_tagger

            quote_tagger.load_tagger()  # raises when models/quotations/model.crfsuite is missing
        elif subcommentary.SHIPPED == "spans":
            from pipeline.align import quote_spans

            quote_spans.load_model()  # raises when models/quotations/spans.json is missing

    def __call__(self, doc: Document) -> Document:
        return align_document(doc)


# Commentary that glosses its base passage statement by statement (the formula grammar):
# the 集釋's 鄭注 / 釋曰 / 鄭目録云 and the 注 of the 注疏. The 疏 quotes its passage instead
# (subcommentary.py); 音義 reading notes are parsed into readings, not glosses.
SUBCOMMENTARY = "疏"
NOT_GLOSSED = frozenset((READING_NOTES, "考證", "小注"))
ZHUSHU_NOTE = "注"  # the 注 of a 注疏 (the 集釋's are 鄭注): read with the 注疏 head weights


def align_document(doc: Document) -> Document:
    """Fill unit.glosses of every commentary unit: formula glosses anchored in the base unit
    before it (doc.base_before), or, for a 疏, its quotations of the passage and the 注; of every 考證
    entry, its emendations and variant readings (collation.py); and unit.readings of every 音義 unit
    (readings.py), each head anchored in the 經 or 注 before."""
    for unit, readings, _targets in document_readings(doc.units, fold, variants.reading_alternates):
        unit.readings = readings
    passage_start = 0  # a 疏 explains the base and 注 units since the previous 疏
    for unit in doc.units:
        if unit.kind == "commentary" and unit.marker == SUBCOMMENTARY:
            unit.glosses = _quotation_glosses(doc, unit, passage_start)
            passage_start = unit.seq + 1
    bases, index, blocks, found = read_formula_blocks(doc)
    classes = chance_classes(chance_counts(blocks, found, bases, index))
    if classes:
        folded = [fold(b.text) for b in bases]
        found = [align_block(base.text if base else "", unit.text, marks, zhushu=z,
                             withdrawn=_chance_reason(classes, folded, index[base.seq] if base else None))
                 for unit, base, marks, z in blocks]
    else:  # the persons heading their own clause were read for the count only
        found = [[g for g in glosses if g.reason != SUBJECT] for glosses in found]
    for (unit, base, _marks, _z), glosses in zip(blocks, found):
        for g in glosses:
            g.base_seq = base.seq if base else None
            g.said_by_name = person(g.said_by, doc.book) if g.said_by else None  # 鄭司農: 鄭衆 (people.py)
            if g.lemma_start is None and g.lemma and base is not None and not withdrawn_as_chance(g.reason):
                g.reason = (g.reason or "unanchored") + (
                    _in_commentary(g.lemma, doc, base, unit) or _elsewhere(g.lemma, bases, index[base.seq]))
        unit.glosses = glosses
    entries = entries_of(doc)
    if entries:  # a 注疏's 考證: its emendations and variant readings, linked to the word of the body they are about
        body = Body(doc)
        for unit in entries:
            unit.glosses = collation_glosses(doc, unit, body)
    return doc


def read_formula_blocks(doc: Document) -> tuple[list, dict[int, int], list[tuple], list[list[Gloss]]]:
    """A juan's base units, their index by seq, its formula blocks (formula_blocks) and the glosses
    each block reads on its own passage: what the chance check starts from."""
    bases = [u for u in doc.units if u.kind == "base"]
    index = {u.seq: i for i, u in enumerate(bases)}
    blocks = formula_blocks(doc)
    found = [align_block(base.text if base else "", unit.text, marks, zhushu=z, subjects=True) for unit, base, marks, z in blocks]
    return bases, index, blocks, found


def formula_blocks(doc: Document) -> list[tuple]:
    """The commentary units the formula grammar reads: (unit, its base unit or None, the marks it
    reads, read as a 注疏's 注)."""
    blocks = []
    for unit in doc.units:
        if unit.kind != "commentary" or unit.marker in NOT_GLOSSED or unit.marker == SUBCOMMENTARY:
            continue
        base = doc.base_before(unit)
        if base is None and unit.marker is None:
            # prose that no marker opens and no passage precedes — prefaces, 提要, the Qing
            # editors' memorials, appendices — is no commentary of Zheng's kind: the grammar
            # would read its sentences as glosses of words it has no passage to find them in
            continue
        # the segmenter's own marks where its passage prior changed them (model.Unit.model_marks)
        marks = unit.model_marks if unit.model_marks is not None else unit.marks
        blocks.append((unit, base, marks, unit.marker == ZHUSHU_NOTE))
    return blocks


def chance_counts(blocks: list, found: list[list[Gloss]], bases: list, index: dict[int, int],
                  always: bool = False) -> dict[str, tuple[int, float]]:
    """{head class: (anchors in their own passage, anchors on average in another passage)} of a
    juan's formula glosses (`found`, one list per block).

    A head that stands in the passage is evidence of a gloss only if such heads would not stand
    there anyway: each block is read again against the passages CHANCE_SHIFTS places after its
    own (mod the juan's count). Variants are not counted (their wording is checked on its own).
    Unless `always`, the second reading is skipped (expected 0) when no class has
    CHANCE_MIN_ANCHORED anchors to judge."""
    def counted(glosses):
        return [head_class(g.lemma) for g in glosses if g.lemma_start is not None and g.type != "variant"]

    own: dict[str, int] = {}
    for glosses in found:
        for cls in counted(glosses):
            own[cls] = own.get(cls, 0) + 1
    other = dict.fromkeys(own, 0)
    shifts = sorted({s % len(bases) for s in CHANCE_SHIFTS} - {0}) if bases else []
    if shifts and (always or max(own.values(), default=0) >= CHANCE_MIN_ANCHORED):
        for unit, base, marks, z in blocks:
            if base is None:
                continue
            i = index[base.seq]
            for s in shifts:
                for cls in counted(align_block(bases[(i + s) % len(bases)].text, unit.text, marks, zhushu=z, subjects=True)):
                    if cls in other:
                        other[cls] += 1
    return {cls: (n, other[cls] / len(shifts) if shifts else 0.0) for cls, n in sorted(own.items())}


def chance_classes(counts: dict[str, tuple[int, float]]) -> dict[str, str]:
    """The head classes whose anchors chance explains, {class: the evidence}: a class with at
    least CHANCE_MIN_ANCHORED anchors in the juan that anchors in other passages, on average, at
    least CHANCE_SHARE as often as in its own."""
    return {cls: (f"in this juan {n} {cls} heads stand in their own passage and {expected:.1f} on average "
                  f"in another passage of it ({expected / n:.2f})")
            for cls, (n, expected) in counts.items()
            if n >= CHANCE_MIN_ANCHORED and expected >= CHANCE_SHARE * n}


def _chance_reason(classes: dict[str, str], folded: list[str], i: int | None) -> Callable[[str], str | None]:
    """For a block on passage i of a juan with chance classes (`folded`: the juan's passages, folded):
    the reason a head's anchor is withdrawn, or None. A head of a withdrawn class goes; so does one
    of the other class that stands in another passage of the juan too (君子, 天下 of 表記集傳): where
    the commentary is shown not to gloss its passage, only a head peculiar to it is a link."""
    others = [text for j, text in enumerate(folded) if j != i] if i is not None else []
    shown = "; ".join(classes.values())

    def reason(lemma: str) -> str | None:
        cls = head_class(lemma)
        if cls in classes:
            return f"{CHANCE_REASON}: {classes[cls]}: {CHANCE_END}"
        if any(fold(lemma) in other for other in others):
            return f"{CHANCE_REASON}: {shown}; this {cls} head stands in another passage of it too: {CHANCE_END}"
        return None

    return reason


def quotation_inputs(between: list, shu) -> tuple[list[tuple[int, str]], list[tuple[int, str]], tuple | None]:
    """What the 疏 quotation reader reads of the units `between` the previous 疏 and `shu`: the 經
    units and the 注 units, (seq, text) each, and the units' punctuation (the passage's by seq, the
    疏's) when the segment stage has run — it gives every unit its sentences —, else None."""
    passage = [(u.seq, u.text) for u in between if u.kind == "base"]
    notes = [(u.seq, u.text) for u in between if u.kind == "commentary" and u.marker == "注"]
    marks = ({u.seq: u.marks for u in between}, shu.marks) if shu.sentences else None
    return passage, notes, marks


def _quotation_glosses(doc: Document, shu, passage_start: int) -> list[Gloss]:
    between = doc.units[passage_start : shu.seq]
    passage, notes, marks = quotation_inputs(between, shu)
    by_seq = {u.seq: u for u in between}
    out = []
    for q in quotations(shu.text, passage, notes, marks):
        target = by_seq[q.seq].text
        out.append(Gloss(note_start=q.shu_start, note_end=q.shu_end, text=shu.text[q.shu_start : q.shu_end],
                         type="explanation", lemma=target[q.start : q.end], base_seq=q.seq,
                         lemma_start=q.start, lemma_end=q.end,
                         # the reader's probability where it gives one (the span reader's: on dev,
                         # 0.96 of those at 0.9+ are the editions' quotations, 0.37 at 0.3–0.4)
                         confidence=round(q.p, 3) if q.p is not None else (0.8 if q.form == "者" else 0.7)))
    return out


def _in_commentary(lemma: str, doc: Document, base, unit) -> str:
    """釋曰 often glosses a word of the 鄭注 block before it rather than of the base text."""
    fl = fold(lemma)
    for prev in doc.units[base.seq + 1 : unit.seq]:
        if prev.kind == "commentary" and fl in fold(prev.text):
            return f"; it stands in the {prev.marker or 'commentary'} block before (#{prev.seq})"
    return ""


def _elsewhere(lemma: str, bases, i: int) -> str:
    """Say where else an unanchored lemma stands (the contract anchors in the base just before)."""
    fl = fold(lemma)
    for j, where in ((i - 1, "previous"), (i + 1, "next")):
        if 0 <= j < len(bases) and fl in fold(bases[j].text):
            return f"; it stands in the {where} base passage (#{bases[j].seq})"
    if any(fl in fold(b.text) for b in bases):
        return "; it stands elsewhere in this juan's base text"
    return ""
