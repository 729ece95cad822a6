"""Building models/lexicon/lexicon.tsv from the corpus (read at run time by pipeline/tag/lexicon.py).

Sources: models/lexicon/reviewed.tsv (the guideline's examples and reviewed additions; NONE is a
reviewed rejection), Zheng's glosses in the 鄭注 (「X，Y之屬」, 「X，所以…」 …), the section heads
of 儀禮釋宮 and the offices of the 周禮 (its 序官 and 職, pipeline/train/tag/zhouli.py). The dev
juan is never read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pipeline.errors import InputError
from pipeline.model import spans_from_marks
from pipeline.tag.lexicon import DEV_JUAN, LABELS, LEXICON_PATH, PUNCT_PATH, REVIEWED_PATH, SHIGONG_PATH, LexEntry, Lexicon, _load, read_tsv, write_tsv
from pipeline.train.tag.silver import corpus_units
from pipeline.train.tag.zhouli import TLS_PATH, ZHUSHU_PATH, mine_zhouli, read_records


def _punct_rows(path: Path = PUNCT_PATH):
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(str(path), lineno, f"bad JSON: {err.msg}") from None


_OFFICE_END = set("人宰伯馬空徒史寺士正師官")


_RE_SHU = re.compile(r"^(?:葢|蓋|謂)?(?:周禮)?(.{1,4}?)(?:之)?(?:屬|吏|羣吏)(?:也)?$")


_RE_YOUSI = re.compile(r"^(?:.{0,4}之)?有司(?:.*者|也)?(?:也)?$")


_RE_GUAN = re.compile(r"^.{0,8}官(?:名)?也$")


_RE_ZHANG = re.compile(r"^(.{1,4})之長(?:者)?也$")


_RE_SUOYI = re.compile(r"^所以")


def mine_zheng(seed: Lexicon, path: Path = PUNCT_PATH) -> list[LexEntry]:
    """Lemmas glossed by Zheng with what he says of them (office / implement)."""
    found: dict[tuple[str, str], LexEntry] = {}
    base = None
    for row in _punct_rows(path):
        uid = row.get("id", "")
        if uid.startswith(DEV_JUAN):
            continue
        if row.get("kind") == "base":
            base = row.get("text", "")
            continue
        text = row.get("text", "")
        clauses = [text[c.start : c.end] for c in spans_from_marks(len(text), {int(k): v for k, v in row.get("marks", {}).items()}, final_only=False)]
        for x, d in zip(clauses, clauses[1:]):
            if not (1 <= len(x) <= 4) or not base or x not in base or len(d) > 14:
                continue
            label = None
            m = _RE_SHU.match(d)
            if m:
                y = m.group(1)
                ylab = seed.label(y)
                if ylab == "ROLE" or (ylab is None and y[-1] in _OFFICE_END):
                    label = "ROLE"
                elif ylab in ("OBJECT", "PLACE"):
                    label = ylab
            elif _RE_YOUSI.match(d) or _RE_GUAN.match(d):
                label = "ROLE"
            elif (m := _RE_ZHANG.match(d)) and seed.label(m.group(1)) == "ROLE":
                label = "ROLE"
            elif _RE_SUOYI.match(d):
                label = "OBJECT"
            if label and (x, label) not in found:
                found[(x, label)] = LexEntry(x, label, f"zheng:{uid}", f"鄭注「{x}，{d}」")
    return list(found.values())


def shigong_heads(path: Path = SHIGONG_PATH) -> list[str]:
    """The section heads of 儀禮釋宮: flush-left lines of the treatise, joined, notes removed."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    try:
        first = next(i for i, l in enumerate(lines) if l.startswith("#+PROPERTY: JUAN 儀禮釋"))
    except StopIteration:
        raise InputError(str(path), None, "no 儀禮釋宮 section found") from None
    heads, cur = [], ""
    for line in lines[first + 1 :]:
        if line.startswith("<pb") or line.startswith("#"):
            continue
        clean = re.sub(r"\([^)]*\)", "", line).replace("¶", "")
        if line.startswith("　") or not clean.strip():
            if cur:
                heads.append(cur)
            cur = ""
        else:
            cur += clean.strip()
    if cur:
        heads.append(cur)
    return [h for h in heads if h != "欽定四庫全書"]


# Place names of 儀禮釋宮, reviewed: each must be named in a head (謂之X / 曰X / 有X / 為X …).
SHIGONG_PLACES = (
    "堂 門 大門 棟 楣 室 房 東房 西室 奥 窔 宧 屋漏 戸 牖 北堂 北階 楹 中堂 序 夾室 廂 東堂 西堂 "
    "坫 阼階 庭 碑 陳 闑 閾 扉 塾 下室 牆 階 東階 兩階 寢 廟"
).split()


def mine_shigong(path: Path = SHIGONG_PATH) -> list[LexEntry]:
    heads = shigong_heads(path)
    out = []
    for name in SHIGONG_PLACES:
        if name == "兩階":
            continue  # a coordination (the two steps), kept out by the convention
        for n, head in enumerate(heads):
            if name in head:
                out.append(LexEntry(name, "PLACE", f"shigong:head{n + 1}", f"儀禮釋宮「{head}」"))
                break
    return out


# character variants of this corpus (the same word written two ways); a view, not a rewrite
VARIANT_PAIRS = ("乘乗", "獲𫉬", "鼓鼔", "俎爼", "鐘鍾", "牖牗", "屏屛", "賓賔", "戸户", "玄𤣥", "廟庿", "衆眾", "階堦", "觶觗", "爵㸗", "決抉", "冪幂", "筵莚")


def _variants(surface: str) -> set[str]:
    out = {surface}
    for a, b in VARIANT_PAIRS:
        for form in list(out):
            out.add(form.replace(a, b))
            out.add(form.replace(b, a))
    out.discard(surface)
    return out


def build_lexicon(
    reviewed: Path = REVIEWED_PATH,
    punct: Path = PUNCT_PATH,
    shigong: Path = SHIGONG_PATH,
    zhouli_tls: Path | None = TLS_PATH,
    zhouli_zhushu: Path | None = ZHUSHU_PATH,
) -> list[LexEntry]:
    """All entries: reviewed first (they win), then 釋宮 places, then Zheng's glosses, then the
    offices of the 周禮 (zhouli_tls=None leaves them out)."""

    rev = read_tsv(reviewed)
    seed = Lexicon(rev)
    rejected = seed.rejected
    # a reviewed addition must occur in the corpus outside the dev juan (guideline examples stay)
    corpus = "|".join(text for _, _, text in corpus_units())
    mined = mine_shigong(shigong) + mine_zheng(seed, punct)
    if zhouli_tls is not None:
        attested = corpus
        if zhouli_zhushu is not None:
            attested += "|" + "|".join(r.get("text", "") for r in read_records(zhouli_zhushu))
        mined += mine_zhouli(zhouli_tls, zhouli_zhushu, attested)
    zheng = {e.surface: e for e in mined if e.source.startswith("zheng:")}
    zhouli = {e.surface: e for e in mined if e.source.startswith("zhouli:")}
    out: dict[str, LexEntry] = {}
    for e in rev:
        if e.label == "NONE" or e.surface in out:
            continue
        if e.source != "guideline" and e.surface not in corpus:
            continue
        if e.surface in zheng and zheng[e.surface].label == e.label:
            z = zheng[e.surface]
            e = LexEntry(e.surface, e.label, e.source, f"{e.note}; {z.source} {z.note}")
        if e.surface in zhouli and e.label == "ROLE":  # a listed office of the 周禮 too
            z = zhouli[e.surface]
            e = LexEntry(e.surface, e.label, e.source, f"{e.note}; {z.source} {z.note}")
        out[e.surface] = e
    for e in mined:
        if e.surface in rejected:
            continue
        if e.surface in out:
            prev = out[e.surface]
            if e.source.startswith("zhouli:") and prev.label == "ROLE" and not prev.source.startswith("zhouli:") and "zhouli:" not in prev.note:
                out[e.surface] = LexEntry(prev.surface, prev.label, prev.source, f"{prev.note}; {e.source} {e.note}")
            continue
        out[e.surface] = e
    # variant forms the corpus uses for the same name (乘/乗, 賓/賔, 戸/户 …), when attested
    for e in list(out.values()) + [r for r in rev if r.label != "NONE" and r.surface not in out]:
        for var in _variants(e.surface):
            if var not in out and var not in rejected and var in corpus:
                out[var] = LexEntry(var, e.label, e.source, f"variant form of {e.surface}; {e.note}")
    order = {lab: i for i, lab in enumerate(LABELS + ("MUSIC", "ACT"))}
    return sorted(out.values(), key=lambda e: (order.get(e.label, 9), -len(e.surface), e.surface))


def write_lexicon(path: Path = LEXICON_PATH, **kw) -> list[LexEntry]:
    entries = build_lexicon(**kw)
    write_tsv(path, entries)  # provenance of the columns: models/lexicon/README.md
    _load.cache_clear()
    return entries
