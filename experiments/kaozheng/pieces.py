"""Stop 83: how the three 注疏's 考證 entries are cut (pipeline/kaozheng.py report_pieces), over every juan: entries,
characters, pieces by kind, and how many lemma stretches the juan's body holds verbatim (their marks are the body's).

    python experiments/kaozheng/pieces.py
"""
from collections import Counter

from common import entries  # noqa: I001 (sets sys.path)

from pipeline import paths
from pipeline.kaozheng import LOOKUP, report_pieces


def main() -> None:
    for book in ("KR1d0003", "KR1d0053", "KR1d0028"):
        n = chars = 0
        pieces, held = Counter(), Counter()
        for _doc, reports, bodies in entries(paths.DATA / "corpus" / book, train_only=False):
            for u in reports:
                n += 1
                chars += len(u.text)
                for p in report_pieces(u.text, bodies):
                    stretch = u.text[p.start:p.end]
                    if p.kind is None:
                        pieces["marker " + ("○" if stretch == "○" else "signature" if stretch.startswith("臣") else stretch)] += 1
                        continue
                    name = ("lemma " if p.lemma else "words ") + p.kind
                    pieces[name] += len(stretch)
                    if p.lemma and any(stretch in bodies[k] for k in LOOKUP[p.kind]):
                        held[name] += len(stretch)
        print(f"{book}: {n} entries, {chars} characters")
        for name, v in sorted(pieces.items()):
            extra = f" (the body holds {held[name]} verbatim)" if name.startswith("lemma") else ""
            print(f"  {name}: {v}{' characters' if not name.startswith('marker') else ''}{extra}")


if __name__ == "__main__":
    main()
