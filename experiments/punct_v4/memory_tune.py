"""The default segmenter with and without a phrase memory on the tune juan: seg / sentence / punct
F1 as `eval segment` reads them (each 注 with its passage), by kind, and the 注疏's 注 glosses
read with the segmenter's marks against those read with the edition's (silver). The memory must
be built without the tune juan (docs/segmentation.md, "Stop 34"):

    python -c "from pathlib import Path; from pipeline.train.segment.memory import build_memory; \\
        build_memory(Path('/tmp/memtune'), hold_out=frozenset(['KR1d0003_007', 'KR1d0053_007', 'KR1d0030_007', 'KR1d0030_027']))"
    python experiments/punct_v4/memory_tune.py /tmp/memtune [--window N] [--kinds 注,疏,…] [--segmenter DIR]
    # the shipped models/segment-memory leaves the tune juan out: it can be named here itself
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from context_prior_tune import gloss_counts, segment_row, tune_records  # noqa: E402

from pipeline import paths  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment import memory as memory_mod  # noqa: E402
from pipeline.train.segment.passage import passage_pairs  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    mdir = Path(args[0])
    if "--window" in args:  # another window than the built one (the index is built at load)
        cfg = json.loads((mdir / memory_mod.CONFIG).read_text(encoding="utf-8"))
        cfg["n"] = int(args[args.index("--window") + 1])
        tmp = Path("/tmp/memory_tune_cfg")
        tmp.mkdir(exist_ok=True)
        (tmp / memory_mod.CONFIG).write_text(json.dumps(cfg), encoding="utf-8")
        (tmp / cfg["file"]).unlink(missing_ok=True)
        (tmp / cfg["file"]).symlink_to((mdir / cfg["file"]).resolve())
        mdir = tmp
    if "--kinds" in args:
        keep = set(args[args.index("--kinds") + 1].split(","))
        for k in list(memory_mod.KIND_MEMORY):
            if k not in keep:
                del memory_mod.KIND_MEMORY[k]
    seg = load_segmenter(Path(args[args.index("--segmenter") + 1]) if "--segmenter" in args else paths.SEGMENTER_DEFAULT)
    mem = memory_mod.PhraseMemory.load(Path("/"), {"memory": str(mdir.resolve())})
    with_memory = copy.copy(seg)  # (the cached default is left as it is)
    with_memory.memory = mem
    variants = (("without", seg.without_memory()), ("with", with_memory))
    for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
        recs = tune_records(name)
        for label, s in variants:
            row = segment_row(s, name, recs)
            print(json.dumps({"book": name, "memory": label, **{k: v for k, v in row.items() if k != "book"}},
                             ensure_ascii=False), flush=True)
    counts = {}
    for label, s in variants:
        gloss_counts(s, passage_pairs(tune=True), counts, label)
    for (book, label), c in sorted(counts.items()):
        print(json.dumps({"glosses": book, "memory": label, **prf(*c)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
