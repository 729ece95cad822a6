"""Kanripo characters without a code point <-> one private-use character each in unit text.

- `&KRnnnn;` entities: the Plane-15 character U+F0000+nnnn. The shared data and gold files use
  the same convention, so unit text can be compared with them directly.
- composed characters, Kanripo's `[孑*(焉-正+?)]` (`*` beside, `/` above, `@` around, `-` less,
  `+` plus, `?` unknown part): the Plane-16 character U+100000 + a hash of the description
  (blake2b, mod 65534), so the same description is the same character in every document, run
  and process, whatever else was read. The description itself is kept in `COMPOSED` (filled
  when a text is decoded); two descriptions that hash alike are refused (`ComposedClash`)
  rather than merged.

Exports turn both back into their Kanripo spelling (`&KR0123;`, `[門@里]`) or a TEI <g>.
"""

from __future__ import annotations

import hashlib
import re

PUA_BASE = 0xF0000
ENTITY_RE = re.compile(r"&KR(\d{4});")  # exactly four digits, as Kanripo writes them and encode_entities gives back
_PUA_RE = re.compile("[\U000F0000-\U000FFFFD\U00100000-\U0010FFFD]")
COMPOSED_BASE = 0x100000
COMPOSED_SPAN = 0xFFFE  # U+100000 … U+10FFFD: Plane 16's private-use characters
# `[` description `]` with at least one composition operator; a description may hold
# parentheses (`(焉-正+?)`) and `/` (above-below), never another bracket or a line end
COMPOSED_RE = re.compile(r"\[([^\[\]\s¶&]*[*/@+\-][^\[\]\s¶&]*)\]")
COMPOSED: dict[str, str] = {}  # private-use character -> its description (without brackets)


# either spelling, for readers that walk raw text: group 1 an entity's number, group 2 a description
SPELLED_RE = re.compile(f"{ENTITY_RE.pattern}|{COMPOSED_RE.pattern}")


def spelled_char(m: re.Match) -> str:
    """The private-use character of a SPELLED_RE match."""
    return entity_char(int(m.group(1))) if m.group(1) else composed_char(m.group(2))


class ComposedClash(ValueError):
    """Two composed-character descriptions hash to the same private-use character."""


PUA_FIRST = chr(PUA_BASE)  # no string without a character at or above it holds a Kanripo character


def has_kanripo(text: str) -> bool:
    """Whether `text` may hold a Kanripo character: a quick test before a per-character one
    (a string whose largest character is below PUA_FIRST holds none)."""
    return bool(text) and max(text) >= PUA_FIRST


def entity_char(number: int) -> str:
    return chr(PUA_BASE + number)


def composed_char(description: str) -> str:
    """The private-use character of a composed character `[description]` (registered)."""
    digest = hashlib.blake2b(description.encode("utf-8"), digest_size=8).digest()
    ch = chr(COMPOSED_BASE + int.from_bytes(digest, "big") % COMPOSED_SPAN)
    known = COMPOSED.setdefault(ch, description)
    if known != description:
        raise ComposedClash(f"composed characters [{known}] and [{description}] share the private-use "
                            f"character U+{ord(ch):X}: zhushu cannot keep them apart")
    return ch


def register_composed(text: str) -> None:
    """Register every composed character of a source text (a saved document read back)."""
    if "[" in text:
        for m in COMPOSED_RE.finditer(text):
            composed_char(m.group(1))


def decode_entities(text: str) -> str:
    """&KR0123; -> U+F007B; [門@里] -> its Plane-16 character."""
    if "&" in text:
        text = ENTITY_RE.sub(lambda m: entity_char(int(m.group(1))), text)
    if "[" in text:
        text = COMPOSED_RE.sub(lambda m: composed_char(m.group(1)), text)
    return text


def entity_number(ch: str) -> int | None:
    """The nnnn of an `&KRnnnn;` character (None for any other, a composed one included)."""
    cp = ord(ch)
    return cp - PUA_BASE if PUA_BASE <= cp <= 0xFFFFD else None


def is_composed(ch: str) -> bool:
    return COMPOSED_BASE <= ord(ch) <= 0x10FFFD


def is_kanripo_char(ch: str) -> bool:
    """An `&KRnnnn;` or composed character: one with no Unicode code point of its own."""
    return entity_number(ch) is not None or is_composed(ch)


def kanripo_form(ch: str) -> str:
    """How Kanripo spells a private-use character: `&KR0123;` or `[門@里]`."""
    n = entity_number(ch)
    if n is not None:
        return f"&KR{n:04d};"
    try:
        return f"[{COMPOSED[ch]}]"
    except KeyError:
        raise ValueError(f"U+{ord(ch):X} is not a composed character read in this process") from None


def glyph_id(ch: str) -> str:
    """An XML id for a Kanripo character: KR0123, or KRC10ABCD for a composed one."""
    n = entity_number(ch)
    return f"KR{n:04d}" if n is not None else f"KRC{ord(ch):X}"


def encode_entities(text: str) -> str:
    """U+F007B -> &KR0123;, a composed character -> [門@里] (the inverse of decode_entities)."""
    if not has_kanripo(text):  # most strings hold none: no regex pass
        return text
    return _PUA_RE.sub(lambda m: kanripo_form(m.group(0)), text)
