"""Build models/speakers/speakers.tsv: who a printed attribution names (`藍田吕氏` → 吕大臨).

Three sources, each row with its provenance (one table for the whole ingest stage: the markers
of the 集釋 and 注疏 layouts are named through it by sources.py, the attributions of the
gathered commentaries by speakers.py):
- the 名氏 list of 禮記集說 (../shared/corpus/KR1d0057/KR1d0057_000.txt, section 名氏), where
  衛湜 lists the commentators he gathers as the print names them: `藍田吕　氏(大臨/)字與叔`
  = place 藍田, surname 吕, given name 大臨 in small print. A form named by two entries
  (`東萊吕氏`: 本中 and 祖謙; `河南程氏`: 顥 and 頤) is left without a name.
- HAND below: each book's own commentators as its header line names them (疏 is 賈公彦's in the
  周禮 and 儀禮 注疏, 孔穎達's in the 禮記), the names that mean one person in every 禮 book
  (category KR1d), and forms the texts make clear elsewhere (the 提要 of 儀禮述註 says it takes 鄭注
  and 賈疏; 朱子 is 朱熹 …), each with the line that says so.

    python scripts/speakers_table.py ../shared/corpus/KR1d0057/KR1d0057_000.txt > models/speakers/speakers.tsv
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pipeline.variants import fold  # noqa: E402  (the repository root on the path: run as a script)

# dynasties that stand where a place would (`唐　賈　氏`, `後漢鄭氏`): not part of the printed form
DYNASTIES = ("後漢", "北齊", "元魏", "漢", "魏", "晉", "唐", "隋", "梁", "宋")
ENTRY_RE = re.compile(r"^[\u3000]*(?P<head>[^(]{1,5}?)氏\((?P<given>[^/)]+)/\)")
COMPOUND = ("司馬", "淳于", "皇甫", "慕容", "歐陽", "長孫", "上官", "令狐", "諸葛", "宇文")

HAND = [
    # book ("*": any book; a Kanripo category such as KR1d or a division such as KR1 (經部): every
    # book of it; else a book ID),
    # form, name, provenance
    # --- the 禮 classics (KR1d): printed names that mean one person in every book of them
    ("KR1d", "鄭注", "鄭玄", "the 集釋 prints 鄭玄's 注 as 鄭注 (KR1d0030_001.txt:11); the 注疏 headers: 漢鄭氏注 (KR1d0003_001.txt:10)"),
    ("KR1d", "鄭目録", "鄭玄", "the 集釋 quotes 鄭玄's 三禮目録 as 鄭目録云 (KR1d0030_001.txt:11)"),
    ("KR1d", "鄭康成", "鄭玄", "儀禮釋宮's 提要: 鄭康成註 (KR1d0031_000.txt:12)"),
    # the earlier commentators the 注 quotes, and 鄭玄 in his own name after them (whom a gloss is by: align)
    ("KR1d", "鄭司農", "鄭衆", "周禮注疏 juan 1's 疏: 鄭司農者鄭衆字仲師 (KR1d0003_001.txt:57)"),
    ("KR1d", "杜子春", "杜子春", "周禮注疏 juan 1's 疏: 司農之外又有杜子春鄭大夫 … 杜子春非已宗故指其名 (KR1d0003_001.txt:58): named by his own name"),
    ("KR1d", "鄭大夫", "鄭興", "周禮注疏's 序周禮廢興, quoting 鄭玄's 序: 大中大夫鄭少贛名興及子大司農仲師名衆 (KR1d0003_000.txt:425): the 注's 鄭大夫, 鄭衆's father (the 疏 of juan 1 names him beside 杜子春, KR1d0003_001.txt:58)"),
    ("KR1d", "賈侍中", "賈逵", "周禮注疏's 序周禮廢興, quoting 鄭玄's 序: 侍中賈君景伯 (KR1d0003_000.txt:426), and 鄭衆賈逵 (:403): 景伯 is 賈逵's 字 (後漢書 賈逵傳)"),
    ("KR1d", "許叔重", "許慎", "周禮注疏 juan 40's 注: 許叔重説文解字云 (KR1d0003_040.txt:303); 叔重 is 許慎's 字 (後漢書 儒林傳), whom the 音義 cites as 許慎 (KR1d0003_017.txt:269)"),
    ("KR1d", "𤣥", "鄭玄", "周禮注疏 juan 1's 疏: 𤣥謂者 … 鄭𤣥若在司農諸家上注者是𤣥注可知悉不言𤣥謂在諸家下 (KR1d0003_001.txt:60): 𤣥謂 is 鄭玄 speaking after those he quotes"),
    # --- the books' own commentators, as each book's header line names them
    ("KR1d0003", "注", "鄭玄", "周禮注疏: 漢鄭氏注　唐陸德明音義　賈公彥疏 (KR1d0003_001.txt:10)"),
    ("KR1d0003", "音義", "陸德明", "周禮注疏: 漢鄭氏注　唐陸德明音義　賈公彥疏 (KR1d0003_001.txt:10)"),
    ("KR1d0003", "疏", "賈公彦", "周禮注疏: 漢鄭氏注　唐陸德明音義　賈公彥疏 (KR1d0003_001.txt:10); 彥 and 彦 are one name"),
    ("KR1d0028", "注", "鄭玄", "儀禮注疏: 漢鄭氏注　唐陸徳明音義　賈公彦疏 (KR1d0028_001.txt:10)"),
    ("KR1d0028", "音義", "陸德明", "儀禮注疏: 漢鄭氏注　唐陸徳明音義　賈公彦疏 (KR1d0028_001.txt:10)"),
    ("KR1d0028", "疏", "賈公彦", "儀禮注疏: 漢鄭氏注　唐陸徳明音義　賈公彦疏 (KR1d0028_001.txt:10)"),
    ("KR1d0053", "注", "鄭玄", "禮記註疏: 漢鄭氏注　唐陸德明音義　孔穎達疏 (KR1d0053_001.txt:10)"),
    ("KR1d0053", "音義", "陸德明", "禮記註疏: 漢鄭氏注　唐陸德明音義　孔穎達疏 (KR1d0053_001.txt:10)"),
    ("KR1d0053", "疏", "孔穎達", "禮記註疏: 漢鄭氏注　唐陸德明音義　孔穎達疏 (KR1d0053_001.txt:10)"),
    ("KR1d0030", "釋曰", "李如圭", "儀禮集釋卷一　　　　宋　李如圭　撰 (KR1d0030_001.txt:9): 釋曰 opens the author's own explanation"),
    ("KR1d0057", "愚", "衛湜", "禮記集説卷一　　　　　　宋　衛湜　撰 (KR1d0057_001.txt:9)"),
    ("KR1d0040", "愚", "李光坡", "儀禮述註: 安溪　李光坡　撰 (KR1d0040_001.txt:10)"),
    ("KR1d0063", "愚", "黄道周", "表記集傳: 明　黄道周　撰 (KR1d0063_001.txt:10)"),
    # --- names the texts make clear elsewhere
    ("*", "提要", "四庫館臣", "the abstract the 四庫 editors set before every book of the collection: it opens 臣等謹按, ends 恭校上, and is signed 總纂官(臣/)紀昀(臣/)陸錫熊(臣/)孫士毅 (KR1d0057_000.txt:11, :39, :40): no one author"),
    ("KR1", "考證", "考證諸臣", "the Qing editors of each 注疏 juan's 考證, entries signed (臣照/)按 and the like (KR1d0003_001.txt:500): no one author; a 考證 section comes with the 四庫 print, not with a commentary, and only the 注疏 layout reads one: so in every 注疏 of the 經部 (KR1)"),
    ("KR1", "鄭氏", "鄭玄", "KR1d0057_000.txt 名氏: 後漢鄭氏(𤣥)字康成 … 遂為之註 (the 註 of the 禮記); 鄭玄 commented on every classic, so 鄭氏 is his in the 經部 (KR1) — not named outside it (鄭樵 …)"),
    ("KR1d", "孔氏", "孔穎達", "KR1d0057_000.txt 名氏: 唐孔氏(頴達)字仲達 … 為正義; in the 禮 classics only: in a 書 or 論語 book 孔氏 is 孔安國"),
    ("*", "朱子", "朱熹", "朱子 is the usual name of 朱熹 (KR1d0057_000.txt 名氏: 新安朱氏(熹) 字元晦)"),
    ("KR1d0040", "朱先生", "朱熹", "KR1d0040: 朱先生曰 quotes 朱熹's 儀禮經傳通解 (e.g. KR1d0040_001); elsewhere a 朱先生 may be another teacher"),
    ("*", "程子", None, "程子 is either 程顥 or 程頤: left without a name"),
    ("*", "伊川", "程頤", "KR1d0057_000.txt 名氏: 河南程氏(顥)字伯淳 弟(頤)字正叔; 伊川 is 程頤's name of residence"),
    ("*", "明道", "程顥", "KR1d0057_001: 河南程氏曰 … (明道/) — 明道 is 程顥"),
    ("KR1d0040", "註", "鄭玄", "KR1d0040_000.txt 提要: 是書取鄭注賈疏總撮大義"),
    ("KR1d0040", "注", "鄭玄", "KR1d0040_000.txt 提要: 是書取鄭注賈疏總撮大義"),
    ("KR1d0040", "疏", "賈公彦", "KR1d0040_000.txt 提要: 是書取鄭注賈疏總撮大義"),
    ("KR1d0040", "䟽", "賈公彦", "KR1d0040_000.txt 提要: 是書取鄭注賈疏總撮大義 (䟽 = 疏)"),
    ("KR1d0040", "孔疏", "孔穎達", "孔疏 is the 疏 of 孔穎達 (the 禮記正義), quoted beside 賈疏 in KR1d0040_001"),
    ("KR1d0040", "鄭目錄", "鄭玄", "KR1d0040_001: 鄭目錄云 — 鄭玄's 三禮目錄"),
    ("KR1d0040", "楊氏", "楊復", "KR1d0057_000.txt 名氏: 秦溪楊氏(復); 楊復's 儀禮圖 is what 儀禮述註 quotes on the 儀禮"),
    ("KR1d0040", "陸佃", "陸佃", "printed as a full name"),
    ("KR1d0040", "劉敞", "劉敞", "printed as a full name"),
    ("KR1d0040", "陳詳道", "陳祥道", "printed as a full name (KR1d0040_008: ○陳詳道曰, on the 聘禮): 陳祥道 of the 禮書, 詳 for 祥"),
]


def mingshi(path: str) -> list[tuple[str, str, str, str]]:
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("#+PROPERTY: JUAN 名氏"))
    forms: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for n, line in enumerate(lines[start + 1 :], start=start + 2):
        if line.startswith("#"):
            break
        m = ENTRY_RE.match(line)
        if not m:
            continue
        head, given = m.group("head").replace("\u3000", ""), m.group("given")
        cut = 2 if head[-2:] in COMPOUND else 1
        pre, sur = head[:-cut], head[-cut:]
        for d in DYNASTIES:  # 唐中山成氏: dynasty 唐, place 中山 (but 晉陵 is a place)
            if pre == d or len(pre) > 2 and pre.startswith(d):
                pre = pre[len(d):]
                break
        name = sur + given
        forms[pre + sur + "氏"].append((name, n))
        forms[pre + sur + "氏" + given].append((name, n))  # printed with the given name small: 王氏(子墨/)曰
        # a second given name on the same line (`河南程　氏(顥/)　字伯淳　弟(頤/)`): a second person
        for extra in re.findall(r"\((\S+?)/\)", line[m.end():]):
            forms[pre + sur + "氏"].append((sur + extra, n))
    rows = []
    for form, people in sorted(forms.items()):
        names = sorted({p for p, _ in people})
        where = ", ".join(f"KR1d0057_000.txt:{n}" for _, n in people)
        if len(names) == 1:
            rows.append(("KR1d0057", form, names[0], f"名氏 {where}"))
    return rows


def main() -> None:
    rows = mingshi(sys.argv[1])
    hand = {f for b, f, _, _ in HAND if len(b) <= 4}  # rows for any book ("*"), a division or a category
    rows = [r for r in rows if r[1] not in hand]  # 鄭氏 鄭𤣥 → the hand row's 鄭玄 (one spelling)
    # one spelling a person: a 名氏 name that is a hand row's in another graphic form takes the hand
    # row's (孔氏頴達 → 孔穎達, 鄭氏𤣥 → 鄭玄: 𤣥 the taboo form of 玄), so that a count by person or
    # a name read from an author line (sources.author_person) finds one person, not two
    spelling = {fold(name): name for _, _, name, _ in HAND if name}
    rows = [(b, f, spelling.get(fold(n), n), p) for b, f, n, p in rows]
    known = {(b, f) for b, f, _, _ in rows}
    print("# who an attribution names: built by scripts/speakers_table.py (see its docstring); one row a form")
    print("book\tform\tname\tprovenance")
    for book, form, name, prov in HAND:
        if name and (book, form) not in known:
            print(f"{book}\t{form}\t{name}\t{prov}")
    for book, form, name, prov in rows:
        print(f"{book}\t{form}\t{name}\t{prov}")


if __name__ == "__main__":
    main()
