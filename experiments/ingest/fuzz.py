"""Stop 46: a fuzz of ingest on real text — excerpts of two files of every shared book (../shared/corpus),
each with one to four random edits (a markup or text character inserted, a character deleted, a line
doubled, dropped, swapped or stripped of its ¶), read with layout auto. Every read must end in a
Document that rebuilds its source (pipeline.ingest.lossless) or in an InputError; anything else is
printed with the input kept in OUT:

    python experiments/ingest/fuzz.py SEED N [OUT]     # e.g. 1 600 /tmp/fuzz (docs/ingest.md, "Bad input")
"""
import random, sys, traceback, glob, os, collections
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from pipeline.errors import InputError
from pipeline.ingest import read_document
from pipeline.ingest.lossless import rebuild_source
seed = int(sys.argv[1]); n = int(sys.argv[2]); OUT = sys.argv[3] if len(sys.argv) > 3 else "/tmp/zhushu-fuzz"
rng = random.Random(seed)
files = []
for book in sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "*"))):
    fs = sorted(glob.glob(book + "/*.txt"))
    files += fs[1:3] if len(fs) > 2 else fs
INS = ["(", ")", "/", "注", "疏(", "音義(", "¶", "<pb:KR1d0003_WYG_001-2a>", "&KR0001;", "&KR;", "[門@里]", "[", "]", "○", "　", "鄭注", "釋曰", "鄭氏曰", "#+PROPERTY: JUAN 2", "，", "。", "\t", "\ufeff", "考證", "<", ">", "@", "*", "卷一"]
def mutate(lines):
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randrange(len(lines))
        s = lines[i]
        if op < 0.4:
            k = rng.randint(0, len(s)); lines[i] = s[:k] + rng.choice(INS) + s[k:]
        elif op < 0.6 and s:
            k = rng.randrange(len(s)); lines[i] = s[:k] + s[k+1:]
        elif op < 0.7:
            lines.insert(i, s)
        elif op < 0.8:
            del lines[i]
            if not lines: lines = [""]
        elif op < 0.9:
            j = rng.randrange(len(lines)); lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = s.replace("¶", "")
    return lines
crashes = collections.Counter(); ok = ref = 0
os.makedirs(OUT, exist_ok=True)
for it in range(n):
    f = rng.choice(files)
    lines = open(f, encoding="utf-8").read().split("\n")
    a = rng.randrange(max(1, len(lines) - 60)) if rng.random() < 0.5 else 0
    cut = lines[:8] + lines[max(a, 8):a + 60] if a else lines[:70]
    text = "\n".join(mutate(cut))
    p = f"{OUT}/{os.path.basename(f)}"
    open(p, "w", encoding="utf-8").write(text)
    try:
        d = read_document(p)
        assert rebuild_source(d) == d.source, "not lossless"
        ok += 1
    except InputError as e:
        ref += 1
        if not e.message: crashes["empty message"] += 1
    except Exception as e:
        key = f"{type(e).__name__}: {str(e)[:80]} @ {traceback.extract_tb(e.__traceback__)[-1].name}"
        if crashes[key] == 0:
            keep = f"{OUT}/crash_{seed}_{it}.txt"; open(keep, "w", encoding="utf-8").write(text)
            print("CRASH", key, f, keep, flush=True)
        crashes[key] += 1
print("ok", ok, "refused", ref, "crashes", sum(crashes.values()), dict(crashes))
