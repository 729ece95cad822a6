"""spacy/train.spacy and spacy/dev.spacy: DocBins of one Doc per restored sentence.

With the parse stage, the tokens are its words (restored marks included, as in conllu/): ORTH
(NFC; a Kanripo character is its ONE private-use character U+F0000+nnnn, so that spaCy's
character tokenizer keeps it one token, with NORM `&KRnnnn;`), POS (UPOS), TAG (UD-Kanbun's XPOS), LEMMA,
MORPH (FEATS), HEAD and DEP (UD's `root` as spaCy's `ROOT`), and the entities (words are cut at entity edges), so
`spacy debug data` and a tagger / parser / ner config train on them. Without the parse stage
the tokens are characters (the same private-use convention) with entities only, in the order of the sentences of iob/<split>.iob.
Who speaks (Unit.source / source_name) is a span group `source` of one span over the whole Doc
of a sentence whose unit has a source: label = the source as printed, kb_id = the person (where
known), e.g. `doc.spans["source"][0].label_ == "疏"`, `.kb_id_ == "賈公彦"`; a Doc of base text has
no `source` group. No user_data (serialising it per Doc costs more than the rest of the export).
dev = the dev documents (juan 10 by default), train = every other document."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from pipeline.export import iob
from pipeline.export.bundle import CorpusInfo, Format, Parts, Sink
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
    """(forms, pos, tags, lemmas, morphs, heads, deps, ents, unit) of every parsed sentence."""
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
                unit,
            )


@dataclass
class DocBinPart:
    """One document's share of a DocBin, cheap to send from a worker: the token rows of all its
    sentences in one array (a DocBin pickles through its zlib'ed to_bytes, which cost more than
    building it) and the strings they use."""

    rows: Any  # numpy uint64 (tokens, attributes in DocBin's order): the sentences' rows one after another
    lengths: list[int]  # tokens per sentence
    strings: set[str]
    span_groups: list[bytes]  # each sentence's Doc.spans as DocBin stores them


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
        self.span_groups: list[bytes] = []

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

    def add(self, forms, ents, pos=None, tags=None, lemmas=None, morphs=None, heads=None, deps=None, unit=None) -> None:
        n = len(forms)
        if unit is not None and unit.source is not None:
            self.span_groups.append(_source_spans(n, sum(map(len, forms)), unit.source, unit.source_name))
            self.strings.update(x for x in (unit.source, unit.source_name) if x is not None)
        else:
            self.span_groups.append(_empty_spans())
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
        return DocBinPart(rows, self.lengths, self.strings, self.span_groups)


def docbin_part(doc: Document) -> DocBinPart:
    """The document's sentences as rows of a DocBin (merged per split when assembling)."""
    from spacy.vocab import Vocab

    rows = _Rows(Vocab())
    if any(u.words for u in doc.units):
        for forms, pos, tags, lemmas, morphs, heads, deps, ents, unit in parsed_sentences(doc):
            rows.add(forms, ents, pos, tags, lemmas, morphs, heads, deps, unit=unit)
    else:
        for _sid, forms, tags, unit in iob.sentences(doc):
            rows.add([decode_entities(f) for f in forms], _bio(tags), unit=unit)
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
        for forms, pos, tags, lemmas, morphs, heads, deps, ents, unit in parsed_sentences(doc):
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), pos=pos, tags=tags, lemmas=lemmas,
                       morphs=morphs, heads=heads, deps=deps, ents=ents)
            _set_norms(sdoc, forms)
            _set_source(sdoc, unit)
            db.add(sdoc)
    else:
        for _sid, forms, tags, unit in iob.sentences(doc):
            forms = [decode_entities(f) for f in forms]
            sdoc = Doc(vocab, words=forms, spaces=[False] * len(forms), ents=_bio(tags))
            _set_norms(sdoc, forms)
            _set_source(sdoc, unit)
            db.add(sdoc)
    return db


def _set_source(sdoc, unit) -> None:
    """Who speaks: the span group `source` over the whole Doc (see the module docstring)."""
    from spacy.tokens import Span

    if unit.source is not None:
        kb = {"kb_id": unit.source_name} if unit.source_name is not None else {}
        sdoc.spans["source"] = [Span(sdoc, 0, len(sdoc), label=unit.source, **kb)]


@lru_cache(maxsize=1)
def _empty_spans() -> bytes:
    """A Doc's empty span groups as DocBin stores them."""
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    return Doc(Vocab(), words=["_"]).spans.to_bytes()


@lru_cache(maxsize=1 << 12)
def _source_spans(n_tokens: int, n_chars: int, source: str, name: str | None) -> bytes:
    """The Doc.spans bytes of `_set_source` for a Doc of n_tokens tokens and n_chars characters
    (a span stores its token and character edges and its strings' hashes, nothing else of the
    Doc): made once per shape and speaker, not a Doc a sentence."""
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    words = ["_"] * (n_tokens - 1) + ["_" * (n_chars - n_tokens + 1)]
    sdoc = Doc(Vocab(), words=words, spaces=[False] * n_tokens)
    _set_source(sdoc, SimpleNamespace(source=source, source_name=name))
    with _no_encoder_scan():
        return sdoc.spans.to_bytes()


@lru_cache(maxsize=1)
def _encoder_entry_points() -> bool:
    from srsly.msgpack import msgpack_encoders

    return bool(msgpack_encoders.get_entry_points())


@contextmanager
def _no_encoder_scan():
    """srsly makes a msgpack Packer for every msgpack_dumps and, to make it, scans every installed
    package's entry points (catalogue over importlib.metadata) for encoders: about 1.4 ms a call, a
    quarter of this export's CPU. When no package registers one (checked once), the scan can find
    nothing; skip it while these bytes are made. The bytes are the same (tests/test_export.py
    compares them with DocBin.add's)."""
    from srsly.msgpack import msgpack_encoders

    if not msgpack_encoders.entry_points or _encoder_entry_points():
        yield
        return
    msgpack_encoders.entry_points = False
    try:
        yield
    finally:
        msgpack_encoders.entry_points = True


def _set_norms(sdoc, forms: list[str]) -> None:
    """A Kanripo character's NORM is its entity."""
    for i, form in enumerate(forms):
        if any(is_kanripo_char(c) for c in form):
            sdoc[i].norm_ = encode_entities(form)


def to_docbin(parts: list[DocBinPart]):
    """One DocBin of the parts' sentences, in order: what DocBin.add a sentence would hold."""
    import numpy
    from spacy.tokens import DocBin

    db = DocBin(attrs=ATTRS, store_user_data=False)
    flags = {"has_unknown_spaces": False}
    for part in parts:
        if not part.lengths:
            continue
        cuts = numpy.cumsum(part.lengths)[:-1]
        db.tokens.extend(numpy.split(part.rows, cuts))
        db.spaces.extend(numpy.zeros((n, 1), dtype=bool) for n in part.lengths)
        db.flags.extend(dict(flags) for _ in part.lengths)
        db.cats.extend({} for _ in part.lengths)
        db.span_groups.extend(part.span_groups)
        db.strings.update(part.strings)
    return db


def merge(parts: list[DocBinPart]) -> bytes:
    return to_docbin(parts).to_bytes()


def _bin_header(n: int) -> bytes:
    """msgpack's header of a bin of n bytes (as Packer(use_bin_type=True) writes it)."""
    if n < 1 << 8:
        return b"\xc4" + n.to_bytes(1, "big")
    if n < 1 << 16:
        return b"\xc5" + n.to_bytes(2, "big")
    return b"\xc6" + n.to_bytes(4, "big")


def write_docbin(fh, parts) -> None:
    """The bytes of `merge(list(parts))` written to `fh` with one document's part in memory at a
    time: DocBin.to_bytes is zlib over a msgpack map whose token array is the parts' rows one
    after another, so the map is written piece by piece into a zlib stream. `parts` is iterated
    twice (the map's headers need the totals first)."""
    import zlib

    import numpy
    from spacy.tokens import DocBin
    from srsly.msgpack import Packer

    empty = DocBin(attrs=ATTRS, store_user_data=False)
    lengths: list[int] = []
    strings: set[str] = set()
    span_groups: list[bytes] = []  # a few dozen bytes a sentence, the same object for most
    cols = len(empty.attrs)
    for part in parts:
        if part.lengths:
            lengths.extend(part.lengths)
            strings.update(part.strings)
            span_groups.extend(part.span_groups)
    rows, n = sum(lengths), len(lengths)
    pack = Packer(use_bin_type=True).pack
    z = zlib.compressobj()  # zlib.compress's parameters: a stream fed in pieces gives the same bytes

    def out(data: bytes) -> None:
        fh.write(z.compress(data))

    out(b"\x89")  # a map of 9 entries, in to_bytes' order
    out(pack("version") + pack(empty.version) + pack("attrs") + pack(empty.attrs))
    out(pack("tokens") + _bin_header(rows * cols * 8 if rows else 0))
    for part in parts:
        if part.lengths:
            out(numpy.ascontiguousarray(part.rows, dtype=numpy.uint64).tobytes("C"))
    out(pack("spaces") + _bin_header(rows))
    chunk = 1 << 20
    for at in range(0, rows, chunk):
        out(bytes(min(chunk, rows - at)))  # every space False
    out(pack("lengths") + pack(numpy.asarray(lengths, dtype="int32").tobytes("C")))
    out(pack("strings") + pack(sorted(strings)))
    flags = pack({"has_unknown_spaces": False})
    out(pack("cats") + _array_header(n) + b"\x80" * n)
    out(pack("flags") + _array_header(n) + flags * n)
    out(pack("span_groups") + _array_header(n) + b"".join(map(pack, span_groups)))
    fh.write(z.flush())


def _array_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x90 | n])
    if n < 1 << 16:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


class _PartsOnly:
    """The parts alone (no split), read from the spill again on each pass."""

    def __init__(self, parts: Parts):
        self.parts = parts

    def __iter__(self):
        return (part for _split, part in self.parts)


def stream(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    """spacy/<split>.spacy (train and dev always written)."""
    for split in sorted({"train", "dev"} | {e.split for e in parts.exports}):
        with sink.open(f"spacy/{split}.spacy") as fh:
            write_docbin(fh, _PartsOnly(parts.of_split(split)))


FORMAT = Format("spacy", lambda b: docbin_part(b.doc), stream=stream, slow_corpus=True)
