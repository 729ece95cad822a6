"""The ritual-term lexicon of the tagger: build it from the corpus, load it, project it.

`models/lexicon/lexicon.tsv` (surface, label, source, note) is built by `build_lexicon()` from

- `models/lexicon/reviewed.tsv`: the guideline's examples and reviewed additions (label NONE
  records a reviewed rejection, which also vetoes a mined candidate);
- Zheng's glosses in the commentary (鄭注, read from data/punct where clauses are marked):
  「X，Y之屬」/「X，Y之吏」/「X，有司…」/「X，…官也」 mark an office (ROLE) when Y is a known
  office; 「X，所以…」 marks an implement (OBJECT); X must occur in the base unit it comments;
- the section heads of 儀禮釋宮 (data/corpus/KR1d0031) for places (PLACE).

Juan 10 (KR1d0030_010, the dev juan) is never read for the lexicon.

`project(text, lexicon)` is the silver annotator: the longest lexicon match left to right, then
the guideline's convention rules for words read by use rather than form (中, 洗, 拾, 遂, 決,
次, 物, 序, 尊, 薦 …). Coordinated names come out split because the lexicon holds the members,
not the coordinations; relational words (上, 下, 西 …) are never part of an entry.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError

REPO = Path(__file__).resolve().parent.parent
LEXICON_DIR = REPO / "models" / "lexicon"
LEXICON_PATH = LEXICON_DIR / "lexicon.tsv"
REVIEWED_PATH = LEXICON_DIR / "reviewed.tsv"
PUNCT_PATH = REPO / "data" / "punct" / "KR1d0030.punct.jsonl"
SHIGONG_PATH = REPO / "data" / "corpus" / "KR1d0031" / "KR1d0031_000.txt"
DEV_JUAN = "KR1d0030_010"
LABELS = ("ROLE", "OBJECT", "PLACE")


@dataclass(frozen=True)
class LexEntry:
    surface: str
    label: str  # ROLE | OBJECT | PLACE (| ACT | MUSIC); NONE = reviewed rejection
    source: str
    note: str


class Lexicon:
    """Surface -> label, with longest-match lookup."""

    def __init__(self, entries: list[LexEntry]):
        self.entries: dict[str, LexEntry] = {}
        self.rejected: set[str] = set()
        for e in entries:
            if e.label == "NONE":
                self.rejected.add(e.surface)
            elif e.surface not in self.entries:
                self.entries[e.surface] = e
        self.maxlen = max((len(s) for s in self.entries), default=1)

    def __contains__(self, surface: str) -> bool:
        return surface in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def label(self, surface: str) -> str | None:
        e = self.entries.get(surface)
        return e.label if e else None

    def longest_matches(self, text: str, skip: frozenset[str] = frozenset()) -> list[tuple[int, int, str]]:
        """Greedy left-to-right longest matches (start, end, label); `skip`: surfaces to ignore."""
        out, i, n, ents = [], 0, len(text), self.entries
        while i < n:
            for k in range(min(self.maxlen, n - i), 0, -1):
                e = ents.get(text[i : i + k])
                if e is not None and not (skip and e.surface in skip):
                    out.append((i, i + k, e.label))
                    i += k
                    break
            else:
                i += 1
        return out


def read_tsv(path: str | Path) -> list[LexEntry]:
    """Read a lexicon TSV (comment lines start with #, first non-comment line is the header)."""
    path = Path(path)
    entries, header_seen = [], False
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if not header_seen:
                header_seen = True
                if cols[:2] == ["surface", "label"]:
                    continue
            if len(cols) != 4 or not cols[0] or not cols[1] or not cols[2]:
                raise InputError(str(path), lineno, "expected 4 tab-separated columns: surface, label, source, note")
            entries.append(LexEntry(*cols))
    return entries


def write_tsv(path: str | Path, entries: list[LexEntry], header_comment: str = "") -> None:
    from pipeline import atomic

    lines = [f"# {c}" for c in header_comment.splitlines()] if header_comment else []
    lines.append("surface\tlabel\tsource\tnote")
    for e in entries:
        lines.append("\t".join((e.surface, e.label, e.source, e.note.replace("\t", " "))))
    atomic.write_text(path, "\n".join(lines) + "\n")


@functools.lru_cache(maxsize=4)
def _load(path: str) -> Lexicon:
    return Lexicon(read_tsv(path))


def load_lexicon(path: str | Path | None = None) -> Lexicon:
    """The project's lexicon (cached per path)."""
    return _load(str(Path(path) if path else LEXICON_PATH))


# --- convention rules: words read by use, not by form ----------------------------------------
# Each rule says when a lexicon match of an ambiguous one-character word is the entity.
# prev / next: the characters just before / after the match.

# the one-character words whose label depends on their use (see _keep)
BY_USE = frozenset(["中", "洗", "拾", "遂", "決", "次", "物", "序", "尊", "薦", "席", "散", "算"])


def _keep(
    text: str,
    start: int,
    end: int,
    surface: str,
    spans_after: set[int],
    role_starts: set[int] = frozenset(),
    role_ends: set[int] = frozenset(),
) -> bool:
    prev = text[start - 1] if start > 0 else ""
    nxt = text[end] if end < len(text) else ""
    if surface == "中":  # the tally holder (設中, 實八算于中, 中西), not "to hit" (若中, 中離維綱)
        if text[max(0, start - 2) : start] in ("在于", "在於"):  # "in the middle"
            return False
        if prev in set("設執奉取受授實舍退"):
            return True
        return prev in set("于於反視") and nxt not in set("則離者也之矣")
    if surface == "洗":  # the basin (設洗, 當洗北), not "to wash" (洗觶, 降洗)
        return (prev in set("設當適于於就至及罍") or nxt in set("南北東西篚")) and prev not in set("降盥")
    if surface == "拾":  # the arm guard (決拾, 設拾), not "by turns" (拾發, 拾取矢)
        return prev in set("決設取説脫奉執授受著襲贊") and nxt not in set("發取")
    if surface == "遂":  # the armlet only in 決遂
        return prev == "決"
    if surface == "決":  # the thumb ring (決拾, 袒決遂, 設決), not "to decide"
        return nxt in set("拾遂") or prev in set("設説脫執奉取著袒授受")
    if surface == "次":  # the changing tent (適次, 入次), not "order, next"
        return prev in set("適入出于於即反在就") or nxt in set("中前")
    if surface == "物":  # the shooting mark (就物, 履物), not "thing"
        return prev in set("就于於及履當適由即升至") or nxt in set("間")
    if surface == "序":  # the side wall (于序, 序端), not "order"
        return prev in set("于於當適至") or nxt in set("端内外")
    if surface == "尊":  # the wine vessel (設尊, 兩尊, 尊幂), not "honoured"
        return prev in set("設兩膳方瓦") or nxt in set("幂冪") or (prev in set("于於") and nxt in set("東西南北"))
    if surface == "薦":  # the offering (設薦, 薦東), not the verb "to present" (薦脯醢)
        if nxt == "俎":  # the pair 薦俎 (徹主婦薦俎, 設薦俎): offerings and stands
            return True
        return prev in set("設徹受執奠取奉其祭辟于於") or (nxt in set("東西南北右左") and end not in spans_after)
    if surface == "席":  # the mat, not the verb "to lay a mat for" (席于尊東, 席工于西階之東)
        verb = (nxt == "于" or end in role_starts) and prev not in set("設加布敷其之有為兩莞蒲萑就即升降反于於")
        return not verb
    if surface == "散":  # the wine cup (酌散, 實散, 洗散), not "loose" (散帶, 散衣)
        return prev in set("酌實洗執取奠受授舉一") and nxt not in set("帶衣")
    if surface == "算" and prev == "無":  # 無算 "without count" (踊無算, 無算爵)
        return False
    if surface == "服不" and prev in set("祭朝衣"):  # 祭服不倒: the robes, not the office
        return False
    if surface == "士" and text[end + 1 : end + 2] == "禮":  # book titles 士冠禮 …
        return False
    if surface in ("侯",) and (prev == "公" or nxt == "伯"):  # the lords 公侯伯, not the target
        return False
    return True


def project(
    text: str, lexicon: Lexicon | None = None, skip: frozenset[str] = frozenset(), patterns: bool = True
) -> list[tuple[int, int, str]]:
    """Silver spans of a text: longest lexicon matches filtered by the convention rules."""
    lexicon = lexicon or load_lexicon()
    matches = lexicon.longest_matches(text, skip)
    # 東上 / 西上 / 北上 / 南上 is a formula ("with the east as the top"): a name starting
    # with that 上 (上工, 上射 …) starts one character later (北面東上工坐 → 工)
    fixed = []
    for s, e, lab in matches:
        if text[s] == "上" and s > 0 and text[s - 1] in "東西南北" and e - s > 1:
            sub = lexicon.longest_matches(text[s + 1 : e], skip)
            fixed.extend((s + 1 + a, s + 1 + b, lb) for a, b, lb in sub)
        else:
            fixed.append((s, e, lab))
    matches = fixed
    starts = {s for s, _, lab in matches if lab == "OBJECT"}
    roles = {s for s, _, lab in matches if lab == "ROLE"}
    role_ends = {e for _, e, lab in matches if lab == "ROLE"}
    kept = [(s, e, lab) for s, e, lab in matches if _keep(text, s, e, text[s:e], starts, roles, role_ends)]
    return name_patterns(text, kept) if patterns else kept


# --- productive name patterns: names the lexicon need not list --------------------------------
# 1. an office + 正 / 師 is the head of that office (the guideline's longest name: 小臣 → 小臣師,
#    僕人 → 僕人正, 司馬 → 司馬師); not after 主人 / 衆工 (主人正 "the host corrects").
# 2. an agent role 「V X 者」: V one of 執奉舉沃羞獲媵贊 (釋 may precede 獲), X nothing or one or
#    two characters naming what is handled (執爵者, 執皮者, 贊冠者, 羞膳者, 沃洗者, 獲者), and
#    勝者 / 不勝者; not after 所 (所獲者 "what is got"), X never a function word.
_AGENT_V = "執奉舉沃羞獲媵贊"
_RE_AGENT = re.compile(r"(?:不)?勝者|(?:釋)?([執奉舉沃羞獲媵贊])([^之其所也而以於于不者卑古出免言執，。、；：「」『』]{0,2}?)者")
_OFFICE_HEAD_NOT = frozenset(["主人", "衆工"])


def name_patterns(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Spans after the productive name patterns (see above); overlapped spans give way."""
    out = list(spans)
    starts = {s for s, _, _ in out}
    ext = []
    for s, e, lab in out:
        if (lab == "ROLE" and e - s >= 2 and e < len(text) and text[e] in "正師" and e not in starts
                and text[s:e] not in _OFFICE_HEAD_NOT):
            ext.append((s, e + 1, lab))
        else:
            ext.append((s, e, lab))
    out = ext
    for m in _RE_AGENT.finditer(text):
        s, e = m.span()
        if s > 0 and text[s - 1] == "所":
            continue
        if m.group(1) and m.group(1) in "執奉舉" and not m.group(2):  # 執者 / 舉者: too vague
            continue
        # the span must not cut a kept span in two
        if any(a < s < b or a < e < b for a, b, _ in out):
            continue
        out = [x for x in out if not (s <= x[0] and x[1] <= e)] + [(s, e, "ROLE")]
    return sorted(out)


# --- building the lexicon from the corpus -----------------------------------------------------

def _punct_rows(path: Path = PUNCT_PATH):
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(str(path), lineno, f"bad JSON: {err.msg}") from None


def _clauses(text: str, marks: dict) -> list[str]:
    ks = sorted(int(k) for k in marks if 0 < int(k) <= len(text))
    out, st = [], 0
    for k in ks + [len(text)]:
        if k > st:
            out.append(text[st:k])
            st = k
    return out


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
        clauses = _clauses(row.get("text", ""), row.get("marks", {}))
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


def build_lexicon(reviewed: Path = REVIEWED_PATH, punct: Path = PUNCT_PATH, shigong: Path = SHIGONG_PATH) -> list[LexEntry]:
    """All entries: reviewed first (they win), then 釋宮 places, then Zheng's glosses."""
    from pipeline.tagger_silver import corpus_units

    rev = read_tsv(reviewed)
    seed = Lexicon(rev)
    rejected = seed.rejected
    # a reviewed addition must occur in the corpus outside the dev juan (guideline examples stay)
    corpus = "|".join(text for _, _, text in corpus_units())
    mined = mine_shigong(shigong) + mine_zheng(seed, punct)
    zheng = {e.surface: e for e in mined if e.source.startswith("zheng:")}
    out: dict[str, LexEntry] = {}
    for e in rev:
        if e.label == "NONE" or e.surface in out:
            continue
        if e.source != "guideline" and e.surface not in corpus:
            continue
        if e.surface in zheng and zheng[e.surface].label == e.label:
            z = zheng[e.surface]
            e = LexEntry(e.surface, e.label, e.source, f"{e.note}; {z.source} {z.note}")
        out[e.surface] = e
    for e in mined:
        if e.surface in rejected or e.surface in out:
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
