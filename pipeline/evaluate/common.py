"""What every scorer shares: P/R/F1 (gold files are read by pipeline.jsonlines)."""

from __future__ import annotations


def prf(tp: int, n_pred: int, n_gold: int) -> dict:
    """Precision, recall and F1 (rounded to 4 places) with the counts they come from."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f, 4), "tp": tp, "pred": n_pred, "gold": n_gold}
