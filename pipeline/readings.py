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

Pure: strings in, dataclasses (pipeline.model.Reading) out. Shared by two stages, so it stands
outside both packages: align reads the readings and anchors them, segment punctuates 音義 notes
at the entry boundaries the grammar finds (pipeline/segment/yinyi.py); neither stage imports the
other's run-time package.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import takewhile

from pipeline.model import Reading, Sound

# authorities and alternative markers that may stand before a formula, longest first
AUTHORITIES = (
    "徐邈", "劉昌宗", "李軌", "沈重", "王肅", "鄭司農", "司農", "杜子春", "干寳", "干寶", "戚袞",
    "盧植", "馬融", "皇侃", "崔靈恩", "賀瑒", "孫炎", "字林", "説文", "說文", "衆家", "諸家", "聶氏", "隠義", "隱義",
    # the 漢書音義 and the commentators it quotes (KR1d0003_033, _035: `漢書音義服䖍音近蠻`), `三家…一家…`
    "漢書音義", "服䖍", "服虔", "應劭", "韋昭", "鄭氏", "三家", "一家",
    # a book as it reads the word (`載依注讀曰栽音災生也詩音再`, `祊鄭注周禮音方`: KR1d0053_053, _017, train;
    # `報禮記音芳付反`: KR1d0028_014, the 儀禮注疏 read by hand at stop 65), no head 詩, 禮, 記
    "鄭注周禮", "周禮", "禮記", "左傳", "爾雅", "詩",
    # the 玉篇 (`…玉篇羌據公答二反`, `…玉篇云鄭衆音補管`: KR1d0053_041, KR1d0003_039, train; stop 70's whole juan, stop 69's)
    "玉篇", "鄭衆",
    "徐", "沈", "劉", "李", "戚", "干", "鄭", "王", "馬", "孫", "郭", "舊", "聶", "呂", "皇", "盧", "何", "杜", "范", "庾",
)
ALTERNATIVE = ("一", "又", "或", "亦", "皆", "並", "竝", "俱")
_ONE_CHAR_NAMES = frozenset(a for a in AUTHORITIES if len(a) == 1)
# one reading formula: 反切 (two characters + 反, sometimes after 音: 圜音于權反), homophone
# (音 + one character; not 音者 of the scope `後不音者放此`), 如字 (also 音如字: `一音如字`)
# two 反切 at once (`好呼報呼老二反`: 呼報反 and 呼老反) come first, so that 老二反 is not one — not
# where the four characters hold an authority or a marker (`如比徐方二反`, `諡音示徐又以二反`: 比 and 諡
# read 方二反 and 以二反, KR1d0003_013, KR1d0053_019, train), unless the two 反切 share their upper
# character (`肉柔又柔育二反`: 柔又反 and 柔育反, KR1d0003_041, train);
# the print's 仄 for the 反 of a 反切 (`幠火吾仄`, `賻芳仲仄`, `幾居豈仄`: 7 in the three books' 音義, KR1d0028_013 read whole
# at stop 68; not the head 仄 of `仄音側`); 音 before 上 / 下 and a 反切 (`一音上呼報反`), 音下同 "for the reading, the same below"
# and 音X不同 "differs X from the reading" (`政音征本亦作政音下同`, `…云與音大不同`: KR1d0053_051, KR1d0003_033, stop 68) hold no
# homophone;
# 音反 is a homophone (`阪險上音反又蒲版反`) where no 反切 can be read; 音與X同 ("read as X",
# `哨音稍劉李音與燿同`) is the homophone X, not 與; so, the nearest formula, is 音近X ("read
# close to X", `服䖍音近蠻`), not 近
_NOT_IN_TWO = "".join(sorted(_ONE_CHAR_NAMES)) + "".join(ALTERNATIVE) + "作字曰如"
FORMULA_RE = re.compile(
    rf"音?(?P<two>(?P<upper>[^反音同也])[^反音同也](?P=upper)[^反音同也]|[^反音同也{_NOT_IN_TWO}]{{4}})二反"
    r"|音?(?P<fq>[^反音同也]{2})(?:反|仄(?![音反]))|音與(?P<same>[^音同也如者與])同"
    r"|音近(?P<near>[^音同也如者])|(?<!漢書)(?<!同此)音(?![上下][^反音同也]{2}反|下同|.不同)(?P<hom>[^音同也如者])|音?(?P<rz>如字)")
# "both": after a scope, a lone 並 is a head (竝於鬼神: `…皆放此並歩頂反`)
BOTH = ("並", "竝")
# the scope of the previous entry, at the start of the text between two formulas: clauses
# ending in 同 (下同, 注同, 下及注同, 下除乗君…皆同: `除` lists exceptions, so longer) or 放此
# (下皆倣此, 後不音者放此), one after another (注同下以自治…皆放此); 篇内同 "the same throughout the
# chapter" (`長丁丈反篇内並同`, `朝直遙反篇内除下注朝之餘皆同`), 卷内皆同 "… the juan" (`令力呈反卷内皆同`,
# KR1d0003_039, stop 69); after 出注, "the word is the 注's" (`甸音田出注下甸役同`, `端音冕出注下諸侯𤣥端同`:
# KR1d0053_032, _029, KR1d0003_019, train); 凡…放此 "wherever …"
# (`㑹古外反凡要會㑹計之字皆放此`) and a closing 此音 "(with) this reading" (`積子賜反此二字相連皆同此音飲…`: the 音 is no
# homophone; KR1d0003_003, train)
_SCOPE_CLAUSE = (
    r"[下後][^反音也同]{0,6}除[^反音也]{0,16}?同"
    r"|[篇卷][内內][^反音也]{0,10}?同"
    r"|[下注後此皆並竝經][^反音也]{0,10}?同"
    r"|[下後注此經][^反音也作]{10,40}?[皆並竝]同"
    # (`卒長丁丈反卷内不出者放此` "so in the rest of the juan where it is not noted": KR1d0003_028, stop 70's whole juan)
    r"|(?:[下後注餘凡篇卷][^反也]{0,12}?)?[放倣]此"
)
SCOPE_RE = re.compile(f"(?:出注)?(?:{_SCOPE_CLAUSE})+(?:此音)?")
# … at the end of a note, any short stretch ending in 同 (`族師治令同`, `篇内同`), but not a
# variant remark (`本或作惡同`: 17 of the 42 such ends on train juan)
END_SCOPE_RE = re.compile(r"[^反音也作]{1,10}同"
                          # … and the longer lists of where else (`下其妻爲母之爲妻禫爲庶母爲祖庶母皆同`, `下之種也同`,
                          # `後不音者同`, `凡度長短曰長皆同此音`: KR1d0053_033, _026, KR1d0003_017, KR1d0053_006, train)
                          r"|[下後注此經][^反音作]{1,40}?[皆並竝]同|[下後][^反音作]{1,10}同|後不音者同|凡[^反音作]{1,20}皆同此音"
                          # … and 「X放此」 "so at X" (`聒古活反銜枚氏放此`: the chapter 銜枚氏, KR1d0003_036, stop 68's whole juan)
                          r"|[^反音作也]{1,10}[放倣]此")
# a gloss or a variant remark of the previous head before its scope: `遺于季反與也注同`,
# `辟音避本亦作避下同`
GLOSS_RE = re.compile(r"[^也反音]{1,8}也|[本夲字]?[亦又或今]?作[^作](?:音?同)?")
# a remark between a head and its reading: a variant (辨本亦作辯, 弛本又作施同, 麕本又作麇亦作麏;
# one character, as the head is one: in `字或作菰蓏` 蓏 is the next head) or the text the reading
# follows (其命依注, 讀者亦依尚書, 沈一依聶氏, 猶依注作搖, 賁依注讀為憤: stop 62); also an edition's (徐本作遁, 一本作屝,
# 干本同), a correction (一云當作郟, 屬讀爲注) or the character the head stands for (圂與豢同音患,
# 鷙與摯同音至: KR1d0003_004, KR1d0053_030, train)
_NAMES = "|".join(AUTHORITIES)
REMARK_RE = re.compile(
    rf"(?:(?:讀者)?[一亦又]?依(?![字書]讀.)(?:注作.音?同|注讀[為爲曰].|[^依反]{{1,3}}?(?:作.)?)|讀[為爲曰].|(?:(?:{_NAMES}|一云|一|古)?(?:[本夲字注]|當)?[亦又或今]?作[^作](?:[並竝注]?音?同)?)+(?:與[^與反音]同)?|(?:{_NAMES})本同|與[^與反音]同|及注[^反音]{{1,2}}同)$")
# a variant remark right after a reading (`共音恭本或作供`, `取音娶本又作娶`, `牷音全一本作純`): where the text
# prints the variant, the head anchors on it (REMARK_RE takes the old edition's 古本 too: `古本又作亲音壯巾反`, stop 66)
AFTER_RE = re.compile(r"(?:一?[本夲字]?[亦又或今]?作)(.)")
# a head as printed, up to four characters (`深衣三袪起魚反`, `則辭以疾如字`, `有行有行並下孟反`: stop 66, 26 train heads that
# were cut to their last three)
MAX_HEAD = 4
# before another authority's reading, a head is read up to three characters only: a longer unanchored text there is a
# gloss of the head before (`鄔徐於據反縣名屬太原劉烏古反`); with MAX_HEAD, `汧徐口千反劉苦見友李一音空定反` (the print's 友 for 反)
# would read a head 友
HEAD_BEFORE_AUTHORITY = 3
# the marker of Lu Deming's reading notes in the 注疏 (ingest's unit.marker)
READING_NOTES = "音義"
# `樂音洛下音岳`: the same head read otherwise at its next occurrence (下) — an alternative
LATER = ("下", "同")
# an edition, before the alternative marker of its reading (`本又如字`, `一本又力錦反`)
EDITIONS = ("本", "夲", "一本")
# "some say", before the authority of another reading (`或云司農音符`)
SOME_SAY = ("或云", "一云")
# a head printed with the 也 after it in the glossed text (`容也羊凶反`), one or two characters
LOCATED_RE = re.compile(r"[^反音也同]{1,2}也")
# the upper and lower character of a two-character head (`句芒古侯反下音亡`), maybe after the
# authority who reads it so (`巾巾竝如字劉下居覲反`)
UPPER_LOWER = ("上", "下")
# — or after the alternative's marker (`好惡並如字一音上呼報反下烏路反`: "another reading: the upper 呼報反, the lower 烏路反";
# 音上 is no homophone there: FORMULA_RE)
SIDE_RE = re.compile(f"(?:({_NAMES})|([一又或])音)?([上下])$")


def parse_note(text: str, targets: list[str] | None = None, fold: Callable[[str], str] | None = None,
               alternates: Callable[[str], tuple[str, ...]] | None = None) -> list[Reading]:
    """The readings of one 音義 note; with `targets` (the 經 / 注 texts before it, in order),
    heads are chosen where they anchor and anchored.

    `fold` (one character to one, such as `pipeline.variants.fold`) lets a head anchor on a
    variant form: the note writes 別 where the 注 has 别, 大 where it has 太. `alternates`
    (such as `pipeline.variants.reading_alternates`) gives, for one character, the other
    characters the text may print for it (烖 → 災), tried when nothing else anchors.
    """
    finder = _Finder(targets or [], fold or (lambda t: t), alternates)
    sounds = _formulas(text)
    readings: list[Reading] = []
    pair: tuple[str, int] | None = None  # the second head of `宛脾上於阮反下毗支反`, and its offset
    two: Reading | None = None  # the two-character head whose upper character was just read
    prev_end = 0
    for k, sound in enumerate(sounds):
        between = text[prev_end : sound.start]
        after = text[sound.end : sounds[k + 1].start if k + 1 < len(sounds) else len(text)]
        prev_end = sound.end
        rest, scope = _tail(between) if readings else (between, None)
        if scope:
            readings[-1].scope = (readings[-1].scope or "") + scope
        if rest == "出注" and readings:
            # "(read) as the 注 has it", then the 反切 of the same head (`吉音誥出注羔報反`: KR1d0053_055, stop 68's whole juan)
            readings[-1].sounds.append(sound)
            continue
        if rest in ("乂", "义") and readings:
            # the print's 乂 for 又: 4 of the 5 乂 in the 音義 of the three 注疏 stand alone between two readings
            # (`蜺五兮反乂五歴反又五結反`, KR1d0003_041, train); the fifth is a head (`乂或又作艾魚廢反`). Likewise its 义
            # (`縞古老反义古報反注同`, KR1d0053_041, train; stop 70's whole juan: the other 义 is `本义作朼`)
            sound.authority = (rest,)
            readings[-1].sounds.append(sound)
            continue
        # the head stands at the start of what is left between the two formulas (_split takes the
        # remark and the authorities, with a 及 between two of them, off its end)
        start = sound.start - len(rest)
        rest, authority, remark = _split(rest)
        if rest.endswith("義") and remark.startswith(("作", "當作")) and not authority:
            # 義 "by its sense" before 作 / 當作: `竭義作揭其列反` "竭, by its sense written 揭, 其列反", `爍徐劉余灼反義當作鑠始灼反`
            # (KR1d0053_022, KR1d0003_039, train; stop 69's whole juan 39) — no head 義: the character before it, or the head before
            rest = rest[:-1]
            if not rest:
                if readings:
                    readings[-1].sounds.append(sound)
                continue
        if (remark.startswith("依") and len(rest) >= 3 and rest[-1] in _ONE_CHAR_NAMES
                and (edition := re.match(r"[本夲][又亦或]?作", rest))):
            # after an edition's form of the head, a name following another's reading: `稹之忍反本又作稹劉依司農音奠` (劉, after
            # 司農, reads 稹 奠) — no head 劉; the edition's form may run into the next head (`絘音次夲或作次總劉依杜音儳`: 總)
            # (KR1d0003_039, _015, train; stop 69's whole juan 39)
            authority = (rest[-1],) + authority
            body = rest[edition.end() : -1]
            if readings and (body == readings[-1].head or len(body) == 1):
                sound.authority = authority
                readings[-1].sounds.append(sound)
                continue
            rest, start = body[-1], start + len(rest) - 2
        if pair and rest == "下" and (not remark or "作" in remark):
            # the second head of a pair, read after 下: 弟弟上如字下音悌; also after its variant (`魄莫上普伯反或普博反下亦作膜
            # 武博反`: 莫, printed 膜 elsewhere — KR1d0053_028, stop 68's whole juan)
            head, at = pair
            pair = None
            sound.authority = authority
            readings.append(finder.reading(head, at, at + 1, [sound]))
            continue
        if not rest and remark[:1] in _ONE_CHAR_NAMES and re.match(r".[本夲][又亦或]作", remark) and finder.ahead(remark[0]):
            # a name with an edition's "also written" after it is a word of the text: `聶本又作攝又作䐑皆之渉反` (聶 of the 注's
            # 聶而切之, KR1d0053_028, stop 68's whole juan) — 又 / 亦 / 或 say "some editions"; `劉本作淬七對反` is 劉's edition
            rest, remark = remark[0], remark[1:]
            reading, _ = finder.head(rest, text.find(rest, start), remark)
            sound.authority = authority
            reading.sounds.append(sound)
            readings.append(reading)
            pair = None
            continue
        if not rest:
            if not readings and authority:
                # `王如字…` at the start of a note: 王 is the head, not 王肅
                rest, authority = authority[0], authority[1:]
                start = text.find(rest, start)
            elif readings and len(authority) == 1 and (
                    (scope and (authority[0] in BOTH or (len(authority[0]) == 1 and finder.ahead(authority[0]))))
                    or finder.read_as_its_word("", authority, sound)
                    or (sound.kind == "ruzi" and _own_reading_next(text, sounds, k, authority[0]) and finder.ahead(authority[0]))
                    or (authority[0] in _ONE_CHAR_NAMES and finder.right_after(authority[0]))):
                # after a scope a new entry begins: `…皆放此並歩頂反` (竝於鬼神), `…皆同戚音傶`
                # (戚 of the 注 ahead; `…下同徐戶交反` is 徐邈's alternative; a name of two characters is the
                # commentator the 注 quotes, `…注饋遺同司農音維`: KR1d0003_009, train); so does a name read as
                # the word it is, where the text has it ahead (`…張里反王往況反`: 王 "to rule", not 王肅's), also where
                # it is read 如字 and another reads it as that word (`赫許百反王如字徐于況反`: 王 of 成王之孚, KR1d0053_055, stop 68),
                # and a one-character name that the text has right after the head before (`泲子禮反盧音雷`: 盧 of the 經's 河泲其浸
                # 盧維, not 盧植; `貍亡皆反劉莫拜反沈如字`: 貍沈; `…平碧反盧如字`: 欂盧 — KR1d0003_033, _018, KR1d0053_031, stop 68)
                rest, authority = authority[0], ()
                start = text.find(rest, start)
            elif readings:
                sound.authority = authority
                readings[-1].sounds.append(sound)
                continue
            else:
                continue  # a formula with no head before it: nothing to read
        side = SIDE_RE.fullmatch(rest) if not remark else None
        if (side and readings and (len(readings[-1].head) == 2 or two)
                and not _own_reading(side.group(3), sound)):
            # the upper or lower character of the two-character head before: `句芒古侯反下音亡`
            # (芒), `好惡並如字上呼報反下烏路反`, `巾巾竝如字劉下居覲反` — not the head at its next
            # occurrence, which is said of a one-character head (`樂音洛下音岳`)
            sound.authority = tuple(filter(None, [side.group(1) or side.group(2)])) + authority
            two = readings[-1] if len(readings[-1].head) == 2 else two
            readings.append(finder.one_of(two, UPPER_LOWER.index(side.group(3)), [sound]))
            continue
        two = None
        if (readings and not remark and not authority and LOCATED_RE.fullmatch(rest)
                and (hit := finder.find_ahead(rest)) is not None):
            # the word printed with the 也 that follows it in the text, to say which (`賔客也下客以逺同容也羊凶反`:
            # 容 of the 注's 容也; `樂也音洛`, `國分也扶問反`: KR1d0053_047, _021, KR1d0003_030, train) — a head, not
            # a gloss of the entry before
            reading = finder.anchored(rest[:-1], start, hit, len(rest) - 1)
            reading.sounds.append(sound)
            readings.append(reading)
            continue
        if rest.endswith("絶句") and len(rest) >= 4 and rest[-3] in _ONE_CHAR_NAMES and not remark:
            # `烝皇絶句之丞反`: "皇侃 ends the sentence at 烝", then 烝's reading (KR1d0053_028, stop 68's whole juan)
            authority, rest = (rest[-3],) + authority, rest[:-3]
        if readings and (rest == "注" and authority[:1] and authority[0] in ALTERNATIVE):
            # `和户卧反注皆同注又如字`: "in the 注 also 如字", another reading of 和 (KR1d0053_028, stop 68's whole juan)
            sound.authority = (rest,) + authority
            readings[-1].sounds.append(sound)
            continue
        if readings and _continues(rest, authority, remark) and not (
                # the word 下 read as itself (`適丁厯反下遐嫁反`, `大音泰後大廟同下户嫁反`: KR1d0003_021, KR1d0053_029,
                # train), where it stands ahead: a head, not the previous head's next occurrence (`樂音洛下音岳`)
                rest == "下" and _own_reading(rest, sound) and finder.ahead(rest)):
            names = _authority(rest)[1] if remark and not _authority(rest)[0] else \
                ((rest,) if rest in LATER or rest in EDITIONS or rest in SOME_SAY else ())
            sound.authority = names + authority
            readings[-1].sounds.append(sound)
            continue
        sound.authority = authority
        if finder.read_as_its_word(rest, authority, sound):
            # the name read as its word after the previous entry's remark: `业此古丘字王于况反` (王 "to rule",
            # KR1d0053_046, train; 「业，此古丘字」 ends the entry of 业) — not where the head is printed with
            # the word before it (`謂王于况反`, `追王于况反`: the head 謂王, 追王, as `_Finder.head` reads it)
            rest, authority, remark, start = authority[0], (), "", sound.start - 1
            sound.authority = ()
        if len(rest) >= 2 and rest.endswith("當") and not remark and not _own_reading("當", sound):
            # 當 "should be read", not the word 當 (丁浪反): `上先正當音征` (正 of 先正, KR1d0053_055, stop 68's whole juan),
            # `羶當失然反`, `兌當徒外反` (KR1d0053_026, _036, train); after a gloss, of the head before (`箈音迨…魚衣也當徒来反`)
            rest = rest[:-1]
            if rest.endswith("也") and readings:
                readings[-1].sounds.append(sound)
                continue
        if len(rest) >= 2 and rest.endswith("則") and not rest.startswith("則") and not remark:
            # 則 "then", after a remark on the text: the reading that follows from it, of the character before 則
            # (`今本或無持字從則如字`: 從; `一本作神可見則如字`: 見; `本作室與堂也與則如字`: 與 — KR1d0003_025, KR1d0053_047,
            # _026, train) or, after 「如X義」, of the head before (`…案如杜義則音姑`: by 杜子春's sense 橭 reads 姑, KR1d0003_036,
            # stop 68's whole juan). Not the head printed with 則 (`則君則音明`: 則 of the 經's 則君)
            rest = rest[:-1]
            if rest.endswith("義") and readings:
                readings[-1].sounds.append(sound)
                continue
        if len(rest) >= 2 and rest.endswith("字") and not remark:
            # "the character X": `下祝字之又反` (the lower 祝), `衒…本又作御字魚據反`, `樂樂下字音洛`
            # (KR1d0053_004, _028, KR1d0028_005, train) — the head is X, not 字
            rest = rest[:-1]
        sides = _sides(rest)
        if sides and sides[0][2] == "上" and _lower_follows(text, sounds, k):
            # a note on two characters: `蜩范上音條下音犯` — one reading each (`左右徐上音佐下音佑`:
            # 徐邈's readings, not a head 徐; 范 of 蜩范 is no 范宣: the pair that stands in the text)
            b, name, _ = next((c for c in sides if finder.ahead(rest[c[0] - 2 : c[0]])), sides[0])
            sound.authority = tuple(filter(None, [name])) + authority
            # a word of three that repeats a character (`衣緇衣上於既反下如字`: 衣 "to wear" and 衣 "robe"; `數榖數上所主反下所具反`;
            # `先先柩上如字下西見反` — KR1d0053_055, _039, KR1d0028_002, _013, KR1d0003_020): 上 and 下 are its two copies
            if b >= 3 and rest[b - 3] in rest[b - 2 : b] and (hit := finder.find_ahead(rest[b - 3 : b])):
                one, two = b - 3, (b - 1 if rest[b - 3] == rest[b - 1] else b - 2)
                first = finder.anchored(rest[one], start + one, hit, 1)  # where the word of three stands
                first.sounds.append(sound)
            else:
                one, two = b - 2, b - 1
                first = finder.reading(rest[one], start + one, start + one + 1, [sound])
            readings.append(first)
            pair = (rest[two], start + two)
            continue
        took = False
        for b, name, which in _sides(rest) if not remark and not _own_reading(rest[-1], sound) else ():
            # one character of the two-character head right before: `大皥上音太` (the lower one
            # read later or not at all), `祝祝劉下之又反`, after the head's gloss `離羣羣朋友也上音詈`;
            # only where the two characters stand together in the text (`人以上時掌反` is 上 itself)
            before = rest[:b]
            glossed = before.endswith("也")
            word, at = (before[:2], start) if glossed else (before[-2:], start + len(before) - 2)
            if "也" not in word and finder.ahead(word):
                whole, _ = finder.head(word, at, "")
                sound.authority = tuple(filter(None, [name])) + authority
                readings.append(finder.one_of(whole, UPPER_LOWER.index(which), [sound]))
                pair, two, took = None, (whole if len(whole.head) == 2 else None), True
                break
        if took:
            continue
        later = AFTER_RE.match(after)
        # the one-character names printed right after the head, which may be its last characters (`謂王于况反`), also before an
        # alternative's marker (`蒲盧並如字`: 蒲盧 "both", not 盧植 — KR1d0053_052, stop 68's whole juan)
        lead = len(list(takewhile(lambda a: a in _ONE_CHAR_NAMES, authority)))
        names = "".join(authority[:lead]) if lead and all(a in ALTERNATIVE for a in authority[lead:]) else ""
        reading, took_names = finder.head(rest, start, remark, later.group(1) if later else None, names)
        if took_names:
            sound.authority = authority[lead:]
        if reading.target is None and readings and rest.startswith(SOME_SAY):
            # `清舊才性反一云此詩協韻宜如字`: "one says: this ode rhymes, it should be 如字" — of 清 (KR1d0053_055, stop 68)
            sound.authority = (rest[:2],) + sound.authority
            readings[-1].sounds.append(sound)
            continue
        if reading.target is None and readings and authority and len(rest) > HEAD_BEFORE_AUTHORITY and "作" not in rest:
            # `鄔徐於據反縣名屬太原劉烏古反`: a gloss, then another authority for the same head
            # (not `…亦作兆舋舊許鄞反`: the previous entry's variant remark, then a head)
            readings[-1].sounds.append(sound)
            continue
        pair = None
        reading.sounds.append(sound)
        readings.append(reading)
    if readings:
        rest, scope = _tail(text[prev_end:])
        if not scope and END_SCOPE_RE.fullmatch(rest):
            scope = rest  # `治直吏反族師治令同`: what ends a note with 同 is where the reading holds
            if later := re.search(r"[下後][^反音也下後]{0,4}[放倣]此$", scope):
                scope = later.group(0)  # a gloss before it (`廌依字直買反解廌獸名後放此`): the scope is 後放此
        readings[-1].scope = (readings[-1].scope or "") + scope if scope else readings[-1].scope
    return readings


# readings of a character as a word of the text: 上 and 下 themselves (`…以上時掌反`: the word 上,
# not an upper character), and authorities' names that are also words the notes read — 王 "to rule",
# 孫 "to yield" (遜), 何 "to carry" (荷), the chariot's 范 (train juan: `徴張里反王往況反`, `說音悅孫音遜`,
# `…徐音目何胡可反`, `軌媿美反范音犯` were read as another reading by 王肅, 孫炎, 何胤, 范宣)
OWN_READINGS = {"上": ("時掌反", "時亮反"), "下": ("遐嫁反", "戶嫁反", "户嫁反", "戸嫁反", "胡嫁反"),
                "王": ("于況反", "往況反", "于况反", "往况反", "于放反", "往放反"), "孫": ("音遜",),
                "何": ("胡可反", "户可反", "戶可反", "河可反"), "范": ("音犯",),
                # … and 當 "fitting" (丁浪反), the word, where a 當 before a reading is otherwise "should be read"
                "當": ("丁浪反", "丁郎反", "都浪反", "都郎反")}


def _sides(rest: str) -> list[tuple[int, str | None, str]]:
    """Where a two-character head may end before the 上 / 下 that ends `rest`, with the name of
    the authority between them: (end of the head, name, 上 or 下), the reading with no name first
    (`蜩范上`: 范 may be 范宣 or the head's character)."""
    if not rest or rest[-1] not in UPPER_LOWER:
        return []
    out = [(len(rest) - 1, None, rest[-1])] if len(rest) >= 3 else []
    side = SIDE_RE.search(rest)
    if side and side.group(1) and side.start() >= 2:
        out.append((side.start(), side.group(1), rest[-1]))
    return out


def _own_reading(word: str, sound: Sound) -> bool:
    """Whether `sound` is one of OWN_READINGS of the character `word` (上 時掌反, 王 于況反 …)."""
    if sound.kind == "fanqie":
        formula = sound.upper + sound.lower + "反"
    elif sound.kind == "homophone":
        formula = "音" + sound.homophone
    else:
        return False
    return formula in OWN_READINGS.get(word, ())


def _own_reading_next(text: str, sounds: list[Sound], k: int, word: str) -> bool:
    """The formula after `k`, with only authorities or an alternative's marker between, is one of `word`'s OWN_READINGS."""
    if k + 1 >= len(sounds):
        return False
    between = text[sounds[k].end : sounds[k + 1].start]
    return bool(between) and not _authority(between)[0] and _own_reading(word, sounds[k + 1])


def _lower_follows(text: str, sounds: list[Sound], k: int) -> bool:
    """After the reading `k` (and its alternatives), the next entry opens with 下: `上…下…`."""
    for j in range(k + 1, len(sounds)):
        between = text[sounds[j - 1].end : sounds[j].start]
        if between.startswith("下"):
            return True
        if _authority(between)[0]:
            return False
    return False


def _formulas(text: str) -> list[Sound]:
    """The reading formulas of a note in order: 反切, 音X, 如字, and `近附近之近` ("近 as in
    附近": the head, a word it is read in, 之, the head again; also 爭爭鬬之爭)."""
    sounds = _formula_sounds(text)
    taken = [(s.start, s.end) for s in sounds]
    for i, ch in enumerate(text):
        if ch != "之" or i + 1 >= len(text):
            continue
        x = text[i + 1]
        for size in (2, 3):
            j = i - size - 1  # the head
            if j < 0:
                break
            word = text[j + 1 : i]
            # the head right before the word, or before an authority's name there (`閒徐閒厠之閒`: 徐's 閒厠之閒; KR1d0053_028,
            # stop 68)
            head_before = text[j] == x or (size == 2 and text[j] in _ONE_CHAR_NAMES and text[j - 1 : j] == x)
            if head_before and x in word and not any(c in "反音之也" for c in word):
                if not any(a < i + 2 and j + 1 < b for a, b in taken):
                    sounds.append(Sound("word", j + 1, i + 2))
                break
    return sorted(sounds, key=lambda s: s.start)


def _says_wrong(text: str, sound: Sound) -> bool:
    """音非 "the reading is wrong", not the homophone 非: `…以作無音非也` (音非也), `沈云劉音非` (someone says another's
    reading is wrong), `諸音非` (the other readings are). The homophone stands before anything else: `扉音非`, `劉音非隱也`
    (KR1d0003_014, _027, _041, KR1d0053_001 against KR1d0053_029, KR1d0028_014, train)."""
    if sound.kind != "homophone" or sound.homophone != "非":
        return False
    s, e = sound.start, sound.end
    return text[e : e + 1] == "也" or text[s - 1 : s] == "諸" or text[s - 2 : s - 1] == "云"


def phonetic_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each reading formula of a note (a 反切 with its 反, 音X, 如字): characters
    written for their sound, no words of the text (the tag stage tags none there)."""
    return [(s.start, s.end) for s in _formula_sounds(text)]


def _formula_sounds(text: str) -> list[Sound]:
    """The 反切, 音X and 如字 of a note, in order (not 音非 "the reading is wrong")."""
    return [s for m in FORMULA_RE.finditer(text) for s in _sounds(m) if not _says_wrong(text, s)]


def _sounds(m: re.Match) -> list[Sound]:
    if m.group("two"):  # the first printed without its 反, the second with 二反
        a, b = m.group("two")[:2], m.group("two")[2:]
        mid = m.start("two") + 2
        return [Sound("fanqie", m.start(), mid, upper=a[0], lower=a[1]),
                Sound("fanqie", mid, m.end(), upper=b[0], lower=b[1])]
    if m.group("fq"):
        return [Sound("fanqie", m.start(), m.end(), upper=m.group("fq")[0], lower=m.group("fq")[1])]
    homophone = m.group("hom") or m.group("same") or m.group("near")
    if homophone:
        return [Sound("homophone", m.start(), m.end(), homophone=homophone)]
    return [Sound("ruzi", m.start(), m.end())]


def _tail(between: str) -> tuple[str, str | None]:
    """The previous entry's scope at the start of `between` (also after its gloss: 與也注同)."""
    m = SCOPE_RE.match(between)
    if not m:
        g = GLOSS_RE.match(between)
        m = SCOPE_RE.match(between, g.end()) if g else None
    return (between[m.end() :], m.group(0)) if m else (between, None)


def _split(rest: str) -> tuple[str, tuple[str, ...], str]:
    """(head and what stands before it, authorities, remark) of the text before a formula:
    `辨本亦作辯徐邈劉昌宗皆` → 辨, (徐邈, 劉昌宗, 皆), 本亦作辯; `徐依鄭` → 徐, (), 依鄭."""
    head, authority = _authority(rest)
    m = REMARK_RE.search(head)
    if m:
        return head[: m.start()], authority, m.group(0)
    m = REMARK_RE.search(rest)  # an authority's name inside the remark: 徐依鄭音亢
    if m:
        return rest[: m.start()], (), m.group(0)
    return head, authority, ""


def _authority(rest: str) -> tuple[str, tuple[str, ...]]:
    """Authorities printed right before a formula, taken off the end (`胥鄭徐劉` → 胥, 鄭徐劉)."""
    found: list[str] = []
    while rest:
        name = next((a for a in AUTHORITIES + ALTERNATIVE if rest.endswith(a)), None)
        if name is None and rest.endswith("云"):  # `沈云舊音逝`: Shen says, the old reading …
            name = next((a + "云" for a in AUTHORITIES if rest[:-1].endswith(a)), None)
        if name is None:
            break
        rest = rest[: -len(name)]
        found.insert(0, name)
        if rest.endswith("及") and any(rest[:-1].endswith(a) for a in AUTHORITIES):
            rest = rest[:-1]  # `李及聶氏亡皮反`: two authorities, one reading
    return rest, tuple(found)


def _continues(rest: str, authority: tuple[str, ...], remark: str) -> bool:
    """An alternative of the previous head: nothing but authorities (and a gloss, a remark) before it."""
    if rest in LATER or rest == "絶句" or (rest.lstrip("或").startswith("一讀") and len(rest.lstrip("或")) <= 3):
        return True  # `一讀此如字`, `一讀下五教反`: another way of reading the passage
    if rest in SOME_SAY and authority:
        # `夫方符反或云司農音符` "some say 司農 reads 符": another reading of the same head, not a head 云 (the three such in
        # the three books, KR1d0003_011, _036, _040, train; stop 68's whole juan 36)
        return True
    if rest in EDITIONS and authority:
        # `為于偽反本又如字`, `廪彼錦反一本又力錦反`: an edition's reading of the same head, not a head 本
        # (KR1d0053_029, _052, train)
        return True
    if rest.endswith("同") and not remark:
        # `訂李音亭呂沈同劉當定反`, `溠音詐…字林同劉昨雖反`, `玼…本亦作瑳與下瑳字同倉我反`: what ends
        # in 同 ("… the same") is said of the previous head; no head is read as 同
        return True
    if remark and not _authority(rest)[0] and not remark.startswith("與"):
        # `沈一依聶氏音問`, `李依大夫音董`: an authority and the text it follows. Not before 與X同,
        # which is said of a character of the text: a head that may look like an authority's name
        # (干與豻同五旦反: 干, not 干寶 — the dev hand check's #1, looked at after the 與X同 rule)
        return True
    # `別也一音平勉反`, `慢也王肅五髙反`, `威畏也讀者亦依尚書音畏`, `…云香草也昌以反`: a gloss,
    # then maybe an authority or a remark — still the same head
    return rest.endswith("也") and (len(rest) > 1 or bool(authority or remark))


class _Finder:
    """Heads anchored in the glossed texts in text order (a cursor), through `fold` and then
    `alternates`."""

    def __init__(self, targets: list[str], fold, alternates) -> None:
        self.fold = fold
        self.targets = [fold(t) for t in targets]
        self.alternates = alternates
        self.cursor = (0, 0)

    def head(self, rest: str, offset: int, remark: str, later: str | None = None,
             names: str = "") -> tuple[Reading, bool]:
        """The head at the end of `rest` (which starts at `offset` of the note), and whether it
        takes in `names` (one-character authorities printed after it: 謂王 of `謂王于况反`).

        The longest suffix (≤ MAX_HEAD) that anchors at or after the cursor, then before it
        (`齊人謂快為麾蚤音早`: 蚤, after 麾, not 麾蚤 before it); a suffix ending in `names` only
        when it stands ahead; else one the remark's variant (before the reading, or `later`,
        after it) or `alternates` anchors; else the last character, unanchored."""
        joined = rest + names
        for n in range(min(MAX_HEAD, len(joined)), len(names), -1):
            if names and n > len(names) and self._head_like(joined[-n:]):
                hit = self._find(self.fold(joined[-n:]), ahead_only=True)
                if hit is not None:
                    return self.anchored(joined[-n:], offset + len(joined) - n, hit, n), True
        for ahead_only in (True, False):
            for n in range(min(MAX_HEAD, len(rest)), 0, -1):
                if not self._head_like(rest[-n:]):
                    continue
                hit = self._find(self.fold(rest[-n:]), ahead_only)
                if hit is not None:
                    return self.anchored(rest[-n:], offset + len(rest) - n, hit, n), False
        last = rest[-1]
        variant = re.search(r"作([^作])[^作]*$", remark)  # the form after the last 作: 本又作󰊡又作䬤並同 → 䬤
        forms = [variant.group(1)] if variant else []
        forms += [later] if later else []
        hit = self._find_any(forms + self._alternates(last))
        if hit is not None:
            return self.anchored(last, offset + len(rest) - 1, hit, 1), False
        return Reading(last, offset + len(rest) - 1, offset + len(rest)), False

    @staticmethod
    def _head_like(head: str) -> bool:
        """Not a word across the 也 that ends a gloss (`轂末也轐音卜`: 轐, not 也轐; `徑也好`: 好)."""
        return len(head) == 1 or "也" not in head

    def reading(self, head: str, start: int, end: int, sounds: list[Sound]) -> Reading:
        """A one-character head of a pair, anchored right after the cursor when it can be, else where
        it or (as for any head) one of its `alternates` stands: `著褥上音佇下音辱` over the 注's 著蓐."""
        t, k = self.cursor
        if t < len(self.targets) and self.targets[t][k : k + 1] == self.fold(head):
            hit = (t, k)
        else:
            hit = self._find_any([head] + self._alternates(head))
        reading = self.anchored(head, start, hit, 1) if hit else Reading(head, start, end)
        reading.sounds.extend(sounds)
        return reading

    def one_of(self, word: Reading, i: int, sounds: list[Sound]) -> Reading:
        """A reading of the `i`-th character of the two-character head `word`, anchored where
        `word` is; the cursor goes right after that character."""
        one = Reading(word.head[i], word.head_start + i, word.head_start + i + 1, sounds=sounds, target=word.target)
        if word.anchor_start is not None:
            one.anchor_start, one.anchor_end = word.anchor_start + i, word.anchor_start + i + 1
            self.cursor = (word.target, one.anchor_end)
        return one

    def read_as_its_word(self, rest: str, authority: tuple[str, ...], sound: Sound) -> bool:
        """A lone one-character name before its own reading as a word (OWN_READINGS), the character
        ahead in the text, is that word — unless the head is printed with the word before it and stands
        so in the text (`謂王于况反`: the head 謂王, as `head` reads it)."""
        if len(authority) != 1 or not _own_reading(authority[0], sound) or not self.ahead(authority[0]):
            return False
        return not any(self.ahead(rest[-n:] + authority[0]) for n in (1, 2) if len(rest) >= n)

    def _alternates(self, ch: str) -> list[str]:
        return list(self.alternates(ch)) if self.alternates else []

    def _find_any(self, forms: list[str]) -> tuple[int, int] | None:
        """Where the first of `forms` that stands in the glossed texts does (as `_find` looks)."""
        for form in forms:
            hit = self._find(self.fold(form))
            if hit is not None:
                return hit
        return None

    def right_after(self, head: str, gap: int = 2) -> bool:
        """Whether `head` stands within `gap` characters after the cursor (the last head read)."""
        t, k = self.cursor
        return t < len(self.targets) and self.targets[t].find(self.fold(head), k, k + gap + len(head)) >= 0

    def ahead(self, head: str) -> bool:
        """Whether `head` stands at or after the cursor."""
        return self.find_ahead(head) is not None

    def find_ahead(self, text: str) -> tuple[int, int] | None:
        """Where `text` stands at or after the cursor (folded), or None."""
        return self._find(self.fold(text), ahead_only=True)

    def anchored(self, head: str, start: int, hit: tuple[int, int], size: int) -> Reading:
        """The head (at `start` of the note) anchored at `hit`, `size` characters; the cursor goes after it."""
        t, at = hit
        self.cursor = (t, at + size)
        return Reading(head, start, start + len(head), target=t, anchor_start=at, anchor_end=at + size)

    def _find(self, head: str, ahead_only: bool = False) -> tuple[int, int] | None:
        """The first occurrence of `head` at or after the cursor; else the first one before it."""
        t0, k0 = self.cursor
        for t in range(t0, len(self.targets)):
            at = self.targets[t].find(head, k0 if t == t0 else 0)
            if at >= 0:
                return t, at
        if ahead_only:
            return None
        for t in range(len(self.targets)):
            at = self.targets[t].find(head)
            if at >= 0:
                return t, at
        return None


def document_readings(units, fold: Callable[[str], str] | None = None,
                      alternates: Callable[[str], tuple[str, ...]] | None = None) -> list[tuple[object, list[Reading], list[object]]]:
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
            readings = parse_note(unit.text, [u.text for u in run], fold, alternates)
            for r in readings:
                r.target = run[r.target].seq if r.target is not None else None
            out.append((unit, readings, list(run)))
            after_note = True
        else:
            after_note = True
    return out
