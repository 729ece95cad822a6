"""Build the phrase memory (pipeline/segment/memory.py) from the training text.

Sources, in this order (the file's line order, so a rebuild is byte-identical): the train split of
data/punct (the 集釋, 周禮注疏, 禮記註疏; records aligned >= 0.9 to the edition, whose marks are
the edition's — below that the carried-over marks are sometimes misplaced), then the TLS 經 of
data/extra. Never the dev split, and never the tune juan (`hold_out`, by default TUNE_JUAN and
TUNE_JUAN_ZHUSHU): the segmenters and their priors are never fitted on them, and the memory would
know their marks by heart, so they stay what every segmentation choice is measured on.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

from pipeline import paths
from pipeline.segment.memory import CONFIG, MARKS
from pipeline.train.segment import TUNE_JUAN, TUNE_JUAN_ZHUSHU

N = 6  # window: measured on the tune juan against 5, 7, 8, 10, 12, 16 (docs/segmentation.md, "Stop 34")
MIN_ALIGNED = 0.9
FOLD = "t2s"
PUNCT_BOOKS = ("KR1d0030", "KR1d0003", "KR1d0053")
TLS_BOOKS = ("KR1d0001", "KR1d0052")  # the TLS 周禮 and 禮記: the memory base text reads
FILE = "phrases.txt.gz"


HOLD_OUT = frozenset(TUNE_JUAN + TUNE_JUAN_ZHUSHU)


def memory_lines(punct_dir: Path = paths.DATA / "punct", extra_dir: Path = paths.EXTRA_DIR,
                 hold_out: frozenset[str] = HOLD_OUT, fold: str | None = FOLD) -> list[tuple[str, str]]:
    """(source book, folded text with its marks inline) for every record the memory holds."""
    from pipeline.variants import CharFold
    from pipeline.segment.data import read_records

    f = CharFold(fold) if fold else (lambda t: t)
    out: list[tuple[str, str]] = []

    def add(book: str, rec: dict) -> None:
        text = f(rec["text"])
        if any(ch in MARKS for ch in text):
            return  # a mark inside the text itself would be read back as one
        marks = {int(k): v for k, v in rec.get("marks", {}).items()}
        out.append((book, "".join(ch + marks.get(i + 1, "") for i, ch in enumerate(text))))

    for book in PUNCT_BOOKS:
        for rec in read_records(punct_dir / f"{book}.punct.jsonl", split="train"):
            if rec["text"] and rec.get("aligned", 1.0) >= MIN_ALIGNED and rec["id"].split("#")[0] not in hold_out:
                add(book, rec)
    for book in TLS_BOOKS:
        for rec in read_records(extra_dir / f"{book}.punct.jsonl"):
            if rec["text"] and rec["id"].split("#")[0] not in hold_out:
                add(book, rec)
    return out


def build_memory(out_dir: Path, n: int = N, hold_out: frozenset[str] = HOLD_OUT, log=lambda m: None) -> Path:
    """Write out_dir/phrases.txt.gz and out_dir/memory.json (atomically, byte-identical per input)."""
    from pipeline.atomic import write_bytes

    lines = memory_lines(hold_out=hold_out)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write("".join(f"{src}\t{text}\n" for src, text in lines).encode("utf-8"))
    write_bytes(out_dir / FILE, buf.getvalue())
    counts: dict[str, int] = {}
    for src, text in lines:
        counts[src] = counts.get(src, 0) + 1
    cfg = {"file": FILE, "n": n, "fold": FOLD, "base_sources": list(TLS_BOOKS), "min_aligned": MIN_ALIGNED,
           "records": counts, "hold_out": sorted(hold_out),
           "note": "phrase memory of the segmenter (pipeline/segment/memory.py); built by `zhushu train segment-memory`"}
    write_bytes(out_dir / CONFIG, (json.dumps(cfg, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    log(f"phrase memory: {len(lines)} records ({counts}) -> {out_dir}")
    return out_dir


def attach_memory(model_dir: Path, memory_dir: Path) -> Path:
    """Name the memory in a segmenter folder's config.json ("memory", relative to the folder)."""
    import os

    from pipeline.atomic import write_text

    cfg_file = Path(model_dir) / "config.json"
    cfg = json.loads(cfg_file.read_text(encoding="utf-8"))
    cfg["memory"] = os.path.relpath(Path(memory_dir).resolve(), Path(model_dir).resolve())
    said = f"the phrase memory of {cfg['memory']} laid over them (pipeline/segment/memory.py)"
    if "note" in cfg and said not in cfg["note"]:  # the folder says what it reads (once, on every rebuild)
        cfg["note"] = f"{cfg['note']}; {said}"
    write_text(cfg_file, json.dumps(cfg, ensure_ascii=False, indent=1) + "\n")
    return cfg_file
