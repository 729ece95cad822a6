"""Kanripo `&KRnnnn;` entities <-> one Plane-15 private-use character each (U+F0000+nnnn).

The shared data and gold files use the same convention, so unit text can be compared with
them directly; exports turn the characters back into entities (or TEI <g>).
"""

from __future__ import annotations

import re

PUA_BASE = 0xF0000
ENTITY_RE = re.compile(r"&KR(\d{4});")  # exactly four digits, as Kanripo writes them and encode_entities gives back
_PUA_RE = re.compile("[\U000F0000-\U000FFFFD]")


PUA_FIRST = chr(PUA_BASE)  # no string without a character at or above it holds a Kanripo character


def has_kanripo(text: str) -> bool:
    """Whether `text` may hold a Kanripo character: a quick test before a per-character one
    (a string whose largest character is below PUA_FIRST holds none)."""
    return bool(text) and max(text) >= PUA_FIRST


def entity_char(number: int) -> str:
    return chr(PUA_BASE + number)


def decode_entities(text: str) -> str:
    """&KR0123; -> U+F007B."""
    if "&" not in text:
        return text
    return ENTITY_RE.sub(lambda m: entity_char(int(m.group(1))), text)


def entity_number(ch: str) -> int | None:
    cp = ord(ch)
    return cp - PUA_BASE if PUA_BASE <= cp <= 0xFFFFD else None


def encode_entities(text: str) -> str:
    """U+F007B -> &KR0123; (the inverse of decode_entities)."""
    if not has_kanripo(text):  # most strings hold none: no regex pass
        return text
    return _PUA_RE.sub(lambda m: f"&KR{ord(m.group(0)) - PUA_BASE:04d};", text)
