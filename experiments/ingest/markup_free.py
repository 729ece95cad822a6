"""Stop 51: every file of the shared books stripped of its markup (the `#` lines, the page-break lines and
every `¶`, as tests/test_ingest.py strips the 集釋), read, and set beside the file's units: per book the
files read the same, read to other units (how many units differ), refused. docs/ingest.md "A print
without its markup" (run it on the commit before and after for both columns).

    python experiments/ingest/markup_free.py      (needs ../shared/corpus; about 1 min)
"""
import glob, os, tempfile, sys
from pipeline.ingest import read_document
from pipeline.errors import InputError

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "corpus")
def strip(text):
    return "\n".join(ln.replace("¶", "") for ln in text.split("\n") if not ln.startswith("#") and not ln.startswith("<pb:"))
for book in ["KR1d0030", "KR1d0003", "KR1d0053", "KR1d0028", "KR1d0057", "KR1d0040", "KR1d0063", "KR1d0031", "KR1d0026"]:
    same = diff = ref_ = 0; ex = []; ndiff = 0
    for f in sorted(glob.glob(os.path.join(SHARED, book, "*.txt"))):
        o = read_document(f); ref = [(u.kind, u.marker, u.text) for u in o.units]
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, os.path.basename(f)); open(p, "w").write(strip(o.source))
            try:
                d = read_document(p); got = [(u.kind, u.marker, u.text) for u in d.units]
                if got == ref: same += 1
                else:
                    diff += 1; k = sum(x != y for x, y in zip(got, ref)) + abs(len(got) - len(ref)); ndiff += k
                    ex.append((os.path.basename(f)[-7:-4], d.layout, f"{len(got)}/{len(ref)}", k))
            except InputError as e: ref_ += 1; ex.append((os.path.basename(f)[-7:-4], "refused"))
    print(book, "same", same, "diff", diff, f"(units differing {ndiff})", "refused", ref_, ex[:6])
