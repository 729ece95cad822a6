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

from pipeline import paths
from pipeline.errors import InputError
from pipeline.segment import BACKENDS as SEGMENTER_BACKENDS
from pipeline.stage import StageLoadError


def _repo_path(path: Path) -> str:
    """A default model folder as the help shows it (relative to the checkout)."""
    return path.relative_to(paths.REPO).as_posix()


def reports_input_errors(fn):
    """Turn InputError (bad input) and StageLoadError (a model that cannot be loaded) into one
    clear line on stderr and exit code 2, without a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (InputError, StageLoadError) as err:
            click.echo(f"zhushu: error: {err}", err=True)
            sys.exit(2)

    return wrapper


INTERRUPTED = 130  # 128 + SIGINT, as shells report it; 1 is what --keep-going exits with


class ZhushuGroup(click.Group):
    def invoke(self, ctx: click.Context):
        """Ctrl-C: one line and exit 130 (click's own handling exits 1, the --keep-going code)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nzhushu: interrupted; nothing was written (the earlier output, if any, is unchanged)", err=True)
            ctx.exit(INTERRUPTED)


@click.group(cls=ZhushuGroup, context_settings={"help_option_names": ["-h", "--help"]})
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

LAYOUT_CHOICE = click.Choice(["auto", "wyg", "wyg-print", "sbck", "wyg-zhushu", "punctuated"])


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--jsonl", "as_jsonl", is_flag=True, help="Print one JSON object per unit.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), help="Write <doc>.units.jsonl files here.")
@click.option("--layout", type=LAYOUT_CHOICE, default="auto", show_default=True, help="Source layout; auto reads #+PROPERTY lines.")
@click.option("--encoding", default="utf-8", show_default=True, help="Encoding of the input files (e.g. gb18030, big5).")
@click.option("--base-text", type=click.Path(exists=True), default=None, help="注疏 layout: a plain 經 text (file or folder of mandoku files) to find where the 經 resumes inside a 注 (default: the embedded plain text its ID names, else the embedded one that holds its 經).")
@click.option("--markers-only", is_flag=True, help="注疏 layout: separate 經 and 注 by the markers alone.")
@reports_input_errors
def ingest(files, as_jsonl, out_dir, layout, encoding, base_text, markers_only):
    """Read mandoku (or markup-free) files into units: base text, commentary, titles.

    A folder stands for its *.txt files (one document each), as in `zhushu run`."""
    from pipeline import atomic
    from pipeline.ingest import read_document
    from pipeline.ingest.records import unit_records
    from pipeline.runner import expand_inputs

    base_text = None if markers_only else (base_text or "auto")
    paths_in = expand_inputs(files)
    if not paths_in:
        raise InputError(", ".join(files), None, "no input files (*.txt)")
    docs = [read_document(path, layout=layout, encoding=encoding, base_text=base_text) for path in paths_in]
    for doc in docs:
        lines = [json.dumps(r, ensure_ascii=False) for r in unit_records(doc)]
        if out_dir:
            atomic.write_text(Path(out_dir) / f"{doc.id}.units.jsonl", "\n".join(lines) + "\n")
        if as_jsonl or not out_dir:
            click.echo("\n".join(lines))


# --- segment (owner: segmenter helper; issue 3) ---------------------------------------------


@eval_group.command("segment")
@click.option("--gold", "gold", required=True, type=click.Path(dir_okay=False), help="Gold JSONL (gold or punct-data shape).")
@click.option("--split", default=None, help='Score only records whose "split" is this (e.g. dev).')
@click.option("--model", "model_dir", default=None, type=click.Path(file_okay=False), help="Model folder (default models/segmenter-v7-passage: v7 with its priors and the phrase memory).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-passage", is_flag=True,
              help="Score each record alone: no 注 is given the 經 record before it (the model folder's passage prior unused).")
@reports_input_errors
def eval_segment(gold, split, model_dir, as_json, no_passage):
    """Score restored punctuation: seg / punct / sentence P, R, F1 (guidelines/segmentation.md)."""
    from pipeline.evaluate.segment import evaluate_segment
    from pipeline.segment import load_segmenter

    result = evaluate_segment(gold, load_segmenter(model_dir), split=split, passages=not no_passage)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    click.echo(f"{result['records']} records, {result['chars']} chars, {result['chars_per_second']:.0f} chars/s")
    rows = [("all", result)] + sorted(result["by_kind"].items())
    for name, r in rows:
        cells = "  ".join(f"{m} P {r[m]['p']:.4f} R {r[m]['r']:.4f} F1 {r[m]['f1']:.4f}" for m in ("seg", "punct", "sentence"))
        click.echo(f"{name:5s} {cells}")


@train_group.command("segmenter")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Model folder (bilstm: default models/segmenter-v2 for --recipe v2, models/segmenter for v1; other types: required).")
@click.option("--type", "model_type", type=click.Choice(list(SEGMENTER_BACKENDS)), default="bilstm",
              show_default=True,
              help="bilstm: the shipped model; ensemble: seed-varied BiLSTMs averaged (more accurate, slower); "
                   "hybrid: the v1 BiLSTM + a Stanza tokenizer (an option, about a third of the speed; needs stanza).")
@click.option("--no-extra", is_flag=True, help="Train without the TLS 禮記/周禮 text in data/extra.")
@click.option("--recipe", type=click.Choice(["v1", "v2", "v3", "v2d", "v7", "v8"]), default="v2", show_default=True,
              help="bilstm: v2 = the 集釋, the TLS extra text and the punctuated 注疏 with a kind per marker and a "
                   "book embedding (models/segmenter-v2); v1 = without the 注疏 (models/segmenter); "
                   "v3 = v2 + the outside punctuated prose, every text folded t2s (--out required; with --layers 2 --zhushu-frac 0.5 --outside-frac 0.25 --epochs 12 --stop-after 8 --batch-chars 6000 models/segmenter-v6, from which v7 is trained); "
                   "v2d = v2 distilled from a teacher (--teacher, default models/segmenter-ensemble; --out required); "
                   "v7 = v6 reading the passage of each 注: models/segmenter-v6 trained on with the passage channel, 5 epochs (--out required; models/segmenter-v7, the BiLSTM of the default); "
                   "v8 = v7 reading each 疏's passage too (its 經 and 注 since the 疏 before it): models/segmenter-v7 trained on, 3 epochs (--out required).")
@click.option("--teacher", "teacher_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="v2d: the teacher's model folder; v3: distil from this folder (e.g. a wider v3 BiLSTM), "
                   "each character of our own text trained half towards its distribution.")
@click.option("--members", default=None,
              help="ensemble: comma-separated trained model folders to average (referred to, not copied; "
                   "only the threshold is tuned) instead of training seed-varied members.")
@click.option("--outside", "outside_file", default=None, type=click.Path(dir_okay=False, exists=True),
              help="v3: the outside prose (default ../shared/data/outside/classical_prose.punct.jsonl.gz).")
@click.option("--checkpoint", default=None, type=click.Path(dir_okay=False),
              help="bilstm: a checkpoint file written after every epoch; an existing one is resumed.")
@click.option("--epochs", type=int, default=None, help="Override the number of epochs (bilstm, ensemble).")
@click.option("--layers", type=int, default=None,
              help="bilstm: BiLSTM layers (default 1; models/segmenter-v3 has 2: --recipe v3 --epochs 4 --layers 2).")
@click.option("--zhushu-frac", type=click.FloatRange(0.0, 1.0), default=None,
              help="bilstm, with the 注疏 (v2 / v3 / v2d): the share of their chunks drawn each epoch (v2: 0.5; v3, v2d: 0.2).")
@click.option("--outside-frac", type=click.FloatRange(0.0, 1.0, min_open=True), default=None,
              help="v3: the share of the outside prose's chunks drawn each epoch (default 0.05).")
@click.option("--seed", type=int, default=None, help="bilstm: the training seed (default 13).")
@click.option("--init-from", default=None, type=click.Path(file_okay=False, exists=True),
              help="bilstm: start from this trained folder's weights (same shape and vocabulary) instead of random ones.")
@click.option("--lr", type=click.FloatRange(0.0, min_open=True), default=None,
              help="bilstm: the learning rate at the start of the warm-down (default 2e-3).")
@click.option("--hidden", type=click.IntRange(1), default=None, help="bilstm: BiLSTM width (default 192).")
@click.option("--batch-chars", type=click.IntRange(1), default=None,
              help="bilstm: characters a batch (default 3000).")
@click.option("--time-limit", type=click.FloatRange(0.0, min_open=True), default=None,
              help="bilstm: stop after the epoch that passes this many seconds (then tune and save as usual).")
@click.option("--stop-after", type=click.IntRange(1), default=None,
              help="bilstm: end after this many of the --epochs (the learning rate still warms down over all of them).")
@click.option("--device", default=None,
              help="bilstm: where the network trains, e.g. cuda on a GPU machine (default cpu; the project never needs one).")
@click.option("--seeds", default=None, help="Comma-separated member seeds (ensemble; default 13,14,15).")
@click.option("--bilstm-from", default=None, type=click.Path(file_okay=False, exists=True),
              help="hybrid: use this trained BiLSTM folder (referred to, not copied) instead of training one.")
@reports_input_errors
def train_segmenter_cmd(out_dir, model_type, no_extra, recipe, epochs, seeds, bilstm_from, outside_file, checkpoint,
                        teacher_dir, members, layers, zhushu_frac, outside_frac, seed, init_from, lr,
                        hidden, batch_chars, device, time_limit, stop_after):
    """Rebuild the segmenter from data/punct (train split) and data/extra; fixed seeds."""
    from pipeline import paths
    from pipeline.train.segment import (V2_OVERRIDES, V2D_OVERRIDES, V3_OVERRIDES, V7_OVERRIDES, V8_OVERRIDES,
                                        train_segmenter)

    if out_dir is None:
        if model_type != "bilstm" or recipe in ("v3", "v2d", "v7", "v8"):
            raise click.UsageError(f"--type {model_type} --recipe {recipe} needs --out (the default folders hold the shipped BiLSTMs)")
        out_dir = paths.SEGMENTER_MODEL if recipe == "v2" else paths.SEGMENTER_V1

    overrides = dict({"v2": V2_OVERRIDES, "v3": V3_OVERRIDES, "v2d": V2D_OVERRIDES, "v7": V7_OVERRIDES,
                      "v8": V8_OVERRIDES}.get(recipe, {}))
    # options that only one recipe / type reads: (given value, allowed here, the option, its override)
    for value, allowed, option, key in (
            (teacher_dir, recipe in ("v2d", "v3"), "--teacher goes with --recipe v2d or v3", "teacher"),
            (members and [m for m in members.split(",") if m], model_type == "ensemble", "--members goes with --type ensemble", "members_from"),
            (outside_file, recipe in ("v3", "v7", "v8"), "--outside goes with --recipe v3, v7 or v8", "outside_file"),
            (outside_frac, model_type == "bilstm" and recipe in ("v3", "v7", "v8"), "--outside-frac goes with --type bilstm --recipe v3, v7 or v8",
             "outside_frac"),
            (checkpoint, model_type == "bilstm", "--checkpoint goes with --type bilstm", "checkpoint"),
            (init_from, model_type == "bilstm", "--init-from goes with --type bilstm", "init_from"),
            (lr, model_type == "bilstm", "--lr goes with --type bilstm", "lr"),
            (batch_chars, model_type == "bilstm", "--batch-chars goes with --type bilstm", "batch_chars"),
            (device, model_type == "bilstm", "--device goes with --type bilstm", "device"),
            (time_limit, model_type == "bilstm", "--time-limit goes with --type bilstm", "time_limit"),
            (stop_after, model_type == "bilstm", "--stop-after goes with --type bilstm", "stop_after"),
            (bilstm_from, model_type == "hybrid", "--bilstm-from goes with --type hybrid", "bilstm_from")):
        if value:
            if not allowed:
                raise click.UsageError(option)
            overrides[key] = value
    if epochs:
        overrides["epochs"] = epochs
    if layers:
        overrides["arch"] = {**overrides.get("arch", {}), "layers": layers}
    if hidden:
        if model_type != "bilstm":
            raise click.UsageError("--hidden goes with --type bilstm")
        overrides["arch"] = {**overrides.get("arch", {}), "hidden": hidden}
    if zhushu_frac is not None:
        if model_type != "bilstm" or not overrides.get("zhushu"):
            raise click.UsageError("--zhushu-frac goes with --type bilstm and a recipe with the 注疏 (v2, v3, v2d)")
        overrides["zhushu_frac"] = zhushu_frac
    if seed is not None:
        if model_type != "bilstm":
            raise click.UsageError("--seed goes with --type bilstm (an ensemble's members: --seeds)")
        overrides["seed"] = seed
    if seeds:
        overrides["seeds"] = [int(x) for x in seeds.split(",")]
    cfg = train_segmenter(out_dir, model_type, use_extra=not no_extra,
                          log=lambda m: click.echo(m, err=True), **overrides)
    click.echo(json.dumps({k: v for k, v in cfg.items() if k not in ("chars", "bigrams")}, ensure_ascii=False))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--layout", type=LAYOUT_CHOICE, default="auto", show_default=True)
@click.option("--encoding", default="utf-8", show_default=True)
@click.option("--model", "model_dir", default=None, type=click.Path(file_okay=False), help="Model folder (default models/segmenter-v7-passage: v7 with its priors and the phrase memory).")
@click.option("--repunctuate", is_flag=True, help="Restore punctuation in an edition already punctuated too (default: keep its marks).")
@reports_input_errors
def punctuate(file, layout, encoding, model_dir, repunctuate):
    """Print FILE with restored punctuation: base text flush, commentary indented with its marker.

    FILE is a mandoku/plain text (read with ingest) or a .jsonl of units ({"text", "kind"}).
    """
    from pipeline.segment import load_segmenter, punctuated_lines, segment_document

    seg = load_segmenter(model_dir)
    if file.endswith(".jsonl"):
        from pipeline.segment.data import read_records

        recs = [r for r in read_records(file) if r["text"]]
        preds = seg.predict([r["text"] for r in recs], [r["kind"] for r in recs])
        for r, marks in zip(recs, preds):
            text = "".join(ch + marks.get(i + 1, "") for i, ch in enumerate(r["text"]))
            click.echo(("　" if r["kind"] == "note" else "") + text)
        return
    from pipeline.ingest import read_document

    doc = segment_document(read_document(file, layout=layout, encoding=encoding), seg, repunctuate=repunctuate)
    click.echo("\n".join(punctuated_lines(doc)))


# --- glosses (align stage; owner: gloss helper) --------------------------------------------


@eval_group.command("glosses")
@click.option("--gold", "gold", required=True, type=click.Path(exists=True, dir_okay=False), help="Gold JSONL (glosses guideline format).")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
@click.option("--no-segmenter", is_flag=True, help="Debug: align without restored punctuation.")
@click.option("--details", is_flag=True, help="With --json: per-record missed / spurious spans.")
@click.option("--segmenter", "segmenter_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="The segmenter's model folder (default models/segmenter-v7-passage; the gloss reader reads the model's own marks), e.g. models/segmenter-ensemble.")
@reports_input_errors
def eval_glosses(gold, as_json, no_segmenter, details, segmenter_dir):
    """Score gloss extraction + lemma alignment (lemma-span P/R/F1, type accuracy)."""
    from pipeline.evaluate.glosses import evaluate

    if no_segmenter and segmenter_dir:
        raise click.UsageError("--segmenter and --no-segmenter exclude each other")
    segmenter = "auto"
    if segmenter_dir:
        from pipeline.segment import load_segmenter

        segmenter = load_segmenter(segmenter_dir)
    res = evaluate(gold, segmenter=None if no_segmenter else segmenter, details=details)
    if as_json:
        click.echo(json.dumps(res, ensure_ascii=False))
    else:
        lem = res["lemma"]
        click.echo(f"records {res['records']}  segmenter {res['segmenter']}")
        click.echo(f"lemma  P {lem['p']:.4f}  R {lem['r']:.4f}  F1 {lem['f1']:.4f}  (tp {lem['tp']}, system {lem['system']}, gold {lem['gold']})")
        click.echo(f"type_accuracy {res['type_accuracy']:.4f}")


@eval_group.command("readings")
@click.option("--gold", "gold", required=True, type=click.Path(dir_okay=False), help="Gold JSONL (annotations/gold/readings.dev.jsonl).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-variants", is_flag=True, help="Anchor heads as printed only (no variant folding, no reading alternates).")
@click.option("--details", is_flag=True, help="With --json: every gold reading the parser gets wrong, with its reading.")
@reports_input_errors
def eval_readings(gold, as_json, no_variants, details):
    """Score the 音義 reading parser: head, anchor and parse accuracy (annotations/gold/README.md)."""
    from pipeline.evaluate.readings import evaluate

    res = evaluate(gold, variants=not no_variants, details=details)
    if as_json:
        click.echo(json.dumps(res, ensure_ascii=False))
        return
    click.echo(f"records {res['records']}  readings {res['readings']}  system readings {res['system_readings']}")
    for name, r in [("all", res)] + sorted(res["by_book"].items()):
        click.echo(f"{name:9s} head {r['head_accuracy']:.4f}  anchor {r['anchor_accuracy']:.4f}  parse {r['parse_accuracy']:.4f}"
                   f"  head precision {r['head_precision']:.4f}  ({r['readings']} readings)")


@eval_group.command("quotations")
@click.option("--gold", "gold", required=True, multiple=True, type=click.Path(dir_okay=False),
              help="Quotations JSONL (data/quotes/*.quotes.jsonl); repeat for several books.")
@click.option("--split", default=None, help='Score only records whose "split" is this (e.g. dev).')
@click.option("--reader", type=click.Choice(["default", "spans", "tagger", "rules", "v1"]), default="default", show_default=True,
              help="default: the align stage's reader (spans); spans / tagger / rules: the readers compared in docs/quotations.md; "
                   "v1: the first 疏 reader.")
@click.option("--no-segmenter", is_flag=True,
              help="Give the reader no punctuation of the units (as `zhushu run --skip segment` does): the span reader "
                   "then reads the text alone. Default: the marks the default segmenter gives them.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_input_errors
def eval_quotations(gold, split, reader, no_segmenter, as_json):
    """Score the 疏's lemma quotations: exact-span P, R, F1 and anchor accuracy, by book (data/quotes/README.md)."""
    from pipeline.align.subcommentary import reader_named, reads_marks
    from pipeline.evaluate.quotations import evaluate

    segmenter = None
    if reads_marks(reader) and not no_segmenter:
        from pipeline.segment import read_segmenter

        segmenter = read_segmenter(paths.SEGMENTER_DEFAULT)
    result = evaluate(list(gold), reader_named(reader), split=split, reader_name=reader, segmenter=segmenter)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    click.echo(f"{result['records']} records, {result['chars']} chars, reader {reader}")
    for name, r in [("all", result)] + sorted(result["by_book"].items()):
        click.echo(f"{name:9s} P {r['precision']:.4f} R {r['recall']:.4f} F1 {r['f1']:.4f} "
                   f"anchor {r['anchor_accuracy']:.4f}  (right {r['right']}, other {r['other']}, "
                   f"predicted {r['predicted']}, gold {r['gold']})")


@main.command("glosses-report")
@click.option("--corpus", default="data/corpus/KR1d0030", show_default=True, type=click.Path(file_okay=False), help="Folder of mandoku juan files.")
@click.option("--sample", default=50, show_default=True, help="Unanchored glosses to sample.")
@click.option("--seed", default=20261130, show_default=True, help="Seed of the sample.")
@click.option("--no-segmenter", is_flag=True, help="Align without restored punctuation.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of Markdown.")
@reports_input_errors
def glosses_report(corpus, sample, seed, no_segmenter, as_json):
    """Align every commentary block of a book; counts by type and kind, unanchored sample."""
    from pipeline.evaluate.gloss_report import report, to_markdown

    res = report(corpus, sample=sample, seed=seed, use_segmenter=not no_segmenter)
    click.echo(json.dumps(res, ensure_ascii=False, indent=1) if as_json else to_markdown(res))


# --- entities (tag stage; owner: tagger helper, issue 5) -----------------------------------


@eval_group.command("parse")
@click.option("--gold", "gold", required=True, type=click.Path(dir_okay=False), help="Gold CoNLL-U (e.g. ../shared/data/ud/lzh_kyoto-ud-dev.conllu).")
@click.option("--sentences", "mode", type=click.Choice(["gold", "own", "own-clauses"]), default="gold", show_default=True,
              help="gold: one treebank sentence a call; own: our segmenter's punctuation and sentence breaks; own-clauses: cut at every restored mark.")
@click.option("--limit", type=int, default=None, help="Only the first N sentences.")
@click.option("--system-out", type=click.Path(dir_okay=False), default=None, help="Write the system CoNLL-U here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--segmenter", "segmenter_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="own / own-clauses: the segmenter's model folder (default models/segmenter-v7-passage).")
@reports_input_errors
def eval_parse(gold, mode, limit, system_out, as_json, segmenter_dir):
    """Score the parse stage with gold words withheld (udeval, the CoNLL 2018 scorer): UPOS, LAS, …"""
    from pipeline.evaluate.parse import evaluate_parse

    result = evaluate_parse(gold, mode=mode, limit=limit, system_out=system_out, segmenter_model=segmenter_dir)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    click.echo(f"{result['sentences']} sentences, {result['chars']} chars, {result['seconds']} s, sentences: {mode}")
    for metric, r in result["scores"].items():
        acc = f"  aligned acc {r['aligned_accuracy']:.4f}" if r["aligned_accuracy"] is not None else ""
        click.echo(f"{metric:9s} P {r['p']:.4f} R {r['r']:.4f} F1 {r['f1']:.4f}{acc}")


@eval_group.command("parse-names")
@click.argument("inputs", nargs=-1, type=click.Path(exists=True, dir_okay=False))
def eval_parse_names(inputs):
    """How often UD-Kanbun splits an entity of the tag stage across subtrees (names not merged)."""
    from pipeline import paths
    from pipeline.evaluate.parse import names_report

    files = list(inputs) or [str(p) for p in sorted(paths.CORPUS.glob("*.txt"))]
    click.echo(json.dumps(names_report(files), ensure_ascii=False, indent=1))


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
@click.option("--max-iterations", default=None, type=int, help="CRF training iterations (default 400, ITERATIONS).")
@click.option("--lex-dropout", default=0.7, show_default=True, help="Share of lexicon occurrences hidden from the features in training.")
@click.option("--seed", default=13, show_default=True)
@click.option("--keep-lexicon", is_flag=True, help="Do not rebuild models/lexicon/lexicon.tsv first.")
@reports_input_errors
def train_tagger_cmd(out_dir, max_iterations, lex_dropout, seed, keep_lexicon):
    """Rebuild the lexicon, project it over juan 1-30 (less dev juan 10) and the 經/注 of the train juan of 周禮注疏, train the tagger."""
    from pipeline.train.tag import ITERATIONS, train

    train(out_dir, max_iterations=max_iterations or ITERATIONS, lex_dropout=lex_dropout, seed=seed,
          rebuild_lexicon=not keep_lexicon, log=click.echo)


# --- run and bench (datasets helper, issue 6) ----------------------------------------------


@main.command("run")
@click.argument("inputs", nargs=-1, type=click.Path())
@click.option("--out", "out_dir", default="out", show_default=True, type=click.Path(file_okay=False), help="Output folder of the datasets.")
@click.option("--workers", type=int, default=0, show_default=True, help="Run documents on a Dask LocalCluster of N worker processes (0: serial).")
@click.option("--scheduler", default=None, help="Address of an existing Dask scheduler (tcp://host:8786); workers must see the input paths.")
@click.option("--steps", default="ingest,segment,tag,align,parse,export", show_default=True, help="Stages to run, comma-separated.")
@click.option("--skip", "skip", default="", help="Stages not to run, comma-separated (the dataset card says they were skipped).")
@click.option("--state", "state_in", default=None, type=click.Path(file_okay=False), help="Read saved documents (<doc>.json) from here instead of ingesting.")
@click.option("--save-state", "state_out", default=None, type=click.Path(file_okay=False), help="Save the annotated documents (<doc>.json) here.")
@click.option("--formats", default="all", show_default=True, help="Export formats, comma-separated (jsonl, parquet, sqlite, conllu, spacy, iob, tei, html, card), or all.")
@click.option("--dev", "dev_docs", default=None, help="Documents of the dev split, comma-separated: file stems or Kanripo juan ids (KR1d0003_010, read from the page breaks whatever the file is called; default: juan 10 of the 集釋, juan 10, 20, … of the 注疏).")
@click.option("--summary-json", default=None, type=click.Path(dir_okay=False), help="Also write the run summary (timings, counts) as JSON here.")
@click.option("--segment-model", default=None, type=click.Path(file_okay=False), help=f"Segmenter folder (default {_repo_path(paths.SEGMENTER_DEFAULT)}).")
@click.option("--tag-model", default=None, type=click.Path(file_okay=False), help=f"Tagger folder (default {_repo_path(paths.TAGGER_MODEL)}).")
@click.option("--layout", type=LAYOUT_CHOICE, default="auto", show_default=True, help="Source layout of the inputs; auto reads #+PROPERTY lines.")
@click.option("--encoding", default="utf-8", show_default=True, help="Encoding of the input files (e.g. gb18030, big5).")
@click.option("--base-text", type=click.Path(exists=True), default=None, help="注疏 layout: a plain 經 text (file or folder of mandoku files) to find where the 經 resumes inside a 注, for every 注疏 input (default: the embedded plain text its ID names, else the embedded one that holds its 經; without one it is read by the markers alone, with a warning).")
@click.option("--repunctuate", is_flag=True, help="Restore punctuation in editions already punctuated too (TLS, CHANT; default: keep the edition's marks).")
@click.option("--keep-going", is_flag=True, help="Write the documents that succeeded even if others failed (exit 1; the card lists the failures).")
@click.option("--force", is_flag=True, help="Replace --out / --save-state even when it holds files zhushu did not write.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show a progress bar.")
@reports_input_errors
def run_cmd(inputs, out_dir, workers, scheduler, steps, skip, state_in, state_out, formats, dev_docs, summary_json,
            segment_model, tag_model, layout, encoding, base_text, repunctuate, keep_going, force, progress):
    """Run every stage over INPUT files/folders (default: the embedded 儀禮集釋) and write the datasets.

    --out DIR is replaced as a whole, and only by a complete dataset; it must be new, empty or an
    earlier zhushu output (it holds .zhushu-output), else --force. Exit codes: 0 every document
    ran every requested stage; 2 bad input, usage, or a stage model that cannot be loaded (name it
    in --skip to run without it) — then nothing is written; 1 with --keep-going when some
    documents failed and the others were written.
    """
    from pipeline import atomic, paths
    from pipeline.export import FORMATS
    from pipeline.runner import STAGE_ORDER, print_summary, run

    step_list = [s.strip() for s in steps.split(",") if s.strip()]
    skip_list = [s.strip() for s in skip.split(",") if s.strip()]
    for option, names in (("--steps", step_list), ("--skip", skip_list)):
        unknown = [s for s in names if s not in STAGE_ORDER]
        if unknown:
            raise click.BadParameter(f"unknown stage(s) {', '.join(unknown)}; choose from {', '.join(STAGE_ORDER)}", param_hint=option)
    format_list = list(FORMATS) if formats.strip() == "all" else [f.strip() for f in formats.split(",") if f.strip()]
    unknown = [f for f in format_list if f not in FORMATS]
    if unknown:
        raise click.BadParameter(f"unknown format(s) {', '.join(unknown)}; choose from {', '.join(FORMATS)}", param_hint="--formats")
    summary = run(
        list(inputs) or None,
        out_dir if "export" in step_list else None,
        workers=workers,
        scheduler=scheduler,
        steps=step_list,
        skip=skip_list,
        formats=format_list,
        dev_docs=[d.strip() for d in dev_docs.split(",") if d.strip()] if dev_docs is not None else paths.DEV_DOCS,
        state_in=state_in,
        state_out=state_out,
        models={"segment": segment_model, "tag": tag_model},
        layout=layout,
        encoding=encoding,
        base_text=base_text or "auto",
        stage_options={"segment": {"repunctuate": True}} if repunctuate else None,
        keep_going=keep_going,
        force=force,
        progress=progress,
    )
    print_summary(summary)
    for _path, err in summary.failed:  # one unwrapped line each: FILE:LINE: message
        click.echo(f"zhushu: error: {err}", err=True)
    if summary_json:
        atomic.write_text(summary_json, json.dumps(summary.to_json(), ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    if summary.failed:
        if keep_going:
            click.echo(f"zhushu: {len(summary.failed)} document(s) failed; the others were written to {out_dir}", err=True)
            sys.exit(1)
        click.echo("zhushu: nothing was written (the earlier output, if any, is unchanged); --keep-going writes the documents that succeeded", err=True)
        sys.exit(2)


def _database(out: str) -> Path:
    """The sqlite/zhushu.db of an output folder (or the file itself); a clear error when absent."""
    from pipeline.export.sqlite import PATH, open_database

    db = open_database(out)
    if not db.is_file():
        raise InputError(str(db), None, f"no database here: run `zhushu run --out {out}` first "
                                        f"(its formats must include sqlite: {PATH})")
    return db


@main.command("serve")
@click.argument("out", default="out", type=click.Path())
@click.option("--port", type=int, default=8001, show_default=True, help="Port on 127.0.0.1.")
@reports_input_errors
def serve_cmd(out, port):
    """Serve OUT's database (OUT/sqlite/zhushu.db, or the .db file) with Datasette on 127.0.0.1:
    tables, full-text search and canned queries (KWIC, a word's commentary, readings,
    frequency, collocation)."""
    from pipeline.serve import serve

    db = _database(out)
    click.echo(f"zhushu: serving {db} at http://127.0.0.1:{port}/zhushu (Ctrl-C stops)", err=True)
    serve(db, port=port)


@main.group(name="stats")
def stats_group() -> None:
    """Frequencies and collocations from a dataset's database (the canned queries of `zhushu serve`)."""


def _stats_options(fn):
    # every units table has a source column (export.records.SCHEMAS; serve.queries filters on it); this
    # module imports neither while it loads, so that `zhushu train` runs without the export stage's
    # packages (a GPU machine has no orjson)
    for opt in reversed([
        click.option("--book", default="", help="A title (儀禮集釋) or Kanripo id (KR1d0030); default all."),
        click.option("--kind", default="", help="Unit kind: base, commentary, title, header."),
        click.option("--marker", default="", help="Commentary marker: 鄭注, 釋曰, 注, 疏, 音義 …"),
        click.option("--source", default="", help="Who speaks (units.source)."),
        click.option("--by", "by", type=click.Choice(["char", "word"]), default="char", show_default=True,
                     help="Characters (every run) or words (the parse stage's tokens)."),
        click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True),
    ]):
        fn = opt(fn)
    return fn


def _print_table(columns: list[str], rows: list[tuple], fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps([dict(zip(columns, r)) for r in rows], ensure_ascii=False, indent=1))
        return
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    click.echo(buf.getvalue(), nl=False)


def _stats_query(out: str, name: str, **params) -> tuple[list[str], list[tuple]]:
    import sqlite3

    from pipeline.serve.queries import run_query

    db = _database(out)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return run_query(conn, name, **{k: str(v) for k, v in params.items() if v is not None})
    finally:
        conn.close()


@stats_group.command("frequency")
@click.argument("out", default="out", type=click.Path())
@_stats_options
@click.option("--limit", type=int, default=100, show_default=True, help="The most frequent N.")
@reports_input_errors
def stats_frequency(out, by, fmt, limit, **filters):
    """The most frequent characters (or words) of OUT's database: item, n, per million."""
    _print_table(*_stats_query(out, "frequency", by=by, limit=limit, **filters), fmt)


@stats_group.command("collocates")
@click.argument("out", type=click.Path())
@click.argument("node")
@_stats_options
@click.option("--window", type=int, default=5, show_default=True, help="Characters (words) left and right of the node.")
@click.option("--min-count", type=int, default=1, show_default=True, help="Leave out collocates seen fewer times.")
@reports_input_errors
def stats_collocates(out, node, by, fmt, window, min_count, **filters):
    """Collocates of NODE in OUT's database, ranked by log-likelihood: observed, frequency,
    expected, MI, log-likelihood."""
    name = "collocates" if by == "char" else "collocates_words"
    _print_table(*_stats_query(out, name, q=node, window=window, min_count=min_count, **filters), fmt)


@main.command("bench")
@click.option("--out", "out_json", default="benchmarks/results.json", show_default=True, type=click.Path(dir_okay=False), help="Write the measures here (JSON).")
@click.option("--copies", default=10, show_default=True, help="Copies of the book in the scale-out corpus.")
@click.option("--skip-dask", is_flag=True, help="Skip the 1 vs 2 Dask workers measure.")
@click.option("--skip-udkanbun", is_flag=True, help="Skip the UD-Kanbun comparison.")
@click.option("--repeats", default=1, show_default=True, help="Alternate 1 and 2 workers this many times, keep the fastest of each.")
@click.option("--snapshot/--no-snapshot", default=True, show_default=True, help="Run on a snapshot of the committed tree (git archive HEAD), safe from concurrent edits.")
def bench_cmd(out_json, copies, skip_dask, skip_udkanbun, repeats, snapshot):
    """Benchmarks: chars/s per stage, whole-book time and peak memory, UD-Kanbun, 1 vs 2 Dask workers."""
    from pipeline.runner.bench import run_benchmarks, run_in_snapshot

    if snapshot:
        args = ["--copies", str(copies), "--repeats", str(repeats)] + (["--skip-dask"] if skip_dask else []) + (["--skip-udkanbun"] if skip_udkanbun else [])
        result = run_in_snapshot(str(Path(out_json).resolve()), args, log=lambda m: click.echo(m, err=True))
        click.echo(json.dumps(result, ensure_ascii=False, indent=1))
        if not result.get("measures_ok", False):
            sys.exit(1)
        return
    result = run_benchmarks(out_json, copies=copies, dask=not skip_dask, udkanbun=not skip_udkanbun, repeats=repeats,
                            log=lambda m: click.echo(m, err=True))
    click.echo(json.dumps(result, ensure_ascii=False, indent=1))
    if not result.get("measures_ok", True):
        sys.exit(1)


@train_group.command("gloss-heads")
def train_gloss_heads_cmd():
    """Rebuild models/gloss_heads/weights.json (the align stage's head classifier) from data/punct."""
    from pipeline.train.gloss_heads import train

    info = train()
    click.echo(json.dumps({k: v for k, v in info.items() if k != "weights"}, ensure_ascii=False))


@train_group.command("passage-prior")
@click.option("--segmenter", "model_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="The segmenter folder to fit it for (default models/segmenter-v2).")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="The folder to write: one that refers to the segmenter and adds the prior (default, for v2: "
                   "models/segmenter-v2-passage, the fast option); the segmenter's own folder to add the prior to it.")
@reports_input_errors
def train_passage_prior_cmd(model_dir, out_dir):
    """Fit a segmenter's passage prior (a 注 read with its 經 unit) on the train juan; deterministic."""
    from pipeline.train.segment.passage import train_passage_prior

    if out_dir is None and model_dir is not None:
        # the prior changes every 注 the folder marks: never added to a model folder unasked
        raise click.UsageError("--out is required with --segmenter (a folder of its own, or the segmenter's folder itself)")
    path = train_passage_prior(Path(model_dir) if model_dir else paths.SEGMENTER_MODEL, out_dir or paths.SEGMENTER_PASSAGE,
                               log=lambda m: click.echo(m, err=True))
    click.echo(f"wrote {path}")


@train_group.command("context-prior")
@click.option("--segmenter", "model_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="The segmenter folder to fit it for and write it to (default: the default segmenter's folder, "
                   "models/segmenter-v7-passage).")
@reports_input_errors
def train_context_prior_cmd(model_dir):
    """Fit a segmenter's context prior (breaks of the 疏 / 經, sentence-final marks) on the train juan; deterministic."""
    from pipeline.train.segment.context import train_context_prior

    path = train_context_prior(Path(model_dir) if model_dir else paths.SEGMENTER_DEFAULT, log=lambda m: click.echo(m, err=True))
    click.echo(f"wrote {path}")


@train_group.command("segment-memory")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="The memory folder to write (default models/segment-memory).")
@click.option("--segmenter", "model_dir", default=None, type=click.Path(file_okay=False, exists=True),
              help="The segmenter folder whose config.json is to read the memory (default: the default segmenter, "
                   "models/segmenter-v7-passage).")
@click.option("--window", type=click.IntRange(2, 10), default=None, help="Characters a remembered stretch holds (6).")
@reports_input_errors
def train_segment_memory_cmd(out_dir, model_dir, window):
    """Build the segmenter's phrase memory from the train split (the tune juan left out); deterministic."""
    from pipeline.train.segment.memory import N, attach_memory, build_memory

    out = build_memory(Path(out_dir) if out_dir else paths.SEGMENT_MEMORY, n=window or N, log=lambda m: click.echo(m, err=True))
    cfg = attach_memory(Path(model_dir) if model_dir else paths.SEGMENTER_DEFAULT, out)
    click.echo(f"wrote {out}; {cfg} reads it")


@train_group.command("quotations")
@click.option("--reader", type=click.Choice(["spans", "tagger"]), default="spans", show_default=True,
              help="spans: the shipped span reader (models/quotations/spans.json); tagger: the CRF compared in docs "
                   "(models/quotations/model.crfsuite).")
@click.option("--out", "out_path", default=None, type=click.Path(dir_okay=False), help="Model file (default: the reader's).")
@click.option("--max-iterations", type=int, default=None, help="Override the CRF's L-BFGS iterations (50).")
def train_quotations_cmd(reader, out_path, max_iterations):
    """Rebuild a 疏 quotation reader from the train split of data/quotes (deterministic)."""
    from pipeline.train.quotations import MODEL_PATH, SPANS_PATH, train, train_spans

    log = lambda m: click.echo(m, err=True)  # noqa: E731
    if reader == "spans":
        train_spans(Path(out_path) if out_path else SPANS_PATH, log=log)
    else:
        train(Path(out_path) if out_path else MODEL_PATH, max_iterations=max_iterations, log=log)


@train_group.command("variants")
def train_variants_cmd():
    """Rebuild models/variants/fold.tsv (variant folding for the align stage) from OpenCC's dictionaries."""
    from pipeline.train.variants import TABLE_PATH, write_table

    click.echo(f"wrote {write_table()} entries to {TABLE_PATH}")


if __name__ == "__main__":  # pragma: no cover
    main()
