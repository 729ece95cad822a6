"""The annotation stages the runner knows, in the order they are listed when their requirements
leave a choice; the run order itself comes from their `requires` / `provides` (pipeline/stage.py).

To add a stage: a package with a Stage subclass, listed here.
"""

from __future__ import annotations

from pipeline.align import AlignStage
from pipeline.parse import ParseStage
from pipeline.segment import SegmentStage
from pipeline.stage import INGEST_PROVIDES, Stage, stage_order
from pipeline.tag import TagStage

ANNOTATORS: dict[str, type[Stage]] = {s.name: s for s in stage_order([SegmentStage, TagStage, AlignStage, ParseStage])}
STAGE_ORDER: tuple[str, ...] = ("ingest", *ANNOTATORS, "export")


def providers(layers: tuple[str, ...]) -> list[str]:
    """The stages (ingest included) that provide any of `layers`."""
    out = ["ingest"] if set(layers) & set(INGEST_PROVIDES) else []
    return out + [name for name, s in ANNOTATORS.items() if set(layers) & set(s.provides)]
