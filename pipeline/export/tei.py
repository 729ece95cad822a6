"""tei/<doc>.xml: one TEI P5 file per document.

- teiHeader from the #+TITLE / #+PROPERTY lines, the Kanripo source and licence, a charDecl
  with one <glyph> per `&KRnnnn;` character used;
- <pb n="…"/> and <lb n="…"/> kept where the source has them: before the first thing printed after
  them, inside a <label> where the print turns the line within a marker (`音<lb/>義`);
- units in order: base text <ab type="base">, titles/headers <ab type="title|header"> (TEI's
  anonymous block: `p` has no @type in TEI P5),
  commentary <note type="commentary" subtype="…" target="#base-unit"> with its marker as <label>;
- who speaks (Unit.source / source_name): @resp on the unit's element (a commentary <note>, a
  report <ab>) pointing at a <respStmt xml:id> of the titleStmt that names the person once
  (<persName>), or the source as printed (<name>) where the person is not known; whom a gloss is by
  where the note names him (Gloss.said_by / said_by_name): @resp on its <link>, the same way;
- restored punctuation as <pc type="restored">, entities as <roleName> (ROLE),
  <placeName> (PLACE), <rs type="OBJECT|MUSIC">;
- collation notes as <note type="collation"> where they stand in the text;
- Kanripo characters as <g ref="#KRnnnn"/>; a control character of the source (XML cannot hold
  it) as <gap reason="control-character" n="U+0001"/>;
- glosses as standoff: <anchor>s in the commentary and in the base text, and a
  <linkGrp type="glosses"> of <link type="<gloss type>" target="#gloss-start #gloss-end
  #lemma-start #lemma-end" n="<lemma>" cert="<confidence>"/> at the end of the body (@cert, TEI's
  certainty as a number: a 疏 quotation's is the reader's probability, near calibrated; a gloss's
  the formula's and the anchoring's certainty, docs/glosses.md).

The files validate against TEI P5 tei_all (../shared/schemas/tei_all.rng, tested) and against
schemas/tei_zhushu.rng, a documented subset of TEI P5.
"""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from pipeline.export.bundle import Format, stream_files
from pipeline.export.common import (
    BEFORE_NOTE,
    IN_MARKER,
    LEAD,
    Markup,
    book_title,
    milestone_places,
    non_overlapping_entities,
    note_id,
    render,
    xml_name,
)
from pipeline.model import EDITION, Document, Unit
from pipeline.pua import glyph_id, is_composed, is_kanripo_char, kanripo_form

TEI_NS = "http://www.tei-c.org/ns/1.0"
MARKER_SUBTYPE = {"鄭注": "zheng", "釋曰": "shiyue", "鄭目録云": "zheng-mulu", "鄭目錄云": "zheng-mulu",
                  "注": "zhu", "音義": "yinyi", "疏": "shu", "小注": "xiaozhu"}
LICENCE_URL = "https://creativecommons.org/licenses/by-sa/4.0/"
# order of point markup at one offset (after the k-th character): a gloss ends, the restored
# mark, a page or line break printed before the collation note, the note, page and line breaks,
# a gloss starts
END_ANCHOR, PC, BEFORE_NOTE_ORDER, NOTE, PB, START_ANCHOR = range(6)
LB = PB  # page and line breaks keep their source order
LEAD_OFFSET = -1  # a milestone's offset that puts it before its unit's element


def xml_id(doc: Document, unit: Unit) -> str:
    return f"{xml_name(doc.id)}.u{unit.seq}"


def _xml_illegal(ch: str) -> bool:
    cp = ord(ch)
    return (cp < 0x20 and ch not in "\t\n\r") or 0xD800 <= cp <= 0xDFFF or cp in (0xFFFE, 0xFFFF)


@lru_cache(maxsize=1 << 16)  # a pure function of the character, called for every character
def _char(ch: str) -> str:
    if is_kanripo_char(ch):
        return f'<g ref="#{glyph_id(ch)}"/>'
    if _xml_illegal(ch):  # a control character in the source (e.g. KR1d0026_008): kept, as a gap
        return f'<gap reason="control-character" n="U+{ord(ch):04X}"/>'
    return escape(ch)


def _text(s: str) -> str:
    return "".join(_char(ch) for ch in s)


def _entity_markup(label: str) -> tuple[str, str]:
    if label == "ROLE":
        return "<roleName>", "</roleName>"
    if label == "PLACE":
        return "<placeName>", "</placeName>"
    return f'<rs type="{escape(label)}">', "</rs>"


def _milestones(doc: Document) -> tuple[dict[int, list[tuple[int, int, str]]], dict[int, list[tuple[int, int, str]]]]:
    """pb and lb milestones, each before the first thing printed after it (`milestone_places`):
    (unit seq -> [(offset, order, markup)]), seq -1 = after all, offset LEAD = before the unit's
    element; and those inside a marker printed across a line's or a page's end, (unit seq ->
    [(offset in the marker, order, markup)]), so that the <label> shows where the print turns the
    line, as the text does."""
    events = sorted([(idx, PB, f'<pb n={quoteattr(pb)}/>') for idx, pb in doc.pages]
                    + [(idx, LB, f'<lb n="{line}"/>') for idx, _pb, line in doc.lines])
    out: dict[int, list[tuple[int, int, str]]] = {}
    in_label: dict[int, list[tuple[int, int, str]]] = {}
    for (_, order, markup), place in zip(events, milestone_places(doc, [e[0] for e in events])):
        if place is None:
            out.setdefault(-1, []).append((0, order, markup))
            continue
        seq, where, k = place
        if where == IN_MARKER:
            in_label.setdefault(seq, []).append((k, order, markup))
        elif where == BEFORE_NOTE:
            out.setdefault(seq, []).append((k, BEFORE_NOTE_ORDER, markup))
        else:
            out.setdefault(seq, []).append((LEAD_OFFSET if where == LEAD else k, order, markup))
    return out, in_label


def speakers(doc: Document) -> dict[tuple[str, str | None], str]:
    """(source, source_name) of every unit that has a source, and (said_by, said_by_name) of every gloss
    whose note names whom it is by (鄭司農云 …) -> the xml:id of its <respStmt> in the header: one
    respStmt a person (鄭注 and 鄭目録 both point at 鄭玄's, and so does a gloss's 𤣥), one a printed
    source whose person is not known; numbered in order of first appearance, the units' first."""
    pairs = [(u.source, u.source_name) for u in doc.units if u.source is not None]
    pairs += [(gl.said_by, gl.said_by_name) for u in doc.units for gl in u.glosses if gl.said_by is not None]
    ids: dict[tuple[str, str | None], str] = {}
    by_person: dict[str, str] = {}
    for printed, name in pairs:
        if (printed, name) in ids:
            continue
        who = name if name is not None else "\0" + printed
        if who not in by_person:
            by_person[who] = f"{xml_name(doc.id)}.resp{len(by_person)}"
        ids[(printed, name)] = by_person[who]
    return ids


def _resp_stmts(ids: dict[tuple[str, str | None], str]) -> list[str]:
    """<respStmt xml:id> of each speaker: the sources as printed, then the person (persName) or,
    where the person is not known, the source as a name."""
    printed: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for (source, name), rid in ids.items():
        printed.setdefault(rid, []).append(source)
        names[rid] = f"<persName>{escape(name)}</persName>" if name is not None else f"<name>{escape(source)}</name>"
    return [f'<respStmt xml:id="{rid}"><resp>source as printed: {escape(" ".join(printed[rid]))}</resp>{names[rid]}</respStmt>'
            for rid in printed]


def _header(doc: Document, glyphs: list[int], resp: dict[tuple[str, str | None], str] | None = None) -> str:
    props = doc.properties
    title = book_title(doc) or doc.id
    juan = props.get("JUAN", "").strip()
    parts = [
        "<teiHeader>",
        "<fileDesc>",
        "<titleStmt>",
        f"<title>{escape(title)}</title>",
    ]
    if juan:
        parts.append(f'<title type="sub">{escape(juan)}</title>')
    parts += [
        "<respStmt><resp>annotated by</resp><name>zhushu pipeline</name></respStmt>",
        *_resp_stmts(resp or {}),
        "</titleStmt>",
        "<publicationStmt>",
        "<publisher>zhushu</publisher>",
        f"<idno type=\"zhushu\">{escape(doc.id)}</idno>",
        "<availability>",
        f'<licence target="{LICENCE_URL}">CC BY-SA 4.0: text from the Kanseki Repository (Kanripo), annotations derived from it.</licence>',
        "</availability>",
        "</publicationStmt>",
        # what ingest warns of: a reader of the TEI alone sees it
        *(["<notesStmt>", *(f'<note type="ingest-warning">{escape(w)}</note>' for w in doc.warnings), "</notesStmt>"]
          if doc.warnings else []),
        "<sourceDesc>",
        "<bibl>",
        f"<title>{escape(title)}</title>",
    ]
    for key in sorted(props):
        parts.append(f"<idno type={quoteattr(key)}>{escape(props[key].strip())}</idno>")
    parts += [
        f"<idno type=\"file\">{escape(doc.path)}</idno>",
        "<distributor>Kanseki Repository (Kanripo), https://www.kanripo.org</distributor>",
        "</bibl>",
        "</sourceDesc>",
        "</fileDesc>",
    ]
    if glyphs:
        parts.append("<encodingDesc>")
        parts.append("<charDecl>")
        for ch in glyphs:
            gid, form = glyph_id(ch), kanripo_form(ch)
            name = f"composed character {form}" if is_composed(ch) else f"Kanripo entity {gid}"
            parts.append(
                f'<glyph xml:id="{gid}"><localProp name="Name" value={quoteattr(name)}/>'
                f'<mapping type="PUA">{ch}</mapping>'
                f'<mapping type="kanripo">{escape(form)}</mapping></glyph>'
            )
        parts.append("</charDecl>")
        parts.append("</encodingDesc>")
    parts.append("</teiHeader>")
    return "\n".join(parts)


def render_doc(doc: Document) -> str:
    glyphs = sorted(
        {ch for u in doc.units for ch in u.text if is_kanripo_char(ch)}
        | {ch for n in doc.notes for ch in n.text if is_kanripo_char(ch)}
    )
    miles, label_miles = _milestones(doc)
    resp = speakers(doc)
    notes_at: dict[int, list[tuple[int, int, str]]] = {}
    for i, note in enumerate(doc.notes):
        xmlnote = f'<note type="collation" xml:id="{xml_name(note_id(doc, i))}">{_text(note.text)}</note>'
        notes_at.setdefault(note.unit_seq, []).append((note.offset, NOTE, xmlnote))
    # gloss anchors: in the commentary unit (gloss span) and in the base unit (lemma span)
    anchors: dict[int, list[tuple[int, int, str]]] = {}
    links: list[str] = []
    by_seq = {u.seq: u for u in doc.units}
    for unit in doc.units:
        for i, gl in enumerate(unit.glosses):
            gid = f"{xml_id(doc, unit)}.g{i}"
            anchors.setdefault(unit.seq, []).append((gl.note_start, START_ANCHOR, f'<anchor xml:id="{gid}.s"/>'))
            anchors.setdefault(unit.seq, []).append((gl.note_end, END_ANCHOR, f'<anchor xml:id="{gid}.e"/>'))
            targets = [f"#{gid}.s", f"#{gid}.e"]
            if gl.base_seq in by_seq and gl.lemma_start is not None and gl.lemma_end is not None:
                anchors.setdefault(gl.base_seq, []).append((gl.lemma_start, START_ANCHOR, f'<anchor xml:id="{gid}.ls"/>'))
                anchors.setdefault(gl.base_seq, []).append((gl.lemma_end, END_ANCHOR, f'<anchor xml:id="{gid}.le"/>'))
                targets += [f"#{gid}.ls", f"#{gid}.le"]
            links.append(
                f"<link type={quoteattr(gl.type)} target={quoteattr(' '.join(targets))}"
                f" n={quoteattr(_plain(gl.lemma))} cert=\"{gl.confidence:.3f}\""
                + (f' resp="#{resp[(gl.said_by, gl.said_by_name)]}"' if gl.said_by is not None else "") + "/>"
            )
    # 音義 readings: a note at the head in the 音義 unit, pointing at the head where it stands
    for unit in doc.units:
        for i, r in enumerate(unit.readings):
            rid = f"{xml_id(doc, unit)}.r{i}"
            target = ""
            if r.target in by_seq and r.anchor_start is not None:
                anchors.setdefault(r.target, []).append((r.anchor_start, START_ANCHOR, f'<anchor xml:id="{rid}.h"/>'))
                anchors.setdefault(r.target, []).append((r.anchor_end, END_ANCHOR, f'<anchor xml:id="{rid}.he"/>'))
                target = f' target="#{rid}.h #{rid}.he"'
            sounds = "".join(
                f'<seg type="{s.kind}"' + (f' n="{escape("".join(s.authority))}"' if s.authority else "")
                + f">{_text(unit.text[s.start : s.end])}</seg>" for s in r.sounds)
            scope = f'<seg type="scope">{_text(r.scope)}</seg>' if r.scope else ""
            notes_at.setdefault(unit.seq, []).append(
                (r.head_end, NOTE, f'<note type="reading" xml:id="{rid}"{target}><term>{_text(r.head)}</term>{sounds}{scope}</note>'))
    body: list[str] = []
    juan = doc.properties.get("JUAN", "").strip()
    body.append(f'<div type="juan" xml:id="{xml_name(doc.id)}"' + (f" n={quoteattr(juan)}" if juan else "") + ">")
    for unit in doc.units:
        points = list(miles.get(unit.seq, []))
        # a pb/lb before the unit's first printed thing (marker, note or text) goes before its element
        lead = [m for m in points if m[0] == LEAD_OFFSET]
        points = [m for m in points if m[0] != LEAD_OFFSET]
        body.extend(m[2] for m in lead)
        points += notes_at.get(unit.seq, [])
        points += anchors.get(unit.seq, [])
        pc = "edition" if unit.marks_source == EDITION else "restored"  # an edition's own marks are not restored
        points += [(k, PC, f'<pc type="{pc}">{escape(m)}</pc>') for k, m in sorted(unit.marks.items())]
        spans = []
        for ent in non_overlapping_entities(unit):
            op, cl = _entity_markup(ent.label)
            spans.append(Markup(ent.start, ent.end, op, cl))
        inner = render(unit.text, spans, points, _char)
        uid = xml_id(doc, unit)
        who = f' resp="#{resp[(unit.source, unit.source_name)]}"' if unit.source is not None else ""
        if unit.kind == "commentary":
            base = doc.base_before(unit)
            attrs = f'type="commentary" xml:id="{uid}"'
            if unit.marker:
                attrs += f' subtype="{MARKER_SUBTYPE.get(unit.marker, "other")}"'
            if base is not None:
                attrs += f' target="#{xml_id(doc, base)}"'
            label = f"<label>{render(unit.marker, [], label_miles.get(unit.seq, []), escape)}</label>" if unit.marker else ""
            body.append(f"<note {attrs}{who}>{label}{inner}</note>")
        else:
            body.append(f'<ab type="{unit.kind}" xml:id="{uid}"{who}>{inner}</ab>')
    body.extend(m[2] for m in miles.get(-1, []))
    if links:
        body.append('<linkGrp type="glosses">')
        body.extend(links)
        body.append("</linkGrp>")
    body.append("</div>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<TEI xmlns="{TEI_NS}" xml:lang="lzh">\n'
        + _header(doc, glyphs, resp)
        + "\n<text>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</text>\n</TEI>\n"
    )




def _plain(s: str) -> str:
    from pipeline.pua import encode_entities

    return encode_entities(s)


FORMAT = Format("tei", lambda b: {f"tei/{b.doc.id}.xml": render_doc(b.doc).encode("utf-8")}, stream=stream_files)
