"""Stop 36: the UD dev (lzh_kyoto) less every sentence the outside prose holds: a sentence is out if any of its
characters lies in a folded 12-character string found in the outside prose (strings may cross
sentence ends). Clean runs of consecutive sentences are written as documents of their own, so that
`eval parse --sentences own` never joins sentences across a gap."""
import gzip, json, collections, sys
from opencc import OpenCC
cc = OpenCC("t2s")
fold = lambda s: "".join(cc.convert(c) if len(cc.convert(c)) == 1 else c for c in s)
# sentences: (doc, lines, text)
sents, cur_doc, block = [], None, []
for line in open("../shared/data/ud/lzh_kyoto-ud-dev.conllu", encoding="utf-8"):
    if line.startswith("# newdoc id"):
        cur_doc = line.split("=")[1].strip(); continue
    block.append(line)
    if line.strip() == "":
        txt = next(l[9:].strip() for l in block if l.startswith("# text = "))
        sents.append((cur_doc, [l for l in block if not l.startswith("# newpar")], txt)); block = []
N = 12
docs = collections.defaultdict(list)
for i, (d, _l, t) in enumerate(sents): docs[d].append(i)
need = set(); doc_text = {}
for d, idx in docs.items():
    t = fold("".join(sents[i][2] for i in idx)); doc_text[d] = t
    need |= {t[k:k+N] for k in range(len(t) - N + 1)}
found = set()
for line in gzip.open("../shared/data/outside/classical_prose.punct.jsonl.gz", "rt", encoding="utf-8"):
    t = json.loads(line)["text"]
    found |= {t[k:k+N] for k in range(len(t) - N + 1)} & need
keep = [False] * len(sents); stats = collections.defaultdict(lambda: [0, 0])
for d, idx in docs.items():
    t = doc_text[d]; cov = [False] * len(t)
    for k in range(len(t) - N + 1):
        if t[k:k+N] in found:
            for j in range(k, k + N): cov[j] = True
    pos = 0
    for i in idx:
        n = len(sents[i][2]); keep[i] = not any(cov[pos:pos+n]); pos += n
        stats[d.split("_")[0]][0 if keep[i] else 1] += n
out, run, prev = [], 0, None
for i, (d, lines, t) in enumerate(sents):
    if not keep[i]: prev = None; continue
    if prev is None or prev != d:
        run += 1; out.append(f"# newdoc id = {d}_clean{run}\n")
    out += lines; prev = d
open(sys.argv[1], "w", encoding="utf-8").writelines(out)
print("chars kept / dropped by book:", dict(stats))
print("kept", sum(keep), "sentences,", sum(len(s[2]) for s, k in zip(sents, keep) if k), "chars of", sum(len(s[2]) for s in sents))
