"""Stop 79: how far apart two segmenter folders are on the tune juan, against the records' own noise.

Both folders punctuate the tune juan's records as memory_tune.py reads them (aligned >= 0.9, each 注 with its
passage); the seg F1 difference (b - a) per book and its mean over the three, then a bootstrap over the records
(1,000 draws, seed 79, each book resampled on its own): the 95 % interval and the standard deviation, in points.
Records are not independent within a juan, so the interval is a lower bound of the noise.

    python experiments/punct_v7/tune_bootstrap.py models/segmenter-v7-passage DIR-passage
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments" / "punct_v4"))

from context_prior_tune import tune_records  # noqa: E402

from pipeline.evaluate.segment import record_passages, score  # noqa: E402
from pipeline.segment import read_segmenter  # noqa: E402
from pipeline.segment.data import record_kind  # noqa: E402

BOOKS = ("KR1d0003", "KR1d0053", "KR1d0030")


def counts(seg, name: str, recs: list[dict]) -> list[tuple[int, int, int]]:
    pred = seg.predict([r["text"] for r in recs], [record_kind(r) for r in recs], books=[name] * len(recs),
                       passages=record_passages(recs))
    out = []
    for r, p in zip(recs, pred):
        s = score([r], [p])["seg"]
        out.append((s["tp"], s["pred"], s["gold"]))
    return out


def f1(rows, idx) -> float:
    tp = sum(rows[i][0] for i in idx)
    return 2 * tp / (sum(rows[i][1] for i in idx) + sum(rows[i][2] for i in idx))


def interval(xs: list[float]) -> str:
    xs = sorted(xs)
    m = sum(xs) / len(xs)
    sd = (sum((x - m) ** 2 for x in xs) / len(xs)) ** 0.5
    return f"95 % [{100 * xs[int(0.025 * len(xs))]:+.2f}, {100 * xs[int(0.975 * len(xs)) - 1]:+.2f}], sd {100 * sd:.2f}"


def main() -> None:
    a, b = (read_segmenter(Path(x)) for x in sys.argv[1:3])
    rows = {}
    for n in BOOKS:
        recs = tune_records(n)
        rows[n] = (counts(a, n, recs), counts(b, n, recs))
    full = {n: f1(rb, range(len(rb))) - f1(ra, range(len(ra))) for n, (ra, rb) in rows.items()}
    rng = random.Random(79)
    draws = {n: [] for n in BOOKS}
    for _ in range(1000):
        for n, (ra, rb) in rows.items():
            idx = [rng.randrange(len(ra)) for _ in ra]
            draws[n].append(f1(rb, idx) - f1(ra, idx))
    for n in BOOKS:
        print(f"{n}: {100 * full[n]:+.2f} points; {interval(draws[n])}")
    means = [sum(draws[n][i] for n in BOOKS) / len(BOOKS) for i in range(1000)]
    print(f"mean: {100 * sum(full.values()) / len(BOOKS):+.2f} points; {interval(means)}")


if __name__ == "__main__":
    main()
