"""The one error type users see: bad input, named by file and line."""

from __future__ import annotations


class InputError(Exception):
    """Input the pipeline cannot read. The CLI prints it without a traceback, exit code 2."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class OutputError(InputError):
    """An output that cannot be written (a read-only folder, a full disk): named by path, exit 2,
    and the earlier output left as it was."""
