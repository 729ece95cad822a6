"""The runner: serial runs are reproducible byte for byte, Dask (2 worker processes) gives the
same bytes, a bad input file stops the run before any document is processed (--keep-going: the
rest is processed), stage-by-stage runs
through saved states give the same datasets as one run, a stage whose model cannot be loaded
stops the run unless it is skipped."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.runner import run

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "export"
HEAD10 = (FIX / "KR1d0030_010.txt").read_text(encoding="utf-8").split("\n")[:12]


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("in")
    for name in ("KR1d0030_001.txt", "KR1d0030_010.txt"):
        shutil.copy(FIX / name, d / name)
    return d


@pytest.fixture(scope="module")
def serial(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial")
    summary = run([str(inputs)], out, progress=False)
    return out, summary


def test_serial_run_writes_every_format_and_reports_stages(serial):
    out, summary = serial
    assert summary.ok and summary.documents == 2
    files = tree(out)
    for name in ("README.md", "jsonl/units.jsonl", "parquet/glosses.parquet", "conllu/KR1d0030_010.conllu",
                 "spacy/dev.spacy", "iob/train.iob", "tei/KR1d0030_001.xml", "html/index.html",
                 "sqlite/zhushu.db"):
        assert name in files, name
    # every stage ran (the shipped models load), and the datasets carry what they provide
    assert summary.stages == {s: "ran" for s in ("ingest", "segment", "tag", "align", "parse", "export")}
    assert summary.counts["sentences"] > 0 and summary.counts["entities"] > 0 and summary.counts["glosses"] > 0
    assert summary.counts["tokens"] > 0
    card = files["README.md"].decode()
    for stage, status in summary.stages.items():  # a stage with a model names it
        shown = {"segment": "ran (model models/segmenter-v7-passage)", "tag": "ran (model models/tagger)"}.get(stage, status)
        assert f"| {stage} | {shown} |" in card
    assert not any(p.name.endswith(".tmp") for p in out.rglob("*"))


def test_two_runs_are_byte_identical(serial, inputs, tmp_path):
    out, _ = serial
    again = tmp_path / "again"
    run([str(inputs)], again, progress=False)
    assert tree(again) == tree(out)


def test_dask_two_workers_equal_serial(serial, inputs, tmp_path):
    out, _ = serial
    dask_out = tmp_path / "dask"
    summary = run([str(inputs)], dask_out, workers=2, progress=False)
    assert summary.ok and summary.mode.startswith("dask LocalCluster, 2")
    assert tree(dask_out) == tree(out)


def test_saved_state_stage_by_stage_equals_one_run(serial, inputs, tmp_path):
    out, _ = serial
    state1, state2, final = tmp_path / "s1", tmp_path / "s2", tmp_path / "final"
    run([str(inputs)], None, steps=["ingest"], state_out=str(state1), progress=False)
    assert sorted(p.name for p in state1.iterdir()) == [".zhushu-output", "KR1d0030_001.json", "KR1d0030_010.json"]
    run(None, None, steps=["segment", "tag", "align", "parse"], state_in=str(state1), state_out=str(state2), progress=False)
    run(None, final, steps=["export"], state_in=str(state2), progress=False)
    assert tree(final) == tree(out)


def test_bad_input_is_reported_and_nothing_is_written(inputs, tmp_path):
    bad = tmp_path / "KR1d0030_099.txt"
    bad.write_text("\n".join(HEAD10 + ["司射適西階西)倚扑"]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(inputs), str(bad), "--out", str(out), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert f"zhushu: error: {bad}:13: unbalanced" in result.output  # one line: FILE:LINE: message
    assert "Traceback" not in result.output and "0 ok, 1 failed" in result.output  # checked before any ran
    assert not out.exists()


def test_a_broken_file_after_good_ones_stops_the_run_before_any_model_or_document(inputs, tmp_path, monkeypatch):
    """Every input's markup is checked first: no stage is loaded, no document read or segmented."""
    import pipeline.runner as runner

    def never(*args, **kwargs):
        raise AssertionError("the run went on past a broken input")

    for name in ("check_stages", "run_serial", "run_dask", "process_item"):
        monkeypatch.setattr(runner, name, never)
    bad = tmp_path / "KR1d0030_999.txt"  # sorted last, given last
    bad.write_text("\n".join(HEAD10 + ["司射適西階西(案此下各"]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(inputs), str(bad), "--out", str(out), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert f"zhushu: error: {bad}:13: unbalanced '('" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_keep_going_writes_the_good_documents_and_lists_the_failure(inputs, tmp_path):
    bad = tmp_path / "KR1d0030_099.txt"
    bad.write_text("\n".join(HEAD10 + ["司射適西階西)倚扑"]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(inputs), str(bad), "--out", str(out), "--no-progress", "--keep-going"])
    assert result.exit_code == 1, result.output
    assert (out / "tei" / "KR1d0030_010.xml").exists() and (out / "tei" / "KR1d0030_001.xml").exists()
    assert not (out / "tei" / "KR1d0030_099.xml").exists()
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "## Failed documents" in card and f"| {bad} |" in card


def test_scheduler_address_runs_on_an_existing_cluster(serial, inputs, tmp_path):
    from dask.distributed import LocalCluster

    out, _ = serial
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        summary = run([str(inputs)], tmp_path / "sched", scheduler=cluster.scheduler_address, progress=False)
    assert summary.ok and summary.mode == f"dask scheduler {cluster.scheduler_address}"
    assert tree(tmp_path / "sched") == tree(out)


def test_default_input_is_the_embedded_book():
    from pipeline.runner import default_inputs

    files = default_inputs()
    assert len(files) == 31 and Path(files[0]).name == "KR1d0030_000.txt" and Path(files[-1]).name == "KR1d0030_030.txt"


def test_a_rerun_replaces_the_output_folder_as_a_whole(inputs, tmp_path):
    out = tmp_path / "out"
    run([str(inputs)], out, progress=False, formats=["tei", "jsonl", "conllu"])
    (out / "notes.txt").write_text("left from before", encoding="utf-8")
    run([str(inputs / "KR1d0030_010.txt")], out, progress=False, formats=["tei", "jsonl"])
    assert sorted(p.name for p in (out / "tei").iterdir()) == ["KR1d0030_010.xml"]
    assert "KR1d0030_001" not in (out / "jsonl" / "units.jsonl").read_text(encoding="utf-8")
    assert not (out / "conllu").exists() and not (out / "notes.txt").exists()  # nothing of the earlier run
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_outputs_are_readable_by_others(serial):
    """The usual modes under the process's umask (0644 / 0755 under 022), not mkstemp's 0600."""
    import os

    umask = os.umask(0o022)
    os.umask(umask)
    out, _ = serial
    for p in [out, *out.rglob("*")]:
        assert p.stat().st_mode & 0o777 == (0o777 if p.is_dir() else 0o666) & ~umask, p


def test_local_cluster_workers_get_plain_malloc_and_one_blas_thread():
    import os

    from dask.distributed import Client

    from pipeline.runner import local_cluster

    with local_cluster(1) as cluster, Client(cluster) as client:
        env = client.submit(lambda: {k: os.environ.get(k) for k in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX", "OMP_NUM_THREADS")}).result()
    assert env == {"MALLOC_TRIM_THRESHOLD_": None, "MALLOC_ARENA_MAX": "1", "OMP_NUM_THREADS": "1"}


@pytest.mark.parametrize("option,stage", [("--segment-model", "segment"), ("--tag-model", "tag")])
def test_a_stage_model_that_does_not_load_stops_the_run(inputs, tmp_path, option, stage):
    out = tmp_path / "out"
    missing = tmp_path / "no-such-model"
    result = CliRunner().invoke(main, ["run", str(inputs), "--out", str(out), "--no-progress", option, str(missing)])
    assert result.exit_code == 2, result.output
    assert f"stage {stage}" in result.output and str(missing) in result.output
    assert "Traceback" not in result.output
    assert not out.exists()  # nothing was written


def test_a_skipped_stage_is_not_loaded_and_the_card_says_so(inputs, tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(inputs), "--out", str(out), "--no-progress", "--formats", "jsonl,card",
                                       "--skip", "tag", "--tag-model", str(tmp_path / "no-such-model")])
    assert result.exit_code == 0, result.output
    assert "| tag | skipped (--skip) |" in (out / "README.md").read_text(encoding="utf-8")
    assert (out / "jsonl" / "entities.jsonl").read_text(encoding="utf-8") == ""
    assert (out / "jsonl" / "sentences.jsonl").read_text(encoding="utf-8") != ""


def test_on_dask_the_workers_load_and_check_the_models_not_the_driver(inputs, tmp_path, monkeypatch):
    """A Dask run loads no model in the driver (~600 MB it never used); a model the workers
    cannot load still stops the run before any document, with the serial runner's message."""
    import pipeline.runner as runner

    def never(*args, **kwargs):
        raise AssertionError("the driver loaded a model")

    monkeypatch.setattr(runner, "load_stage", never)
    good = run([str(inputs / "KR1d0030_010.txt")], tmp_path / "good", workers=1, progress=False, formats=["jsonl"])
    assert good.ok and good.stages["segment"] == "ran"
    out, missing = tmp_path / "out", tmp_path / "no-such-model"
    result = CliRunner().invoke(main, ["run", str(inputs), "--out", str(out), "--no-progress", "--workers", "1",
                                       "--tag-model", str(missing)])
    assert result.exit_code == 2, result.output
    # the check's own error, not two documents failed by their workers
    assert f"zhushu: error: stage tag: cannot load its model from {missing}: " in result.output, result.output
    assert "worker error" not in result.output and "Traceback" not in result.output
    assert not out.exists()


def _card_of(tmp_path, juan: list[Path], *skip: str, terminal: list | None = None) -> str:
    """The dataset card of a run over these juan files (jsonl and the card, the parse skipped);
    `terminal` gets what the run printed."""
    inputs = tmp_path / "in"
    shutil.rmtree(inputs, ignore_errors=True)
    inputs.mkdir()
    for path in juan:
        shutil.copy(path, inputs)
    out = tmp_path / ("out-" + "-".join(skip or ("all",)))
    result = CliRunner().invoke(main, ["run", str(inputs), "--out", str(out), "--no-progress", "--formats", "jsonl,card",
                                       "--skip", ",".join(("parse", *skip))])  # one --skip: a second replaces the first
    assert result.exit_code == 0, result.output
    if terminal is not None:
        terminal.append(result.output)
    return (out / "README.md").read_text(encoding="utf-8")


def _section(card: str, title: str) -> str:
    return card.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


JISHI_FIXTURE = ROOT / "tests" / "fixtures" / "export" / "KR1d0030_001.txt"


def test_the_card_says_which_books_lie_outside_the_taggers_ritual_books(tmp_path):
    """The tagger knows the 禮類 (KR1d); a 周易 juan is named in the card as outside it, with what
    was measured there, and a ritual book is not (docs/entities.md, "Other books by hand")."""
    juan = [ROOT / "data" / "tls" / "KR1a0001" / "KR1a0001_001.txt", JISHI_FIXTURE]
    card = _card_of(tmp_path, juan)
    section = _section(card, "Entities outside the ritual books")
    assert "KR1a0001 (1 juan)" in section and "KR1d0030" not in section
    # the 周易 keeps its edition's marks and the 集釋's are measured: no punctuation section
    assert "## Punctuation of books it was not measured on" not in card
    assert "## Entities outside" not in _card_of(tmp_path, juan, "tag")  # no tag stage, no entities


def test_the_card_names_books_whose_punctuation_is_unmeasured(tmp_path):
    """Restored punctuation is measured on the 集釋 and the two 注疏; a juan of another book (here
    儀禮釋宮, KR1d0031) is named in the card as unmeasured, with the hand check of an unseen book
    (docs/segmentation.md, "Stop 46: a book the segmenter does not know")."""
    card = _card_of(tmp_path, [ROOT / "data" / "corpus" / "KR1d0031" / "KR1d0031_000.txt", JISHI_FIXTURE])
    section = _section(card, "Punctuation of books it was not measured on")
    assert "KR1d0031 (1 juan)" in section and "KR1d0030" not in section


def test_the_card_says_the_kaozheng_punctuation_is_unmeasured(tmp_path):
    """A 注疏's 考證 is punctuated (stop 83) but no edition punctuates it to measure against: the card names the juan
    that hold one, with the hand check (docs/segmentation.md, "Stop 83"); a juan without one (the 集釋's) is not named,
    and without the segment stage there is no section. 周禮注疏 juan 1 (tests/fixtures/zhushu, train juan)."""
    juan = [ROOT / "tests" / "fixtures" / "zhushu" / "KR1d0003_001.txt", JISHI_FIXTURE]
    card = _card_of(tmp_path, juan)
    section = _section(card, "Punctuation of the 考證")
    assert "KR1d0003 (1 juan)" in section and "KR1d0030" not in section and "15 are right" in section
    assert "## Punctuation of the 考證" not in _card_of(tmp_path, juan, "segment", "tag", "align")


def test_the_run_says_on_the_terminal_what_the_card_warns_of(tmp_path):
    """A user who never opens the card still sees, under the run's summary, the books whose
    annotations are outside what was measured (the card's sections, a line each); a run of a
    measured book prints no such line, under whatever name its file is saved (the book is the
    file's #+PROPERTY ID)."""
    printed: list[str] = []
    _card_of(tmp_path, [ROOT / "data" / "tls" / "KR1a0001" / "KR1a0001_001.txt", JISHI_FIXTURE], terminal=printed)
    renamed = tmp_path / "jishi_juan1.txt"
    shutil.copy(JISHI_FIXTURE, renamed)
    _card_of(tmp_path, [renamed], terminal=printed)
    assert "README.md) warns:" in printed[0], printed[0]
    assert "- Entities outside the ritual books: KR1a0001 (1 juan)" in printed[0]
    assert "warns:" not in printed[1], printed[1]


def test_a_dev_juan_saved_under_another_name_stays_in_the_dev_split(tmp_path):
    """The split is the juan's, not the file name's: the 集釋's dev juan copied as `dashe.txt` was
    labelled train in `documents.split` (a user training on the train split would have trained on
    it). The juan comes from the file's page breaks (`<pb:KR1d0030_WYG_010-1a>`) now."""
    import json

    renamed = tmp_path / "in" / "dashe.txt"
    renamed.parent.mkdir()
    shutil.copy(ROOT / "data" / "corpus" / "KR1d0030" / "KR1d0030_010.txt", renamed)
    run([str(renamed)], tmp_path / "out", steps=["ingest", "export"], formats=["jsonl"], progress=False)
    doc = json.loads((tmp_path / "out" / "jsonl" / "documents.jsonl").read_text(encoding="utf-8"))
    assert (doc["doc"], doc["split"]) == ("dashe", "dev")


def test_the_card_s_warnings_are_listed_in_document_order_whatever_order_the_documents_finish():
    """On Dask the documents finish in any order; the run's summary listed the withdrawn glosses of
    表記集傳 as juan 2, juan 1 in one run and juan 1, juan 2 in the next."""
    from pipeline.export.card import caveats

    def stats(doc: str, withdrawn: int) -> dict:
        return {"document": {"doc": doc, "book": "KR1d0063", "warnings": [f"{doc}.txt:1: w"], "stages": ""},
                "glosses_withdrawn": {"explanation": withdrawn}}

    a, b = stats("KR1d0063_001", 35), stats("KR1d0063_002", 53)
    assert caveats([b, a]) == caveats([a, b])
    assert "KR1d0063_001 (35 glosses), KR1d0063_002 (53 glosses)" in caveats([b, a])[1]
