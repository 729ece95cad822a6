"""Atomic output: write to a temporary sibling, then rename, so no half-written file is left."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


@contextmanager
def staged_dir(final: str | os.PathLike) -> Iterator[Path]:
    """Build a whole output folder beside `final` and swap it in only if the block succeeds.

    Files in `final` that the block does not produce are kept (the new tree is merged over
    the old one), so that two commands may write different subfolders of one output folder.
    """
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp"))
    try:
        yield stage
        final.mkdir(exist_ok=True)
        for src in sorted(stage.rglob("*")):
            if src.is_file():
                dst = final / src.relative_to(stage)
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
