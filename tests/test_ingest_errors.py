"""Bad input: a clear error naming file and line, exit code 2, no traceback, no partial output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.ingest import read_document

ROOT = Path(__file__).resolve().parent.parent
JUAN10 = ROOT / "data" / "corpus" / "KR1d0030" / "KR1d0030_010.txt"
HEAD = JUAN10.read_text(encoding="utf-8").split("\n")[:30]  # headers and the first pages


def write(tmp_path, name, lines, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes("\n".join(lines).encode(encoding))
    return path


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_gb18030_file_is_refused_with_a_hint_then_read_with_encoding(tmp_path):
    path = write(tmp_path, "KR1d0030_010.txt", HEAD, encoding="gb18030")
    result = run("ingest", str(path), "--jsonl")
    assert result.exit_code == 2
    assert str(path) in result.output and "--encoding" in result.output
    assert "Traceback" not in result.output
    ok = run("ingest", str(path), "--jsonl", "--encoding", "gb18030")
    assert ok.exit_code == 0, ok.output
    first_base = next(json.loads(x) for x in ok.output.splitlines() if '"base"' in x)
    assert first_base["text"] == "司射適西階西倚扑升自西階東面請射于公"


def test_big5_file_reads_with_encoding(tmp_path):
    lines = ["大射儀", "司射適西階西倚扑升自西階東面請射于公", "　鄭注倚扑者將即君前不敢佩刑器也"]
    path = write(tmp_path, "x.txt", lines, encoding="big5")
    with pytest.raises(InputError):
        read_document(path)
    doc = read_document(path, encoding="big5")
    assert [u.kind for u in doc.units] == ["base", "base", "commentary"] or doc.units[-1].marker == "鄭注"


@pytest.mark.parametrize(
    "bad_line, message",
    [
        ("司射適西階西(案比今注疏/本訛作北據", "unbalanced '('"),
        ("司射適西階西)倚扑", "unbalanced ')'"),
        ("司射適西階&amp;西倚扑", "unknown entity"),
        ("司射適西階&KR;西倚扑", "unknown entity"),
        # markup the reader does not know would have become characters of the text (stop 46)
        ("司射適西階/西倚扑", "'/' outside a note"),
        ("司射適西階<md:x>西倚扑", "unknown markup '<md:x>'"),
        ("司射適西階]西倚扑", "unbalanced ']'"),
        ("司射適西階>西倚扑", "stray '>'"),
    ],
)
def test_broken_markup_names_file_and_line(tmp_path, bad_line, message):
    lines = HEAD[:12] + [bad_line + "¶"] + HEAD[12:]
    path = write(tmp_path, "KR1d0030_010.txt", lines)
    with pytest.raises(InputError) as err:
        read_document(path)
    assert err.value.line == 13 and message in err.value.message
    result = run("ingest", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"{path}:13" in result.output and "Traceback" not in result.output


def test_empty_and_binary_files(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    for path, message in ((empty, "empty"), (binary, "binary")):
        result = run("ingest", str(path))
        assert result.exit_code == 2 and message in result.output and str(path) in result.output


def test_no_partial_output_when_one_input_is_bad(tmp_path):
    good = write(tmp_path, "KR1d0030_010.txt", HEAD)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"")
    out = tmp_path / "out"
    result = run("ingest", str(good), str(bad), "--out", str(out))
    assert result.exit_code == 2
    assert not out.exists() or not any(out.iterdir())


def test_jsonl_fields_and_out_dir(tmp_path):
    out = tmp_path / "out"
    result = run("ingest", str(JUAN10), "--out", str(out))
    assert result.exit_code == 0
    records = [json.loads(x) for x in (out / "KR1d0030_010.units.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {"doc", "seq", "kind", "marker", "text", "start", "end", "page", "line"} <= set(records[0])
    assert records[4]["doc"] == "KR1d0030_010" and records[4]["marker"] == "鄭注"
    again = tmp_path / "again"
    run("ingest", str(JUAN10), "--out", str(again))
    assert (again / "KR1d0030_010.units.jsonl").read_bytes() == (out / "KR1d0030_010.units.jsonl").read_bytes()
