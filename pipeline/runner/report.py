"""What a run reports: its summary (RunSummary), a progress bar over documents and the summary
table (rich, on stderr)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field


@dataclass
class RunSummary:
    mode: str
    documents: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    stages: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    chars: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # CPU seconds of each stage's thread, summed over documents
    assemble_seconds: float = 0.0
    assemble_by_format: dict[str, float] = field(default_factory=dict)  # wall seconds of each format's files (side by side)
    wall_seconds: float = 0.0
    out: str | None = None
    files: int = 0
    caveats: list[str] = field(default_factory=list)  # the dataset card's warnings, a line each (card.caveats)

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["failed"] = [{"path": p, "error": e} for p, e in self.failed]
        return d

class ProgressBar:
    """A rich progress bar over documents (silent when disabled or not on a terminal)."""

    def __init__(self, enabled: bool, total: int, mode: str):
        self.enabled, self.total, self.mode = enabled, total, mode
        self.bar = None

    def __enter__(self):
        if not self.enabled:
            return lambda _doc: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.bar = Progress(
            TextColumn("[bold]zhushu run[/] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self.bar.__enter__()
        task = self.bar.add_task(self.mode, total=self.total)
        return lambda doc_id: self.bar.update(task, advance=1, description=f"{self.mode}: {doc_id}")

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def print_summary(summary: RunSummary, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console(stderr=True)
    table = Table(title=f"zhushu run — {summary.mode}", show_header=True)
    table.add_column("")
    table.add_column("value", justify="right")
    table.add_row("documents", f"{summary.documents} ok, {len(summary.failed)} failed")
    table.add_row("characters", str(summary.chars))
    for kind, n in summary.counts.items():
        table.add_row(f"records: {kind}", str(n))
    for stage, status in summary.stages.items():
        secs = summary.seconds.get(stage)
        rate = f", {summary.chars / secs:,.0f} chars/s" if secs and summary.chars else ""
        table.add_row(f"stage {stage}", status + (f" ({secs:.1f}s CPU{rate})" if secs else ""))
    table.add_row("assemble + write", f"{summary.assemble_seconds:.1f}s")
    table.add_row("wall time", f"{summary.wall_seconds:.1f}s")
    if summary.out:
        table.add_row("output", f"{summary.out} ({summary.files} files)")
    elif summary.failed:
        table.add_row("output", "nothing written")
    console.print(table)
    if summary.caveats and summary.out:
        console.print(f"The dataset card ({summary.out}/README.md) warns:", markup=False, highlight=False, soft_wrap=True)
        for line in summary.caveats:
            console.print(f"  - {line}", markup=False, highlight=False, soft_wrap=True)
