"""The `zhushu` command line. Each command is a thin wrapper over a stage's functions.

Heavy modules (models, exporters) are imported inside the commands so that `zhushu --help`
and `zhushu ingest` stay fast.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from pipeline.errors import InputError


def reports_input_errors(fn):
    """Turn InputError into one clear line on stderr and exit code 2, without a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InputError as err:
            click.echo(f"zhushu: error: {err}", err=True)
            sys.exit(2)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="zhushu")
def main() -> None:
    """zhushu (注疏): Kanripo commentary texts into annotated datasets."""


@main.group(name="eval")
def eval_group() -> None:
    """Score a stage against a gold file (see ../shared/guidelines)."""


@main.group(name="train")
def train_group() -> None:
    """Rebuild a model in models/ from the data."""


# --- ingest -------------------------------------------------------------------------------

LAYOUT_CHOICE = click.Choice(["auto", "wyg", "sbck"])


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--jsonl", "as_jsonl", is_flag=True, help="Print one JSON object per unit.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), help="Write <doc>.units.jsonl files here.")
@click.option("--layout", type=LAYOUT_CHOICE, default="auto", show_default=True, help="Source layout; auto reads #+PROPERTY lines.")
@click.option("--encoding", default="utf-8", show_default=True, help="Encoding of the input files (e.g. gb18030, big5).")
@reports_input_errors
def ingest(files, as_jsonl, out_dir, layout, encoding):
    """Read mandoku (or markup-free) files into units: base text, commentary, titles."""
    from pipeline import atomic
    from pipeline.ingest import read_document
    from pipeline.ingest.records import unit_records

    docs = [read_document(path, layout=layout, encoding=encoding) for path in files]
    for doc in docs:
        lines = [json.dumps(r, ensure_ascii=False) for r in unit_records(doc)]
        if out_dir:
            atomic.write_text(Path(out_dir) / f"{doc.id}.units.jsonl", "\n".join(lines) + "\n")
        if as_jsonl or not out_dir:
            click.echo("\n".join(lines))


if __name__ == "__main__":  # pragma: no cover
    main()
