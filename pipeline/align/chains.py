"""Chains of glosses the segmenter ran together: 「食飯也飲酒漿也膳牲肉也羞有滋味者」,
「腫瘍癕而上生創者潰瘍癕而含膿血者金瘍刅創也」.

A 注 often glosses a list of the 經 item by item, in the 經's order: the heads are the passage's
words one after the other, each followed by a short definition. When the note's marks are missing
(the segmenter leaves such runs unmarked), the statement reader sees one long sentence and reads
at most its first head. Here the order itself is the evidence: three or more heads that are
consecutive words of the passage (each the next one in it, no character left out), standing in
the note in that order, each followed by a short definition that repeats no content word of the
passage, are read as a chain of plain definitions — each head also judged by the head classifier
(heads.py) as if it opened a sentence, with a lower bar than a lone head gets (CHAIN_THRESHOLD),
since its neighbours vouch for it.

Only for the 注 of a 注疏: on the 集釋's 鄭注 the same reading mostly finds paraphrases of the
passage (「俎加鮮魚鮮腊」 → 俎 / 魚 / 腊; train juan, docs/glosses.md).
"""

from __future__ import annotations

from pipeline.align.grammar import Candidate
from pipeline.align.heads import head_probability
from pipeline.variants import fold

MIN_CHAIN = 3  # heads in a row: two could be any two neighbouring words a paraphrase repeats
MAX_DEFINITION = 8  # characters from one head to the next (「癕而上生創者」 is 6)
MAX_HEAD = 2  # a chain's heads are words of 1 or 2 characters, all of one length
CHAIN_THRESHOLD = 0.3  # head classifier P for a head inside a chain (a lone head needs 0.5)
# characters that are no head of their own: particles, pronouns, numerals, formula words
NOT_HEAD = frozenset("之以曰者而其也於于為爲則乃及與所不無有在是此皆亦又云謂猶言一二三四五六七八九十")
# a word right before a head that governs it: the head is the object of the note's own clause
# (「以罔搏所當田之獸」: 田 and 獸 are no heads there)
GOVERNS = frozenset("不無未言非弗勿毋其之所以而于於與及若則當察視")
FINAL = "。；！？"
PARTICLES = frozenset("也矣焉耳者")
# 「外骨，龜屬、内骨，蟞屬…」 (KR1d0003_041#220, 考工記, train; stop 71): "of the kind of" closes a definition, whether or not
# the passage has the character too (its 「小蟲之屬」)
KIND_WORDS = frozenset("屬")


def _items(note: str, fn: str, fb: str) -> list[tuple[int, int, int]]:
    """(note position, length, base position) of every possible head: a word of the passage that
    is the longest stretch of it starting there (軍 of 軍社 is no head when the passage has 軍社)."""
    where: dict[str, list[int]] = {}  # the passage's stretches of 1 .. MAX_HEAD + 1 characters
    for k in range(1, MAX_HEAD + 2):
        for i in range(len(fb) - k + 1):
            where.setdefault(fb[i : i + k], []).append(i)
    out = []
    n = len(note)
    for j in range(n):
        for L in range(1, MAX_HEAD + 1):
            if j + L > n or note[j + L - 1] in NOT_HEAD:
                break
            h = fn[j : j + L]
            if h not in where:
                break  # a longer stretch is in the passage only if this one is
            if j + L < n and fn[j : j + L + 1] in where:
                continue
            out.extend((j, L, i) for i in where[h])
    return sorted(out)


def _link(note: str, fn: str, fb: str, p: tuple[int, int, int], c: tuple[int, int, int]) -> bool:
    """May head c follow head p in a chain?"""
    pj, pL, pb = p
    j, L, b = c
    definition = note[pj + pL : j]
    return (
        L == pL
        and b == pb + pL  # the next word of the passage, nothing left out
        and 1 <= len(definition) <= MAX_DEFINITION
        and _says_something(definition, fb)
        and note[j - 1] not in GOVERNS
        # 也 closes a gloss: after it the note's own prose begins, not the next head
        and "也" not in definition[:-1]
    )


def _says_something(definition: str, fb: str) -> bool:
    """A definition says something new: no content word of the passage in it, and more than a particle (「其餘九萬夫，
    廛里也，場圃也，宅田也…」 counts the passage's words: KR1d0003_013#8, train, stop 71)."""
    return (sum(fold(ch) in fb and ch not in NOT_HEAD and ch not in KIND_WORDS for ch in definition) <= len(definition) // 4
            and not all(ch in PARTICLES for ch in definition))


def chain_candidates(base: str, note: str, marks: dict[int, str], taken: set[int], base_count,
                     zhushu: bool = True) -> list[Candidate]:
    """Definitions read from chains of heads; `taken`: note positions where the statement reader
    already has a lemma (such a head counts for the chain but is not read twice)."""
    fb, fn = fold(base), fold(note)
    marks = {int(k): v for k, v in marks.items()}
    items = _items(note, fn, fb)
    best: dict[tuple[int, int, int], tuple[int, tuple | None]] = {}
    ending: dict[tuple[int, int], list[tuple[int, int, int]]] = {}  # (base end, length) -> heads
    for c in items:  # in note order, so every possible predecessor is indexed already
        best[c] = (1, None)
        for p in ending.get((c[2], c[1]), ()):  # the previous word of the passage, same length
            if p[0] < c[0] and best[p][0] + 1 > best[c][0] and _link(note, fn, fb, p, c):
                best[c] = (best[p][0] + 1, p)
        ending.setdefault((c[2] + c[1], c[1]), []).append(c)
    out: list[Candidate] = []
    used: set[tuple[int, int, int]] = set()
    for c in sorted(items, key=lambda c: (-best[c][0], c)):
        if best[c][0] < MIN_CHAIN or c in used:
            continue
        chain, x = [], c
        while x is not None:
            chain.append(x)
            x = best[x][1]
        chain.reverse()
        if any(x in used for x in chain):
            continue
        used.update(chain)
        j0 = chain[0][0]
        # a chain opens a statement: at the note's start, after a mark or after a closing 也
        if not (j0 == 0 or j0 in marks or note[j0 - 1] == "也"):
            continue
        # …and is the note's own: not the wording of a book it cites (「春秋傳曰：軍行，祓社」)
        # (a sentence ends at a final mark, or after 也 where the marks are missing)
        sent_start = max([k for k, m in marks.items() if k <= j0 and m in FINAL]
                         + [k + 1 for k in range(j0) if note[k] == "也"], default=0)
        if "曰" in note[sent_start:j0] or "云" in note[sent_start:j0]:
            continue
        out.extend(_read_chain(note, marks, chain, taken, base_count, fb, zhushu))
    return sorted(out, key=lambda c: c.start)


def _read_chain(note, marks, chain, taken, base_count, fb, zhushu) -> list[Candidate]:
    """The chain's heads that the classifier (or the statement reader) accepts, in runs of
    MIN_CHAIN or more; one that fails breaks the chain."""
    n = len(note)
    run: list[tuple[int, int, float | None]] = []
    out: list[Candidate] = []

    def flush():
        if len(run) >= MIN_CHAIN:
            for j, end, p in run:
                if p is not None:
                    out.append(Candidate(j, end, "definition", note[j : j + end_len[j]], j, round(0.6 * p, 3),
                                         exact_only=True, optional=True))
        run.clear()

    end_len = {j: L for j, L, _b in chain}
    mark_positions = sorted(marks)
    for i, (j, L, _b) in enumerate(chain):
        end = chain[i + 1][0] if i + 1 < len(chain) else min(n, j + L + MAX_DEFINITION)
        nxt_mark = next((k for k in mark_positions if k > j + L), None)
        if nxt_mark is not None:  # the classifier sees the head's clause, as at a sentence start
            end = min(end, nxt_mark)
        if j in taken:
            run.append((j, end, None))  # read already; it vouches for its neighbours
            continue
        if i + 1 == len(chain) and not _says_something(note[j + L : end], fb):
            # the last head's own clause is checked as the links checked those before it: 「服，…。位，立處也。出大命，
            # 王之敎也」 has no head 出 before the passage's 大命 (KR1d0003_031#172, train, stop 71)
            break
        p = head_probability(note[j : j + L], note[j + L : end], base_count(note[j : j + L]), j == 0, zhushu)
        if p is not None and p >= CHAIN_THRESHOLD:
            run.append((j, end, p))
        else:
            flush()
    flush()
    return out
