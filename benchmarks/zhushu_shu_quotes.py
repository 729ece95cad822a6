"""Experiment (not adopted): where the 經 resumes inside a 注, from the 疏's quotations alone.

The 疏 quotes each 經 clause it explains as `X者` or a range `X至Y`. A 注 that runs on into
the next 經 is cut at `c` when the candidate 經 `text[c:j]` (ending before an inner `注` or at
the unit's end, 4–60 characters) is quoted so by the next 疏 — its part on the 經 only, before
`注正義曰` / `注釋曰`, and not as `云X者` (a quotation of the 注). Measured against the TLS 經
text as in `zhushu_attribution.py --plain`, beside the TLS method of pipeline/ingest/resume.py:

    PYTHONPATH=. python3 benchmarks/zhushu_shu_quotes.py KR1d0053   # ~1 min
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.ingest import read_document
from pipeline.ingest.resume import ZHU, _piece, load_base_text
from pipeline.variants import fold

CORPUS = ROOT.parent / "shared" / "corpus"
PLAIN_BASE = {"KR1d0003": "KR1d0001", "KR1d0053": "KR1d0052"}


def quoted(shu: str, piece: str) -> bool:
    """`piece者` in the 疏, not as `云piece者`, or `X至Y` with X, Y its two ends."""
    at = shu.find(piece + "者")
    while at >= 0:
        if at == 0 or shu[at - 1] != "云":
            return True
        at = shu.find(piece + "者", at + 1)
    ends = range(2, min(6, len(piece) - 1))
    return any(piece[:k] + "至" + piece[-m:] in shu for k in ends for m in ends)


def split_by_quotes(doc) -> int:
    out, found = [], 0
    for i, unit in enumerate(doc.units):
        if unit.kind != "commentary" or unit.marker != ZHU:
            out.append(unit)
            continue
        shu = next((u.text for u in doc.units[i + 1 :] if u.marker == "疏"), "")
        on_zhu = [k for k in (shu.find("注正義曰"), shu.find("注釋曰")) if k >= 0]
        shu = shu[: min(on_zhu)] if on_zhu else shu
        ends = [j for j, ch in enumerate(unit.text) if ch == ZHU and j > 0] + [len(unit.text)]
        lo, start, marker, pieces, closed = 0, unit.start, unit.marker, [], False
        for j in ends:
            cut = next((c for c in range(lo + 1, j - 3) if j - c <= 60 and quoted(shu, unit.text[c:j])), None)
            if cut is None:
                continue
            end = unit.offsets[j] if j < len(unit.text) else unit.end
            pieces += [_piece(unit, "commentary", marker, lo, cut, start, unit.offsets[cut]),
                       _piece(unit, "base", None, cut, j, unit.offsets[cut], end)]
            lo, start, marker = j + 1, end, ZHU
            closed = j == len(unit.text)  # the 經 runs to the small note: no 注 after it
        if not closed:
            pieces.append(_piece(unit, "commentary", marker, lo, len(unit.text), start, unit.end))
        found += sum(p.kind == "base" for p in pieces)
        out += pieces
    doc.units = out
    return found


def main(book: str) -> None:
    plain = CORPUS / PLAIN_BASE[book]
    mine, found = [], 0
    for path in sorted((CORPUS / book).glob("*.txt")):
        if not path.stem.endswith("_000"):
            doc = read_document(path, base_text=None)
            found += split_by_quotes(doc)
            mine.append("".join(u.text for u in doc.units if u.kind == "base"))
    text, ref = fold("".join(mine)), load_base_text(str(plain)).text
    matched = sum(b.size for b in difflib.SequenceMatcher(None, text, ref, autojunk=False).get_matching_blocks())
    print({"book": book, "passages": found, "precision": round(matched / len(text), 4),
           "recall": round(matched / len(ref), 4)})


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "KR1d0053")
