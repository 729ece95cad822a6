"""The one place that knows the checkout: where models, data, the embedded corpus and the dev juan are.

Every other module asks here instead of walking up from its own file, so moving a module never
moves the data it reads.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

MODELS = REPO / "models"
SEGMENTER_MODEL = MODELS / "segmenter-v2"  # the BiLSTM of punctuation v2 (docs/segmentation.md)
# the default segmenter since stop 30: v2 (referred to) + the passage prior (segment/passage.py)
SEGMENTER_PASSAGE = MODELS / "segmenter-v2-passage"
# the default's BiLSTM of stops 49-77 and v7's start: v6 (v5's shape, two BiLSTM layers of 192, every text folded t2s, trained on
# a lent GPU with the outside prose at a quarter of its chunks an epoch, three times v5's characters;
# docs/segmentation.md, "Stop 49"; v5, the default of stops 36-48, and v4 are in git history)
SEGMENTER_V6 = MODELS / "segmenter-v6"
# the default since stop 78: v7, v6 trained on with the passage channel (each 注 / note read with its passage;
# segment/passage.py, passage_ids) + its passage and context priors + the phrase memory (docs/segmentation.md,
# "Stop 78"; v6-passage, the default of stops 49-77, is in git history)
SEGMENTER_V7 = MODELS / "segmenter-v7"
SEGMENTER_V7_PASSAGE = MODELS / "segmenter-v7-passage"
SEGMENTER_DEFAULT = SEGMENTER_V7_PASSAGE
SEGMENT_MEMORY = MODELS / "segment-memory"  # the phrase memory the default segmenter reads (stop 34)
SEGMENTER_V1 = MODELS / "segmenter"  # the 集釋 + TLS recipe, an option (and the hybrid's BiLSTM)
TAGGER_MODEL = MODELS / "tagger"
LEXICON_DIR = MODELS / "lexicon"
LEXICON = LEXICON_DIR / "lexicon.tsv"  # the tagger's lexicon (built: pipeline.tag.lexicon); its file format and ROLE words: pipeline.lexicon_file (align reads them too)
GLOSS_HEADS_MODEL = MODELS / "gloss_heads" / "weights.json"
VARIANTS_TABLE = MODELS / "variants" / "fold.tsv"
SPEAKERS_TABLE = MODELS / "speakers" / "speakers.tsv"  # who an attribution names (鄭氏 → 鄭玄), with provenance
READING_VARIANTS = MODELS / "variants" / "readings.tsv"  # 音義 head → the form the text prints (hand-reviewed)
QUOTATIONS_MODEL = MODELS / "quotations" / "model.crfsuite"  # the 疏 quotation tagger (CRF, compared in docs)
QUOTATION_SPANS_MODEL = MODELS / "quotations" / "spans.json"  # the 疏 quotation span reader (shipped)

DATA = REPO / "data"
CORPUS = DATA / "corpus" / "KR1d0030"  # the embedded 儀禮集釋, what `zhushu run` reads by default
SHIGONG = DATA / "corpus" / "KR1d0031" / "KR1d0031_000.txt"  # 儀禮釋宮 (PLACE lexicon)
PUNCT_FILE = DATA / "punct" / "KR1d0030.punct.jsonl"  # punctuation of the 集釋 (train / dev split)
EXTRA_DIR = DATA / "extra"  # extra punctuated training text (TLS 禮記, 周禮)
# the outside punctuated prose (19.4 M characters, simplified; MIT): read from ../shared when a
# v3 segmenter is trained, never at run time
OUTSIDE_PROSE = REPO.parent / "shared" / "data" / "outside" / "classical_prose.punct.jsonl.gz"
TLS = DATA / "tls"  # the TLS 周禮 / 禮記: plain 經 text, where ingest finds the 經 a 注疏 note runs on into (and the TLS 周易)
PUNCTUATED = (TLS / "KR1a0001", DATA / "chant" / "KR1h0004")  # 周易 (TLS), 論語 (CHANT): editions already punctuated
# 注疏 book -> its 經: the TLS 周禮 / 禮記; for the 儀禮注疏 (no TLS 儀禮) the base units of the SBCK
# 儀禮 鄭注 (docs/ingest.md: 353 經 found inside 注, 309 of them word for word in the 集釋's 經)
BASE_TEXT_OF = {"KR1d0003": TLS / "KR1d0001", "KR1d0053": TLS / "KR1d0052", "KR1d0028": DATA / "corpus" / "KR1d0026"}
# every embedded plain 經 text, for a 注疏 whose ID names none (another book's 注疏 — the 周易's, the
# 論語's —, a file without its ID): ingest takes the one that holds most of its 經 (resume.find_base_text)
JING_TEXTS = (*BASE_TEXT_OF.values(), *PUNCTUATED)
ZHOULI_TLS = EXTRA_DIR / "KR1d0001.punct.jsonl"  # the TLS 周禮 經 (序官 and 職: office titles for the lexicon)
QUOTES = {b: DATA / "quotes" / f"{b}.quotes.jsonl" for b in ("KR1d0003", "KR1d0053")}  # the 疏's quotations
ZHOULI_PUNCT = DATA / "punct" / "KR1d0003.punct.jsonl"  # 周禮注疏 records (經 forms of the offices; tagger ablation)

GOLD = REPO / "annotations" / "gold"
DEV_JUAN = "KR1d0030_010"  # the dev juan: never read for training, the lexicon or silver data
# the dev split of each book: juan 10 of the 集釋; juan 10, 20, … of the 注疏 (as in data/punct)
DEV_DOCS = (DEV_JUAN, *(f"KR1d0003_{n:03d}" for n in range(10, 50, 10)), *(f"KR1d0053_{n:03d}" for n in range(10, 70, 10)),
            "KR1d0028_010")
