"""What every scorer shares: P/R/F1 (gold files are read by pipeline.jsonlines)."""

from __future__ import annotations


def prf(tp: int, n_pred: int, n_gold: int) -> dict:
    """Precision, recall and F1 (rounded to 4 places) with the counts they come from."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f, 4), "tp": tp, "pred": n_pred, "gold": n_gold}


class ConfidenceBands:
    """The precision of a system's predictions in each band of 0.1 of their confidence ("0.3-0.4"
    …): what a user who keeps only the links above a confidence gets."""

    def __init__(self):
        self.bands: dict[str, list[int]] = {}

    def add(self, confidence: float, right: bool) -> None:
        lo = min(int(confidence * 10), 9) / 10
        band = self.bands.setdefault(f"{lo:.1f}-{lo + 0.1:.1f}", [0, 0])
        band[0] += 1
        band[1] += right

    def result(self) -> dict:
        return {k: {"predicted": n, "precision": round(ok / n, 4)} for k, (n, ok) in sorted(self.bands.items())}
