"""Building the segmenter's extra training text: TLS mandoku files (punctuated, one clause a line)
into data/extra/<ID>.punct.jsonl records."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pipeline.pua import decode_entities
from pipeline.segment.data import EXTRA_DIR, MARKS


_PB = re.compile(r"<pb:[^>]*>")


_SECTION = re.compile(r"^[0-9]+(\.[0-9]+)*\.?")


_DROP = set("「」『』《》〈〉（）()*－─〓＜＞ \t")




def parse_tls(text: str, source: str) -> list[dict]:
    """Turn a TLS mandoku file (punctuated, one clause a line) into records of kind "ext".

    Paragraphs (blank-line separated) become records; "#" lines, headings, page breaks,
    section numbers, quotation and title marks are dropped; a line without a final mark
    gets none (the paragraph end is not scored anyway).
    """
    records, chars, marks = [], [], {}

    def flush():
        if chars:
            records.append({"id": f"{source}#{len(records)}", "kind": "ext",
                            "text": "".join(chars), "marks": dict(marks)})
        chars.clear()
        marks.clear()

    for raw in text.splitlines():
        line = _PB.sub("", raw).replace("¶", "").strip()
        if raw.startswith("#") or line.startswith("*"):
            if raw.startswith("*") or raw.startswith("#+"):
                flush()
            continue
        if not line:
            flush()
            continue
        line = _SECTION.sub("", line)
        line = decode_entities(line)
        for ch in line:
            if ch in MARKS:
                if chars:
                    marks[len(chars)] = ch
            elif ch in _DROP or ch.isascii():
                continue
            else:
                chars.append(ch)
    flush()
    return [r for r in records if len(r["text"]) >= 2]


def build_extra(corpus_dirs: list[str | Path], extra_dir: str | Path = EXTRA_DIR) -> list[Path]:
    """Convert TLS corpus folders (e.g. ../shared/corpus/KR1d0052) to data/extra/<ID>.punct.jsonl."""
    written = []
    Path(extra_dir).mkdir(parents=True, exist_ok=True)
    for d in corpus_dirs:
        d = Path(d)
        recs = []
        for f in sorted(d.glob(f"{d.name}_*.txt")):
            recs.extend(parse_tls(f.read_text(encoding="utf-8"), f.stem))
        out = Path(extra_dir) / f"{d.name}.punct.jsonl"
        with open(out, "w", encoding="utf-8") as fh:
            for r in recs:
                r = dict(r, marks={str(k): v for k, v in sorted(r["marks"].items())}, kind="base")
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        written.append(out)
    return written
