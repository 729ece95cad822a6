"""spacy/train.spacy and spacy/dev.spacy: DocBins of one Doc per restored sentence.

With the parse stage, the tokens are its words (restored marks included, as in conllu/): ORTH
(NFC; a Kanripo character is its ONE private-use character U+F0000+nnnn, so that spaCy's
character tokenizer keeps it one token, with NORM `&KRnnnn;`), POS (UPOS), TAG (UD-Kanbun's XPOS), LEMMA,
MORPH (FEATS), HEAD and DEP (UD's `root` as spaCy's `ROOT`), and the entities (words are cut at entity edges), so
`spacy debug data` and a tagger / parser / ner config train on them. Without the parse stage
the tokens are characters (the same private-use convention) with entities only, in the order of the sentences of iob/<split>.iob.
No user_data (serialising it per Doc costs more than the rest of the export).
dev = the dev documents (juan 10 by default), train = every other document."""

from __future__ import annotations

from pipeline.export import iob
from pipeline.export.bundle import Format, by_split
from pipeline.export.common import entity_tags, text_units
from pipeline.model import Document, sentences_of
from pipeline.pua import PUA_BASE, decode_entities, encode_entities, entity_number

PUA_FIRST = chr(PUA_BASE)

ATTRS = ["ORTH", "NORM", "ENT_IOB", "ENT_TYPE", "POS", "TAG", "LEMMA", "MORPH", "HEAD", "DEP", "SENT_START"]


def _bio(tags: list[str]) -> list[str]:
    """BIO that spaCy accepts: an I- that does not continue its entity becomes B-."""
    out, prev = [], "O"
    for t in tags:
        if t.startswith("I-") and prev[2:] != t[2:]:
            t = "B-" + t[2:]
        out.append(t)
        prev = t
    return out


def parsed_sentences(doc: Document):
    """(forms, pos, tags, lemmas, morphs, heads, deps, ents) of every parsed sentence."""
    for unit in text_units(doc):
        if not unit.words:
            continue
        by_sent: dict[int, list] = {}
        for w in unit.words:
            by_sent.setdefault(w.sentence, []).append(w)
        sents = sentences_of(unit)
        for si, words in sorted(by_sent.items()):
            sent = sents[si]
            ctags = entity_tags(unit, sent.start, sent.end)
            ents = []
            for w in words:
                if w.start == w.end:
                    ents.append("O")
                else:
                    ents.append(ctags[w.start - sent.start])
            yield (
                [w.form for w in words],
                [w.upos for w in words],
                [w.xpos for w in words],
                [w.lemma for w in words],
                ["" if w.feats == "_" else w.feats for w in words],
                [w.head - 1 if w.head > 0 else i for i, w in enumerate(words)],
                ["ROOT" if w.deprel == "root" else w.deprel for w in words],  # spaCy's root label, as `spacy convert` writes it
                _bio(ents),
            )


def _norms(sdoc, forms: list[str]) -> list[str]:
    """A Kanripo character's NORM is its entity; only those tokens are touched (creating a
    Token object for every token cost a third of this export). The NORM strings of the Doc."""
    norms = []
    for i, form in enumerate(forms):
        if form and max(form) >= PUA_FIRST and any(entity_number(c) is not None for c in form):
            sdoc[i].norm_ = encode_entities(form)
            norms.append(sdoc[i].norm_)
        else:
            norms.append(form.lower())  # a blank Vocab's NORM
    return norms


def _add(db, sdoc, strings: set[str]) -> None:
    """DocBin.add (spaCy 3.8) less its Python loop over every token to collect the strings
    (a third of this export): `strings` are those the Doc was built from (text, tag, lemma,
    norm, morph, dep, entity label). tests/test_export.py checks that the bytes are DocBin.add's."""
    import numpy
    from spacy.attrs import SPACY

    array = sdoc.to_array(db.attrs)
    db.tokens.append(array.reshape((array.shape[0], -1)))
    spaces = sdoc.to_array(SPACY)
    db.spaces.append(numpy.asarray(spaces.reshape((spaces.shape[0], 1)), dtype=bool))
    db.flags.append({"has_unknown_spaces": sdoc.has_unknown_spaces})
    db.strings.update(strings)
    db.cats.append(sdoc.cats)
    db.span_groups.append(sdoc.spans.to_bytes())


def docbin(doc: Document):
    """The document's sentences as a DocBin (merged per split by the runner)."""
    from spacy.tokens import Doc, DocBin, MorphAnalysis
    from spacy.vocab import Vocab

    vocab = Vocab()
    db = DocBin(attrs=ATTRS, store_user_data=False)
    morph_str: dict[str, str] = {}  # FEATS -> spaCy's normal form of it

    def morph(m: str) -> str:
        if m not in morph_str:
            morph_str[m] = str(MorphAnalysis(vocab, m)) if m else ""
        return morph_str[m]

    if any(u.words for u in doc.units):
        for forms, pos, tags, lemmas, morphs, heads, deps, ents in parsed_sentences(doc):
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), pos=pos, tags=tags, lemmas=lemmas,
                       morphs=morphs, heads=heads, deps=deps, ents=ents)
            norms = _norms(sdoc, forms)
            _add(db, sdoc, {"", *forms, *tags, *lemmas, *norms, *map(morph, morphs), *deps, *(e[2:] for e in ents)})
    else:
        for _sid, forms, tags in iob.sentences(doc):
            forms = [decode_entities(f) for f in forms]
            ents = _bio(tags)
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), ents=ents)
            norms = _norms(sdoc, forms)
            _add(db, sdoc, {"", *forms, *norms, *(e[2:] for e in ents)})
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
