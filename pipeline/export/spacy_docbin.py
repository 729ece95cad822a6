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

from dataclasses import dataclass
from typing import Any

from pipeline.export import iob
from pipeline.export.bundle import Format, by_split
from pipeline.export.common import entity_tags, text_units
from pipeline.model import Document, sentences_of
from pipeline.pua import decode_entities, encode_entities, has_kanripo, is_kanripo_char

MASK64 = (1 << 64) - 1

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


@dataclass
class DocBinPart:
    """One document's share of a DocBin, cheap to send from a worker: the token rows of all its
    sentences in one array (a DocBin pickles through its zlib'ed to_bytes, which cost more than
    building it) and the strings they use."""

    rows: Any  # numpy uint64 (tokens, attributes in DocBin's order): the sentences' rows one after another
    lengths: list[int]  # tokens per sentence
    strings: set[str]


class _Rows:
    """The token rows of a DocBin, built from our lists as `Doc(...).to_array(DocBin.attrs)`
    gives them (spaCy 3.8), without making a Doc a sentence: string ids from the Vocab's
    StringStore (symbols keep their small ids), POS ids, MORPH keys from the Morphology, HEAD
    relative, ENT_IOB 3/1/2 for B/I/O, SENT_START 1 on the first token and -1 (parsed) or 0
    after it, NORM only where a Kanripo character's was set. Building the Docs was two thirds of
    this export; tests/test_export.py checks that the bytes are DocBin.add's."""

    def __init__(self, vocab):
        from spacy.attrs import IDS
        from spacy.parts_of_speech import IDS as POS_IDS
        from spacy.tokens import DocBin

        self.vocab, self.pos_ids = vocab, POS_IDS
        names = {v: k for k, v in IDS.items()}
        self.columns = [names[a] for a in DocBin(attrs=ATTRS).attrs]  # the order DocBin keeps them in
        self.ids: dict[str, int] = {}
        self.morphs: dict[str, tuple[int, str]] = {}
        self.cols: dict[str, list[int]] = {name: [] for name in self.columns}
        self.lengths: list[int] = []
        self.strings: set[str] = set()

    def sid(self, s: str) -> int:
        if s not in self.ids:
            self.ids[s] = self.vocab.strings.add(s) if s else 0
        return self.ids[s]

    def morph(self, feats: str) -> tuple[int, str]:
        """(MORPH key, spaCy's normal form of FEATS)."""
        if feats not in self.morphs:
            from spacy.tokens import MorphAnalysis

            key = self.vocab.morphology.add(feats)
            self.morphs[feats] = (key, str(MorphAnalysis(self.vocab, feats)) if feats else "")
        return self.morphs[feats]

    def add(self, forms, ents, pos=None, tags=None, lemmas=None, morphs=None, heads=None, deps=None) -> None:
        n = len(forms)
        parsed = heads is not None
        if has_kanripo("".join(forms)):
            norms, norm_ids = [], []
            for form in forms:
                entity = encode_entities(form)
                if entity != form:  # a Kanripo character: its NORM is its entity
                    norms.append(entity)
                    norm_ids.append(self.sid(entity))
                else:
                    norms.append(form.lower())  # a blank Vocab's NORM, which the Doc leaves at 0
                    norm_ids.append(0)
        else:  # (most sentences)
            norms, norm_ids = [form.lower() for form in forms], [0] * n
        iob = {"B": 3, "I": 1, "O": 2}
        ids, sid = self.ids, self.sid

        def strings_ids(xs):
            return [ids[x] if x in ids else sid(x) for x in xs]

        col = {
            "ORTH": strings_ids(forms),
            "NORM": norm_ids,
            "ENT_IOB": [iob[e[0]] for e in ents],
            "ENT_TYPE": strings_ids(e[2:] for e in ents),
            "SENT_START": [1] + [-1 if parsed else 0] * (n - 1),
        }
        strings = self.strings
        strings.update(("", *forms, *norms, *(e[2:] for e in ents)))
        if parsed:
            morph = [self.morph(m) for m in morphs]
            col.update(LEMMA=strings_ids(lemmas), POS=[self.pos_ids[x] for x in pos],
                       TAG=strings_ids(tags), DEP=strings_ids(deps),
                       HEAD=[h - i for i, h in enumerate(heads)], MORPH=[k for k, _ in morph])
            strings.update(tags, lemmas, deps, (m for _, m in morph))
        zeros = [0] * n
        for name, values in self.cols.items():
            values.extend(col.get(name, zeros))
        self.lengths.append(n)

    def part(self) -> DocBinPart:
        import numpy

        rows = numpy.zeros((sum(self.lengths), len(self.columns)), dtype=numpy.uint64)
        for j, name in enumerate(self.columns):
            rows[:, j] = numpy.array([v & MASK64 for v in self.cols[name]], dtype=numpy.uint64)  # negatives as spaCy stores them
        return DocBinPart(rows, self.lengths, self.strings)


def docbin_part(doc: Document) -> DocBinPart:
    """The document's sentences as rows of a DocBin (merged per split when assembling)."""
    from spacy.vocab import Vocab

    rows = _Rows(Vocab())
    if any(u.words for u in doc.units):
        for forms, pos, tags, lemmas, morphs, heads, deps, ents in parsed_sentences(doc):
            rows.add(forms, ents, pos, tags, lemmas, morphs, heads, deps)
    else:
        for _sid, forms, tags in iob.sentences(doc):
            rows.add([decode_entities(f) for f in forms], _bio(tags))
    return rows.part()


def docbin(doc: Document):
    """The document's sentences as a DocBin."""
    return to_docbin([docbin_part(doc)])


def _spacy_docbin(doc: Document):
    """The same DocBin the way spaCy builds it (a Doc a sentence, DocBin.add): the reference
    the tests compare `docbin` with."""
    from spacy.tokens import Doc, DocBin
    from spacy.vocab import Vocab

    vocab = Vocab()
    db = DocBin(attrs=ATTRS, store_user_data=False)
    if any(u.words for u in doc.units):
        for forms, pos, tags, lemmas, morphs, heads, deps, ents in parsed_sentences(doc):
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), pos=pos, tags=tags, lemmas=lemmas,
                       morphs=morphs, heads=heads, deps=deps, ents=ents)
            _set_norms(sdoc, forms)
            db.add(sdoc)
    else:
        for _sid, forms, tags in iob.sentences(doc):
            forms = [decode_entities(f) for f in forms]
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), ents=_bio(tags))
            _set_norms(sdoc, forms)
            db.add(sdoc)
    return db


def _set_norms(sdoc, forms: list[str]) -> None:
    """A Kanripo character's NORM is its entity."""
    for i, form in enumerate(forms):
        if any(is_kanripo_char(c) for c in form):
            sdoc[i].norm_ = encode_entities(form)


def to_docbin(parts: list[DocBinPart]):
    """One DocBin of the parts' sentences, in order: what DocBin.add a sentence would hold."""
    import numpy
    from spacy.tokens import Doc, DocBin
    from spacy.vocab import Vocab

    db = DocBin(attrs=ATTRS, store_user_data=False)
    empty_spans = Doc(Vocab(), words=["_"]).spans.to_bytes()
    flags = {"has_unknown_spaces": False}
    for part in parts:
        if not part.lengths:
            continue
        cuts = numpy.cumsum(part.lengths)[:-1]
        db.tokens.extend(numpy.split(part.rows, cuts))
        db.spaces.extend(numpy.zeros((n, 1), dtype=bool) for n in part.lengths)
        db.flags.extend(dict(flags) for _ in part.lengths)
        db.cats.extend({} for _ in part.lengths)
        db.span_groups.extend(empty_spans for _ in part.lengths)
        db.strings.update(part.strings)
    return db


def merge(parts: list[DocBinPart]) -> bytes:
    return to_docbin(parts).to_bytes()


def files(per_split: dict[str, list]) -> dict[str, bytes]:
    return {f"spacy/{split}.spacy": merge(parts) for split, parts in sorted(per_split.items())}


FORMAT = Format("spacy", lambda b: docbin_part(b.doc), lambda parts, _info: files(by_split(parts)), slow_corpus=True)
