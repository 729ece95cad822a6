"""Lu Deming's 音義 notes parsed into readings, each head anchored in the text it glosses.

An 音義 note is a run of entries, each: a head (the character or word read), maybe a
variant remark (`本亦作辯`), its reading — a 反切 `X Y反`, a homophone `音X` or `如字` —,
alternative readings, often with their authority (`徐方狄反`, `劉音福`, `一音服`, `又音甫`),
a scope (`下同`, `注同`, `下及注同` …) and sometimes a gloss (`別也`):

    辨本亦作辯徐邈劉昌宗皆方免反別也一音平勉反別彼列反下同縣音𤣥下同

The reading formulas are unambiguous, the text between two of them is not: it is the end
of the previous entry (scope, gloss) and the start of the next (head, remark, authority).
The text is cut at the formulas; what stands between two is read from both ends (scope
from the start, authorities from the end), and the head is chosen by where it anchors:
in the 經 and 注 just before the note, in text order.

Pure: strings in, dataclasses (pipeline.model.Reading) out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.model import Reading, Sound

# one reading formula: 反切 (two characters + 反, sometimes after 音: 圜音于權反), homophone
# (音 + one character), 如字
FORMULA_RE = re.compile(r"音?(?P<fq>[^反音同也]{2})反|音(?P<hom>[^反音同也如])|(?P<rz>如字)")
# authorities and alternative markers that may stand before a formula, longest first
AUTHORITIES = (
    "徐邈", "劉昌宗", "李軌", "沈重", "王肅", "鄭司農", "司農", "杜子春", "干寳", "干寶", "戚袞",
    "盧植", "馬融", "皇侃", "崔靈恩", "賀瑒", "孫炎", "字林", "説文", "說文",
    "徐", "沈", "劉", "李", "戚", "干", "鄭", "王", "馬", "孫", "郭", "舊", "聶", "呂", "皇", "盧", "何",
)
ALTERNATIVE = ("一", "又", "或", "亦", "皆", "並", "竝", "俱", "並")
# the scope of the previous entry, at the start of the text between two formulas
SCOPE_RE = re.compile(r"(?:[下注後此皆並竝經][^反音也]{0,10}?同|[下後][放倣]此|放此)")
# a head followed by a variant remark: 辨本亦作辯, 繭字又作蠒, 荷本又作何
# (not `夲亦作娶`: 夲 is 本, and the remark is the previous entry's)
VARIANT_RE = re.compile(r"([^本夲]{1,2}?)(?:本亦作|本又作|本或作|字又作|字亦作|又作|亦作|或作|本作|今作)")
MAX_HEAD = 3
# `樂音洛下音岳`: the same head read otherwise at its next occurrence (下) — an alternative
LATER = ("下", "同")


def parse_note(text: str, targets: list[str] | None = None, fold: Callable[[str], str] | None = None) -> list[Reading]:
    """The readings of one 音義 note; with `targets` (the 經 / 注 texts before it, in order),
    heads are chosen where they anchor and anchored.

    `fold` (one character to one, such as `pipeline.variants.fold`) lets a head anchor on a
    variant form: the note writes 別 where the 注 has 别, 大 where it has 太.
    """
    fold = fold or (lambda t: t)
    targets = [fold(t) for t in targets or []]
    cursor = (0, 0)  # (target, offset): heads are glossed in text order
    readings: list[Reading] = []
    prev_end = 0
    for m in FORMULA_RE.finditer(text):
        between = text[prev_end : m.start()]
        sound = _sound(m)
        rest, scope = _scope(between) if readings else (between, None)
        if readings and scope:
            readings[-1].scope = scope
        rest, authority = _authority(rest)
        if not rest and not readings and authority:
            # `王如字…` at the start of a note: 王 is the head, not 王肅
            rest, authority = authority[0], authority[1:]
        if rest in LATER and readings:
            rest, authority = "", (rest,) + authority
        sound.authority = authority
        if readings and _continues(rest, authority, between):
            readings[-1].sounds.append(sound)  # an alternative reading of the same head
        else:
            offset = prev_end + len(between) - len(rest) - sum(map(len, authority))
            reading, cursor = _head(text, offset, rest, targets, cursor, fold)
            if reading is None:
                prev_end = m.end()
                continue
            reading.sounds.append(sound)
            readings.append(reading)
        prev_end = m.end()
    if readings:
        rest, scope = _scope(text[prev_end:])
        readings[-1].scope = readings[-1].scope or scope
    return readings


def _sound(m: re.Match) -> Sound:
    if m.group("fq"):
        return Sound("fanqie", m.start(), m.end(), upper=m.group("fq")[0], lower=m.group("fq")[1])
    if m.group("hom"):
        return Sound("homophone", m.start(), m.end(), homophone=m.group("hom"))
    return Sound("ruzi", m.start(), m.end())


def _scope(between: str) -> tuple[str, str | None]:
    m = SCOPE_RE.match(between)
    return (between[m.end() :], m.group(0)) if m else (between, None)


def _authority(rest: str) -> tuple[str, tuple[str, ...]]:
    """Authorities printed right before a formula, taken off the end (`胥鄭徐劉` → 胥, 鄭徐劉)."""
    found: list[str] = []
    while rest:
        name = next((a for a in AUTHORITIES + ALTERNATIVE if rest.endswith(a)), None)
        if name is None:
            break
        rest = rest[: -len(name)]
        found.insert(0, name)
    return rest, tuple(found)


def _continues(rest: str, authority: tuple[str, ...], between: str) -> bool:
    """An alternative of the previous head: nothing but authorities (and a gloss) before it."""
    if not rest or rest in LATER:
        return True
    # `別也一音平勉反`, `慢也王肅五髙反`: a gloss, then an authority — still the same head
    return bool(authority) and rest.endswith("也")


def _head(text: str, offset: int, rest: str, targets: list[str], cursor: tuple[int, int], fold):
    """The head in `rest` (which starts at `offset` of the note): where it anchors, in order."""
    if not rest:
        return None, cursor
    candidates: list[tuple[int, int]] = []  # (start, end) in rest
    m = VARIANT_RE.match(rest)
    if m:
        candidates.append((0, len(m.group(1))))
    candidates += [(len(rest) - n, len(rest)) for n in range(min(MAX_HEAD, len(rest)), 0, -1)]
    for a, b in candidates:
        hit = _find(fold(rest[a:b]), targets, cursor)
        if hit is not None:
            t, start = hit
            reading = Reading(rest[a:b], offset + a, offset + b, target=t, anchor_start=start,
                              anchor_end=start + b - a)
            return reading, (t, start + b - a)
    return Reading(rest[-1], offset + len(rest) - 1, offset + len(rest)), cursor


def _find(head: str, targets: list[str], cursor: tuple[int, int]) -> tuple[int, int] | None:
    """The first occurrence of `head` at or after the cursor; else the first one before it."""
    t0, k0 = cursor
    for t in range(t0, len(targets)):
        at = targets[t].find(head, k0 if t == t0 else 0)
        if at >= 0:
            return t, at
    for t in range(len(targets)):
        at = targets[t].find(head)
        if at >= 0:
            return t, at
    return None


def document_readings(units, fold: Callable[[str], str] | None = None) -> list[tuple[object, list[Reading], list[object]]]:
    """For each 音義 unit of a document: (the unit, its readings, the units it glosses).

    `units` are `pipeline.model.Unit`s. The glossed units are the title, 經 and 注 units since
    the last small note; each reading's `target` is the seq of the one its head stands in.
    """
    out = []
    run: list[object] = []
    after_note = True
    for unit in units:
        if unit.kind in ("base", "title") or unit.marker == "注":
            if after_note:
                run, after_note = [], False
            run.append(unit)
        elif unit.marker == "音義":
            readings = parse_note(unit.text, [u.text for u in run], fold)
            for r in readings:
                r.target = run[r.target].seq if r.target is not None else None
            out.append((unit, readings, list(run)))
            after_note = True
        else:
            after_note = True
    return out
