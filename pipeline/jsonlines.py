"""Reading JSON Lines input (gold files, punctuation records) with FILE:LINE errors."""

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
