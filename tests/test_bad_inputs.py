"""Bad inputs and broken set-ups, each run by `zhushu run` into a folder that holds a good dataset:
the exit code is non-zero, the message names the file (and line where there is one), and the
good dataset is byte-identical afterwards (issue 12). Inputs are cut from juan 1 (train)."""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline import atomic, paths
from pipeline.cli import main

GOOD = paths.REPO / "tests" / "fixtures" / "export" / "KR1d0030_001.txt"
ZHOULI = (paths.REPO / "tests" / "fixtures" / "zhushu" / "KR1d0003_001.txt").read_text(encoding="utf-8")  # the 注疏 layout, juan 1
LINES = GOOD.read_text(encoding="utf-8").split("\n")
HEAD = LINES[:13]  # properties, page break, header, title and the first base line
FORMATS = "jsonl,tei,card"


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    out = tmp_path_factory.mktemp("good") / "out"
    result = CliRunner().invoke(main, ["run", str(GOOD), "--out", str(out), "--no-progress", "--formats", FORMATS])
    assert result.exit_code == 0, result.output
    return out, tree(out)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(text, bytes) else lambda t: path.write_text(t, encoding="utf-8"))(text)
    return path


def bad_model(tmp: Path, kind: str) -> Path:
    """A copy of a shipped model with one file broken."""
    src = paths.SEGMENTER_MODEL if kind == "segment" else paths.TAGGER_MODEL
    dst = tmp / f"broken-{kind}"
    shutil.copytree(src, dst)
    if kind == "segment":
        write(dst / "config.json", '{"type": "bilstm", "arch": ')
    else:
        write(dst / "model.crfsuite", b"not a crfsuite model")
    return dst


# name -> (args builder(tmp) -> (cli args, what the message must name), expected exit code)
CASES = {
    "empty file": lambda t: ([str(write(t / "KR1d0030_901.txt", ""))], t / "KR1d0030_901.txt"),
    "blank file": lambda t: ([str(write(t / "KR1d0030_902.txt", "\n \n"))], t / "KR1d0030_902.txt"),
    "binary file": lambda t: ([str(write(t / "KR1d0030_903.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00"))], f"{t / 'KR1d0030_903.txt'}:3"),
    "GB18030 read as UTF-8": lambda t: ([str(write(t / "KR1d0030_904.txt", "\n".join(HEAD).encode("gb18030")))],
                                        f"{t / 'KR1d0030_904.txt'}:2"),
    "unknown encoding": lambda t: ([str(GOOD), "--encoding", "klingon"], GOOD),
    "unclosed note": lambda t: ([str(write(t / "KR1d0030_905.txt", "\n".join(HEAD + ["司射適西階(案此下各¶"])))],
                                f"{t / 'KR1d0030_905.txt'}:14"),
    "unopened note": lambda t: ([str(write(t / "KR1d0030_906.txt", "\n".join(HEAD + ["司射適西階西)倚扑¶"])))],
                                f"{t / 'KR1d0030_906.txt'}:14"),
    # stop 52: an editor's wrapped line, a width-converting tool's notes (read to other units with exit 0 before)
    "a printed line an editor wrapped": lambda t: ([str(write(t / "KR1d0030_915.txt", "\n".join(HEAD + ["司射適西階", "西倚扑¶"])))],
                                                   f"{t / 'KR1d0030_915.txt'}:14"),
    "notes made full-width": lambda t: ([str(write(t / "KR1d0030_916.txt", "\n".join(HEAD + ["司射適西階（案此下各／）¶"])))],
                                        f"{t / 'KR1d0030_916.txt'}:14"),
    "unknown entity": lambda t: ([str(write(t / "KR1d0030_907.txt", "\n".join(HEAD + ["司射&KR99999;適¶"])))],
                                 f"{t / 'KR1d0030_907.txt'}:14"),
    "broken entity": lambda t: ([str(write(t / "KR1d0030_908.txt", "\n".join(HEAD + ["司射&KR12;適¶"])))],
                                f"{t / 'KR1d0030_908.txt'}:14"),
    "unclosed page break": lambda t: ([str(write(t / "KR1d0030_909.txt", "\n".join(HEAD + ["司射<pb:X_WYG_001-2a適¶"])))],
                                      f"{t / 'KR1d0030_909.txt'}:14"),
    "only headers": lambda t: ([str(write(t / "KR1d0030_910.txt", "\n".join(LINES[:7])))], t / "KR1d0030_910.txt"),
    "huge file": lambda t: ([str(write(t / "KR1d0030_911.txt", b"a" * (atomic_limit() + 1)))], t / "KR1d0030_911.txt"),
    "missing path": lambda t: ([str(t / "no-such-file.txt")], t / "no-such-file.txt"),
    "folder without .txt": lambda t: ([str(write(t / "in" / "notes.md", "x").parent)], t / "in"),
    "empty folder": lambda t: ([str(_mkdir(t / "empty"))], t / "empty"),
    "one good and one bad file": lambda t: ([str(_copy(GOOD, t / "mix")), str(write(t / "mix" / "KR1d0030_912.txt", ""))],
                                           t / "mix" / "KR1d0030_912.txt"),
    "the same document twice": lambda t: ([str(GOOD), str(_copy(GOOD, t / "twice"))], "duplicate document id"),
    "missing segment model": lambda t: ([str(GOOD), "--segment-model", str(t / "no-model")], t / "no-model"),
    "missing tagger model": lambda t: ([str(GOOD), "--tag-model", str(t / "no-model")], t / "no-model"),
    "broken segment model": lambda t: ([str(GOOD), "--segment-model", str(bad_model(t, "segment"))], t / "broken-segment"),
    "broken tagger model": lambda t: ([str(GOOD), "--tag-model", str(bad_model(t, "tag"))], t / "broken-tag"),
    "a stage without what it needs": lambda t: ([str(GOOD), "--steps", "ingest,align,export"], "stage align needs segment"),
    "unknown stage": lambda t: ([str(GOOD), "--skip", "parse-everything"], "parse-everything"),
    "unknown format": lambda t: ([str(GOOD), "--formats", "docx"], "docx"),
    "注疏: a marker with nothing after it": lambda t: (
        [str(write(t / "KR1d0003_913.txt", ZHOULI.replace("惟王建國注建立也", "惟王建國注音義(王/)建立也", 1)))],
        f"{t / 'KR1d0003_913.txt'}:{_line_of(ZHOULI, '惟王建國注建立也')}"),
    "注疏: an unclosed note": lambda t: (
        [str(write(t / "KR1d0003_914.txt", ZHOULI.replace("(官之首同此序者", "(官之首同此序者(", 1)))],
        f"{t / 'KR1d0003_914.txt'}:{_line_of(ZHOULI, '(官之首同此序者')}"),
    "broken saved state": lambda t: (["--steps", "export", "--state", str(write(t / "state" / "KR1d0030_001.json", "{").parent)],
                                     t / "state" / "KR1d0030_001.json"),
    # `run -` read standard input in its check, then found it empty ("empty file", stop 48)
    "standard input": lambda t: (["-"], "`zhushu run` reads files and folders, not standard input"),
    # JSON of another shape in the state folder (a traceback, KeyError 'document', before stop 48)
    "a JSON file that is no saved state": lambda t: (
        ["--steps", "export", "--state", str(write(t / "state" / "KR1d0030_001.json", '{"records": []}').parent)],
        f"{t / 'state' / 'KR1d0030_001.json'}: not a saved document of this zhushu"),
    "a state of another version": lambda t: (
        ["--steps", "export", "--state", str(write(t / "state" / "KR1d0030_001.json", '{"version": 0, "document": {}}').parent)],
        "saved in state version 0, this zhushu reads 1"),
}


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def atomic_limit() -> int:
    from pipeline.ingest.source import MAX_BYTES

    return MAX_BYTES


def _mkdir(p: Path) -> Path:
    p.mkdir(parents=True, exist_ok=True)
    return p


def _copy(src: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(src, folder / src.name))


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_leaves_the_good_dataset_untouched(good, tmp_path, case):
    out, before = good
    args, named = CASES[case](tmp_path)
    result = CliRunner().invoke(main, ["run", "--out", str(out), "--no-progress", "--formats", FORMATS, *args])
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    assert str(named) in result.output, result.output
    assert tree(out) == before
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no staging folder left behind


@pytest.mark.parametrize("failure", [errno.ENOSPC, errno.EROFS])
def test_a_failed_write_leaves_the_good_dataset_untouched(good, monkeypatch, failure):
    """A full disk or a read-only file system (simulated: the tests run as root, whom
    permissions do not stop), on the third file of the new dataset."""
    from pipeline.export import Sink

    out, before = good
    real, calls = Sink.open, []

    def failing(self, rel):  # every file of the dataset is opened here (Sink.write included)
        calls.append(rel)
        if len(calls) == 3:
            raise OSError(failure, "simulated")
        return real(self, rel)

    monkeypatch.setattr(Sink, "open", failing)
    result = CliRunner().invoke(main, ["run", str(GOOD), "--out", str(out), "--no-progress", "--formats", FORMATS])
    assert result.exit_code == 2 and f"{out}: cannot write the output" in result.output, result.output
    assert tree(out) == before
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]


def test_out_is_a_file_or_holds_the_inputs(good, tmp_path):
    out, before = good
    a_file = write(tmp_path / "out.txt", "x")
    result = CliRunner().invoke(main, ["run", str(GOOD), "--out", str(a_file), "--no-progress", "--formats", FORMATS])
    assert result.exit_code == 2 and str(a_file) in result.output and a_file.read_text() == "x"
    inputs = _copy(GOOD, tmp_path / "corpus").parent
    result = CliRunner().invoke(main, ["run", str(inputs), "--out", str(inputs), "--no-progress"])
    assert result.exit_code == 2 and "would replace" in result.output and (inputs / GOOD.name).exists()


def test_the_card_and_state_files_are_json_and_markdown(good):
    # guards the fixture itself: a good run wrote what the cases compare against
    out, before = good
    assert "README.md" in before and "jsonl/units.jsonl" in before
    assert all(json.loads(line) for line in before["jsonl/units.jsonl"].decode().splitlines())


def test_the_encoding_advice_can_be_followed(tmp_path):
    src = write(tmp_path / "in" / GOOD.name, GOOD.read_text(encoding="utf-8").encode("gb18030"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(src), "--out", str(out), "--no-progress", "--formats", "jsonl"])
    assert result.exit_code == 2 and "--encoding gb18030" in result.output
    result = CliRunner().invoke(main, ["run", str(src), "--out", str(out), "--no-progress", "--formats", "jsonl", "--encoding", "gb18030"])
    assert result.exit_code == 0, result.output
    assert (out / "jsonl" / "units.jsonl").stat().st_size > 0
