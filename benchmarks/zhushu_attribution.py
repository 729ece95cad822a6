"""經 / 注 character attribution of the 注疏 reader against the reference of data/punct.

The punct records of KR1d0003 / KR1d0053 carry, per segment, the label of a modern edition
that brackets the 注 (kind base = 經, marker 注). For each juan the 經 and 注 text of the reader (in unit order)
and of the reference (in record order) are aligned (difflib); over the characters the
alignment pairs up, precision of 經 = paired characters both call 經 / those the reader
calls 經, recall = the same / those the reference calls 經 (and so for 注), summed over
juan, train and dev juan apart.

    PYTHONPATH=. python3 benchmarks/zhushu_attribution.py [--resume] [--split train|dev] [--book KR1d0003]
    PYTHONPATH=. python3 benchmarks/zhushu_attribution.py --plain [--resume]   # against the TLS 經
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.ingest import read_document

SHARED = ROOT.parent / "shared"
BOOKS = ("KR1d0003", "KR1d0053")
PLAIN_BASE = {"KR1d0003": "KR1d0001", "KR1d0053": "KR1d0052"}  # the TLS 經 of each book


def reference(book: str, punct_dir: Path) -> dict[str, tuple[str, list[dict]]]:
    """juan id -> (split, records in order)."""
    out: dict[str, tuple[str, list[dict]]] = {}
    for line in (punct_dir / f"{book}.punct.jsonl").open(encoding="utf-8"):
        rec = json.loads(line)
        juan = rec["id"].split("#")[0]
        out.setdefault(juan, (rec["split"], []))[1].append(rec)
    return out


# the reader's units are `commentary`, the punct records' `note` (data/punct/README): both 注
LABELS = {("base", ""): "經", ("commentary", "注"): "注", ("note", "注"): "注"}


def _stream(items) -> tuple[str, str]:
    """(text, one label character per text character) of the 經 and 注 pieces, in order."""
    text, labels = [], []
    for kind, marker, piece in items:
        label = LABELS.get((kind, marker or ""))
        if label:
            text.append(piece)
            labels.append(label * len(piece))
    return "".join(text), "".join(labels)


def _count(mine: tuple[str, str], theirs: tuple[str, str], counts: dict[tuple[str, str], int]) -> None:
    """Add (my label, their label) of every character the alignment pairs up."""
    sm = difflib.SequenceMatcher(None, mine[0], theirs[0], autojunk=False)
    for a, b, size in sm.get_matching_blocks():
        for k in range(size):
            pair = (mine[1][a + k], theirs[1][b + k])
            counts[pair] = counts.get(pair, 0) + 1


def evaluate(books=BOOKS, corpus: Path = SHARED / "corpus", punct_dir: Path = SHARED / "data" / "punct",
             split: str | None = None, juan: list[str] | None = None, resume: bool = False) -> dict:
    """{split: {"經"|"注": {"precision", "recall", ...}, "aligned": n}} over the aligned characters.

    Only characters that the alignment pairs up are counted: the reference lacks some
    segments (held out, or cut where they overlap the 儀禮) and the editions' wording differs.
    """
    counts: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)
    for book in books:
        base = str(corpus / PLAIN_BASE[book]) if resume else None
        for juan_id, (jsplit, recs) in sorted(reference(book, punct_dir).items()):
            if juan_id.endswith("_000") or split and jsplit != split or juan and juan_id not in juan:
                continue  # juan 0 (prefaces) aligns poorly: no 經 in it
            doc = read_document(corpus / book / f"{juan_id}.txt", base_text=base)
            mine = _stream((u.kind, u.marker, u.text) for u in doc.units)
            theirs = _stream((r["kind"], r["marker"], r["text"]) for r in recs)
            _count(mine, theirs, counts[jsplit])
    out = {}
    for s, c in sorted(counts.items()):
        out[s] = {"aligned": sum(c.values())}
        for label in ("經", "注"):
            both = c.get((label, label), 0)
            mine = sum(n for (m, _), n in c.items() if m == label)
            ref = sum(n for (_, t), n in c.items() if t == label)
            out[s][label] = {"precision": round(both / max(mine, 1), 4), "recall": round(both / max(ref, 1), 4),
                             "mine": mine, "reference": ref}
    return out


def against_plain(book: str, corpus: Path = SHARED / "corpus", resume: bool = False) -> dict:
    """The reader's 經 (base units of juan 1…, in order) against the TLS 經 text of the book.

    A second reference, independent of data/punct: recall = TLS characters the alignment
    pairs up / all TLS characters; precision = the same / the reader's 經 characters
    (variant-folded both sides). Slow (difflib over the whole book: ~15 s 周禮, ~40 s 禮記).
    """
    from pipeline.ingest.resume import fold, load_base_text  # the plain text's own fold, both sides

    plain = corpus / PLAIN_BASE[book]
    mine = []
    for path in sorted((corpus / book).glob("*.txt")):
        if not path.stem.endswith("_000"):
            doc = read_document(path, base_text=plain if resume else None)
            mine.append("".join(u.text for u in doc.units if u.kind == "base"))
    text, ref = fold("".join(mine)), load_base_text(str(plain)).text
    matched = sum(b.size for b in difflib.SequenceMatcher(None, text, ref, autojunk=False).get_matching_blocks())
    return {"precision": round(matched / len(text), 4), "recall": round(matched / len(ref), 4),
            "mine": len(text), "plain": len(ref)}


def resumed_sample(n: int, seed: int = 13, corpus: Path = SHARED / "corpus") -> list[str]:
    """`n` 經 passages the TLS text finds inside a 注, from train juan: `id | 注 end | 經 | next`."""
    import random

    rows = []
    for book, plain in PLAIN_BASE.items():
        for path in sorted((corpus / book).glob("*.txt")):
            juan = int(path.stem.split("_")[1])
            if juan == 0 or juan % 10 == 0:
                continue
            before = {(u.start, u.end) for u in read_document(path, base_text=None).units}
            doc = read_document(path, base_text=corpus / plain)
            for i, u in enumerate(doc.units):
                if u.kind == "base" and (u.start, u.end) not in before:
                    after = doc.units[i + 1].text[:8] if i + 1 < len(doc.units) else ""
                    rows.append(f"{doc.unit_id(u)} | …{doc.units[i - 1].text[-10:]} | {u.text} | {after}…")
    return random.Random(seed).sample(rows, n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("train", "dev"))
    ap.add_argument("--book", action="append", choices=BOOKS)
    ap.add_argument("--juan", action="append", help="only these juan ids (KR1d0003_001 …)")
    ap.add_argument("--resume", action="store_true", help="find where the 經 resumes inside a 注 (TLS 經 text)")
    ap.add_argument("--plain", action="store_true", help="measure against the TLS 經 text instead (whole books)")
    ap.add_argument("--resumed-sample", type=int, metavar="N", help="print N 經 passages found inside a 注 (train juan)")
    args = ap.parse_args()
    if args.resumed_sample:
        print("\n".join(resumed_sample(args.resumed_sample)))
        return
    if args.plain:
        print(json.dumps({b: against_plain(b, resume=args.resume) for b in args.book or BOOKS}, indent=1))
        return
    print(json.dumps(evaluate(tuple(args.book or BOOKS), split=args.split, juan=args.juan, resume=args.resume),
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
