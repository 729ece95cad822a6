"""The ritual-term lexicon of the tagger: load it, project it (pipeline/train/tag/lexicon.py builds it).

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
import re
from pathlib import Path

from pipeline import paths
from pipeline.lexicon_file import LexEntry, read_tsv, write_tsv  # noqa: F401  (the file format is core: align reads it too)

LEXICON_DIR = paths.LEXICON_DIR
LEXICON_PATH = paths.LEXICON
REVIEWED_PATH = LEXICON_DIR / "reviewed.tsv"
PUNCT_PATH = paths.PUNCT_FILE
SHIGONG_PATH = paths.SHIGONG
DEV_JUAN = paths.DEV_JUAN
LABELS = ("ROLE", "OBJECT", "PLACE")


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
        self.longest_from: dict[str, int] = {}  # first character -> the longest entry starting with it
        for surface in self.entries:
            if len(surface) > self.longest_from.get(surface[0], 0):
                self.longest_from[surface[0]] = len(surface)
        # offices listed only from the 周禮: X正 after them is the verb (小胥正樂縣之位), not a head
        self.no_head = frozenset(s for s, e in self.entries.items() if e.source.startswith("zhouli:"))
        # the shapes of the 周禮's office names, learned from the listed ones (name patterns 4, 5):
        # a modifier before an office head (遂 + 士 of 遂士, 小 + 宗伯 of 小宗伯) and the keeper of
        # a thing (酒 + 人 of 酒人, 鍾 + 師 of 鍾師)
        mods, heads, suffixes = set(), set(), set()
        for w in self.no_head:
            if len(w) < 2 or self.label(w) != "ROLE":
                continue
            if self.label(w[1:]) == "ROLE" and w[0] not in self.entries:
                mods.add(w[0])
                heads.add(w[1:])
            if len(w) == 2 and self.label(w[0]) == "OBJECT" and w[1] in "人師氏":  # not 正: 肺正, 俎正 "main"
                suffixes.add(w[1])
        self.office_mods, self.office_heads, self.keeper_suffixes = frozenset(mods), frozenset(heads), frozenset(suffixes)

    def __contains__(self, surface: str) -> bool:
        return surface in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def label(self, surface: str) -> str | None:
        e = self.entries.get(surface)
        return e.label if e else None

    def longest_matches(self, text: str, skip: frozenset[str] = frozenset()) -> list[tuple[int, int, str]]:
        """Greedy left-to-right longest matches (start, end, label); `skip`: surfaces to ignore."""
        out, i, n, ents, longest = [], 0, len(text), self.entries, self.longest_from
        while i < n:
            for k in range(min(longest.get(text[i], 0), n - i), 0, -1):  # (none: no lookup)
                e = ents.get(text[i : i + k])
                if e is not None and not (skip and e.surface in skip):
                    out.append((i, i + k, e.label))
                    i += k
                    break
            else:
                i += 1
        return out


@functools.lru_cache(maxsize=4)
def _load(path: str) -> Lexicon:
    return Lexicon(read_tsv(path))


def load_lexicon(path: str | Path | None = None) -> Lexicon:
    """The project's lexicon (cached per path)."""
    return _load(str(Path(path) if path else LEXICON_PATH))


# --- names the commentaries cite -------------------------------------------------------------
# People and books the 注 and 疏 cite, whose characters are no role or thing of the rite: 公 and 羊
# of 公羊(傳), 弓 of 檀弓, 工 of 考工記, 王 of 王肅, 史 of 史記 — tagged 84 / 84, 39, 18, 15 and 8
# times in 周禮 / 禮記註疏 juan 1–6 (train) before this list. The tag stage reads no entity inside
# one (tag_document), a rule over the model's output; the silver data is left as it was (about
# 120 occurrences in its 330,000 characters: the 集釋 and the 周禮's 經 / 注).
CITED_NAMES = ("公羊", "穀梁", "王肅", "檀弓", "考工記", "史記", "盧王", "羊舌")
# Persons the 注 and 疏 name by a posthumous name or a state with a rank: the dukes 周公 / 召公, the
# Zhou kings, the dukes of 魯 the 春秋 dates by, rulers of other states. Not a role of the rite
# but one man, and the tagger cut each to the rank: 公 of 周公 456 times, 王 of 文王 459, 武王 371,
# 成王 192, 公 of 哀公 119, and the archery target 侯 (OBJECT) of 晉侯 / 齊侯 125 times, in 周禮 /
# 禮記註疏 (stop 45). Each is a name without a mark inside in the editions' punctuation
# (data/punct, 周禮 / 禮記註疏 and the 集釋: 召公 1 of 41, 文王 3 of 514, 宋公 1 of 13, 楚子 1 of 22,
# the others 0). 桀 and 紂, the last kings of 夏 and 殷, which the retrained tagger read as ROLE (30
# times); 后稷 (稷 the grain for the tagger, 185 times). Men of the 論語 whose names hold a rank or
# a thing (弓 of 仲弓, 宰 of 宰我, 公 of 公西華, 司馬 of 司馬牛, 祝 of 祝鮀 …: 38 spans of the 論語 KR1h0004
# and the two 注疏); not those opening with 子 (子路, 子張: 「天子路寢」 is 天子 and 路寢). Left out as
# words of the rite: 共王 (共 "to supply": 共王之膳), 獻公 (主人獻公), 孝王 (孝王某 of the prayers),
# 先王 / 後王 / 時王 (the kings as a class).
NAMED_PERSONS = tuple((
    "周公 召公 太公 大公 河上公 魯公 文王 武王 成王 康王 昭王 穆王 懿王 夷王 厲王 宣王 幽王 襄王 景王 靈王 "
    "隱公 桓公 莊公 閔公 僖公 文公 宣公 成公 襄公 昭公 定公 哀公 穆公 景公 靈公 "
    "晉侯 齊侯 衞侯 衛侯 魯侯 陳侯 蔡侯 宋公 鄭伯 曹伯 秦伯 楚子 桀 紂 "
    "后稷 仲弓 宰我 公西華 公西赤 公冶長 公叔文子 公明賈 公山弗擾 王孫賈 王孫圉 司馬牛 巫馬期 祝鮀").split())
# the chapters of the 儀禮 and the 禮記 where the text cites one (the title before 云 / 曰 / 注 /
# 篇 / 文 / 傳 / 記): 王 of 「王制云」, 公 and 大夫 of 「公食大夫禮云」, 牲 of 「郊特牲云」, 堂 of 「明堂位云」
# — 92 spans of those juan. Not bare: 喪服, 燕禮, 深衣 … are also the garments and rites themselves.
CITED_CHAPTERS = (
    "曲禮 檀弓 王制 月令 曾子問 文王世子 禮運 禮器 郊特牲 內則 内則 玉藻 明堂位 喪服小記 大傳 少儀 學記 樂記 "
    "雜記 喪大記 祭法 祭義 祭統 經解 哀公問 仲尼燕居 孔子閒居 坊記 中庸 表記 緇衣 服問 間傳 問喪 三年問 深衣 "
    "投壺 儒行 大學 冠義 昏義 鄉飲酒義 射義 燕義 聘義 喪服四制 士冠禮 士昏禮 士相見禮 鄉飲酒禮 鄉射禮 燕禮 "
    "大射 聘禮 公食大夫禮 覲禮 喪服 士喪禮 既夕禮 士虞禮 特牲饋食禮 特牲 少牢饋食禮 少牢 有司徹").split()
# 鄭大夫 is 鄭興 where the 周禮注 and 疏 cite him (「鄭大夫讀屯為課殿」, 「鄭大夫云…」: 28 spans of the
# book), the state of 鄭's grandee elsewhere (「鄭大夫豐卷」)
# 司農 is 鄭衆 (鄭司農) wherever the 注 and 疏 name him short (「破司農」, 「司農引論語」): of the 1,040 司農
# of 周禮 / 禮記註疏 832 follow 鄭 and only three are the Han office (若今司農, 漢時司農); 大司農 is the
# office. The tagger trained to convergence read 47 of the short ones as ROLE again (stop 45).
CITED_SCHOLAR_RE = "鄭大夫(?=[云讀曰以之])|(?<![大今時])司農"
# a cited chapter first: 文王世子云 is the chapter, not 文王 and then 世子
_CITED_RE = re.compile("(?:" + "|".join(sorted(CITED_CHAPTERS, key=len, reverse=True)) + ")(?=[云曰注篇文傳記])|"
                       + CITED_SCHOLAR_RE + "|"
                       + "|".join(sorted(CITED_NAMES + NAMED_PERSONS, key=len, reverse=True)))


def cited_name_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every CITED_NAMES and NAMED_PERSONS occurrence in text, and of every chapter
    of CITED_CHAPTERS the text cites."""
    return [m.span() for m in _CITED_RE.finditer(text)]


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
        # a word of its own: 中庭 / 中堂 / 中門 / 中霤 (the middle of the court, hall …), 中國, 中庸,
        # 中央, 中等 (the middle step), 中呂 (a pitch pipe), 中都 — 於中國, 於中央 … of the 注疏 read as the
        # tally holder before (stop 45). Not 興: 「實八算于中，興」 (the 集釋) is the tally holder
        if nxt in set("庭堂門霤國庸央等呂都"):
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
    # book titles 士冠禮 … (silver only: it also takes the rank of 「大夫士之禮」, which the model keeps)
    if surface == "士" and text[end + 1 : end + 2] == "禮":
        return False
    return not other_word(text, start, end, surface)


def other_word(text: str, start: int, end: int, surface: str) -> bool:
    """Whether the context shows that a word of the lexicon at text[start:end] is another word (君 of
    君子, 稷 of 社稷, 爵 the rank, 婦 of 婦德 …). The silver data leaves these out (_keep), and the tag stage
    drops them where the model keeps them anyway (pipeline.tag.kept_entities; stop 46)."""
    prev = text[start - 1] if start > 0 else ""
    nxt = text[end] if end < len(text) else ""
    if surface == "君" and nxt == "子":  # 君子 "the gentleman", not the lord 君 (1,014 in the 禮記註疏)
        return True
    if surface == "算" and prev == "無":  # 無算 "without count" (踊無算, 無算爵)
        return True
    if surface == "稷" and prev == "社":  # 社稷, the altars of the state, not the grain (357 in the 注疏)
        return True
    if surface == "綏" and nxt == "祭":  # 綏祭 (墮祭: a morsel offered), not the strap (9 in the 集釋, 31 in the 注疏)
        return True
    # 爵 the rank, not the cup: 爵禄 / 爵等 / 爵賞 / 爵秩, 官爵 / 世爵, 有爵 / 無爵 (者), and 爵韋 (the colour, as in
    # 爵弁) — about 230 of the 1,507 爵 of 周禮 / 禮記註疏, all read as the cup (stop 45). Not 爵命 /
    # 爵位 / 稱爵, which the 集釋 has for the cup too (「受爵，命送如初」, 「送爵，位」, 「觚亦稱爵」)
    if surface == "爵" and (nxt in set("禄祿等賞秩韋") or prev in set("官世有無")):
        return True
    # the four womanly accomplishments 婦德 / 婦言 / 婦容 / 婦功 (九嬪掌婦學之灋…), not the wife:
    # 婦 was ROLE in 80 of them in 周禮 / 禮記註疏 (典婦功, the office, is the longer name)
    if surface == "婦" and (nxt in set("徳德容功") or (nxt == "言" and text[end + 1 : end + 2] == "婦")):
        return True
    if surface == "服不" and prev in set("祭朝衣"):  # 祭服不倒: the robes, not the office
        return True
    if surface in ("侯",) and (prev == "公" or nxt == "伯"):  # the lords 公侯伯, not the target
        return True
    # 卿大夫判縣，士特縣 (the hangings of bells), not the office 縣士
    return surface == "縣士" and nxt == "特"


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
    kept = []
    for s, e, lab in matches:
        if _keep(text, s, e, text[s:e], starts, roles, role_ends):
            kept.append((s, e, lab))
        elif e - s > 1:  # a rejected name may hold a shorter one after its first character (判縣士 → 士)
            kept.extend((s + 1 + a, s + 1 + b, lb) for a, b, lb in lexicon.longest_matches(text[s + 1 : e], skip)
                        if _keep(text, s + 1 + a, s + 1 + b, text[s + 1 + a : s + 1 + b], starts, roles, role_ends))
    return name_patterns(text, kept, lexicon) if patterns else kept


# --- productive name patterns: names the lexicon need not list --------------------------------
# 1. an office + 正 / 師 is the head of that office (the guideline's longest name: 小臣 → 小臣師,
#    僕人 → 僕人正, 司馬 → 司馬師); not after 主人 / 衆工 (主人正 "the host corrects"), nor after
#    an office listed only from the 周禮 (Lexicon.no_head: 小胥正樂縣之位, 大僕正王之服位).
# 2. an agent role 「V X 者」: V one of 執奉舉沃羞獲媵贊 (釋 may precede 獲), X nothing or one or
#    two characters naming what is handled (執爵者, 執皮者, 贊冠者, 羞膳者, 沃洗者, 獲者), and
#    勝者 / 不勝者; not after 所 (所獲者 "what is got"), X never a function word.
# 3. the 周禮's frames for its offices at the start of a text: 「X掌…」 (the 職) and 「X上士二人…」
#    (the 序官).
# 4. a modifier + an office head makes one office, where the 周禮's listed offices show both
#    (遂 of 遂士, 大夫 of 鄉大夫 → 遂大夫; 大 of 大宰, 司寇 of 小司寇 → 大司寇); not after a
#    relational character (門外祝, 東方婦) nor in 判縣士特縣.
# 5. a listed implement + 人 / 師 / 氏, where the 周禮 names a keeper so (酒人, 鍾師, 磬氏):
#    the office of that thing (鼓人, 矢人, 侯氏); not + 正 (肺正, 俎正: "the main one").
_AGENT_V = "執奉舉沃羞獲媵贊"
_RELATIONAL = frozenset("門東西南北堂庭室房于於之")
_NOT_IN_TITLE = "掌，。、；：之也而以其凡若則者各既禮"
_RE_ZHI_OPEN = re.compile(rf"^(掌[^{_NOT_IN_TITLE}]{{1,2}}|[^{_NOT_IN_TITLE}]{{1,2}}[^{_NOT_IN_TITLE}祀喪事氷冰])各?掌")
_RE_XUGUAN_LINE = re.compile(
    rf"^([^{_NOT_IN_TITLE}]{{2,4}}?)(?:每\S)?(?:奄)?(?:旅?[上中下](?:士|大夫)|卿|奄)[一二三四五六七八九十]")
_RE_AGENT = re.compile(r"(?:不)?勝者|(?:釋)?([執奉舉沃羞獲媵贊])([^之其所也而以於于不者卑古出免言執，。、；：「」『』]{0,2}?)者")
_OFFICE_HEAD_NOT = frozenset(["主人", "衆工"])


def name_patterns(text: str, spans: list[tuple[int, int, str]], lexicon: Lexicon | None = None) -> list[tuple[int, int, str]]:
    """Spans after the productive name patterns (see above); overlapped spans give way.
    `lexicon` gives the office shapes of the 周禮 (patterns 4, 5) and the offices that take no
    正 / 師 head (the 周禮's: 大僕正王之服位 is "corrects")."""
    out = list(spans)
    no_head = lexicon.no_head if lexicon is not None else frozenset()
    if lexicon is not None and (lexicon.office_mods or lexicon.keeper_suffixes):
        covered = {i for s, e, _ in out for i in range(s, e)}
        ext = []
        for s, e, lab in out:
            w = text[s:e]
            if (lab == "ROLE" and w in lexicon.office_heads and s > 0 and text[s - 1] in lexicon.office_mods
                    and s - 1 not in covered and (s < 2 or text[s - 2] not in _RELATIONAL)
                    and not (w == "士" and text[s - 1] == "縣" and text[e : e + 1] == "特")):
                ext.append((s - 1, e, "ROLE"))  # 4. 遂 + 大夫, 鄉 + 士, 大 + 司寇
            elif (lab == "OBJECT" and e - s == 1 and e < len(text) and text[e] in lexicon.keeper_suffixes
                    and e not in covered):
                ext.append((s, e + 1, "ROLE"))  # 5. 酒 + 人, 酒 + 正, 鼓 + 人
            else:
                ext.append((s, e, lab))
        out = ext
    starts = {s for s, _, _ in out}
    ext = []
    for s, e, lab in out:
        if (lab == "ROLE" and e - s >= 2 and e < len(text) and text[e] in "正師" and e not in starts
                and text[s:e] not in _OFFICE_HEAD_NOT and text[s:e] not in no_head):
            ext.append((s, e + 1, lab))
        else:
            ext.append((s, e, lab))
    out = ext
    # 3. the 周禮's own frames for its offices, at the start of a text (a 經 passage): the opening
    #    of a 職 (遂人掌邦之野, 掌舍掌王之會同之舍, 胥師各掌其次之政令) and a line of a 序官
    #    (遂人中大夫二人, 場人每場下士二人, 内小臣奄上士四人)
    m = _RE_ZHI_OPEN.match(text) or _RE_XUGUAN_LINE.match(text)
    if m and not any(a < m.end(1) < b for a, b, _ in out):
        out = [x for x in out if x[0] >= m.end(1)] + [(0, m.end(1), "ROLE")]
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




