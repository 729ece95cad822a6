"""A concordance from a dataset's database (the `kwic` canned query of `zhushu serve`) as
Markdown, every hit checked against the source file: the printed line the database gives
(`<pb:…>` page, line n after it) must hold the hit — the hit's text begins on that line (read
on into the next line for a hit that wraps; collation notes `(…)` and layout marks skipped in
the 集釋, the brackets and column marks `(…/…)` of the 注疏's small print dropped).

    python scripts/concordance.py /tmp/all 司射 揖 --width 10 > docs/concordance.md

Reads the source files named by `documents.path` (relative to the checkout).
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NOISE = re.compile(r"\([^)]*\)|[¶\s　]|<[^>]*>")  # collation notes, line ends, layout, markup
# the 注疏 prints its commentary in parentheses, two columns a line split by "/", read in order:
# there only the brackets and the column mark go
NOISE_ZHUSHU = re.compile(r"[()/¶\s　]|<[^>]*>")


def page_lines(path: Path) -> dict[str, list[str]]:
    """page id -> its printed lines (the source lines after `<pb:ID>`), as in the file."""
    pages: dict[str, list[str]] = {}
    current = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        m = re.match(r"<pb:([^>]+)>", line)
        if m:
            current = m.group(1)
            pages[current] = []
            rest = line[m.end():]
            if rest.strip("¶\n "):
                pages[current].append(rest)
            continue
        if current is not None:
            pages[current].append(line)
    return pages


def on_line(pages: dict[str, list[str]], pb: str, line: int, hit: str, right: str, noise=NOISE) -> bool:
    lines = pages.get(pb, [])
    if not 1 <= line <= len(lines):
        return False
    here = noise.sub("", lines[line - 1])
    pbs = list(pages)
    following = lines[line:] + (pages[pbs[pbs.index(pb) + 1]] if pbs.index(pb) + 1 < len(pbs) else [])
    after = "".join(noise.sub("", x) for x in following[:2])  # a hit may wrap onto the next page
    text = here + after
    want = hit + right[:2]
    return any(text.startswith(want, i) or (text.startswith(hit, i) and i + len(hit) > len(here))
               for i in range(len(here)) if text.startswith(hit, i))


def main() -> int:
    from pipeline.export.sqlite import open_database
    from pipeline.serve.queries import run_query

    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("strings", nargs="+")
    ap.add_argument("--width", type=int, default=10)
    args = ap.parse_args()
    conn = sqlite3.connect(f"file:{open_database(args.out)}?mode=ro", uri=True)
    paths = dict(conn.execute("SELECT doc, path FROM documents"))
    layouts = dict(conn.execute("SELECT doc, layout FROM documents"))
    cache: dict[str, dict] = {}
    print(f"# Concordances: {', '.join(args.strings)}\n")
    print(f"Made by `python scripts/concordance.py {args.out} {' '.join(args.strings)} --width {args.width}` from the "
          "database of the three embedded books (`zhushu run data/corpus/KR1d0030 data/corpus/KR1d0003 "
          "data/corpus/KR1d0053 --skip parse --workers 2`), with the `kwic` query of `zhushu serve`. "
          "✓: the page and line the database gives hold the hit in the source file (checked by the script, "
          "independently of the pipeline's reader); ✗: they do not. Context: the unit's text without "
          "punctuation, `width` characters each side, cut at the unit's ends.\n")
    for q in args.strings:
        cols, rows = run_query(conn, "kwic", q=q, width=str(args.width))
        col = {c: i for i, c in enumerate(cols)}
        bad = 0
        lines = []
        for r in rows:
            doc = r[col["unit"]].split("#")[0]
            if doc not in cache:
                cache[doc] = page_lines(ROOT / paths[doc])
            ok = on_line(cache[doc], r[col["pb"]], r[col["line"]], r[col["hit"]], r[col["right"]],
                         NOISE_ZHUSHU if layouts[doc] == "wyg-zhushu" else NOISE)
            bad += not ok
            where = f"{r[col['pb']].split('_', 2)[-1]}:{r[col['line']]}"
            kind = r[col["kind"]] + (f" {r[col['marker']]}" if r[col["marker"]] else "")
            lines.append(f"| {r[col['book']]} {r[col['juan']]} | {where} | {kind} | {r[col['left']]} | **{r[col['hit']]}** "
                         f"| {r[col['right']]} | {'✓' if ok else '✗'} |")
        books: dict[str, int] = {}
        for r in rows:
            books[r[col["book"]]] = books.get(r[col["book"]], 0) + 1
        print(f"## {q}: {len(rows)} hits ({', '.join(f'{b} {n}' for b, n in books.items())}); "
              f"page/line checked against the source: {len(rows) - bad} ✓, {bad} ✗\n")
        print("| book, juan | page:line | unit | left | hit | right | source |")
        print("|---|---|---|--:|:-:|---|:-:|")
        print("\n".join(lines))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
