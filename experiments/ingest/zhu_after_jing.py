"""List every 注 unit of the 注疏 that follows a 經 unit where the plain 經 text, at the pointer, reads
注 itself — the candidates for a 注 that is a word of the 經 (docs/ingest.md, stop 62). It walks the
units the markers give (before `resume_base` joins or splits them), so it prints the same with or
without that change: 令禽|于虞中, 以脰鳴者以|鳴者以旁 and 以挹湇|于疏匕 (輈注則利準 it cannot see: its 經 「輈」
is too short for the pointer to place).

    PYTHONPATH=. python experiments/ingest/zhu_after_jing.py   # ~10 s, the three 注疏, embedded + ../shared
"""
import sys
from pathlib import Path

import pipeline.ingest as ingest
import pipeline.ingest.resume as resume
from pipeline.variants import fold

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inner_zhu import zhushu_files  # noqa: E402

found = []
_resume_base = resume.resume_base


def walk(doc, base):
    at, prev = 0, None
    for unit in doc.units:
        if unit.kind == "base":
            start = base.locate(unit.text, at)
            at = start + len(unit.text.replace("○", "")) if start is not None else (base.follow(unit.text, at) or at)
        elif unit.kind == "commentary" and unit.marker == "注" and prev is not None and prev.kind == "base":
            if base.text[at : at + 1] == fold("注"):
                found.append((doc.id, prev.text[-10:], unit.text[:20], base.text[at : at + 15]))
        prev = unit
    return _resume_base(doc, base)


ingest.resume_base = walk
files = zhushu_files()
for f in files:
    ingest.read_document(f)
for row in found:
    print(*row, sep=" | ")
print(f"{len(found)} in {len(files)} files")
