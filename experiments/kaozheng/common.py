"""Shared by the 考證 scripts: every 考證 entry of a 注疏's juan, with the body texts report_pieces reads."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.ingest import read_document  # noqa: E402
from pipeline.kaozheng import Body  # noqa: E402

# the juan whose 考證 were read both ways, not blind, to choose the editors' words' kind (stop 83)
LOOKED_AT = {"KR1d0003": {11}, "KR1d0053": {13}, "KR1d0028": {7}}


def juan_of(path: Path) -> int:
    return int(path.stem.split("_")[1])


def entries(folder: str | Path, train_only: bool = True):
    """Yield (document, its report units, bodies) per juan file; train_only skips dev juan (10, 20 …), juan 0 (front
    matter) and LOOKED_AT."""
    for f in sorted(Path(folder).glob("*.txt")):
        j = juan_of(f)
        book = f.stem.split("_")[0]
        if train_only and (j % 10 == 0 or j in LOOKED_AT.get(book, ())):
            continue
        doc = read_document(f)
        yield doc, [u for u in doc.units if u.kind == "report" and u.text], Body(doc).texts
