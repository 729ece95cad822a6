"""Atomic output: nothing half-written is ever left where a reader could see it.

A file is written to a temporary sibling and renamed over its name; an output folder is built
whole beside its final name and swapped in only when everything in it was written. Files and
folders get the usual modes (0644 / 0755 under a 022 umask), not mkstemp's private 0600.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def _umask() -> int:
    old = os.umask(0o022)  # read it the only way POSIX allows: set and restore
    os.umask(old)
    return old


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


@contextmanager
def replaced_dir(final: str | os.PathLike) -> Iterator[Path]:
    """Build a new folder beside `final`; when the block succeeds it replaces `final` as a whole
    (the old folder and everything in it removed). When the block fails — an exception, a full
    disk — the new folder is removed and `final` is left exactly as it was."""
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists() and not final.is_dir():
        raise NotADirectoryError(f"{final} exists and is not a folder")
    stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp"))
    try:
        os.chmod(stage, 0o777 & ~_umask())
        yield stage
        if final.exists():
            old = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.", suffix=".old"))
            os.replace(final, old)  # an empty folder: rename replaces it
            try:
                os.replace(stage, final)
            except BaseException:
                os.replace(old, final)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(stage, final)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
