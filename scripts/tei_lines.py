"""Does the TEI keep the print's lines? For each Kanripo file given (or every .txt under a folder given),
render its TEI straight from ingest and walk it in document order: every character of a unit's text and
of its marker, and every collation note, must stand after the <pb>/<lb> of the printed line that holds it.

    python scripts/tei_lines.py data/corpus ../shared/corpus     # counts; exit 1 if anything is misplaced

Stop 55 found with it that 3,195 markers (`音¶義`, `疏¶`, `○疏¶ 曰`) and 82 collation notes of the 530
embedded and shared files stood on the wrong line; tests/test_export.py uses `tei_lines` on three files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.errors import InputError  # noqa: E402
from pipeline.export import tei  # noqa: E402
from pipeline.export.common import marker_sources, source_provenance  # noqa: E402
from pipeline.ingest import read_document  # noqa: E402

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def tei_lines(xml: bytes) -> dict[tuple[str, str], list[tuple[str | None, int | None]]]:
    """(unit xml:id, "label" | "text") -> the (pb, lb) in force at each of its characters, and
    (note xml:id, "note") -> the (pb, lb) in force where a collation note opens, walking the TEI in
    document order; reading notes and restored marks are not the unit's characters."""
    out: dict[tuple[str, str], list] = {}
    state: dict[str, object] = {"pb": None, "lb": None}

    def chars(key, s):
        if key is not None and s:
            out.setdefault(key, []).extend([(state["pb"], state["lb"])] * len(s))

    def walk(el, key):
        tag = etree.QName(el).localname
        if tag in ("pb", "lb"):
            state[tag] = el.get("n") if tag == "pb" else int(el.get("n"))
            return
        if tag == "note" and el.get("type") == "collation":
            chars((el.get(XML_ID), "note"), "(")
            return
        if tag in ("pc", "linkGrp") or (tag == "note" and el.get("type") == "reading"):
            return
        if tag in ("g", "gap"):
            chars(key, "x")
            return
        if tag == "ab" or (tag == "note" and el.get("type") == "commentary"):
            key = (el.get(XML_ID), "text")
        if tag == "label":
            key = (key[0], "label")
        chars(key, el.text)
        for child in el:
            walk(child, key)
            chars(key, child.tail)

    for child in etree.fromstring(xml).find(f".//{{{tei.TEI_NS}}}body"):
        walk(child, None)
    return out


def printed_lines(doc) -> dict[tuple[str, str], list[tuple[str | None, int | None]]]:
    """The same keys with the printed (pb, line) of each character, from the source offsets."""
    def at(i):
        page = source_provenance(doc, i)
        return page["pb"], page["line"]

    out: dict[tuple[str, str], list] = {}
    for unit in doc.units:
        uid = tei.xml_id(doc, unit)
        if unit.offsets:
            out[(uid, "text")] = [at(s) for s in unit.offsets]
        printed = marker_sources(doc, unit)
        if printed:
            out[(uid, "label")] = [at(s) for s in printed]
    for i, note in enumerate(doc.notes):
        out[(tei.xml_name(tei.note_id(doc, i)), "note")] = [at(note.start)]
    return out


def main(argv: list[str]) -> int:
    files = [f for a in argv for f in (sorted(Path(a).rglob("*.txt")) if Path(a).is_dir() else [Path(a)])]
    counts = {"label": [0, 0], "text": [0, 0], "note": [0, 0]}  # kind -> [checked, on a wrong line]
    for path in files:
        try:
            doc = read_document(path)
        except InputError:
            continue
        got = tei_lines(tei.render_doc(doc).encode("utf-8"))
        for key, want in printed_lines(doc).items():
            counts[key[1]][0] += 1
            if got.get(key, []) != want:
                counts[key[1]][1] += 1
                print(f"{path}: {key[0]} {key[1]} on a wrong line: TEI {got.get(key, [])[:1]}, print {want[:1]}")
    for kind, (n, bad) in counts.items():
        print(f"{kind}: {n} checked, {bad} on a wrong line")
    return 1 if any(bad for _, bad in counts.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
