"""Defects of issue 20 item 8, each checked where it was seen. Inputs: the 注疏 fixture cut from
周禮注疏 juan 1 (train; tests/fixtures/zhushu/KR1d0003_001.txt, with the start of its 考證)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pipeline import paths
from pipeline.cli import INTERRUPTED, main
from pipeline.export import records
from pipeline.ingest import read_document
from pipeline.segment import SegmentStage

ZHOULI = paths.REPO / "tests" / "fixtures" / "zhushu" / "KR1d0003_001.txt"


def test_a_zhushu_juan_is_labelled_by_its_first_juan_header_not_its_kaozheng():
    doc = read_document(ZHOULI, base_text=None)
    assert "#+PROPERTY: JUAN 卷一考證" in doc.source  # the section header that used to win
    assert doc.properties["JUAN"] == "卷一"
    assert records.document_records(doc, "train", ["ingest"])["documents"][0]["juan"] == "卷一"
    assert any(u.kind == "report" for u in doc.units)  # the 考證 section is still read as one


def test_utf16_with_a_byte_order_mark_is_read(tmp_path):
    text = ZHOULI.read_text(encoding="utf-8")
    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        path = tmp_path / codec / ZHOULI.name
        path.parent.mkdir()
        path.write_bytes(bom + text.encode(codec))
        doc = read_document(path, base_text=None)
        assert doc.source == text
        assert [u.text for u in doc.units] == [u.text for u in read_document(ZHOULI, base_text=None).units]


def test_utf16_without_a_byte_order_mark_is_named(tmp_path):
    path = tmp_path / ZHOULI.name
    path.write_bytes(ZHOULI.read_text(encoding="utf-8").encode("utf-16-le"))
    result = CliRunner().invoke(main, ["ingest", str(path)])
    assert result.exit_code == 2 and "binary file (NUL byte)" in result.output and "UTF-16" in result.output


def test_punctuate_reads_standard_input():
    data = ZHOULI.read_bytes()
    result = CliRunner().invoke(main, ["punctuate", "-"], input=data)
    assert result.exit_code == 0, result.output
    from_file = CliRunner().invoke(main, ["punctuate", str(ZHOULI)])
    assert result.output == from_file.output and "惟王建國" in result.output
    bad = CliRunner().invoke(main, ["punctuate", "-"], input=b"")
    assert bad.exit_code == 2 and "zhushu: error: <stdin>: empty file" in bad.output


def test_ctrl_c_exits_130(monkeypatch, tmp_path):
    import pipeline.runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline.runner, "run", interrupted)
    result = CliRunner().invoke(main, ["run", str(ZHOULI), "--out", str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == INTERRUPTED == 130
    assert "zhushu: interrupted" in result.output


def test_eval_parse_without_its_gold_file_is_one_error_line(tmp_path):
    missing = tmp_path / "shared" / "data" / "ud" / "lzh_kyoto-ud-dev.conllu"
    result = CliRunner().invoke(main, ["eval", "parse", "--gold", str(missing)])
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"zhushu: error: {missing}: no such gold file")


def test_every_token_row_points_at_a_sentence_row():
    """Header and title units are parsed as one sentence each: their sentence rows must exist."""
    from pipeline.parse import ParseStage

    doc = read_document(ZHOULI, base_text=None)
    doc = ParseStage.load()(SegmentStage.load()(doc))
    recs = records.document_records(doc, "train", ["ingest", "segment", "parse"])
    sentence_ids = {f"{s['unit']}.s{s['index']}" for s in recs["sentences"]}
    header_tokens = [t for t in recs["tokens"] if t["unit"] in {r["unit"] for r in recs["units"] if r["kind"] in ("header", "title")}]
    assert header_tokens  # the fixture's headers and title are parsed
    assert {t["sentence"] for t in recs["tokens"]} <= sentence_ids
    header = next(r for r in recs["units"] if r["kind"] == "header")
    row = next(s for s in recs["sentences"] if s["unit"] == header["unit"])
    assert (row["index"], row["start"], row["end"], row["text"]) == (0, 0, header["chars"], header["text"])


def test_run_help_names_the_default_segmenter():
    result = CliRunner().invoke(main, ["run", "--help"], terminal_width=200)
    default = Path(SegmentStage.default_model).relative_to(paths.REPO).as_posix()
    assert default == "models/segmenter-v7-passage"
    assert f"Segmenter folder (default {default})" in " ".join(result.output.split())


def test_ingest_reads_a_folder_as_run_does(tmp_path):
    """A Kanripo book is a folder of juan: `zhushu ingest BOOK/` reads its *.txt like `zhushu run BOOK/`."""
    book = tmp_path / "KR1d0003"
    book.mkdir()
    (book / ZHOULI.name).write_bytes(ZHOULI.read_bytes())
    (book / "README.md").write_text("not a juan\n", encoding="utf-8")
    out = tmp_path / "units"
    result = CliRunner().invoke(main, ["ingest", str(book), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["KR1d0003_001.units.jsonl"]
    from_file = CliRunner().invoke(main, ["ingest", str(ZHOULI), "--jsonl"])
    assert (out / "KR1d0003_001.units.jsonl").read_text(encoding="utf-8") == from_file.output
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = CliRunner().invoke(main, ["ingest", str(empty)])
    assert refused.exit_code == 2 and f"{empty}: no input files (*.txt)" in refused.output


def test_a_folder_without_juan_files_is_refused_even_beside_others(tmp_path):
    """A folder given as input must hold *.txt files: beside a real juan an empty one dropped out of
    the dataset unseen, and a folder of book folders (Kanripo repositories cloned side by side) gave
    only "no input files". Now each is refused with exit 2, nothing written, and the second says
    where the files are (stop 47)."""
    books = tmp_path / "kanripo"
    (books / "KR1d0003").mkdir(parents=True)
    (books / "KR1d0003" / ZHOULI.name).write_bytes(ZHOULI.read_bytes())
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    beside = CliRunner().invoke(main, ["run", str(ZHOULI), str(empty), "--out", str(out), "--no-progress"])
    assert beside.exit_code == 2 and f"{empty}: no input files (*.txt) in this folder" in beside.output, beside.output
    above = CliRunner().invoke(main, ["ingest", str(books)])
    assert above.exit_code == 2 and "its subfolders hold 1: give the folders themselves" in above.output, above.output
    assert not out.exists()
