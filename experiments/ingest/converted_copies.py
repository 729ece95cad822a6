"""Stop 52: what width-converting tools (nkf -Z1 / -Z2, NFKC, half- to full-width) and two hand edits make of a
file of every shared book (its third file: a train juan), read with layout auto against the file; "same
shape" is the same unit kinds and lengths (the conversion itself changes some characters, e.g. a header's
blanks). docs/ingest.md, "A copy through a width-converting tool":

    PYTHONPATH=. python experiments/ingest/converted_copies.py [OUT]     # OUT = /tmp/zhushu-converted
"""
import glob, os, sys
from pipeline.ingest import read_document
from pipeline.errors import InputError
EDITS = {
 "fullwidth note parens": lambda t: t.replace("(", "（").replace(")", "）").replace("/", "／"),
 "ideographic space as two spaces": lambda t: t.replace("\u3000", "  "),
 "ideographic space as one space": lambda t: t.replace("\u3000", " "),
 "CRLF": lambda t: t.replace("\n", "\r\n"),
 "NFKC": lambda t: __import__("unicodedata").normalize("NFKC", t),
 "no header": lambda t: "\n".join(l for l in t.split("\n") if not l.startswith("#")),
 "pb lines removed": lambda t: "\n".join(l for l in t.split("\n") if not l.startswith("<pb")),
}
OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/zhushu-converted"
os.makedirs(OUT, exist_ok=True)
for book in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "corpus", "*"))):
    fs = sorted(glob.glob(book + "/*.txt")); f = fs[min(2, len(fs)-1)]
    a = read_document(f); src = open(f, encoding="utf-8").read()
    for name, ed in EDITS.items():
        g = os.path.join(OUT, os.path.basename(f)); open(g, "w", encoding="utf-8", newline="").write(ed(src))
        try:
            b = read_document(g)
            same = [(u.kind, u.text) for u in a.units] == [(u.kind, u.text) for u in b.units]
            shape = [(u.kind, len(u.text)) for u in a.units] == [(u.kind, len(u.text)) for u in b.units]
            ndiff = sum(x.text != y.text for x, y in zip(a.units, b.units))
            r = f"{len(a.units)}->{len(b.units)} {'same' if same else ('same shape, %d texts differ' % ndiff if shape else 'OTHER SHAPE')} {b.layout}"
        except InputError as e:
            r = "refused: " + str(e).split(": ", 1)[1][:90]
        print(os.path.basename(f), a.layout, "|", name, "|", r)
