"""What the 疏 quotation reader costs: the align stage per juan with each reader, as ratios to the first reader.

    python benchmarks/quotation_cost.py [JUAN_FILE ...]      # default: juan 1 and 2 of both 注疏 books

Each juan is ingested once; then the align stage runs on a fresh copy of it with each reader
(v1 = the first reader, the baseline; rules; tagger = the CRF; spans = the span reader, shipped), alternating, best of three. Prints one JSON
object: seconds per juan, 疏 characters, ratios to v1. The juan are read unpunctuated (the readers
read the text alone), and once more punctuated by the default segmenter (outside the timing) for
"spans+marks": the span reader as the align stage runs it after the segment stage (stop 42).
"""

from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import paths  # noqa: E402
from pipeline.align import align_document, subcommentary  # noqa: E402
from pipeline.align.quote_spans import load_model  # noqa: E402
from pipeline.align.quote_tagger import load_tagger  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402
from pipeline.segment import read_segmenter, segment_document  # noqa: E402

READERS = ("v1", "rules", "tagger", "spans", "spans+marks")


def main(files: list[str]) -> None:
    files = files or [str(paths.DATA / "corpus" / b / f"{b}_{n:03d}.txt") for b in ("KR1d0003", "KR1d0053") for n in (1, 2)]
    load_tagger()
    load_model()
    docs = [read_document(f) for f in files]
    seg = read_segmenter(paths.SEGMENTER_DEFAULT)
    punctuated = [segment_document(copy.deepcopy(d), seg) for d in docs]
    shu_chars = sum(len(u.text) for d in docs for u in d.units if u.marker == "疏")
    align = {r: float("inf") for r in READERS}
    shipped = subcommentary.SHIPPED
    try:
        for _ in range(3):
            for r in READERS:
                subcommentary.SHIPPED = r.split("+")[0]
                work = [copy.deepcopy(d) for d in (punctuated if r.endswith("+marks") else docs)]
                t0 = time.perf_counter()
                for d in work:
                    align_document(d)
                align[r] = min(align[r], time.perf_counter() - t0)
    finally:
        subcommentary.SHIPPED = shipped
    out = {"juan": [Path(f).stem for f in files], "shu_chars": shu_chars,
           "align_seconds_per_juan": {r: round(align[r] / len(files), 3) for r in READERS},
           "align_ratio_to_v1": {r: round(align[r] / align["v1"], 2) for r in READERS}}
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
