"""`--out` (and `--save-state`) replace only what zhushu wrote: a new or empty folder, or an
earlier zhushu output (it holds the marker file .zhushu-output); any other folder is refused
(exit 2, its files untouched) unless --force. Input: 儀禮集釋 juan 1 (train), the export
fixture."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pipeline import paths
from pipeline.cli import main
from pipeline.export.bundle import OUTPUT_MARKER

GOOD = paths.REPO / "tests" / "fixtures" / "export" / "KR1d0030_001.txt"
ARGS = ["--no-progress", "--formats", "jsonl", "--steps", "ingest,export"]


def _run(out: Path, *extra: str):
    return CliRunner().invoke(main, ["run", str(GOOD), "--out", str(out), *ARGS, *extra])


def test_a_folder_of_the_users_own_files_is_refused_and_kept(tmp_path):
    out = tmp_path / "myfolder"
    out.mkdir()
    (out / "thesis.tex").write_text("my own work", encoding="utf-8")
    result = _run(out)
    assert result.exit_code == 2, result.output
    assert f"zhushu: error: {out}: the folder holds files zhushu did not write (thesis.tex)" in result.output
    assert "--force" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["thesis.tex"] and (out / "thesis.tex").read_text() == "my own work"


def test_force_replaces_it(tmp_path):
    out = tmp_path / "myfolder"
    out.mkdir()
    (out / "thesis.tex").write_text("my own work", encoding="utf-8")
    result = _run(out, "--force")
    assert result.exit_code == 0, result.output
    assert not (out / "thesis.tex").exists() and (out / "jsonl" / "units.jsonl").is_file()


def test_new_empty_and_earlier_outputs_are_replaced(tmp_path):
    new = tmp_path / "new"
    assert _run(new).exit_code == 0
    assert (new / OUTPUT_MARKER).is_file() and (new / "jsonl" / "units.jsonl").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _run(empty).exit_code == 0 and (empty / OUTPUT_MARKER).is_file()
    # an earlier output, with a file a user added to it: the folder is zhushu's, replaced whole
    (new / "added.txt").write_text("x", encoding="utf-8")
    result = _run(new)
    assert result.exit_code == 0, result.output
    assert not (new / "added.txt").exists() and (new / OUTPUT_MARKER).is_file()


def test_the_state_folder_is_guarded_too(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "notes.md").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(GOOD), "--out", str(tmp_path / "out"), *ARGS,
                                       "--save-state", str(state)])
    assert result.exit_code == 2 and "notes.md" in result.output and not (tmp_path / "out").exists()
    assert (state / "notes.md").read_text() == "mine"
