"""Character pairs that stand in the same contexts in the Kanripo prints and are not yet one class of
the variant fold (models/variants/fold.tsv): the candidates stop 61 reviewed by hand for
pipeline/train/variants.py SUPPLEMENT (docs/glosses.md, "Stop 61").

    python experiments/variants/mine_pairs.py [--min-shared 2] [--top 400] > candidates.txt
    python experiments/variants/mine_pairs.py path/to/another/book/ > candidates.txt   # another book's juan files

Reads every juan of data/corpus/* and ../shared/corpus/* (the raw prints, no punctuation, no gold) except
the dev juan of the three books with dev sets (juan 10, 20, … of KR1d0003, KR1d0053, KR1d0030). A context
is the two characters before and the two after a position (Han characters only, markup dropped); two
characters are a candidate pair when both fill the same context, in contexts filled by at most four
different characters. Printed per pair: the score (shared contexts / the rarer character's count), the
shared contexts, the two characters and their code points, their counts, and one line of each in context.
A pair is a graphic variant only by reading: most pairs are different words in the same slot (之 / 其).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEV_JUAN = re.compile(r"KR1d00(03|53|30)_\d\d0\.txt$")
HAN = re.compile(r"[\u3400-\u9fff\U00020000-\U0003ffff\U000f0000-\U000fffff]")


def juan_files(paths: list[str] | None = None) -> list[Path]:
    """The given files and folders' *.txt, else every juan of data/corpus and ../shared/corpus; never a dev juan."""
    if paths:
        files = sorted(f for p in map(Path, paths) for f in (p.glob("*.txt") if p.is_dir() else [p]))
    else:
        files = sorted(ROOT.glob("data/corpus/*/*.txt")) + sorted((ROOT.parent / "shared" / "corpus").glob("*/*.txt"))
    return [f for f in files if not DEV_JUAN.search(f.name)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help="juan files or folders (default: data/corpus and ../shared/corpus)")
    ap.add_argument("--min-shared", type=int, default=2)
    ap.add_argument("--top", type=int, default=400)
    args = ap.parse_args(argv)

    from pipeline import variants

    contexts: dict[tuple[str, str], set[str]] = defaultdict(set)
    freq: Counter[str] = Counter()
    example: dict[str, str] = {}
    for f in juan_files(args.paths):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                continue
            t = "".join(HAN.findall(line))
            freq.update(t)
            for i in range(2, len(t) - 2):
                contexts[(t[i - 2 : i], t[i + 1 : i + 3])].add(t[i])
                example.setdefault(t[i], f"{f.stem} {t[i - 4 : i + 5]}")
    shared: Counter[tuple[str, str]] = Counter()
    for chars in contexts.values():
        if not 1 < len(chars) <= 4:
            continue
        s = sorted(chars)
        for a in range(len(s)):
            for b in range(a + 1, len(s)):
                if variants.fold(s[a]) != variants.fold(s[b]):
                    shared[(s[a], s[b])] += 1
    rows = sorted(((n / min(freq[x], freq[y]), n, x, y) for (x, y), n in shared.items() if n >= args.min_shared),
                  reverse=True)
    for score, n, x, y in rows[: args.top]:
        print(f"{score:.2f}\t{n}\t{x}\t{y}\tU+{ord(x):X}\tU+{ord(y):X}\t{freq[x]}\t{freq[y]}\t{example[x]}\t{example[y]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
