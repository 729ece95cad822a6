"""conllu/<doc>.conllu: one sentence per restored sentence (a unit when not segmented).

Tokens are the words of the parse stage (UPOS, XPOS, FEATS, lemma, HEAD, DEPREL from
UD-Kanbun; restored marks are PUNCT tokens attached as `punct`). Without the parse stage
(`--skip parse`) a token is a character and the columns after FORM are `_` (such files are
not valid UD: no tree).

- FORM and LEMMA are NFC; a form that NFC changed (a CJK compatibility ideograph) keeps its
  original spelling in MISC `ZhOrig` as code points (`ZhOrig=U+2F80F`: MISC must be NFC too). A Kanripo character is written `&KRnnnn;`.
- Layout whitespace (the U+3000 of header lines) is no token: it is left out of FORM and of
  `# text` and recorded in MISC `ZhSpacesBefore` / `ZhSpacesAfter` as `\\uXXXX` escapes.
- Every token has SpaceAfter=No. MISC keys of our own (none of them is a UD/CorefUD key):
  `ZhSpan=<start>-<end>` (offsets in the unit text as stored in jsonl/parquet, `&KRnnnn;`
  counting its 8 characters), `ZhRestored=Yes` on a restored mark, `ZhNE=<BIO tag>` (entities;
  words are cut at entity edges, so the tags are exact), and the gloss links:
  on commentary words inside a gloss `ZhGloss=<gloss id>` (`ZhGlossType`,
  `ZhGlossLemma=<base unit>:<start>-<end>` and `ZhGlossConf=<confidence>` on the word where it
  starts: a 疏 quotation's is the reader's probability; `ZhGlossBy=<as printed>` and
  `ZhGlossByName=<person>` there too where the note names whom the statement is by, 鄭司農云 …,
  Gloss.said_by / said_by_name); on base words inside a
  lemma `ZhLemmaOf=<gloss id>[,<gloss id>…]`; the 音義 readings likewise (since stop 43): on the
  words of an 音義 note that are a reading's head `ZhReading=<reading id>` (`ZhReadingText=<the
  reading as printed: 力呈反, 音洛, 如字>` and `ZhReadingTarget=<unit>:<start>-<end>` on the word
  where the head starts), on the words of a 經 / 注 where an anchored head stands
  `ZhReadingOf=<reading id>[,…]`; who speaks in the unit (Unit.source / source_name),
  on every token of a unit that has a source: `ZhSource=<as printed>` and `ZhSourceName=<person>`.
Sentence comments: newdoc id, newpar id (= unit id), sent_id, text (punctuated), unit_kind,
unit_source and unit_source_name (where the unit has them), pb, line.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pipeline.export.bundle import Format, stream_files
from pipeline.export.common import (
    UnitProvenance,
    entity_tags,
    gloss_id,
    offset_map,
    reading_id,
    text_units,
    unit_id,
)
from pipeline.model import EDITION, Document, Unit, Word, sentences_of
from pipeline.pua import encode_entities, has_kanripo


def _misc_value(value: str) -> str:
    # MISC values may not hold | or whitespace
    return value.replace("|", "¦").replace(" ", "_").replace("\t", "_")


def _escape_spaces(s: str) -> str:
    return "".join(f"\\u{ord(ch):04x}" for ch in s)


@lru_cache(maxsize=1 << 16)  # lemmas repeat: one normalisation each
def _form(s: str) -> str:
    return encode_entities(unicodedata.normalize("NFC", s))


def _char_words(unit: Unit, si: int, start: int, end: int) -> list[Word]:
    """Character tokens of a sentence without a parse (marks as PUNCT, no tree)."""
    words: list[Word] = []
    for k in range(start, end):
        if unit.text[k].isspace():
            continue
        words.append(Word(si, len(words) + 1, k, k + 1, unit.text[k], "_", "_", "_", "_", -1, "_"))
        mark = unit.marks.get(k + 1)
        if mark and k + 1 <= end:
            words.append(Word(si, len(words) + 1, k + 1, k + 1, mark, "_", "PUNCT", "_", "_", -1, "_"))
    return words


def render(doc: Document) -> str:
    # per unit seq: offset -> ids of the glosses whose lemma / the readings whose head stands there
    lemma_of = _targets(((gloss_id(doc, unit, i), gl.base_seq, gl.lemma_start, gl.lemma_end)
                         for unit in doc.units for i, gl in enumerate(unit.glosses)))
    reading_of = _targets(((reading_id(doc, unit, i), r.target, r.anchor_start, r.anchor_end)
                           for unit in doc.units for i, r in enumerate(unit.readings)))
    by_seq = {u.seq: u for u in doc.units}
    out: list[str] = []
    first_sentence = True
    for unit in text_units(doc):
        uid = unit_id(doc, unit)
        text = unit.text
        tags = entity_tags(unit, 0, len(text))
        omap = offset_map(text)
        # most units are NFC and hold no Kanripo character: their words are their own forms
        plain = unicodedata.is_normalized("NFC", text) and not has_kanripo(text)
        prov_at = UnitProvenance(doc, unit)
        # the glosses / readings of this unit: their ids at each offset, the MISC where each starts
        gloss_at, gloss_head = _links_at((gloss_id(doc, unit, i), gl.note_start, gl.note_end, _gloss_misc(doc, gl, by_seq))
                                         for i, gl in enumerate(unit.glosses))
        reading_at, reading_head = _links_at((reading_id(doc, unit, i), r.head_start, r.head_end,
                                              _reading_misc(doc, unit, r, by_seq))
                                             for i, r in enumerate(unit.readings))
        lemma_here = lemma_of.get(unit.seq, {})
        read_here = reading_of.get(unit.seq, {})
        # who speaks: on every token of the unit (a query over tokens needs no join)
        who = ""
        if unit.source is not None:
            who = "|ZhSource=" + _misc_value(unit.source)
            if unit.source_name is not None:
                who += "|ZhSourceName=" + _misc_value(unit.source_name)
        parsed: dict[int, list[Word]] = {}
        for w in unit.words:
            parsed.setdefault(w.sentence, []).append(w)
        written = 0
        for si, sent in enumerate(sentences_of(unit)):
            words = parsed.get(si) if unit.words else _char_words(unit, si, sent.start, sent.end)
            if not words:
                continue
            rows: list[str] = []
            forms: list[str] = []
            prev_end = sent.start  # the furthest end of the words so far (restored marks are empty)
            last = len(words) - 1
            for j, w in enumerate(words):
                s, e = w.start, w.end
                if s == e:  # a restored mark
                    form = w.form
                    restored = "|ZhRestored=Yes" if unit.marks_source != EDITION else ""  # an edition's own mark
                    misc = [f"SpaceAfter=No|ZhSpan={omap[s]}-{omap[e]}{restored}"]
                else:
                    orig = text[s:e]
                    if plain:
                        nfc = form = orig
                    else:
                        nfc = unicodedata.normalize("NFC", orig)
                        form = encode_entities(nfc)
                    misc = ["SpaceAfter=No"]
                    if nfc != orig:
                        misc.append("ZhOrig=" + ",".join(f"U+{ord(ch):04X}" for ch in orig))
                    misc.append(f"ZhSpan={omap[s]}-{omap[e]}")
                    # layout whitespace before this word (within the sentence) / after the last
                    if prev_end < s:
                        gap = text[prev_end:s]
                        if gap.isspace():
                            misc.append("ZhSpacesBefore=" + _escape_spaces(gap))
                    misc.append("ZhNE=" + tags[s])
                    if gloss_at:
                        _add_links(misc, "ZhGloss", gloss_at, s, e, gloss_head)
                    if lemma_here:
                        _add_links(misc, "ZhLemmaOf", lemma_here, s, e)
                    if reading_at:
                        _add_links(misc, "ZhReading", reading_at, s, e, reading_head)
                    if read_here:
                        _add_links(misc, "ZhReadingOf", read_here, s, e)
                if e > prev_end:
                    prev_end = e
                if j == last:
                    tail = text[prev_end : sent.end]
                    if tail and tail.isspace():
                        misc.append("ZhSpacesAfter=" + _escape_spaces(tail))
                forms.append(form)
                lemma = _form(w.lemma) if w.lemma != "_" else "_"
                head = str(w.head) if w.head >= 0 else "_"
                rows.append(
                    f"{w.id}\t{form}\t{lemma}\t{w.upos}\t{w.xpos}\t{w.feats}\t{head}\t{w.deprel}\t_\t{'|'.join(misc)}{who}"
                )
            prov = prov_at(sent.start)
            if first_sentence:
                out.append(f"# newdoc id = {doc.id}")
                # what ingest warns of (the card lists it too)
                out.extend(f"# ingest_warning = {' '.join(w.split())}" for w in doc.warnings)
                first_sentence = False
            if written == 0:
                out.append(f"# newpar id = {uid}")
            written += 1
            out.append(f"# sent_id = {uid}.s{si}")
            out.append("# text = " + "".join(forms))
            out.append(f"# unit_kind = {unit.kind}")
            if unit.source is not None:
                out.append(f"# unit_source = {unit.source}")
                if unit.source_name is not None:
                    out.append(f"# unit_source_name = {unit.source_name}")
            if prov["pb"] is not None:
                out.append(f"# pb = {prov['pb']}")
                out.append(f"# line = {prov['line']}")
            out.extend(rows)
            out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _targets(links) -> dict[int, dict[int, list[str]]]:
    """(id, unit seq, start, end) of each anchored link -> per unit seq, offset -> link ids."""
    out: dict[int, dict[int, list[str]]] = {}
    for lid, seq, start, end in links:
        if seq is None or start is None or end is None:
            continue
        at = out.setdefault(seq, {})
        for k in range(start, end):
            at.setdefault(k, []).append(lid)
    return out


def _links_at(links) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """(id, start, end, MISC of the word where it starts) of each gloss or reading of a unit -> the
    ids at each offset, and the MISC at each start."""
    at: dict[int, list[str]] = {}
    head: dict[int, list[str]] = {}
    for lid, start, end, misc in links:
        for k in range(start, end):
            at.setdefault(k, []).append(lid)
        head.setdefault(start, []).extend(misc)
    return at, head


def _pointer(doc: Document, target: Unit | None, start: int | None, end: int | None) -> str | None:
    """`<unit id>:<start>-<end>` (offsets into the stored text) where a link is anchored, else None."""
    if target is None or start is None or end is None:
        return None
    m = offset_map(target.text)
    return f"{unit_id(doc, target)}:{m[start]}-{m[end]}"


def _gloss_misc(doc: Document, gl, by_seq: dict) -> list[str]:
    at = _pointer(doc, by_seq.get(gl.base_seq) if gl.base_seq is not None else None, gl.lemma_start, gl.lemma_end)
    return ([f"ZhGlossType={_misc_value(gl.type)}"] + ([f"ZhGlossLemma={at}"] if at else [])
            + [f"ZhGlossConf={gl.confidence:.3f}"]
            + ([f"ZhGlossBy={_misc_value(gl.said_by)}"] if gl.said_by else [])
            + ([f"ZhGlossByName={_misc_value(gl.said_by_name)}"] if gl.said_by_name else []))


def _reading_misc(doc: Document, unit: Unit, r, by_seq: dict) -> list[str]:
    """The reading as printed, and where its head stands when anchored."""
    misc = [f"ZhReadingText={_misc_value(encode_entities(unit.text[r.reading.start:r.reading.end]))}"] if r.sounds else []
    at = _pointer(doc, by_seq.get(r.target) if r.target is not None else None, r.anchor_start, r.anchor_end)
    return misc + ([f"ZhReadingTarget={at}"] if at else [])


def _add_links(misc: list[str], key: str, at: dict[int, list[str]], s: int, e: int,
               heads: dict[int, list[str]] | None = None) -> None:
    """A word's link ids under `key` (the glosses / readings over its characters s..e-1) and the
    MISC of the links that start on it."""
    ids = _ids_over(at, s, e)
    if ids:
        misc.append(f"{key}=" + _misc_value(",".join(ids)))
    if heads:
        for k in range(s, e):
            misc.extend(heads.get(k, ()))


def _ids_over(at: dict[int, list[str]], s: int, e: int) -> list[str]:
    """The gloss (or reading) ids at any offset s..e-1, each once, in their order."""
    if e == s + 1:  # (most words: one character, mostly one gloss or none)
        ids = at.get(s, ())
        if len(ids) < 2:
            return list(ids)
        return sorted(set(ids), key=_id_key)
    return sorted({g for k in range(s, e) for g in at.get(k, ())}, key=_id_key)


def _id_key(gid: str) -> tuple:
    """doc#seq.gN / doc#seq.rN: by document, unit and N."""
    unit, _, g = gid.rpartition(".")
    doc, _, seq = unit.rpartition("#")
    n = g[1:]
    return (doc, int(seq) if seq.isdigit() else 0, int(n) if n.isdigit() else 0)


FORMAT = Format("conllu", lambda b: {f"conllu/{b.doc.id}.conllu": render(b.doc).encode("utf-8")}, stream=stream_files)
