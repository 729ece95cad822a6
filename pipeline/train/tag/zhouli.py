"""Office titles of the 周禮 for the lexicon: the 序官 lists and the openings of the 職.

The 周禮 (TLS edition, data/extra/KR1d0001.punct.jsonl: one record a paragraph, clause marks
kept) opens each of its five 官 with a 序官, the list of the offices with rank and staff::

    大宰，卿一人；小宰，中大夫二人；宰夫，下大夫四人，上士八人，…，府六人，史十有二人，胥十有二人，徒百有二十人。
    宮正，上士二人，中士四人，下士八人，府二人，史四人，胥四人，徒四十人。

and then gives each office its 職, a paragraph that opens with the title (`大宰之職，掌…`,
`宮正掌…`, `州長各掌…`, or the title alone where the text is lost: `司甲。`).

A title is a clause of the 序官 without a number, not a rank (上士, 下大夫 …) and not a staff
grade, followed by a staff clause (`中士四人`, `每鄉卿一人`, `倍寺人之數`, `無數` …), or a
paragraph of the 序官 that is a title alone (`九嬪。`), or a paragraph that starts with the
title and its count (`女祝四人`). It is kept when a 職 paragraph opens with it; a title with no
職 is kept only when the clause after it begins with a rank (`卿`, `上士` …), so stray clauses
of the 序官's prose (`凡制軍`, `其師`) are dropped. Staff grades (府, 史, 胥, 徒, 賈, 工, 奄,
奚, 女酒 …) are never titles: they are the staff of an office, not its name (see
models/lexicon/reviewed.tsv for 府 / 徒). The 考工記 (juan 6), which stands for the lost 冬官,
has no 序官: each of its paragraphs opens with the artisan office it describes (輪人為輪,
築氏為削, 玉人之事, 段氏 alone), and those openings are its titles.

The 注疏 (data/punct/KR1d0003.punct.jsonl, WYG print) writes many titles with other forms
(宫正 for 宮正, 内宰 for 內宰, 閽人 for 𨵽人, a private-use character for 饎): each title is
looked up, with its context (the next characters of the 序官 or 職), in the 經 records of the
注疏 (folded: 宮/宫, 內/内 …; a private-use character matches any), and the form found there
is the form the lexicon lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import paths
from pipeline.jsonlines import read_jsonl
from pipeline.tag.lexicon import LexEntry

TLS_PATH = paths.ZHOULI_TLS
ZHUSHU_PATH = paths.ZHOULI_PUNCT

_DIGITS = "一二三四五六七八九十百"
_RANK = re.compile(r"^(?:旅)?[上中下](?:士|大夫)$|^卿$|^奄$")
_RANK_IN = re.compile(rf"^(?:奄|卿|旅?[上中下](?:士|大夫))$|^.{{0,4}}(?:奄|卿|公|旅?[上中下](?:士|大夫))[{_DIGITS}有]*人$")
_STAFF_END = re.compile(rf"[{_DIGITS}]人$|之數$|^無數$")
# characters the TLS and the WYG 注疏 write differently (TLS form first); folded before comparing
_FOLD_PAIRS = ("宮宫", "內内", "勳勲", "鱉鼈", "𨵽閽", "歲歳", "舍舎", "眾衆", "寇冦", "敘敍", "祿禄", "吳吴", "虣暴", "槀稾", "槀槁")
_FOLD = {b: a for a, b in _FOLD_PAIRS}


def fold(text: str) -> str:
    return "".join(_FOLD.get(c, c) for c in text)


@dataclass
class Office:
    title: str  # the TLS form
    xuguan: str  # record id of the 序官 paragraph that lists it
    xuguan_text: str  # the title and its staff clauses, punctuated
    zhi: str | None = None  # record id of the 職 paragraph that opens with it
    zhi_text: str = ""
    forms: dict[str, str] = field(default_factory=dict)  # 注疏 經 form -> first 注疏 record id
    kaogong: bool = False  # an office of the 考工記 (xuguan = the paragraph it opens)


def read_records(path: Path) -> list[dict]:
    return [r for _, r in read_jsonl(path)]


def clauses(text: str, marks: dict) -> list[tuple[str, str]]:
    """(clause, mark after it) in order; the last clause may have no mark."""
    m = {int(k): v for k, v in marks.items()}
    out, s = [], 0
    for k in sorted(m):
        if k > s:
            out.append((text[s:k], m[k]))
        s = k
    if s < len(text):
        out.append((text[s:], ""))
    return out


def _staff(clause: str) -> bool:
    return bool(_STAFF_END.search(clause) or _RANK.match(clause) or clause.startswith(("每", "凡", "如", "倍")))


def _title_like(clause: str) -> bool:
    return (
        1 <= len(clause) <= 5
        and not any(c in _DIGITS for c in clause[1:])
        and not _RANK.match(clause)
        and not clause.startswith(("凡", "其", "皆"))
        and not any(c in clause for c in "皆為之")
    )


def _joined(records: list[dict]) -> list[dict]:
    """Paragraphs of the 序官, a record that does not end with a mark joined to the next (𨵽|人)."""
    out, buf = [], None
    for r in records:
        if buf is None:
            buf = {"id": r["id"], "text": r["text"], "marks": dict(r.get("marks", {}))}
        else:
            n = len(buf["text"])
            buf["text"] += r["text"]
            buf["marks"].update({str(int(k) + n): v for k, v in r.get("marks", {}).items()})
        if str(len(buf["text"])) in buf["marks"]:
            out.append(buf)
            buf = None
    if buf is not None:
        out.append(buf)
    return out


def xuguan_titles(records: list[dict]) -> list[tuple[str, str, str, bool]]:
    """(title, record id, its clauses, rank follows) of the 序官 of one juan (records in order)."""
    try:
        start = next(i for i, r in enumerate(records) if r["text"].endswith("官之屬"))
    except StopIteration:
        return []
    end = next((i for i, r in enumerate(records) if i > start and re.match(r"^.{1,5}之職", r["text"])), len(records))
    out = []
    for r in _joined(records[start + 1 : end]):
        cl = clauses(r["text"], r["marks"])
        for i, (c, _m) in enumerate(cl):
            nxt = cl[i + 1][0] if i + 1 < len(cl) else None
            own = cl[i : i + 4]
            stop = next((k for k, (_x, y) in enumerate(own) if y in "；。"), len(own) - 1)
            shown = "".join(x + y for x, y in own[: stop + 1])
            m = re.match(rf"^([^{_DIGITS}有]{{2,3}}?)[{_DIGITS}有]+人$", c)
            if m and not _RANK.match(m.group(1)) and not re.match(r"^[上中下]", m.group(1)):
                out.append((m.group(1), r["id"], shown, False))  # 女祝四人，奚八人; 眡瞭三百人 (kept only with a 職)
                continue
            if m := re.match(r"^(\S{2,3}?)無數$", c):
                out.append((m.group(1), r["id"], shown, False))  # 男巫無數，女巫無數
                continue
            if not _title_like(c):
                continue
            if nxt is None:
                if i == 0 and len(cl) == 1:
                    out.append((c, r["id"], shown, False))  # 九嬪。
                continue
            if not _staff(nxt):
                continue
            if i and cl[i - 1][1] == "，" and c.startswith("女"):
                continue  # 女稾，每奄二人: female staff of the office before
            out.append((c, r["id"], shown, bool(_RANK_IN.match(nxt))))
    return out


def zhi_opening(records: list[dict], title: str) -> dict | None:
    """The first 職 paragraph (after the 序官) that opens with `title`.

    A record whose text runs on without a final mark lends its tail to the next one: the TLS
    file breaks `𨵽|人掌守王宮之中門之禁` across two records."""
    tail = ""
    for r in records:
        t = tail + r["text"]
        if t == title or any(t.startswith(title + x) for x in ("之職", "掌", "各掌", "亦如之")):
            marks = {str(int(k) + len(tail)): v for k, v in r.get("marks", {}).items()}
            return {**r, "text": t, "marks": marks}
        marks = [int(k) for k in r.get("marks", {})]
        last = max(marks, default=0)
        tail = r["text"][last:] if last < len(r["text"]) else ""
    return None


_KAOGONG = re.compile(r"^(\S{1,2}?[人氏])(?:為|之事|建|染|湅|$)")


def kaogong_titles(records: list[dict]) -> list[tuple[str, str, str]]:
    """(title, record id, opening) of the 考工記 (juan 6): each paragraph opens with its artisan
    office (輪人為輪, 築氏為削, 玉人之事, 匠人建國, 段氏 alone where the text is lost)."""
    out = []
    for r in records:
        if m := _KAOGONG.match(r["text"]):
            out.append((m.group(1), r["id"], "".join(x + y for x, y in clauses(r["text"], r.get("marks", {}))[:1])))
    return out


def _pattern(context: str) -> re.Pattern:
    parts = []
    for c in fold(context):
        forms = {c} | {b for a, b in _FOLD_PAIRS if a == c}
        parts.append("[" + "".join(re.escape(f) for f in sorted(forms)) + "\U000f0000-\U000fffff]")
    return re.compile("".join(parts))


def mine_offices(tls: Path = TLS_PATH, zhushu: Path | None = ZHUSHU_PATH) -> list[Office]:
    """Every office title of the 序官 of 周禮 juan 1-5 (with its 職) and of the 考工記, with its
    forms in the 注疏 經."""
    by_juan: dict[str, list[dict]] = {}
    for r in read_records(tls):
        by_juan.setdefault(r["id"].split("#")[0], []).append(r)
    jing = []
    if zhushu is not None:
        jing = [r for r in read_records(zhushu) if r.get("marker") == "" and r.get("kind") == "base"]
    jtext = "\n".join(r["text"] for r in jing)
    starts, pos = [], 0
    for r in jing:
        starts.append(pos)
        pos += len(r["text"]) + 1

    def record_at(k: int) -> str:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= k:
                lo = mid
            else:
                hi = mid - 1
        return jing[lo]["id"]

    def find_forms(off: Office, contexts: list[str]) -> None:
        for ctx in contexts:
            if len(ctx) <= len(off.title):
                continue
            for m in _pattern(ctx).finditer(jtext):
                form = m.group(0)[: len(off.title)]
                if "\n" not in m.group(0):
                    off.forms.setdefault(form, record_at(m.start()))
                break

    found: dict[str, Office] = {}
    for juan in sorted(by_juan):
        records = by_juan[juan]
        if not any(r["text"].endswith("官之屬") for r in records):  # the 考工記
            for title, rid, shown in kaogong_titles(records):
                if title not in found:
                    off = Office(title, rid, shown, kaogong=True)
                    text = next(r["text"] for r in records if r["id"] == rid)
                    find_forms(off, [text[: len(title) + 2]])
                    found[title] = off
            continue
        titles = xuguan_titles(records)
        first_zhi = next((i for i, r in enumerate(records) if re.match(r"^.{1,5}之職", r["text"])), len(records))
        for title, rid, shown, rank_follows in titles:
            if title in found:
                continue
            zr = zhi_opening(records[first_zhi:], title)
            if zr is None and not rank_follows:
                continue
            off = Office(title, rid, shown)
            if zr is not None:
                off.zhi, off.zhi_text = zr["id"], "".join(x + y for x, y in clauses(zr["text"], zr.get("marks", {}))[:2])
            # the 注疏 form: the title with the characters after it (序官 staff, 職 opening)
            contexts = []
            src = next(r for r in _joined(records) if r["id"] == rid)["text"]
            k = src.find(title)
            contexts.append(src[k : k + len(title) + 3])
            if zr is not None:
                contexts.append(zr["text"][: len(title) + 2])
            find_forms(off, contexts)
            found[title] = off
    return list(found.values())


def _shown(text: str) -> str:
    return text.rstrip("，；：、")


def office_entries(offices: list[Office], attested: str = "") -> list[LexEntry]:
    """Lexicon entries (ROLE) for the offices: every form the 注疏 經 uses, and the TLS form
    when it is the same or occurs in `attested` (other text the tagger reads)."""
    out: dict[str, LexEntry] = {}
    for o in offices:
        if o.kaogong:
            source, note = f"zhouli:考工記 {o.xuguan}", f"周禮考工記 {o.xuguan}「{_shown(o.xuguan_text)}」"
        else:
            source = f"zhouli:職 {o.zhi}" if o.zhi else f"zhouli:序官 {o.xuguan}"
            note = f"周禮序官 {o.xuguan}「{_shown(o.xuguan_text)}」"
        if o.zhi:
            note += f"; 職「{_shown(o.zhi_text)}」"
        forms = dict(o.forms)
        if not forms or o.title in forms or (attested and o.title in attested):
            forms.setdefault(o.title, "")
        for form, rid in forms.items():
            if form in out:
                continue
            where = f"; 注疏 經 {rid}「{form}」" if rid else "; TLS form"
            if form != o.title:
                where += f", the 注疏's form of {o.title}"
            out[form] = LexEntry(form, "ROLE", source, note + where)
    return list(out.values())


def mine_zhouli(tls: Path = TLS_PATH, zhushu: Path | None = ZHUSHU_PATH, attested: str = "") -> list[LexEntry]:
    return office_entries(mine_offices(tls, zhushu), attested)
