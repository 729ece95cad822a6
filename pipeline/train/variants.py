"""Building the variant folding table models/variants/fold.tsv (read at run time by
pipeline/variants.py) from OpenCC's dictionaries and a reviewed supplement.

Rebuild: `zhushu train variants` (or `python -m pipeline.train.variants`).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.variants import TABLE_PATH, classes, load_table


OPENCC_FILES = (
    ("TSCharacters", "first"),
    ("TSCharactersExt", "first"),
    ("JPShinjitaiCharacters", "first"),
    ("TWVariants", "first"),
    ("HKVariants", "first"),
    ("CJK_Compatibility_Ideographs", "first"),
)


# (variant, standard, evidence). Reviewed by hand; keep it short.
SUPPLEMENT: tuple[tuple[str, str, str], ...] = (
    ("荅", "答", "Unihan kSemanticVariant 荅~答; KR1d0026 prints 荅/答 in the same 拜荅 phrases"),
    ("\U0002B74A", "傳", "𫝊 is the WYG form of 傳 (Unihan kZVariant group); KR1d0026 prints 傳"),
    ("㝛", "宿", "Unihan kSemanticVariant 㝛~宿; KR1d0026 prints 宿 (宿戒, 宿賓)"),
    ("\U000248E5", "玄", "𤣥 is the Qing taboo form (缺筆) of 玄; KR1d0026 prints 玄"),
    ("葢", "蓋", "Unihan kZVariant 葢~蓋"),
    ("畧", "略", "Unihan kZVariant 畧~略"),
    ("\U00029516", "類", "𩔖 is the WYG form of 類; KR1d0026 prints 類"),
    ("靣", "面", "Unihan kZVariant 靣~面; KR1d0026 prints 靣 where KR1d0030 prints 面"),
    ("飮", "飲", "Unihan kZVariant 飮~飲"),
    ("賛", "贊", "Unihan kZVariant 賛~贊; KR1d0026 prints 賛 where KR1d0030 prints 贊"),
    ("甞", "嘗", "Unihan kZVariant 甞~嘗"),
    ("冝", "宜", "Unihan kZVariant 冝~宜"),
    ("噐", "器", "Unihan kZVariant 噐~器"),
    ("竝", "並", "Unihan kZVariant 竝~並"),
    ("庿", "廟", "Unihan kSemanticVariant 庿~廟; KR1d0030 士冠禮 筮于庿門 = 廟門"),
    ("乆", "久", "Unihan kZVariant 乆~久"),
    ("曽", "曾", "Unihan kZVariant 曽~曾"),
    ("徳", "德", "Unihan kZVariant 徳~德"),
    ("縁", "緣", "Unihan kZVariant 縁~緣"),
    ("湇", "湆", "WYG prints 湇 where KR1d0026 prints 湆 (大羹湆)"),
    ("説", "說", "Unihan kZVariant 説~說"),
    ("録", "錄", "Unihan kZVariant 録~錄"),
    ("将", "將", "JP/variant form of 將"),
    # Stop 40: one character in two printed forms, read where a modern edition's quotation of the
    # passage (data/quotes, train split, `other` spans) differs from the WYG passage in that
    # character alone; the 93 pairs seen twice were reviewed by hand at stop 27 (these 33 kept:
    # different words, loans and misprints left out — benchmarks/quotation_joint.py REVIEWED)
    ("賔", "賓", "賔~賓: 12 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("隂", "陰", "隂~陰: 9 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("聼", "聽", "聼~聽: 9 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("\U00026D4F", "葬", "𦵏~葬: 8 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("戸", "戶", "戸~戶: 10 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("扵", "於", "扵~於: 7 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("岀", "出", "岀~出: 6 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("夲", "本", "夲~本: 6 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("逺", "遠", "逺~遠: 5 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("吿", "告", "吿~告: 5 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("羮", "羹", "羮~羹: 4 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("闗", "關", "闗~關: 4 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("鼔", "鼓", "鼔~鼓: 4 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("逹", "達", "逹~達: 4 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("偹", "備", "偹~備: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("諌", "諫", "諌~諫: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("䖏", "處", "䖏~處: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("冦", "寇", "冦~寇: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("榖", "穀", "榖~穀: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("莭", "節", "莭~節: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("竒", "奇", "竒~奇: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("䇿", "策", "䇿~策: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("簭", "筮", "簭~筮: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("㣲", "微", "㣲~微: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("禭", "襚", "禭~襚: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("㓜", "幼", "㓜~幼: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("髙", "高", "髙~高: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("筓", "笄", "筓~笄: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("亷", "廉", "亷~廉: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("䓁", "等", "䓁~等: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("歛", "斂", "歛~斂: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("攷", "考", "攷~考: 3 quotations of data/quotes (train) differ from their passage in this pair alone"),
    ("邠", "豳", "邠~豳: 2 quotations of data/quotes (train) differ from their passage in this pair alone"),
    # the printed forms the quotation reader learned from the gold quotations themselves (stop 26,
    # models/quotations/spans.json `variant_pairs`: a gold quotation differs from its target by them;
    # 法/灋 left out — the 周禮's 灋 is a graph its commentators name)
    ("眀", "明", "眀~明: 13 gold quotations of data/quotes (train) differ from their target by it"),
    ("䘮", "喪", "䘮~喪: 11 gold quotations of data/quotes (train) differ from their target by it"),
    ("㑹", "會", "㑹~會: 5 gold quotations of data/quotes (train) differ from their target by it"),
    ("飬", "養", "飬~養: 3 gold quotations of data/quotes (train) differ from their target by it"),
    # stop 50: the 儀禮注疏 prints 矦 1,102 times and 侯 900, the SBCK 儀禮 (KR1d0026) 侯 only; unfolded,
    # the 經 「負矦許諾如初去矦皆執旌以負其矦而俟」 (train juan 7) was not found in the plain text and stayed in its 注
    ("矦", "侯", "矦 is the 說文 form of 侯; KR1d0026 prints 侯 where KR1d0028 prints 矦 (鄉射禮 負侯許諾, 去侯)"),
    # stop 50, from the 經 the plain text did not find inside a 注 of the 儀禮注疏's train juan (the SBCK and the
    # WYG print one word in two forms; OpenCC keeps 鄉/乡 apart from 鄕/郷, the others it does not know)
    ("郷", "鄉", "郷 (OpenCC: ~鄕) and 鄉 one word: KR1d0026 prints 公左還北郷 where KR1d0028 prints 北鄉 (聘禮, train juan 8)"),
    ("筭", "算", "KR1d0026 prints 無筭樂 where KR1d0028 prints 無算樂 (燕禮, train juan 5)"),
    ("爼", "俎", "KR1d0028 prints 膳宰設折爼 where KR1d0026 prints 設折俎 (train juan 6); both books print both forms"),
    ("\U00025609", "初", "KR1d0026 prints 主人拜賓如𥘉 where KR1d0028 prints 如初 (特牲饋食禮, train juan 15)"),
    # the same, the 禮記註疏 against the TLS 禮記 (KR1d0052)
    ("徃", "往", "KR1d0053 prints 非兄弟雖鄰不徃 where KR1d0052 prints 不往 (train juan 8); 徃 169 times in KR1d0053, 往 323"),
    ("塡", "填", "KR1d0053 prints 主人既祖塡池 where KR1d0052 prints 填池 (train juan 7)"),
    ("巂", "雟", "KR1d0053 prints 立視五巂 where KR1d0052 prints 五雟 (train juan 3)"),
)


def _opencc_dir() -> Path:
    import opencc  # noqa: F401  (the wheel ships its dictionaries beside the module)

    return Path(opencc.__file__).resolve().parent / "clib" / "share" / "opencc"


def _dump_ocd2(name: str) -> list[str]:
    d = _opencc_dir()
    tool = d.parent.parent / "bin" / "opencc_dict"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.txt"
        subprocess.run([str(tool), "-i", str(d / f"{name}.ocd2"), "-o", str(out), "-f", "ocd2", "-t", "text"],
                       check=True, capture_output=True)
        return out.read_text(encoding="utf-8").splitlines()


def build_table() -> dict[str, str]:
    """The OpenCC + supplement edges as classes (variants.classes): char -> key (key = min member)."""
    edges: list[tuple[str, str]] = []
    for name, _how in OPENCC_FILES:
        for line in _dump_ocd2(name):
            if "\t" not in line:
                continue
            src, tgts = line.split("\t", 1)
            tgt = tgts.split(" ")[0]
            if len(src) == 1 and len(tgt) == 1:
                edges.append((src, tgt))
    edges += [(var, std) for var, std, _ev in SUPPLEMENT]
    return classes(edges)


def write_table(path: Path = TABLE_PATH) -> int:
    table = build_table()
    lines = [
        "# variant folding table for zhushu: char<TAB>class key (smallest code point of its class)",
        "# built by `zhushu train variants` from OpenCC "
        + _opencc_version()
        + " dictionaries ("
        + ", ".join(n for n, _ in OPENCC_FILES)
        + ") + pipeline/train/variants.py SUPPLEMENT",
    ]
    lines += [f"{c}\t{k}" for c, k in sorted(table.items())]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(table)


def _opencc_version() -> str:
    try:
        from importlib.metadata import version

        return version("opencc")
    except Exception:  # pragma: no cover
        return "?"


if __name__ == "__main__":  # pragma: no cover
    n = write_table()
    load_table.cache_clear()
    print(f"wrote {n} entries to {TABLE_PATH}", file=sys.stderr)
