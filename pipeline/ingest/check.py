"""Never silently wrong: a document as read, checked against what its own markup shows.

After a reader has made its units, `layout_evidence` sets what it read beside what the print
shows (printcount.py, which reads the raw markup alone), in the reader's own terms:

- commentary share: commentary characters / (base + commentary) as read, against the print's
  count under the grammar the layout claims (wyg-print: indented full-size text and every
  small note but those that open like collation; wyg, the 集釋: indented full-size text, its
  small notes being collation; sbck: the small notes, and any indented full-size text (which
  the SBCK print does not use); wyg-zhushu: the small notes (音義, 疏)
  against the small-note units, as 經 and 注 are both full size);
- collation not like collation: the share of the characters lifted out as collation notes
  that neither open with 案 / 按 / 謹案 / 臣…按 nor speak of editions;
- empty units: base or commentary units with no text;
- punctuation in text: marks (，。 …) left inside unit text (an edition already punctuated);
- the script (stop 47): the share of the text that is Chinese at all (CJK ideographs, Kanripo
  characters), and of the characters whose two forms differ the share in simplified forms.

read_document refuses a document whose evidence `disagreements` finds fault with (`refusal`, with a
hint of the layout that would read the file, computed from the one evidence) unless the layout was
given explicitly (`--layout`): then the user has said what the print is, and the evidence still
goes to the dataset card.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections import Counter

from pipeline.ingest.printcount import count_print
from pipeline.ingest.wyg_print import is_collation, is_front_matter
from pipeline.model import PUNCTUATION_MARKS, Document
from pipeline.pua import is_kanripo_char
from pipeline.variants import CharFold

# limits, from the measured books (docs/ingest.md): the largest gap between read and print share
# on any file of the embedded and shared books read right is 0.020 (儀禮述註 juan 11); a reader
# that misses the print is off by 0.3 and more (表記集傳 read as the 集釋: 0.66)
MAX_SHARE_GAP = 0.05
# the 集釋's small notes are collation throughout; by the opening and the editions test at most
# 0.005 of a juan's note text reads otherwise: a reader that files commentary as collation
# (表記集傳 read as the 集釋: 1.00) is far above
MAX_UNLIKE_COLLATION = 0.5
MAX_EMPTY_UNITS = 0.02  # at most 4 units in a juan read right (集釋 juan 2); 279 of 672 for 表記集傳 read as the 集釋
MAX_PUNCTUATION = 0.01  # marks per character of text: 0 in the WYG books, ~0.15 in a TLS text
MIN_CHARS = 200  # a share over fewer characters of text says nothing
# the 注疏 layout: a 注 follows nearly every 經 passage. In every juan of the three 注疏 read (周禮,
# 禮記, 儀禮: 127 files) the 注 units are 0.70 or more of the 經 units (儀禮注疏 juan 11 the fewest).
# A 注疏 whose commentary is printed under another marker (the 傳 and 箋 of a 毛詩注疏, the 傳 of a
# 尚書注疏) would be read as 經 throughout, the small-note share none the wiser: refused instead.
MIN_ZHU_PER_JING = 0.25
MIN_JING_UNITS = 10
# the script: Kanripo prints traditional characters, and the readers' markers (鄭注, 釋曰), the gloss
# grammar (謂, 猶, 為) and the lexicon (禮, 賓) are written so. A text in simplified characters was
# read with half its glosses and two thirds of its entities and no warning (a 集釋 juan through
# OpenCC t2s: 131 → 77 glosses, 305 → 198 entities, its 鄭注 blocks not found). Of the characters
# whose two forms differ, the simplified-only ones are at most 0.39 of those in any file of the
# embedded and shared books (a 周易 juan: 22 of 56, 于 and the like), and 1.00 in such a text.
MAX_SIMPLIFIED_SHARE = 0.8
MIN_SCRIPT_CHARS = 100
# Chinese at all: a README.txt or a licence in a folder of juan was read as a base unit of Latin
# letters, punctuated and parsed (stop 47). In every embedded and shared file 0.99 or more of the
# text units' visible characters are CJK ideographs or Kanripo characters (○, □ and the 周易's
# hexagrams are the rest).
MIN_HAN_SHARE = 0.5
_JUAN_RE = re.compile(r"(?m)^#\+PROPERTY:\s*JUAN\s+(.*)$")


def layout_evidence(doc: Document) -> dict[str, float | int | str]:
    layout = doc.layout.removesuffix("-plain")
    counts = count_print(doc.source, printed_lines=layout != "punctuated")
    zhushu: dict[str, int] = {}  # the 注疏's 經 and 注 unit counts (zhu_missing)
    body = _body_filter(doc.source)  # printcount leaves the front matter out: so do the read counts
    if layout == "wyg-zhushu":
        small = {"音義", "疏", "小注"}
        read = sum(len(u.text) for u in doc.units if u.kind == "commentary" and u.marker in small and body(u.start))
        # everything printed but the headers, the markers (注, 音義, 疏) full size among it
        printed = {"注", "音義", "疏"}
        total = sum(len(u.text) + (len(u.marker) if u.marker in printed else 0) for u in doc.units
                    if u.kind != "header" and body(u.start))
        commentary, all_text = counts.small, counts.flush + counts.indented + counts.small
        zhushu = {"jing_units": sum(1 for u in doc.units if u.kind == "base" and body(u.start)),
                  "zhu_units": sum(1 for u in doc.units if u.marker == "注" and body(u.start))}
    else:
        base = sum(len(u.text) for u in doc.units if u.kind == "base" and body(u.start))
        # a marker (鄭注, 鄭氏曰) is printed commentary too, though it stands outside `text`
        read = sum(len(u.text) + len(u.marker or "") for u in doc.units if u.kind == "commentary" and body(u.start))
        total = base + read
        if layout == "sbck":  # commentary inline in small print; indented full-size text would be comment too
            commentary, all_text = counts.indented + counts.small, counts.flush + counts.indented + counts.small
        elif layout == "wyg":
            commentary, all_text = counts.indented, counts.flush + counts.indented
        else:
            small = counts.small - counts.collation_like
            commentary, all_text = counts.indented + small, counts.flush + counts.indented + small
    lifted = sum(len(n.text) for n in doc.notes)
    unlike = sum(len(n.text) for n in doc.notes if not is_collation(n.text))
    text_units = [u for u in doc.units if u.kind in ("base", "commentary")]
    chars = sum(len(u.text) for u in text_units)
    marks = sum(u.text.count(m) for u in text_units if u.marks_source is None for m in PUNCTUATION_MARKS)
    chars_seen = Counter("".join(u.text for u in text_units))
    simplified, traditional = script_counts(chars_seen)
    visible = {ch: n for ch, n in chars_seen.items() if not ch.isspace()}
    return {
        **zhushu,
        "layout": doc.layout,
        "chars": chars,
        "print_chars": counts.flush + counts.indented + counts.small,
        "commentary_share_read": _share(read, total),
        "commentary_share_print": _share(commentary, all_text),
        "commentary_read": read,  # characters: the shares' parts, for a book's total
        "text_read": total,
        "commentary_print": commentary,
        "text_print": all_text,
        "collation_chars": lifted,
        "collation_not_like_collation": _share(unlike, lifted),
        "empty_units": sum(1 for u in text_units if not u.text),
        "text_units": len(text_units),
        "punctuation_per_char": _share(marks, chars),
        "simplified_chars": simplified,
        "simplified_share": _share(simplified, simplified + traditional),
        "han_share": _share(sum(n for ch, n in visible.items() if is_han(ch)), sum(visible.values())),
    }


@functools.lru_cache(maxsize=65536)
def is_han(ch: str) -> bool:
    """A Chinese character: a CJK (compatibility) ideograph of any plane, or a Kanripo character."""
    return is_kanripo_char(ch) or unicodedata.name(ch, "").startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH"))


@functools.lru_cache(maxsize=1)
def _folds():
    return CharFold("t2s"), CharFold("s2t")


def script_counts(chars: Counter) -> tuple[int, int]:
    """(simplified-only, traditional-only) characters of a text (its character counts), by OpenCC one
    character at a time: a traditional form is one t2s changes; a simplified one is one t2s leaves
    and s2t changes."""
    t2s, s2t = _folds()
    folded, unfolded = t2s("".join(chars)), s2t("".join(chars))
    simplified = traditional = 0
    for (ch, n), a, b in zip(chars.items(), folded, unfolded):
        if a != ch:
            traditional += n
        elif b != ch:
            simplified += n
    return simplified, traditional


def _body_filter(source: str):
    """Whether a source index lies outside the front matter (目錄, 提要, 序 …): printcount leaves it out."""
    starts, front = [0], [False]
    for m in _JUAN_RE.finditer(source):
        starts.append(m.start())
        front.append(is_front_matter(m.group(1).strip()))
    return lambda at: not front[bisect_right(starts, at) - 1]


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def zhu_missing(ev: dict) -> bool:
    """A 注疏 read with (nearly) no 注 after its 經 passages: its commentary has another marker."""
    return ev.get("jing_units", 0) >= MIN_JING_UNITS and ev["zhu_units"] < MIN_ZHU_PER_JING * ev["jing_units"]


def not_chinese(ev: dict) -> bool:
    return bool(ev["chars"]) and ev.get("han_share", 1.0) < MIN_HAN_SHARE


def simplified(ev: dict) -> bool:
    return ev.get("simplified_chars", 0) >= MIN_SCRIPT_CHARS and ev["simplified_share"] > MAX_SIMPLIFIED_SHARE


def disagreements(ev: dict) -> list[str]:
    out = []
    if ev["chars"] >= MIN_CHARS and abs(ev["commentary_share_read"] - ev["commentary_share_print"]) > MAX_SHARE_GAP:
        out.append(f"commentary is {ev['commentary_share_read']:.3f} of the text as read by layout "
                   f"{ev['layout']!r}, {ev['commentary_share_print']:.3f} by the print (indentation, small notes)")
    if ev["print_chars"] >= MIN_CHARS and ev["chars"] < ev["print_chars"] / 2:
        out.append(f"only {ev['chars']} characters read as base or commentary of the {ev['print_chars']} "
                   "the print shows as text (the rest filed as headers or titles)")
    if ev["collation_chars"] >= MIN_CHARS and ev["collation_not_like_collation"] > MAX_UNLIKE_COLLATION:
        out.append(f"{ev['collation_not_like_collation']:.2f} of the {ev['collation_chars']} characters filed as "
                   "collation notes neither open with 案/按 nor speak of editions: they read as commentary")
    if ev["text_units"] and ev["empty_units"] / ev["text_units"] > MAX_EMPTY_UNITS:
        out.append(f"{ev['empty_units']} of {ev['text_units']} base/commentary units are empty")
    if zhu_missing(ev):
        out.append(f"{ev['jing_units']} 經 units and {ev['zhu_units']} 注: the commentary on the 經 is not marked 注 "
                   f"in this print (a 注 follows nearly every 經 passage in the 注疏 this layout reads), so it "
                   "would be read as 經")
    if not_chinese(ev):
        out.append(f"only {ev['han_share']:.2f} of the text's characters are Chinese (CJK ideographs, Kanripo "
                   "characters): this is not a Chinese text")
    if simplified(ev):
        out.append(f"the text is in simplified characters ({ev['simplified_share']:.2f} of the characters whose "
                   f"two forms differ are simplified, {ev['simplified_chars']} of them): the readers, the gloss "
                   "grammar and the lexicon read Kanripo's traditional text; convert it first (OpenCC s2t)")
    if ev["chars"] >= MIN_CHARS and ev["punctuation_per_char"] > MAX_PUNCTUATION:
        out.append(f"{ev['punctuation_per_char']:.3f} punctuation marks per character inside the text: "
                   "the edition is punctuated and this layout does not read its marks")
    return out


def refusal(problems: list[str]) -> str:
    """The message of a document refused for its disagreements with the print."""
    return ("the units read disagree with the print: " + "; ".join(problems)
            + " (name the layout with --layout to read it anyway)")

