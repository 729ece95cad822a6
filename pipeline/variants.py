"""Variant-character folding for lemma matching (a *view*: texts are never rewritten).

`fold(s)` maps every character to a class key so that the corpus's variant and
Japanese/Taiwanese/simplified forms of one character compare equal (于/於, 毎/每, 乗/乘, 爲/為,
荅/答, 𫝊/傳, 㝛/宿 ...). Folding is one character to one character, so offsets in a folded
string are offsets in the original.

Provenance of the table (models/variants/fold.tsv, committed; rebuilt by
`zhushu train variants` (pipeline/train/variants.py)):

- OpenCC's dictionaries as shipped in the `opencc` wheel (site-packages/opencc/clib/share/opencc/*.ocd2,
  dumped to text with the wheel's own `opencc_dict` tool): TSCharacters, TSCharactersExt
  (traditional -> simplified, first candidate only), JPShinjitaiCharacters (shinjitai ->
  kyūjitai), TWVariants, HKVariants (standard -> regional form), CJK_Compatibility_Ideographs.
  Each line "A<TAB>B [C ...]" gives the edge A—B (first candidate); the classes are the
  connected components of these edges.
- SUPPLEMENT (pipeline/train/variants.py): a small hand-reviewed list for Siku Quanshu forms OpenCC lacks; each entry
  names its evidence (the standard form printed at the same place in the SBCK edition
  KR1d0026 of the same text, or the Unihan variant relation).

The key of a class is its smallest code point; characters not in any class map to themselves.

`reading_alternates(ch)` is another table, for the 音義 readings only (models/variants/readings.tsv,
hand-reviewed, each pair with its evidence from a train juan): the character a 音義 head is
printed in → the one the 經 / 注 prints (弟 → 悌, 烖 → 災). They are distinct words, so they
are tried for anchoring a head, never folded.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from pipeline import paths

TABLE_PATH = paths.VARIANTS_TABLE


@functools.lru_cache(maxsize=1)
def load_table(path: str | None = None) -> dict[int, str]:
    """char code -> key, for str.translate."""
    p = Path(path) if path else TABLE_PATH
    table: dict[str, str] = {}
    if p.exists():
        for line in p.read_text(encoding="utf-8").splitlines():
            if not line or line.startswith("#"):
                continue
            c, k = line.split("\t")
            table[c] = k
    else:
        raise FileNotFoundError(f"no variant table at {p} (rebuild it: `zhushu train variants`)")
    return {ord(c): k for c, k in table.items()}


def fold(text: str) -> str:
    """The folded view of a text: same length, variants replaced by their class key."""
    return text.translate(load_table())


def classes(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The connected components of the pairs' edges: character -> its class's key (the smallest
    code point), for every character that is not itself its class's key. The fold table is
    built by it (pipeline/train/variants.py) and so is `folder`'s wider view."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {c: find(c) for c in list(parent) if find(c) != c}


@functools.lru_cache(maxsize=8)
def folder(pairs: tuple[tuple[str, str], ...] = ()):
    """`fold`, then each extra pair's two (folded) characters to one key: a reader's own wider view
    (the 疏 quotation reader's pairs learned from its train split, models/quotations/spans.json).
    Still one character to one character, so offsets are kept."""
    if not pairs:
        return fold
    extra = {ord(c): key for c, key in classes((fold(a), fold(b)) for a, b in pairs).items()}
    return lambda text: fold(text).translate(extra)


def same(a: str, b: str) -> bool:
    return fold(a) == fold(b)


@functools.lru_cache(maxsize=1)
def _reading_table() -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    p = paths.READING_VARIANTS
    if not p.exists():
        raise FileNotFoundError(f"no reading variant table at {p}")
    for line in p.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            note_form, text_form, _evidence = line.split("\t")
            table[note_form] = table.get(note_form, ()) + (text_form,)
    return table


def reading_alternates(ch: str) -> tuple[str, ...]:
    """The characters the 經 / 注 may print for the 音義 head `ch` (models/variants/readings.tsv)."""
    return _reading_table().get(ch, ())


class CharFold:
    """An OpenCC conversion (t2s unless named) one character at a time, so that the text keeps its
    length (the marks are indices): a character whose conversion is not one character stays as it
    is. The outside punctuated prose (../shared/data/outside) is in simplified characters, folded
    t2s this way; a model that learns from it reads every text, ours included, through the same
    fold. Ingest's script check (ingest/check.py) reads with t2s and s2t."""

    def __init__(self, config: str = "t2s"):
        import opencc

        self.config = config
        self._cc = opencc.OpenCC(config)
        self._map: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        m = self._map
        missing = set(text).difference(m)
        for ch in missing:
            out = self._cc.convert(ch)
            m[ch] = out if len(out) == 1 else ch
        return "".join(map(m.__getitem__, text))
