"""Lay an SBCK juan out as the WYG prints a classic with its annotator's notes inline (夾注), for
checking the print grammar on a layout no file here has (docs/ingest.md, "A classic printed with its
annotator's notes"):

    python scripts/jiazhu_layout.py data/corpus/KR1d0026/KR1d0026_002.txt OUT.txt [--lines N] [--verb 注]

The SBCK's 經 and small-print 注 in their order, re-laid at the WYG's 21 columns a line (a large
character one column, a small note two characters a column, `(first/second)` as Kanripo encodes the
two columns); a paragraph ends where the SBCK line ends short of its 17 columns. The SBCK's opening
and closing `儀禮卷第N`, its title line and its character counts give way to the WYG's: 欽定四庫全書, the
juan title with an author line (`漢　鄭𤣥　注`, or another verb), the chapter title indented one
column, the closing juan title; a page break every eight lines, under the ID KR1d0099 (no book).
`--lines N` keeps the first N lines of the laid-out text (then the closing title).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.ingest.sbck import COUNT_RE, HEADER_RE, SBCK_TITLE_RE  # noqa: E402  (what the SBCK reader takes for paratext)

TOKEN = re.compile(r"&KR\d+;|\[[^\]]*\]|\([^)]*\)|.")
SBCK_COLUMNS, WYG_COLUMNS = 17, 21
NUMERALS = "一二三四五六七八九十"


def sbck_stream(lines: list[str]) -> tuple[str, list[tuple[str, object]], set[int]]:
    """(the chapter title, [("big", character) | ("small", [characters])], the stream positions where
    a paragraph ends) of an SBCK juan's body."""
    title, stream, ends = "", [], set()
    for line in lines:
        if HEADER_RE.fullmatch(line) or COUNT_RE.fullmatch(re.sub("[()/]", "", line)):
            continue  # the SBCK's juan title and its character counts
        if SBCK_TITLE_RE.fullmatch(line):
            title = line.split("\u3000")[0]
            continue
        if not line.strip("\u3000 "):
            continue  # a line of blanks only (juan 12 has one): nothing printed, no paragraph end
        columns = 0
        for tok in TOKEN.findall(line):
            if tok.startswith("("):
                groups = [TOKEN.findall(group) for group in tok[1:-1].split("/")]  # (juan 12: a note of three)
                chars = [ch for group in groups for ch in group]
                columns += max(map(len, groups))
                if stream and stream[-1][0] == "small":  # a note runs on from the line before
                    stream[-1] = ("small", stream[-1][1] + chars)
                else:
                    stream.append(("small", chars))
            else:
                stream.append(("big", tok))
                columns += 1
        if columns < SBCK_COLUMNS:
            ends.add(len(stream))
    return title, stream, ends


def wyg_lines(stream: list[tuple[str, object]], ends: set[int]) -> list[str]:
    out, line, used = [], "", 0
    for i, (kind, value) in enumerate(stream):
        if kind == "big":
            if used == WYG_COLUMNS:
                out.append(line)
                line, used = "", 0
            line, used = line + value, used + 1
        else:
            chars = list(value)
            while chars:
                if used == WYG_COLUMNS:
                    out.append(line)
                    line, used = "", 0
                take, chars = chars[: 2 * (WYG_COLUMNS - used)], chars[2 * (WYG_COLUMNS - used):]
                half = (len(take) + 1) // 2
                line, used = line + "(" + "".join(take[:half]) + "/" + "".join(take[half:]) + ")", used + half
        if i + 1 in ends and line:
            out.append(line)
            line, used = "", 0
    return out + ([line] if line else [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sbck", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--lines", type=int, default=None)
    ap.add_argument("--verb", default="注")
    args = ap.parse_args()
    source = args.sbck.read_text(encoding="utf-8").split("\n")
    juan = int(next(ln.split()[-1] for ln in source if ln.startswith("#+PROPERTY: JUAN")))
    body = [ln.rstrip("¶") for ln in source if ln and not ln.startswith(("#", "<pb:"))]
    title, stream, ends = sbck_stream(body)
    laid = wyg_lines(stream, ends)[: args.lines]
    number = NUMERALS[juan - 1] if juan <= 10 else "十" + NUMERALS[juan - 11]
    printed = (["欽定四庫全書", f"\u3000儀禮鄭注卷{number}\u3000\u3000\u3000\u3000\u3000\u3000漢\u3000鄭𤣥\u3000{args.verb}",
                f"\u3000{title}"] + laid + [f"儀禮鄭注卷{number}"])
    out = ["# -*- mode: mandoku-view; -*-", "#+TITLE: 儀禮鄭注", "#+PROPERTY: ID KR1d0099",
           "#+PROPERTY: BASEEDITION WYG", f"#+PROPERTY: JUAN {juan}"]
    for n, line in enumerate(printed):
        if n % 8 == 0:
            out.append(f"<pb:KR1d0099_WYG_{juan:03d}-{n // 16 + 1}{'ab'[(n // 8) % 2]}>¶")
        out.append(line + "¶")
    args.out.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
