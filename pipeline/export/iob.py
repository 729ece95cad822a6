"""iob/train.iob and iob/dev.iob: CoNLL IOB columns, `character<TAB>tag`, one block per restored
sentence (characters only, no punctuation tokens: the tagger's input), `-DOCSTART-` per document.
The same sentences and tags as spacy/*.spacy."""

from __future__ import annotations

from pipeline.export.bundle import CorpusInfo, Format, Parts, Sink
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


def stream(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    """iob/<split>.iob (train and dev always written), a document at a time."""
    handles = {split: sink.open(f"iob/{split}.iob") for split in ("dev", "train")}
    try:
        for split, text in parts:
            if split not in handles:
                handles[split] = sink.open(f"iob/{split}.iob")
            handles[split].write(text.encode("utf-8"))
    finally:
        for fh in handles.values():
            fh.close()


FORMAT = Format("iob", lambda b: render(b.doc), stream=stream)
