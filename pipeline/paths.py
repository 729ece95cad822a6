"""The one place that knows the checkout: where models, data, the embedded corpus and the dev juan are.

Every other module asks here instead of walking up from its own file, so moving a module never
moves the data it reads.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

MODELS = REPO / "models"
SEGMENTER_MODEL = MODELS / "segmenter"
TAGGER_MODEL = MODELS / "tagger"
LEXICON_DIR = MODELS / "lexicon"
GLOSS_HEADS_MODEL = MODELS / "gloss_heads" / "weights.json"
VARIANTS_TABLE = MODELS / "variants" / "fold.tsv"

DATA = REPO / "data"
CORPUS = DATA / "corpus" / "KR1d0030"  # the embedded 儀禮集釋, what `zhushu run` reads by default
SHIGONG = DATA / "corpus" / "KR1d0031" / "KR1d0031_000.txt"  # 儀禮釋宮 (PLACE lexicon)
PUNCT_FILE = DATA / "punct" / "KR1d0030.punct.jsonl"  # punctuation of the 集釋 (train / dev split)
EXTRA_DIR = DATA / "extra"  # extra punctuated training text (TLS 禮記, 周禮)
ZHOULI_TLS = EXTRA_DIR / "KR1d0001.punct.jsonl"  # the TLS 周禮 經 (序官 and 職: office titles for the lexicon)
ZHOULI_PUNCT = DATA / "punct" / "KR1d0003.punct.jsonl"  # 周禮注疏 records (經 forms of the offices; tagger ablation)

GOLD = REPO / "annotations" / "gold"
DEV_JUAN = "KR1d0030_010"  # the dev juan: never read for training, the lexicon or silver data
DEV_DOCS = (DEV_JUAN,)


def relative(path: Path) -> str:
    """`path` relative to the checkout when it lies inside it (for configs and cards)."""
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)
