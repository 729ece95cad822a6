"""zhushu's segmenter against UD-Kanbun's tokenizer, side by side on the dev split (juan 10).

    pip install -e ".[bench]"          # udkanbun (its packaged UDPipe model, ud-kanbun.udpipe)
    python benchmarks/segment_vs_udkanbun.py [--gold data/punct/KR1d0030.punct.jsonl] [--split dev] [--json]

UD-Kanbun is run the way `ufal.udpipe.Pipeline(model, "tokenizer", "", "", "horizontal")`
runs it: one sentence a line. Each sentence end inside a unit is a break; UD-Kanbun predicts no
mark, so its breaks count as "。" for the punct and sentence scores (seg F1 is the comparable
number). Both systems get one unit at a time; chars/s is measured on one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.evaluate.segment import score  # noqa: E402
from pipeline.segmenter_data import PUNCT_FILE, read_records  # noqa: E402


def udkanbun_pipeline():
    import udkanbun
    from ufal.udpipe import Model, Pipeline

    path = os.path.join(os.path.dirname(udkanbun.__file__), "ud-kanbun.udpipe")
    model = Model.load(path)
    if model is None:
        raise RuntimeError(f"cannot load {path}")
    return Pipeline(model, "tokenizer", "", "", "horizontal"), model


def udkanbun_marks(pipeline, text: str) -> dict[int, str]:
    """Sentence ends of UD-Kanbun's tokenizer as marks (k -> "。")."""
    out = pipeline.process(text)
    marks, k = {}, 0
    for line in out.split("\n"):
        n = len(line.replace(" ", ""))
        if n:
            k += n
            marks[k] = "。"
    if k != len(text):  # the tokenizer dropped or changed characters: map greedily by position
        marks = {min(v, len(text)): "。" for v in marks}
    return marks


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gold", default=str(PUNCT_FILE))
    ap.add_argument("--split", default="dev")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    records = [r for r in read_records(args.gold, split=args.split or None) if r["text"]]
    texts, kinds = [r["text"] for r in records], [r["kind"] for r in records]
    results = {}

    from pipeline.segment import load_segmenter

    seg = load_segmenter(threads=1)
    seg.predict(texts[:8], kinds[:8])  # warm-up
    t0 = time.perf_counter()
    pred = seg.predict(texts, kinds)
    dt = time.perf_counter() - t0
    results["zhushu"] = dict(score(records, pred), chars_per_second=round(sum(map(len, texts)) / dt, 1))

    try:
        pipe, _ = udkanbun_pipeline()
    except Exception as err:  # noqa: BLE001 - report, do not fail the zhushu half
        results["udkanbun"] = {"error": f"udkanbun unavailable: {err}"}
    else:
        t0 = time.perf_counter()
        pred = [udkanbun_marks(pipe, t) for t in texts]
        dt = time.perf_counter() - t0
        results["udkanbun"] = dict(score(records, pred), chars_per_second=round(sum(map(len, texts)) / dt, 1))

    z, u = results["zhushu"], results["udkanbun"]
    summary = {"records": len(records), "chars": sum(map(len, texts)), "split": args.split}
    for name, r in results.items():
        if "error" in r:
            summary[name] = r
            continue
        summary[name] = {"seg_f1": r["seg"]["f1"], "punct_f1": r["punct"]["f1"], "sentence_f1": r["sentence"]["f1"],
                         "seg_f1_base": r["by_kind"].get("base", {}).get("seg", {}).get("f1"),
                         "seg_f1_note": r["by_kind"].get("note", {}).get("seg", {}).get("f1"),
                         "chars_per_second": r["chars_per_second"]}
    if "error" not in u:
        summary["ratio"] = {"seg_f1": round(z["seg"]["f1"] / max(u["seg"]["f1"], 1e-9), 2),
                            "chars_per_second": round(z["chars_per_second"] / max(u["chars_per_second"], 1e-9), 2)}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{summary['records']} records, {summary['chars']} chars (split {args.split})")
        print(f"{'system':10s} {'seg F1':>7s} {'base':>7s} {'note':>7s} {'punct':>7s} {'sent':>7s} {'chars/s':>10s}")
        for name in ("zhushu", "udkanbun"):
            s = summary[name]
            if "error" in s:
                print(f"{name:10s} {s['error']}")
                continue
            print(f"{name:10s} {s['seg_f1']:7.4f} {s['seg_f1_base']:7.4f} {s['seg_f1_note']:7.4f} "
                  f"{s['punct_f1']:7.4f} {s['sentence_f1']:7.4f} {s['chars_per_second']:10.0f}")
        if "ratio" in summary:
            print(f"ratio zhushu/udkanbun: seg F1 x{summary['ratio']['seg_f1']}, speed x{summary['ratio']['chars_per_second']}")
    return summary


if __name__ == "__main__":
    main()
