"""zhushu's segmenter against UD-Kanbun's tokenizer, side by side on the dev split (juan 10).

    pip install -e .                   # udkanbun is a main dependency (its packaged UDPipe model, ud-kanbun.udpipe)
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

# seg_bench first: it puts the repository root on sys.path for the pipeline imports
from seg_bench import print_table, scored_records, summary_row, timed_score, zhushu_predict  # isort: skip
from pipeline.segment.data import PUNCT_FILE


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

    records = scored_records(args.gold, args.split)
    results = {"zhushu": timed_score(records, zhushu_predict())}
    try:
        pipe, _ = udkanbun_pipeline()
    except Exception as err:  # noqa: BLE001 - report, do not fail the zhushu half
        results["udkanbun"] = {"error": f"udkanbun unavailable: {err}"}
    else:
        results["udkanbun"] = timed_score(records, lambda texts, kinds: [udkanbun_marks(pipe, t) for t in texts],
                                          warm_up=False)

    z, u = results["zhushu"], results["udkanbun"]
    summary = {"records": len(records), "chars": sum(len(r["text"]) for r in records), "split": args.split}
    summary.update({name: summary_row(r) for name, r in results.items()})
    if "error" not in u:
        summary["ratio"] = {"seg_f1": round(z["seg"]["f1"] / max(u["seg"]["f1"], 1e-9), 2),
                            "chars_per_second": round(z["chars_per_second"] / max(u["chars_per_second"], 1e-9), 2)}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{summary['records']} records, {summary['chars']} chars (split {args.split})")
        print_table(summary, ["zhushu", "udkanbun"])
        if "ratio" in summary:
            print(f"ratio zhushu/udkanbun: seg F1 x{summary['ratio']['seg_f1']}, speed x{summary['ratio']['chars_per_second']}")
    return summary


if __name__ == "__main__":
    main()
