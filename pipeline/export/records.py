"""Standoff records of an annotated Document: one flat dict per document, unit, sentence,
entity, gloss, collation note, token and 音義 reading. jsonl/ and parquet/ both write these.

Offsets index the strings stored beside them: an offset into a unit is a code-point offset
into that unit's stored `text`, where a Kanripo character is spelled out as `&KRnnnn;` and
counts its 8 characters (so `units.text[start:end]` is the span's `text`); the raw `start`/`end`
of units and collation notes index the source file, which spells them out too (see
docs/datasets.md).
Every record carries `doc`, `unit` (except documents) and page provenance (`pb`, `line`).
"""

from __future__ import annotations

from typing import get_args

from pipeline.export.common import (
    UnitProvenance,
    book_title,
    note_id,
    offset_map,
    reading_id,
    source_provenance,
    unit_id,
)
from pipeline.model import CHANCE_END, EDITION, ENTITY_LABELS, Document, UnitKind, sentences_of, withdrawn_as_chance
from pipeline.pua import encode_entities, has_kanripo

RECORD_KINDS = ("documents", "units", "sentences", "entities", "glosses", "collation", "tokens", "readings")

# column -> arrow type name, in file order; the schema of jsonl and parquet alike
SCHEMAS: dict[str, list[tuple[str, str, str]]] = {
    "documents": [
        ("doc", "string", "document id, the source file's stem (KR1d0030_010)"),
        ("book", "string", "Kanripo id of the book (KR1d0030): #+PROPERTY ID, else the file's stem up to its first _"),
        ("path", "string", "source file as given to the run (relative when possible)"),
        ("layout", "string", "source layout profile (wyg, wyg-print, wyg-zhushu, sbck, …)"),
        ("evidence", "json", "what ingest read beside what the print shows (pipeline/ingest/check.py): commentary share read and by the print, share of collation notes that do not read as collation, empty units, punctuation in text; for a 注疏 its 經 and 注 unit counts and the plain 經 text it was read with (`jing_text`), and for a 注疏 the speaker table has no rows for, or a classic printed with its annotator's notes, who its author line names (`author_line`); for a gathered commentary that names sources in full, the names read as attributions (`named_in_full`)"),
        ("title", "string", "#+TITLE"),
        ("juan", "string", "#+PROPERTY JUAN (the first that opens no 考證 section: a later one opens a section, 卷N考證; a file of several juan is named by its first)"),
        ("edition", "string", "#+PROPERTY BASEEDITION"),
        ("properties", "json", "all #+PROPERTY lines as a JSON object"),
        ("split", "string", "train or dev (the juan named by --dev: by default juan 10 of the 集釋, juan 10, 20, … of the 注疏; a juan is its file name or the Kanripo juan of its page breaks)"),
        ("units", "int64", "number of units"),
        ("chars", "int64", "characters of unit text"),
        ("pages", "int64", "number of <pb> page breaks"),
        ("first_pb", "string", "first page id"),
        ("last_pb", "string", "last page id"),
        ("sentences", "int64", "restored sentences"),
        ("entities", "int64", "entity spans"),
        ("glosses", "int64", "glosses"),
        ("collation", "int64", "collation notes"),
        ("tokens", "int64", "words and restored marks of the parse (0 without the parse stage)"),
        ("readings", "int64", "音義 readings (注疏 layout)"),
        ("stages", "string", "stages that annotated the document, comma-separated"),
        ("warnings", "json", "what ingest warns of (FILE:LINE: message), a list: a print read as printed though it looks wrong, a 經 left in its 注 (no plain 經 text), characters no print has dropped"),
    ],
    "units": [
        ("doc", "string", "document id"),
        ("unit", "string", "unit id doc#seq"),
        ("seq", "int64", "position in the document, 0-based"),
        ("kind", "string", " | ".join(get_args(UnitKind)) + " (report: a 注疏 juan's 考證, the Qing editors' collation report)"),
        ("marker", "string", "commentary marker as read (鄭注, 釋曰, 鄭目録云 / 鄭目錄云; 注, 音義, 疏, 小注, 考證) or null"),
        ("source", "string", "who speaks in a commentary / report unit, as the print names them (鄭注, 釋曰, 鄭目録, 注, 音義, 疏, 考證 …; graphic variants made one), null for base text"),
        ("source_name", "string", "the person that source is where the print makes it clear (鄭玄, 李如圭, 陸德明, 賈公彦, 孔穎達; 考證諸臣 for the 注疏's 考證), else null"),
        ("text", "string", "clean unit text, &KRnnnn; entities"),
        ("punctuated", "string", "text with the restored punctuation inserted"),
        ("marks_source", "string", "edition: the marks are the edition's own (punctuated layout); null: restored by zhushu"),
        ("printed", "string", "punctuated layout: the text as the edition prints it (its marks, 「」《》 …, paragraph number); else null"),
        ("chars", "int64", "length of the text in characters (a &KRnnnn; entity counts 1; len(text) counts 8)"),
        ("start", "int64", "raw extent in the source file (code points), marker and notes included"),
        ("end", "int64", "end of the raw extent"),
        ("base_unit", "string", "for commentary: the base unit it comments on"),
        ("pb", "string", "page of the first character"),
        ("line", "int64", "printed line of the first character"),
        ("end_pb", "string", "page of the last character"),
        ("end_line", "int64", "printed line of the last character"),
    ],
    "sentences": [
        ("doc", "string", "document id"),
        ("unit", "string", "unit id"),
        ("index", "int64", "sentence number in the unit"),
        ("start", "int64", "start offset in the unit text"),
        ("end", "int64", "end offset in the unit text"),
        ("mark", "string", "restored sentence-final mark after end (null at an unmarked unit end)"),
        ("text", "string", "the sentence, &KRnnnn; entities, without punctuation"),
        ("punctuated", "string", "the sentence with its restored marks"),
        ("kind", "string", "kind of the unit"),
        ("source", "string", "source of the unit (units.source)"),
        ("source_name", "string", "person of that source (units.source_name)"),
        ("pb", "string", "page of the first character"),
        ("line", "int64", "printed line of the first character"),
    ],
    "entities": [
        ("doc", "string", "document id"),
        ("unit", "string", "unit id"),
        ("start", "int64", "start offset in the unit text"),
        ("end", "int64", "end offset in the unit text"),
        ("label", "string", " | ".join(ENTITY_LABELS)),
        ("text", "string", "surface string"),
        ("source", "string", "model | lexicon | rule: what found the entity"),
        ("kind", "string", "kind of the unit"),
        ("unit_source", "string", "who speaks in the unit (units.source)"),
        ("unit_source_name", "string", "person of that source (units.source_name)"),
        ("pb", "string", "page of the first character"),
        ("line", "int64", "printed line of the first character"),
    ],
    "glosses": [
        ("doc", "string", "document id"),
        ("id", "string", "gloss id unit.gN"),
        ("unit", "string", "the unit the gloss stands in: a commentary unit, or a 注疏's 考證 entry (report)"),
        ("note_start", "int64", "gloss span in that unit's text"),
        ("note_end", "int64", "end of the gloss span"),
        ("text", "string", "the gloss statement"),
        ("type", "string", "definition, equivalence, reference, explanation, sound, reading, emendation, variant"),
        ("lemma", "string", "the lemma named by the gloss"),
        ("base_unit", "string", "unit id of the unit the lemma is looked up in: the base unit (for a 疏 on the 注, the 注 unit)"),
        ("lemma_start", "int64", "lemma span in the base unit text (null: unanchored)"),
        ("lemma_end", "int64", "end of the lemma span"),
        ("confidence", "float64", "aligner confidence"),
        ("reason", "string", "why a gloss stayed unanchored"),
        ("pb", "string", "page of the gloss's first character"),
        ("line", "int64", "printed line of the gloss's first character"),
        ("lemma_pb", "string", "page of the lemma's first character"),
        ("lemma_line", "int64", "printed line of the lemma's first character"),
        ("said_by", "string", "who the note says the statement is by, as printed: a commentator the 注 quotes or whose reading it gives (鄭司農云 …, 杜子春讀X為Y: 鄭司農, 杜子春, 鄭大夫, 賈侍中, 許叔重), 或 (someone), 𤣥 (鄭玄's own 𤣥謂 after them); in a 注疏's 考證 entry, the scholar it quotes for the statement or the signed editor (敖繼公, 臣召南); null where it names nobody"),
        ("said_by_name", "string", "the person said_by names, where the speaker table knows the name in the book (鄭司農: 鄭衆, 杜子春, 鄭大夫: 鄭興, 賈侍中: 賈逵, 許叔重: 許慎, 𤣥: 鄭玄); null else"),
        ("unit_source", "string", "who speaks in the commentary unit the gloss stands in (units.source: 注, 疏, a gathered commentary's 鄭氏曰 …)"),
        ("unit_source_name", "string", "person of that source (units.source_name: 鄭玄, 賈公彦 …)"),
    ],
    "collation": [
        ("doc", "string", "document id"),
        ("id", "string", "note id doc.nN"),
        ("unit", "string", "unit the note stands in"),
        ("offset", "int64", "characters of unit text before the note"),
        ("raw", "string", "the note as printed, columns in reading order, &KRnnnn; entities"),
        ("text", "string", "the same, as in unit text (&KRnnnn; entities)"),
        ("start", "int64", "raw extent in the source file, first ( to last )"),
        ("end", "int64", "end of the raw extent"),
        ("pb", "string", "page of the note"),
        ("line", "int64", "printed line of the note"),
    ],
    "tokens": [
        ("doc", "string", "document id"),
        ("unit", "string", "unit id"),
        ("sentence", "string", "sentence id unit.sN (the tree's sentence)"),
        ("word", "int64", "1-based position in the sentence's tree (CoNLL-U ID)"),
        ("text", "string", "the word as in unit text (&KRnnnn; entities); the mark for a restored mark"),
        ("form", "string", "NFC form (CoNLL-U FORM)"),
        ("lemma", "string", "lemma (UD-Kanbun)"),
        ("upos", "string", "universal part of speech"),
        ("xpos", "string", "UD-Kanbun's four-field tag"),
        ("feats", "string", "morphological features, _ if none"),
        ("head", "int64", "word id of the head in the same sentence, 0 = root"),
        ("deprel", "string", "universal dependency relation (restored marks: punct)"),
        ("start", "int64", "start offset in the unit text; a restored mark: start = end, where it stands"),
        ("end", "int64", "end offset in the unit text"),
        ("restored", "bool", "a punctuation mark restored by the segment stage (not in the source; an edition's own mark: false)"),
        ("pb", "string", "page of the first character"),
        ("line", "int64", "printed line of the first character"),
    ],
    "readings": [
        ("doc", "string", "document id"),
        ("id", "string", "reading id unit.rN (N: its place in the 音義 note)"),
        ("unit", "string", "the 音義 unit"),
        ("head", "string", "the character or word read"),
        ("head_start", "int64", "the head in the 音義 note text"),
        ("head_end", "int64", "end of the head in the note"),
        ("kind", "string", "the reading: fanqie (反切), homophone (音X), ruzi (如字) or word (近附近之近: read as 近 in the word 附近)"),
        ("upper", "string", "反切 upper character (the initial)"),
        ("lower", "string", "反切 lower character (the rhyme and tone)"),
        ("homophone", "string", "音X: the character X"),
        ("reading_text", "string", "the reading as printed (X Y反, 音X, 如字)"),
        ("authority", "string", "who gives the reading (徐, 劉, 沈 …; 一 for 一音, 又 …), when printed"),
        ("alternatives", "json", "the other readings: [{kind, upper, lower, homophone, text, authority}]"),
        ("scope", "string", "下同, 注同, 下及注同 …: where else the reading holds"),
        ("target_unit", "string", "the 經 / 注 (or title) unit the head stands in (null: unanchored)"),
        ("target_start", "int64", "the head in that unit's text"),
        ("target_end", "int64", "end of the head in that unit"),
        ("pb", "string", "page of the head in the note"),
        ("line", "int64", "printed line of the head in the note"),
        ("target_pb", "string", "page of the head in the text it reads"),
        ("target_line", "int64", "printed line of the head in the text it reads"),
    ],
}


def document_records(doc: Document, split: str, stages: list[str]) -> dict[str, list[dict]]:
    """All standoff records of one document, by kind, in document order."""
    units, sentences, entities, glosses, collation, tokens, readings = [], [], [], [], [], [], []
    by_seq = {u.seq: u for u in doc.units}
    maps = {u.seq: offset_map(u.text) for u in doc.units}
    provs: dict[int, UnitProvenance] = {}

    def prov_of(u) -> UnitProvenance:
        if u.seq not in provs:
            provs[u.seq] = UnitProvenance(doc, u)
        return provs[u.seq]
    for unit in doc.units:
        uid = unit_id(doc, unit)
        om = maps[unit.seq]
        n = len(unit.text)
        first = prov_of(unit)(0)
        last = prov_of(unit)(max(n - 1, 0))
        base = doc.base_before(unit) if unit.kind == "commentary" else None
        units.append(
            {
                "doc": doc.id,
                "unit": uid,
                "seq": unit.seq,
                "kind": unit.kind,
                "marker": unit.marker,
                "source": unit.source,
                "source_name": unit.source_name,
                "text": encode_entities(unit.text),
                "punctuated": encode_entities(unit.punctuated()),
                "marks_source": unit.marks_source,
                "printed": encode_entities(unit.printed()) if unit.signs or unit.marks_source == EDITION else None,
                "chars": n,
                "start": unit.start,
                "end": unit.end,
                "base_unit": unit_id(doc, base) if base is not None else None,
                "pb": first["pb"],
                "line": first["line"],
                "end_pb": last["pb"],
                "end_line": last["line"],
            }
        )
        # a parsed unit the segmenter does not punctuate (a header, a title) is one sentence, as
        # the CoNLL-U shows it: its tokens point at it (1,863 token rows of 周禮注疏 pointed at none)
        if unit.sentences or unit.words:
            for i, sent in enumerate(sentences_of(unit)):
                piece = unit.text[sent.start : sent.end]
                punct = "".join(unit.text[k] + unit.marks.get(k + 1, "") for k in range(sent.start, sent.end))
                sentences.append(
                    {
                        "doc": doc.id,
                        "unit": uid,
                        "index": i,
                        "start": om[sent.start],
                        "end": om[sent.end],
                        "mark": sent.mark,
                        "text": encode_entities(piece),
                        "punctuated": encode_entities(punct),
                        "kind": unit.kind,
                        "source": unit.source,
                        "source_name": unit.source_name,
                        **prov_of(unit)(sent.start),
                    }
                )
        for ent in sorted(unit.entities, key=lambda e: (e.start, e.end, e.label)):
            entities.append(
                {
                    "doc": doc.id,
                    "unit": uid,
                    "start": om[ent.start],
                    "end": om[ent.end],
                    "label": ent.label,
                    "text": encode_entities(ent.text),
                    "source": ent.source,
                    "kind": unit.kind,
                    "unit_source": unit.source,
                    "unit_source_name": unit.source_name,
                    **prov_of(unit)(ent.start),
                }
            )
        for i, gl in enumerate(unit.glosses):
            base_unit = by_seq.get(gl.base_seq) if gl.base_seq is not None else None
            lemma_prov = (
                prov_of(base_unit)(gl.lemma_start)
                if base_unit is not None and gl.lemma_start is not None
                else {"pb": None, "line": None}
            )
            prov = prov_of(unit)(gl.note_start)
            bm = maps[base_unit.seq] if base_unit is not None else None
            anchored = bm is not None and gl.lemma_start is not None and gl.lemma_end is not None
            glosses.append(
                {
                    "doc": doc.id,
                    "id": f"{uid}.g{i}",
                    "unit": uid,
                    "note_start": om[gl.note_start],
                    "note_end": om[gl.note_end],
                    "text": encode_entities(gl.text),
                    "type": gl.type,
                    "lemma": encode_entities(gl.lemma),
                    "base_unit": unit_id(doc, base_unit) if base_unit is not None else None,
                    "lemma_start": bm[gl.lemma_start] if anchored else None,
                    "lemma_end": bm[gl.lemma_end] if anchored else None,
                    "confidence": float(gl.confidence),
                    "reason": gl.reason,
                    "pb": prov["pb"],
                    "line": prov["line"],
                    "lemma_pb": lemma_prov["pb"],
                    "lemma_line": lemma_prov["line"],
                    "said_by": gl.said_by,
                    "said_by_name": gl.said_by_name,
                    "unit_source": unit.source,
                    "unit_source_name": unit.source_name,
                }
            )
        # a word's text, form and lemma hold a Kanripo character only if its unit's text does
        enc = encode_entities if has_kanripo(unit.text) else str
        page_at = prov_of(unit).at  # (pb, line): no dict a token to merge
        for w in unit.words:
            restored = w.start == w.end
            pb, line = page_at(w.start)
            tokens.append(
                {
                    "doc": doc.id,
                    "unit": uid,
                    "sentence": f"{uid}.s{w.sentence}",
                    "word": w.id,
                    "text": w.form if restored else enc(unit.text[w.start : w.end]),
                    "form": enc(w.form),
                    "lemma": enc(w.lemma),
                    "upos": w.upos,
                    "xpos": w.xpos,
                    "feats": w.feats,
                    "head": w.head,
                    "deprel": w.deprel,
                    "start": om[w.start],
                    "end": om[w.end],
                    "restored": restored and unit.marks_source != EDITION,
                    "pb": pb,
                    "line": line,
                }
            )
        readings.extend(_reading_records(doc, unit, uid, om, by_seq, maps, prov_of))
    for i, note in enumerate(doc.notes):
        nunit = by_seq.get(note.unit_seq)
        collation.append(
            {
                "doc": doc.id,
                "id": note_id(doc, i),
                "unit": unit_id(doc, nunit) if nunit is not None else None,
                "offset": maps[nunit.seq][note.offset] if nunit is not None else note.offset,
                "raw": encode_entities(note.raw),
                "text": encode_entities(note.text),
                "start": note.start,
                "end": note.end,
                **source_provenance(doc, note.start),
            }
        )
    props = dict(sorted(doc.properties.items()))
    documents = [
        {
            "doc": doc.id,
            "book": doc.book,
            "path": doc.path,
            "layout": doc.layout,
            "evidence": dict(sorted(doc.evidence.items())) or None,
            "title": book_title(doc),
            "juan": props.get("JUAN"),
            "edition": props.get("BASEEDITION"),
            "properties": props,
            "split": split,
            "units": len(doc.units),
            "chars": sum(len(u.text) for u in doc.units),
            "pages": len(doc.pages),
            "first_pb": doc.pages[0][1] if doc.pages else None,
            "last_pb": doc.pages[-1][1] if doc.pages else None,
            "sentences": len(sentences),
            "entities": len(entities),
            "glosses": len(glosses),
            "collation": len(collation),
            "tokens": len(tokens),
            "readings": len(readings),
            "stages": ",".join(stages),
            "warnings": list(doc.warnings),
        }
    ]
    return {
        "documents": documents,
        "units": units,
        "sentences": sentences,
        "entities": entities,
        "glosses": glosses,
        "collation": collation,
        "tokens": tokens,
        "readings": readings,
    }


def _sound_record(note: str, sound) -> dict:
    return {"kind": sound.kind, "upper": sound.upper, "lower": sound.lower, "homophone": sound.homophone,
            "text": encode_entities(note[sound.start : sound.end]), "authority": "".join(sound.authority) or None}


def _reading_records(doc: Document, unit, uid: str, om: list[int], by_seq: dict, maps: dict, prov_of) -> list[dict]:
    out = []
    for i, r in enumerate(unit.readings):
        target = by_seq.get(r.target) if r.target is not None else None
        anchored = target is not None and r.anchor_start is not None
        tprov = prov_of(target)(r.anchor_start) if anchored else {"pb": None, "line": None}
        first = _sound_record(unit.text, r.reading) if r.sounds else {}
        out.append({
            "doc": doc.id,
            "id": reading_id(doc, unit, i),
            "unit": uid,
            "head": encode_entities(r.head),
            "head_start": om[r.head_start],
            "head_end": om[r.head_end],
            "kind": first.get("kind"),
            "upper": first.get("upper"),
            "lower": first.get("lower"),
            "homophone": first.get("homophone"),
            "reading_text": first.get("text"),
            "authority": first.get("authority"),
            "alternatives": [_sound_record(unit.text, s) for s in r.alternatives],
            "scope": r.scope,
            "target_unit": unit_id(doc, target) if anchored else None,
            "target_start": maps[target.seq][r.anchor_start] if anchored else None,
            "target_end": maps[target.seq][r.anchor_end] if anchored else None,
            **prov_of(unit)(r.head_start),
            "target_pb": tprov["pb"],
            "target_line": tprov["line"],
        })
    return out


def document_stats(records: dict[str, list[dict]]) -> dict:
    """What the corpus-level summaries (dataset card, html index, run summary) need of one
    document, small enough to ship from a worker (the records themselves stay there)."""
    doc = records["documents"][0]
    chars = {"base": 0, "commentary": 0, "other": 0}
    kinds: dict[str, int] = {}
    sources: dict[tuple[str, str | None], list[int]] = {}  # (source, person) -> [units, characters]
    for u in records["units"]:
        chars[u["kind"] if u["kind"] in ("base", "commentary") else "other"] += u["chars"]
        kinds[u["kind"]] = kinds.get(u["kind"], 0) + 1
        if u["source"] is not None:
            n = sources.setdefault((u["source"], u["source_name"]), [0, 0])
            n[0] += 1
            n[1] += u["chars"]
    labels: dict[str, int] = {}
    texts: dict[str, dict[str, int]] = {}
    for e in records["entities"]:
        labels[e["label"]] = labels.get(e["label"], 0) + 1
        by = texts.setdefault(e["label"], {})
        by[e["text"]] = by.get(e["text"], 0) + 1
    types: dict[str, int] = {}
    withdrawn: dict[str, int] = {}  # the align stage's chance check: its reason, glosses it took the anchor of
    anchored = unanchored = 0  # unanchored: the others; in a juan the chance check withdrew anchors of, its prose
    for g in records["glosses"]:
        types[g["type"]] = types.get(g["type"], 0) + 1
        if withdrawn_as_chance(g["reason"]):
            why = g["reason"].split(CHANCE_END, 1)[0] + CHANCE_END
            withdrawn[why] = withdrawn.get(why, 0) + 1
        elif g["lemma_start"] is None:
            unanchored += 1
        else:
            anchored += 1
    return {
        "document": doc,
        "counts": {kind: len(records.get(kind, [])) for kind in RECORD_KINDS},
        "chars": chars,
        "unit_kinds": kinds,
        # who speaks: [source, person or None, units, characters], sorted
        "sources": sorted(([s, name, n[0], n[1]] for (s, name), n in sources.items()), key=lambda r: (r[0], r[1] or "")),
        "entity_labels": labels,
        "entity_texts": texts,
        "gloss_types": types,
        "glosses_anchored": anchored,
        "glosses_withdrawn": withdrawn,
        "glosses_unanchored": unanchored,
    }


def speakers(stats: list[dict]) -> list[tuple[str, str | None, int, int]]:
    """(source, person, units, characters) over the documents, most characters first: who speaks
    (document_stats' `sources`; a source is one name however the print spells it)."""
    total: dict[tuple[str, str | None], list[int]] = {}
    for st in stats:
        for source, name, units, chars in st.get("sources", ()):
            n = total.setdefault((source, name), [0, 0])
            n[0] += units
            n[1] += chars
    return sorted(((s, name, n[0], n[1]) for (s, name), n in total.items()), key=lambda r: (-r[3], r[0], r[1] or ""))
