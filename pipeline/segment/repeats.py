"""A word written twice in a row in a 疏 is a break between the two: 「…乃立王國，王國則洛邑王城是也」,
「…九功，九功即九職之功」. The 疏 ends a clause with a word and opens the next one with it again, to
gloss it or to go on from it; two copies of one word of 2–4 characters side by side are almost never one
phrase.

Measured on the train split of data/punct (records aligned ≥ 0.9, the default segmenter without its
phrase memory; docs/segmentation.md "Stop 60"): at such a position the edition breaks 398 times in 444 in
the 周禮注疏's 疏 and 377 in 402 in the 禮記註疏's, and the segmenter had left 97 and 102 of those breaks
out; the breaks it adds where the edition has no mark (35 and 20) are mostly the edition's own omissions
(「…鄭大夫，鄭大夫者」). In the 注 the same rule breaks as often wrongly as rightly (18 against 17 on
the two books' train juan): it is read for the 疏 only.

A pure function of the unit's text: batch-invariant.
"""

from __future__ import annotations

# a "word" opening with a particle is the repetition seen one character late (「…曰詛者，盟者，盟將來」):
# the break it would give falls inside the word
_PARTICLES = frozenset("者也矣焉之而")


def doubled_word_breaks(text: str) -> list[int]:
    """Positions k (a break after the k-th character) where a word of 2–4 distinct characters ends and
    the same word follows at once; not inside a longer run of the same period (「小都大都大都」,
    「六年七年八年」), not a word opening with a particle."""
    out = []
    n = len(text)
    for k in range(2, n - 1):
        for size in (4, 3, 2):
            if k - size < 0 or k + size > n or text[k] != text[k - size]:
                continue
            w = text[k - size : k]
            if text[k : k + size] != w or len(set(w)) != size:
                continue
            periodic = (k - size - 1 >= 0 and text[k - size - 1] == text[k + size - 1]) or (
                k + size < n and text[k + size] == text[k])
            if not periodic and w[0] not in _PARTICLES:
                out.append(k)
            break
    return out


def with_doubled_word_breaks(text: str, marks: dict[int, str]) -> dict[int, str]:
    """`marks` with a comma (the edition's mark there two times in three) wherever a word is doubled
    and no mark stands."""
    add = [k for k in doubled_word_breaks(text) if k not in marks]
    if not add:
        return marks
    out = dict(marks)
    for k in add:
        out[k] = "，"
    return {k: out[k] for k in sorted(out)}
