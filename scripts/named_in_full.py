"""Reprint a 禮記集說 juan with its commentators named in full, as some gathered commentaries print them
(周禮訂義's `王昭禹曰`, `鄭鍔曰`), for checking who-speaks on a layout no file here has (docs/ingest.md,
"Commentators named in full"):

    python scripts/named_in_full.py ../shared/corpus/KR1d0057/KR1d0057_002.txt OUT.txt [--lines 1-77,265-346] [--compare]

Every `X氏曰` that opens a printed line becomes the person the speaker table names for it in the book
(`藍田吕氏曰` → `吕大臨曰`, `鄭氏曰` → `鄭玄曰`; a name the table leaves to nobody, `東萊吕氏`, stays), and the
comment's text is laid over its lines again so that every line that was full stays full and every line
that ended short still does: the print grammar then sees the same blocks as in the print. A comment set
in small print, one whose lines change their indent, and one whose last full line is followed by a line
that opens with a formula (the grammar's own question: does the sentence go on?) are left as printed;
so is a comment that the longer or shorter name would give a line more or fewer. `--lines` keeps those
lines of the reprinted juan (1-based, inclusive ranges). The ID stays the book's (the table's rows for it
name the people). `--compare` reads the juan and its reprint and prints how their units differ (kind, text
and person of each, in order): none where the reprint reads as the print does.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.people import person  # noqa: E402

HEAD = re.compile(r"^(\u3000+)([^\W\d_○\u3000(/]{1,5}?氏)曰")
FORMULA = re.compile(r"^\u3000*[^\u3000]{1,6}?[曰按案]")


def _is_text(line: str) -> bool:
    return line.endswith("¶") and not line.startswith(("<pb", "#"))


def rename(lines: list[str], book: str) -> tuple[list[str], int]:
    """The lines with each `X氏曰` that opens one renamed and its comment laid out again; how many."""
    lines = list(lines)
    width = collections.Counter(len(ln) - 1 for ln in lines if _is_text(ln) and len(ln) > 15).most_common(1)[0][0]
    renamed, i = 0, 0
    while i < len(lines):
        m = HEAD.match(lines[i]) if _is_text(lines[i]) else None
        name = person(m.group(2), book) if m else None
        if not m or not name or len(name) < 2:
            i += 1
            continue
        indent, block, j = m.group(1), [i], i
        while block is not None and len(lines[block[-1]]) - 1 == width:  # a full line: the comment goes on
            j += 1
            while j < len(lines) and lines[j].startswith("<pb"):
                j += 1
            if (j >= len(lines) or not _is_text(lines[j]) or HEAD.match(lines[j])
                    or not lines[j].startswith(indent) or lines[j][len(indent)] == "\u3000"):
                break
            if FORMULA.match(lines[j]):
                block = None  # does the sentence go on, or a comment begin? left as printed
                break
            block.append(j)
        if block is None or any("(" in lines[k] for k in block):
            i += 1
            continue
        text = "".join(lines[k][len(indent):-1] for k in block)
        text = name + text[len(m.group(2)):]
        per = width - len(indent)
        chunks = [text[p:p + per] for p in range(0, len(text), per)]
        if len(chunks) != len(block) or len(chunks[-1]) == per != len(lines[block[-1]]) - 1 - len(indent):
            i += 1  # a line more or fewer, or a short last line made full: left as printed
            continue
        for k, chunk in zip(block, chunks):
            lines[k] = indent + chunk + "¶"
        renamed += 1
        i = block[-1] + 1
    return lines, renamed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--lines", default=None, help="ranges of lines to keep, 1-based: 1-77,265-346")
    ap.add_argument("--compare", action="store_true", help="read both and print where their units differ")
    args = ap.parse_args()
    text = args.src.read_text(encoding="utf-8")
    book = re.search(r"^#\+PROPERTY: ID (\S+)", text, re.M).group(1)
    lines, renamed = rename(text.split("\n"), book)
    if args.lines:
        spans = [tuple(map(int, part.split("-"))) for part in args.lines.split(",")]
        lines = [line for n, line in enumerate(lines, 1) if any(lo <= n <= hi for lo, hi in spans)]
    args.out.write_text("\n".join(lines) + ("\n" if args.lines else ""), encoding="utf-8")
    print(f"{args.out}: {renamed} comments renamed", file=sys.stderr)
    if args.compare and not args.lines:
        compare(args.src, args.out)


def compare(src: Path, out: Path) -> None:
    """Print the units the print and its reprint read differently ((kind, person, text) of each)."""
    import difflib

    from pipeline.ingest import read_document

    def read(path):
        return [(u.kind, u.source_name, u.text) for u in read_document(path).units]

    printed, reprinted = read(src), read(out)
    ops = [op for op in difflib.SequenceMatcher(a=printed, b=reprinted, autojunk=False).get_opcodes() if op[0] != "equal"]
    print(f"{src.name}: {len(printed)} units, reprint {len(reprinted)}; {len(ops)} stretches differ")
    for _op, i1, i2, j1, j2 in ops:
        for sign, items in (("-", printed[i1:i2]), ("+", reprinted[j1:j2])):
            for kind, name, text in items:
                print(f"  {sign} {kind} {name} {text[:30]}")


if __name__ == "__main__":
    main()
