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

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline import paths  # noqa: E402
from pipeline.align import align_block  # noqa: E402
from pipeline.evaluate.common import prf  # noqa: E402
from pipeline.evaluate.glosses import spans  # noqa: E402
from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from pipeline.segment import load_segmenter, marks_and_own  # noqa: E402
from pipeline.segment import memory as memory_mod  # noqa: E402
from pipeline.segment.data import read_records, record_kind  # noqa: E402
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU  # noqa: E402
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
    for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
        juan = TUNE_JUAN if name == "KR1d0030" else TUNE_JUAN_ZHUSHU
        recs = [r for r in read_records(paths.DATA / "punct" / f"{name}.punct.jsonl")
                if r["id"].split("#")[0] in juan and r["text"] and r.get("aligned", 1.0) >= 0.9]
        kinds = [record_kind(r) for r in recs]
        for label, m in (("without", None), ("with", mem)):
            seg.memory = m
            pred = seg.predict([r["text"] for r in recs], kinds, books=[name] * len(recs), passages=record_passages(recs))
            r = score(recs, pred)
            parts = r.get("by_marker") or r["by_kind"]
            print(json.dumps({"book": name, "memory": label, "seg": r["seg"]["f1"], "sentence": r["sentence"]["f1"],
                              "punct": r["punct"]["f1"], "seg_by": {k: v["seg"]["f1"] for k, v in parts.items()},
                              "sentence_by": {k: v["sentence"]["f1"] for k, v in parts.items()}}, ensure_ascii=False), flush=True)
    counts = {}
    for label, m in (("without", None), ("with", mem)):
        seg.memory = m
        for p in passage_pairs(tune=True):
            book = p["book"]
            if book == "KR1d0030":
                continue
            marks, own = marks_and_own(seg, [p["text"]], ["注"], books=[book], passages=[p["passage"]])[0]
            gold = set(spans(align_block(p["passage"], p["text"], p["marks"], zhushu=True)))
            got = set(spans(align_block(p["passage"], p["text"], own or marks, zhushu=True)))
            c = counts.setdefault((book, label), [0, 0, 0])
            c[0] += len(got & gold)
            c[1] += len(got)
            c[2] += len(gold)
    seg.memory = None
    for (book, label), c in sorted(counts.items()):
        print(json.dumps({"glosses": book, "memory": label, **prf(*c)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
