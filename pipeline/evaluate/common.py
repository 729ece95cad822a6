"""What every scorer shares: reading a JSONL gold file with file:line errors, and P/R/F1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from pipeline.errors import InputError


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line; a bad line is an InputError naming it."""
    path = str(path)
    try:
        fh = open(path, encoding="utf-8")
    except OSError as err:
        raise InputError(path, None, f"cannot read: {err.strerror or err}") from None
    with fh:
        try:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as err:
                    raise InputError(path, lineno, f"not valid JSON: {err.msg}") from None
                if not isinstance(obj, dict):
                    raise InputError(path, lineno, "a record must be a JSON object")
                yield lineno, obj
        except UnicodeDecodeError:
            raise InputError(path, None, "not valid UTF-8") from None


def prf(tp: int, n_pred: int, n_gold: int) -> dict:
    """Precision, recall and F1 (rounded to 4 places) with the counts they come from."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f, 4), "tp": tp, "pred": n_pred, "gold": n_gold}
