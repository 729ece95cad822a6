"""iob/train.iob and iob/dev.iob: CoNLL IOB columns, `character<TAB>tag`, one block per restored
sentence (characters only, no punctuation tokens: the tagger's input), `-DOCSTART-` per document.
The same sentences and tags as spacy/*.spacy."""

from __future__ import annotations

from pipeline.export.bundle import Format, by_split
from pipeline.export.common import entity_tags, text_units, token_form
from pipeline.model import Document, Unit, sentences_of


def sentences(doc: Document) -> list[tuple[str, list[str], list[str], Unit]]:
    """(sentence id, token forms, BIO tags, its unit) of every restored sentence of the document."""
    out = []
    for unit in text_units(doc):
        for si, sent in enumerate(sentences_of(unit)):
            forms = [token_form(ch) for ch in unit.text[sent.start : sent.end]]
            if forms:
                out.append((f"{doc.id}#{unit.seq}.s{si}", forms, entity_tags(unit, sent.start, sent.end), unit))
    return out


def render(doc: Document) -> str:
    blocks = ["-DOCSTART-\tO\n"]
    for _, forms, tags, _unit in sentences(doc):
        blocks.append("".join(f"{f}\t{t}\n" for f, t in zip(forms, tags)))
    return "\n".join(blocks) + "\n"


def files(per_split: dict[str, list[str]]) -> dict[str, bytes]:
    return {f"iob/{split}.iob": "".join(parts).encode("utf-8") for split, parts in sorted(per_split.items())}


FORMAT = Format("iob", lambda b: render(b.doc), lambda parts, _info: files(by_split(parts)))
