"""A blind A/B of two punctuations of the same texts, as the stop-82/83 hand checks read them: every position the two
mark otherwise, as a window of the text with each reading's marks; a seeded draw of 30, each shown as A / B in a seeded
order; the key (the letter of today's reading) written apart, read only after judging.

    items = windows(texts, now, before)
    print_round(items, seed, keyfile)
"""
import json
import random
from pathlib import Path


def show(text: str, marks: dict[int, str], a: int, b: int) -> str:
    """text[a:b] with its marks (none after the text's last character)."""
    return "".join(text[i] + (marks.get(i + 1, "") if i + 1 < len(text) else "") for i in range(a, b))


def windows(texts: list[str], now: list[dict[int, str]], before: list[dict[int, str]], width: int = 14) -> list[tuple[str, str]]:
    """(today's window, the other's window) at every position the two readings mark otherwise."""
    items = []
    for t, mn, mo in zip(texts, now, before):
        for k in sorted(k for k in set(mn) | set(mo) if k < len(t) and mn.get(k) != mo.get(k)):
            a, b = max(0, k - width), min(len(t), k + width)
            items.append((show(t, mn, a, b), show(t, mo, a, b)))
    return items


def print_round(items: list[tuple[str, str]], seed: int, keyfile: str | None, n: int = 30) -> None:
    rng = random.Random(seed)
    key = []
    for i, (new, old) in enumerate(rng.sample(items, min(n, len(items)))):
        flip = rng.random() < 0.5
        key.append("B" if flip else "A")
        print(f"{i + 1:2d} A {old if flip else new}\n   B {new if flip else old}")
    if keyfile:
        Path(keyfile).write_text(json.dumps(key) + "\n", encoding="utf-8")
