"""Building the segmenter's extra training text: TLS mandoku files (punctuated, one clause a line)
into data/extra/<ID>.punct.jsonl records."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.ingest.punctuated import parse_punctuated
from pipeline.ingest.source import split_lines
from pipeline.segment.data import EXTRA_DIR


def parse_tls(text: str, source: str) -> list[dict]:
    """Turn a TLS mandoku file (punctuated, one clause a line) into records of kind "ext": the
    base units of the punctuated reader (pipeline/ingest/punctuated.py: a paragraph each, the
    edition's marks out of the text), numbered in order, those of at least 2 characters."""
    units = [u for u in parse_punctuated(source, split_lines(source, text)) if u.kind == "base"]
    return [{"id": f"{source}#{i}", "kind": "ext", "text": u.text, "marks": dict(u.marks)}
            for i, u in enumerate(units) if len(u.text) >= 2]


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
