"""Variant-character folding for lemma matching (a *view*: texts are never rewritten).

`fold(s)` maps every character to a class key so that the corpus's variant and
Japanese/Taiwanese/simplified forms of one character compare equal (于/於, 毎/每, 乗/乘, 爲/為,
荅/答, 𫝊/傳, 㝛/宿 ...). Folding is one character to one character, so offsets in a folded
string are offsets in the original.

Provenance of the table (models/variants/fold.tsv, committed; rebuilt by
`python -m pipeline.variants --build`):

- OpenCC's dictionaries as shipped in the `opencc` wheel (site-packages/opencc/clib/share/opencc/*.ocd2,
  dumped to text with the wheel's own `opencc_dict` tool): TSCharacters, TSCharactersExt
  (traditional -> simplified, first candidate only), JPShinjitaiCharacters (shinjitai ->
  kyūjitai), TWVariants, HKVariants (standard -> regional form), CJK_Compatibility_Ideographs.
  Each line "A<TAB>B [C ...]" gives the edge A—B (first candidate); the classes are the
  connected components of these edges.
- SUPPLEMENT below: a small hand-reviewed list for Siku Quanshu forms OpenCC lacks; each entry
  names its evidence (the standard form printed at the same place in the SBCK edition
  KR1d0026 of the same text, or the Unihan variant relation).

The key of a class is its smallest code point; characters not in any class map to themselves.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
from pathlib import Path

TABLE_PATH = Path(__file__).resolve().parent.parent / "models" / "variants" / "fold.tsv"

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
    """Union the OpenCC + supplement edges into classes; return char -> key (key = min member)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            if ra < rb:
                parent[rb] = ra
            else:
                parent[ra] = rb

    for name, _how in OPENCC_FILES:
        for line in _dump_ocd2(name):
            if "\t" not in line:
                continue
            src, tgts = line.split("\t", 1)
            tgt = tgts.split(" ")[0]
            if len(src) == 1 and len(tgt) == 1:
                union(src, tgt)
    for var, std, _ev in SUPPLEMENT:
        union(var, std)
    return {c: find(c) for c in list(parent) if find(c) != c}


def write_table(path: Path = TABLE_PATH) -> int:
    table = build_table()
    lines = [
        "# variant folding table for zhushu: char<TAB>class key (smallest code point of its class)",
        "# built by `python -m pipeline.variants --build` from OpenCC "
        + _opencc_version()
        + " dictionaries ("
        + ", ".join(n for n, _ in OPENCC_FILES)
        + ") + pipeline/variants.py SUPPLEMENT",
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


@functools.lru_cache(maxsize=1)
def load_table(path: str | None = None) -> dict[int, str]:
    """char code -> key, for str.translate. Falls back to building from OpenCC if the file is gone."""
    p = Path(path) if path else TABLE_PATH
    table: dict[str, str] = {}
    if p.exists():
        for line in p.read_text(encoding="utf-8").splitlines():
            if not line or line.startswith("#"):
                continue
            c, k = line.split("\t")
            table[c] = k
    else:  # pragma: no cover - the committed table is the normal path
        table = build_table()
    return {ord(c): k for c, k in table.items()}


def fold(text: str) -> str:
    """The folded view of a text: same length, variants replaced by their class key."""
    return text.translate(load_table())


def same(a: str, b: str) -> bool:
    return fold(a) == fold(b)


if __name__ == "__main__":  # pragma: no cover
    if "--build" in sys.argv:
        n = write_table()
        print(f"wrote {n} entries to {TABLE_PATH}", file=sys.stderr)
    else:
        for arg in sys.argv[1:]:
            print(arg, fold(arg))
