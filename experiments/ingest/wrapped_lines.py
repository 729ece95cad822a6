"""Stop 52: copies of a file of every shared book (../shared/corpus, its third file: a train juan) with every
text line hard-wrapped at W characters outside markup, as an editor that wraps may save them, read with
layout auto against the file (docs/ingest.md, "Lines an editor wrapped"):

    python experiments/ingest/wrapped_lines.py [W] [OUT]     # W = 10, OUT = /tmp/zhushu-wrapped
"""
import glob, os, re, sys
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from pipeline.errors import InputError
from pipeline.ingest import read_document

W = int(sys.argv[1]) if len(sys.argv) > 1 else 10
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/zhushu-wrapped"
os.makedirs(OUT, exist_ok=True)
TOKEN = re.compile(r"<[^>]*>|\[[^\]]*\]|&KR\d+;|\([^)]*\)|.", re.S)  # markup stays whole


def wrap(line):
    if line.startswith("#") or not line.strip() or len(line) <= W:
        return [line]
    out, cur, n = [], "", 0
    tokens = [m.group() for m in TOKEN.finditer(line)]
    for i, tok in enumerate(tokens):
        cur += tok; n += 1
        if n >= W and "".join(tokens[i + 1:]).strip() not in ("", "¶"):  # a line's `¶` stays with its last piece
            out.append(cur); cur, n = "", 0
    return out + [cur] if cur else out


for book in sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "*"))):
    files = sorted(glob.glob(book + "/*.txt"))
    f = files[min(2, len(files) - 1)]
    src = open(f, encoding="utf-8").read()
    copy = os.path.join(OUT, os.path.basename(f))
    open(copy, "w", encoding="utf-8").write("\n".join(p for line in src.split("\n") for p in wrap(line)))
    a = read_document(f)
    try:
        b = read_document(copy)
        same = [(u.kind, u.text) for u in a.units] == [(u.kind, u.text) for u in b.units]
        print(os.path.basename(f), a.layout, len(a.units), "->", len(b.units), "same" if same else "OTHER UNITS", "(read)")
    except InputError as e:
        print(os.path.basename(f), a.layout, "refused:", str(e)[:160])
