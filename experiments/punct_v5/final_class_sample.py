"""A seeded sample of the default's sentence-final class errors on the tune juan: breaks where the
edition and we both put a mark but only one of the two marks is sentence-final (。？！), printed with
their context for a hand check (docs/segmentation.md, "Stop 38"). Reads no dev juan.

    python experiments/punct_v5/final_class_sample.py [N_PER_BOOK] [SEED]   # default 10, 38
"""
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments/punct_v4"))

from context_prior_tune import tune_records  # noqa: E402

from pipeline import paths  # noqa: E402
from pipeline.evaluate.segment import record_passages  # noqa: E402
from pipeline.model import SENTENCE_FINAL  # noqa: E402
from pipeline.segment import load_segmenter  # noqa: E402
from pipeline.segment.data import record_kind  # noqa: E402


def show(text: str, marks: dict[int, str], lo: int, hi: int, at: int) -> str:
    out = []
    for i in range(lo, hi):
        if i in marks and i > lo:
            out.append(marks[i])
        if i == at:
            out.append("｜")
        out.append(text[i])
    return "".join(out)


def main() -> None:
    n_per = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 38
    seg = load_segmenter(paths.SEGMENTER_DEFAULT)
    for name in ("KR1d0003", "KR1d0053", "KR1d0030"):
        recs = tune_records(name)
        pred = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[name] * len(recs),
                           passages=record_passages(recs))
        errs = []
        for r, p in zip(recs, pred):
            n = len(r["text"])
            g = {int(k): v for k, v in r["marks"].items() if 0 < int(k) < n}
            p = {int(k): v for k, v in p.items() if 0 < int(k) < n}
            for k in sorted(g.keys() & p.keys()):
                if (g[k] in SENTENCE_FINAL) != (p[k] in SENTENCE_FINAL):
                    errs.append((r, g, p, k))
        pick = random.Random(seed).sample(errs, min(n_per, len(errs)))
        print(f"## {name}: {len(errs)} class errors, {len(pick)} drawn")
        for r, g, p, k in pick:
            lo, hi = max(0, k - 18), min(len(r["text"]), k + 14)
            print(f"{r['id']} {record_kind(r)} @{k}: ours {p[k]} edition {g[k]}")
            print("  ours:    " + show(r["text"], p, lo, hi, k))
            print("  edition: " + show(r["text"], g, lo, hi, k))


if __name__ == "__main__":
    main()
