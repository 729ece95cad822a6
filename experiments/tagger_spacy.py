"""The spaCy alternative of the tagger (kept for the comparison in docs/entities.md).

A blank multi-language ("xx") pipeline whose tokenizer makes one token per character, with a
small CNN tok2vec and a transition-based NER, trained on the same silver data as the CRF.
It sees the characters only (no lexicon features). CPU, fixed seeds.
"""

from __future__ import annotations

import random
from pathlib import Path

CONFIG = """
[nlp]
lang = "xx"
pipeline = ["tok2vec","ner"]
batch_size = 64

[components]

[components.tok2vec]
factory = "tok2vec"

[components.tok2vec.model]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 64
depth = 2
embed_size = 4000
window_size = 1
maxout_pieces = 2
subword_features = false

[components.ner]
factory = "ner"

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
extra_state_tokens = false
hidden_width = 64
maxout_pieces = 2
use_upper = true
nO = null

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2VecListener.v1"
width = 64
upstream = "*"
"""


class CharTokenizer:
    def __init__(self, vocab):
        self.vocab = vocab

    def __call__(self, text):
        from spacy.tokens import Doc

        return Doc(self.vocab, words=list(text), spaces=[False] * len(text))

    def to_disk(self, path, **kw):
        pass

    def from_disk(self, path, **kw):
        return self

    def to_bytes(self, **kw):
        return b""

    def from_bytes(self, data, **kw):
        return self


def _char_tokenizer():
    def make(nlp):
        return CharTokenizer(nlp.vocab)

    return make


def new_nlp():
    import spacy
    from thinc.api import Config

    spacy.util.fix_random_seed(13)
    cfg = Config().from_str(CONFIG)
    nlp = spacy.util.load_model_from_config(cfg, auto_fill=True, validate=True)
    nlp.tokenizer = CharTokenizer(nlp.vocab)
    return nlp


def train_spacy(items, out_dir: str | Path, epochs: int = 3, seed: int = 13, log=print):
    import spacy
    from spacy.training import Example

    random.seed(seed)
    spacy.util.fix_random_seed(seed)
    nlp = new_nlp()
    examples = []
    for it in items:
        if not it.text:
            continue
        doc = nlp.make_doc(it.text)
        examples.append(Example.from_dict(doc, {"entities": [(s, e, lab) for s, e, lab in it.spans]}))
    optimizer = nlp.initialize(lambda: examples[:500])
    for ep in range(epochs):
        random.shuffle(examples)
        losses = {}
        for batch in spacy.util.minibatch(examples, size=32):
            nlp.update(batch, sgd=optimizer, losses=losses, drop=0.1)
        log(f"spacy epoch {ep + 1}: {losses}")
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    nlp.to_disk(out_dir)
    return nlp


def load_spacy(path: str | Path):
    import spacy

    nlp = spacy.load(path, config={"nlp": {"tokenizer": {"@tokenizers": "spacy.Tokenizer.v1"}}}) if False else None
    nlp = new_nlp()
    nlp.from_disk(path, exclude=["tokenizer"])
    nlp.tokenizer = CharTokenizer(nlp.vocab)
    return nlp


def predict_spacy(nlp, texts: list[str]) -> list[list[tuple[int, int, str]]]:
    return [[(e.start, e.end, e.label_) for e in doc.ents] for doc in nlp.pipe(texts, batch_size=64)]
