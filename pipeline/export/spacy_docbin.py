"""spacy/train.spacy and spacy/dev.spacy: DocBins of one Doc per restored sentence, tokens are
characters (`&KRnnnn;` for Kanripo characters), entities set. The Docs are in the order of the sentences of iob/<split>.iob (no user_data: serialising
it per Doc costs more than the rest of the export).
dev = the dev documents (juan 10 by default), train = every other document."""

from __future__ import annotations

from pipeline.export import iob
from pipeline.export.bundle import Format, by_split
from pipeline.model import Document

ATTRS = ["ORTH", "ENT_IOB", "ENT_TYPE"]


def docbin(doc: Document):
    """The document's sentences as a DocBin (merged per split by the runner)."""
    from spacy.tokens import Doc, DocBin
    from spacy.vocab import Vocab

    vocab = Vocab()
    db = DocBin(attrs=ATTRS, store_user_data=False)
    for _sid, forms, tags in iob.sentences(doc):
        sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), ents=tags)
        db.add(sdoc)
    return db


def merge(parts: list) -> bytes:
    from spacy.tokens import DocBin

    db = DocBin(attrs=ATTRS, store_user_data=False)
    for part in parts:
        db.merge(part)
    return db.to_bytes()


def files(per_split: dict[str, list]) -> dict[str, bytes]:
    return {f"spacy/{split}.spacy": merge(parts) for split, parts in sorted(per_split.items())}


FORMAT = Format("spacy", lambda b: docbin(b.doc), lambda parts, _info: files(by_split(parts)))
