"""Punctuation of 音義 notes from their grammar, over the model's marks.

Lu Deming's notes are formulaic: `召，上照反。相，息亮反。` — a head, its reading (反切 `X Y反`,
`音X`, `如字`), alternatives (`，又音職`, `，徐方狄反`), a scope (`，下同。`). The reading
parser (pipeline/readings.py) finds those entries; at their boundaries the punctuated editions
are near-unanimous, where the BiLSTM is not (train juan, records aligned >= 0.99):

    formula → next entry's head          。  (98–99 %)
    formula → its alternative            ，  (95–97 %; 又 / 一 / an authority before it)
    formula → scope (下同, 注同 …) → head  ， … 。 (98–100 %)
    authority → its formula (徐音二)       no mark (99 %)
    head → reading                        ，  before a 反切 (99 % in both books); before 音X and
                                          如字 each edition has its own rule: 周禮注疏 writes
                                          `瘍，音羊` (96 %), 禮記註疏 `誣音無` (98 % no mark)

Everywhere else (glosses, variant remarks, quotations, the items of a scope list) the model's
marks stand. The rules are a pure function of the unit's text and book: batch-invariant. The note
is parsed without the 經 / 注 it glosses (`eval segment` scores each record alone), so a
one-character head that is also an authority's name (何, 王 …) right after a scope is read as the
authority, and 下 as "the next occurrence" (docs/segmentation.md, hand check items 11 and 23).
"""

from __future__ import annotations

from pipeline.model import Reading
from pipeline.readings import parse_note

# Per book: the reading kinds whose head takes a comma (True) or none (False); a kind not listed
# keeps the model's mark. 反切 (fanqie) and `近附近之近` (word) take one in both editions (99 %);
# `音X` and `如字` differ: 周禮注疏 commas 96 % / 93 % of them, 禮記註疏 2 % / 31 % (train juan).
HEAD_MARK = {
    "KR1d0003": {"fanqie": True, "word": True, "homophone": True, "ruzi": True},
    "KR1d0053": {"fanqie": True, "word": True, "homophone": False, "ruzi": False},
}
DEFAULT_HEAD_MARK = {"fanqie": True, "word": True}
NEXT_ENTRY, ALTERNATIVE, SCOPE = "。", "，", "，"
# The rules by name (each has a test on a train-juan note; benchmarks/segment_yinyi.py --ablate
# measures each): head_fanqie / head_book (the head's comma before 反切 and word readings / by
# the book's rule before 音X and 如字), authority, alternative, next_entry, scope.
RULES = ("head_fanqie", "head_book", "authority", "alternative", "next_entry", "scope")


def _head_kind(text: str, reading: Reading) -> str:
    """The kind of the head's reading as the comma rule sees it: `好音呼報反` (a 反切 printed
    after 音) is punctuated like `音X` (禮記註疏: `嚌音才細反`, no mark)."""
    sound = reading.sounds[0]
    if sound.kind == "fanqie" and text[sound.start] == "音":
        return "homophone"
    return sound.kind


def grammar_marks(text: str, book: str | None = None, rules: tuple[str, ...] | None = None) -> dict[int, str | None]:
    """{k: mark} the grammar decides for an 音義 note (None: no mark after the k-th character);
    positions it says nothing about are absent. `rules`: the rules applied (default RULES)."""
    on = set(RULES if rules is None else rules)
    out: dict[int, str | None] = {}
    readings = parse_note(text)
    head_mark = HEAD_MARK.get(book or "", DEFAULT_HEAD_MARK)
    for j, r in enumerate(readings):
        first = r.sounds[0]
        if r.head_end == first.start and not first.authority and r.head_end > 0:
            kind = _head_kind(text, r)
            comma = head_mark.get(kind)
            if comma is not None and ("head_fanqie" if kind in ("fanqie", "word") else "head_book") in on:
                out[r.head_end] = "，" if comma else None
        next_head = readings[j + 1].head_start if j + 1 < len(readings) else None
        for i, s in enumerate(r.sounds):
            if s.authority and "authority" in on:
                out[s.start] = None  # 徐音二, 劉普庚反: the name runs into its reading
            alt = r.sounds[i + 1] if i + 1 < len(r.sounds) else None
            if alt is not None:
                if alt.start - sum(map(len, alt.authority)) == s.end and "alternative" in on:
                    out[s.end] = ALTERNATIVE
            elif next_head == s.end:
                if "next_entry" in on:
                    out[s.end] = NEXT_ENTRY
            elif r.scope and text.startswith(r.scope, s.end) and "scope" in on:
                out[s.end] = SCOPE
                if next_head == s.end + len(r.scope):
                    out[next_head] = NEXT_ENTRY
    return out


def punctuate(text: str, marks: dict[int, str], book: str | None = None,
              rules: tuple[str, ...] | None = None) -> dict[int, str]:
    """The model's marks for an 音義 note with the grammar's decisions laid over them (positions
    1 .. n-1; the unit end keeps the model's mark)."""
    out = dict(marks)
    for k, mark in grammar_marks(text, book, rules).items():
        if not 0 < k < len(text):
            continue
        if mark is None:
            out.pop(k, None)
        else:
            out[k] = mark
    return dict(sorted(out.items()))
