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


# --- glosses (align stage; owner: gloss helper) --------------------------------------------


@eval_group.command("glosses")
@click.option("--gold", "gold", required=True, type=click.Path(exists=True, dir_okay=False), help="Gold JSONL (glosses guideline format).")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@click.option("--no-segmenter", is_flag=True, help="Debug: align without restored punctuation.")
@click.option("--details", is_flag=True, help="With --json: per-record missed / spurious spans.")
@reports_input_errors
def eval_glosses(gold, as_json, no_segmenter, details):
    """Score gloss extraction + lemma alignment (lemma-span P/R/F1, type accuracy)."""
    from pipeline.evaluate.glosses import evaluate

    res = evaluate(gold, segmenter=None if no_segmenter else "auto", details=details)
    if as_json:
        click.echo(json.dumps(res, ensure_ascii=False))
    else:
        lem = res["lemma"]
        click.echo(f"records {res['records']}  segmenter {res['segmenter']}")
        click.echo(f"lemma  P {lem['p']:.4f}  R {lem['r']:.4f}  F1 {lem['f1']:.4f}  (tp {lem['tp']}, system {lem['system']}, gold {lem['gold']})")
        click.echo(f"type_accuracy {res['type_accuracy']:.4f}")


@main.command("glosses-report")
@click.option("--corpus", default="data/corpus/KR1d0030", show_default=True, type=click.Path(file_okay=False), help="Folder of mandoku juan files.")
@click.option("--sample", default=50, show_default=True, help="Unanchored glosses to sample.")
@click.option("--seed", default=20261130, show_default=True, help="Seed of the sample.")
@click.option("--no-segmenter", is_flag=True, help="Align without restored punctuation.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of Markdown.")
@reports_input_errors
def glosses_report(corpus, sample, seed, no_segmenter, as_json):
    """Align every commentary block of a book; counts by type and kind, unanchored sample."""
    from pipeline.gloss_report import report, to_markdown

    res = report(corpus, sample=sample, seed=seed, use_segmenter=not no_segmenter)
    click.echo(json.dumps(res, ensure_ascii=False, indent=1) if as_json else to_markdown(res))


# --- entities (tag stage; owner: tagger helper, issue 5) -----------------------------------


@eval_group.command("entities")
@click.option("--gold", "gold", required=True, type=click.Path(dir_okay=False), help="Gold entity JSONL (guidelines/entities.md).")
@click.option("--model", "model_dir", default=None, type=click.Path(file_okay=False), help="Tagger folder (default models/tagger).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--errors", "show_errors", is_flag=True, help="Include the list of missed/spurious spans.")
@reports_input_errors
def eval_entities(gold, model_dir, as_json, show_errors):
    """Score ROLE / OBJECT / PLACE spans: exact micro P, R, F1, per label, unseen recall."""
    from pipeline.evaluate.entities import evaluate, format_report
    from pipeline.tag import load_tagger

    result = evaluate(gold, load_tagger(model_dir))
    if not show_errors:
        result.pop("errors", None)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(format_report(result))


@train_group.command("tagger")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False), help="Model folder (default models/tagger).")
@click.option("--max-iterations", default=100, show_default=True, help="CRF training iterations.")
@click.option("--lex-dropout", default=0.3, show_default=True, help="Share of lexicon surfaces hidden from the features per text.")
@click.option("--seed", default=13, show_default=True)
@click.option("--keep-lexicon", is_flag=True, help="Do not rebuild models/lexicon/lexicon.tsv first.")
@reports_input_errors
def train_tagger_cmd(out_dir, max_iterations, lex_dropout, seed, keep_lexicon):
    """Rebuild the lexicon, project it over juan 1-30 (less dev juan 10), train the tagger."""
    from pipeline.tag import train

    train(out_dir, max_iterations=max_iterations, lex_dropout=lex_dropout, seed=seed,
          rebuild_lexicon=not keep_lexicon, log=click.echo)


if __name__ == "__main__":  # pragma: no cover
    main()
