"""How often the span reader quotes right after a citation cue (彼注云, 彼云, 亦云 …), cross-fitted
over the train split of data/quotes (five folds by juan number mod 5; each fold's model trained
without it by `train_spans(hold_out=…)`, as benchmarks/quotation_tune.py does). Stop 40,
docs/quotations.md: a rule for such cues would change too few predictions to matter.

    python experiments/quotations/citation_cues.py [--work /tmp/citation_cues]   # ~2 min, 5 trainings
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.align.quote_spans import SpanModel, span_quotations  # noqa: E402
from pipeline.evaluate.quotations import judge, reader_inputs  # noqa: E402
from pipeline.train.quotations import train_records, train_spans  # noqa: E402

CUES = ("彼注云", "彼云", "亦云", "彼經云", "注云", "鄭注云", "又云")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/citation_cues")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    recs = train_records()
    juan = lambda r: int(r["id"].split("#")[0].split("_")[1])  # noqa: E731
    counts, made = collections.Counter(), 0
    for k in range(5):
        hold = frozenset(r["id"].split("#")[0] for r in recs if juan(r) % 5 == k)
        path = work / f"fold{k}.json"
        if not path.exists():
            train_spans(path, log=lambda m: None, hold_out=hold, marked=False)
        model = SpanModel(path)
        for r in recs:
            if r["id"].split("#")[0] not in hold:
                continue
            for q, verdict in judge(r, span_quotations(*reader_inputs(r), model=model)):
                made += 1
                for cue in CUES:
                    if r["text"][max(0, q.shu_start - len(cue)) : q.shu_start] == cue:
                        counts[cue, verdict] += 1
    print(f"quotations made: {made}")
    for cue in CUES:
        print(cue, {v: counts[cue, v] for v in ("right", "anchor", "other", "wrong", "left_out")})


if __name__ == "__main__":
    main()
