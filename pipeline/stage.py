"""The Stage contract: what every annotation stage (segment, tag, align, …) declares and does.

    class SegmentStage(Stage):
        name = "segment"
        requires = ("units",)                       # document layers it reads
        provides = ("marks", "sentences", "clauses")  # layers it fills
        default_model = paths.SEGMENTER_MODEL       # None for a stage without a model

        @classmethod
        def load_model(cls, path): ...              # model folder -> the loaded model
        def __call__(self, doc): ...                # Document -> Document, self.model at hand

    stage = SegmentStage.load()          # or .load("models/other"): loaded once per process
    doc = stage(doc)

The runner orders the stages from `requires`/`provides` alone (ingest provides "units") and
checks them before any document is read; a model that cannot be loaded raises StageLoadError,
naming the stage and the path. Models are cached here and nowhere else.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import ClassVar

from pipeline.model import Document

INGEST_PROVIDES = ("units",)  # what reading a file gives every document


class StageLoadError(Exception):
    """A stage's model could not be loaded (missing folder, corrupt file, missing library)."""

    def __init__(self, stage: str, path: Path | None, cause: BaseException | None, message: str | None = None):
        self.stage, self.path, self.cause = stage, path, cause
        where = f" from {path}" if path else ""
        super().__init__(message or f"stage {stage}: cannot load its model{where}: {type(cause).__name__}: {cause}")

    def __reduce__(self):
        # raised in a Dask worker that checked the model (runner): the message travels as it was
        # written, the cause does not (a library's exception need not unpickle)
        return (StageLoadError, (self.stage, self.path, None, str(self)))


class Stage:
    name: ClassVar[str] = ""
    requires: ClassVar[tuple[str, ...]] = ()
    provides: ClassVar[tuple[str, ...]] = ()
    default_model: ClassVar[Path | None] = None
    # the stage's work is native code that releases the GIL (a torch model): the serial runner
    # may run it for the next document in a thread while this one goes through the others
    releases_gil: ClassVar[bool] = False

    def __init__(self, model: object = None, path: Path | None = None):
        self.model = model
        self.path = path

    @classmethod
    def load_model(cls, path: Path | None) -> object:
        """Read the model in `path` (the stage's folder, or None for a stage without one)."""
        return None

    @classmethod
    def load(cls, model_dir: str | Path | None = None) -> "Stage":
        """The stage with its model (default: `default_model`), loaded once per process and path."""
        path = Path(model_dir) if model_dir else cls.default_model
        key = (cls.name, str(path.resolve()) if path else None)
        with _LOCK:
            if key not in _LOADED:
                try:
                    model = cls.load_model(path)
                except Exception as err:
                    raise StageLoadError(cls.name, path, err) from err
                _LOADED[key] = cls(model, path)
            return _LOADED[key]

    @classmethod
    def forget(cls, model_dir: str | Path | None = None) -> None:
        """Drop a cached model (after retraining it in place)."""
        path = Path(model_dir) if model_dir else cls.default_model
        with _LOCK:
            _LOADED.pop((cls.name, str(path.resolve()) if path else None), None)

    def __call__(self, doc: Document) -> Document:
        raise NotImplementedError


_LOADED: dict[tuple[str, str | None], Stage] = {}
_LOCK = threading.Lock()


def stage_order(stages: list[type[Stage]]) -> list[type[Stage]]:
    """The stages in an order where each comes after those providing what it requires.

    Stages whose requirements are equally met keep the order they are listed in. A requirement
    no stage (nor ingest) provides, or a cycle, is a programming error: ValueError.
    """
    provided = set(INGEST_PROVIDES)
    known = provided | {p for s in stages for p in s.provides}
    for s in stages:
        missing = set(s.requires) - known
        if missing:
            raise ValueError(f"stage {s.name} requires {', '.join(sorted(missing))}, which no stage provides")
    ordered, rest = [], list(stages)
    while rest:
        ready = next((s for s in rest if set(s.requires) <= provided), None)
        if ready is None:
            raise ValueError("the stages' requirements form a cycle: " + ", ".join(s.name for s in rest))
        ordered.append(ready)
        provided |= set(ready.provides)
        rest.remove(ready)
    return ordered
