"""conllu/<doc>.conllu: one sentence per restored sentence, one token per character.

Restored punctuation marks are tokens of their own (UPOS PUNCT). Every token has
SpaceAfter=No; MISC also carries Entity=<BIO tag> and the gloss links:
- on commentary tokens inside a gloss: Gloss=<gloss id> (GlossType and GlossLemma=<base unit>:<start>-<end>
  on its first token);
- on base tokens inside a lemma: LemmaOf=<gloss id>[,<gloss id>…].
Sentence comments: newdoc id, newpar id (= unit id), sent_id, text (punctuated), unit_kind, pb, line.
"""

from __future__ import annotations

from pipeline.export.bundle import Format, merge_files
from pipeline.export.common import (
    entity_tags,
    gloss_id,
    provenance,
    sentences_of,
    text_units,
    token_form,
    unit_id,
)
from pipeline.model import Document


def _misc_value(value: str) -> str:
    # MISC values may not hold | or whitespace
    return value.replace("|", "¦").replace(" ", "_").replace("\t", "_")


def render(doc: Document) -> str:
    lemma_of: dict[tuple[int, int], list[str]] = {}
    for unit in doc.units:
        for i, gl in enumerate(unit.glosses):
            if gl.base_seq is None or gl.lemma_start is None or gl.lemma_end is None:
                continue
            for k in range(gl.lemma_start, gl.lemma_end):
                lemma_of.setdefault((gl.base_seq, k), []).append(gloss_id(doc, unit, i))
    by_seq = {u.seq: u for u in doc.units}
    out: list[str] = []
    first_sentence = True
    for unit in text_units(doc):
        uid = unit_id(doc, unit)
        tags = entity_tags(unit, 0, len(unit.text))
        gloss_at: dict[int, list[str]] = {}
        gloss_head: dict[int, list[str]] = {}
        for i, gl in enumerate(unit.glosses):
            gid = gloss_id(doc, unit, i)
            for k in range(gl.note_start, gl.note_end):
                gloss_at.setdefault(k, []).append(gid)
            head = [f"GlossType={_misc_value(gl.type)}"]
            base = by_seq.get(gl.base_seq) if gl.base_seq is not None else None
            if base is not None and gl.lemma_start is not None:
                head.append(f"GlossLemma={unit_id(doc, base)}:{gl.lemma_start}-{gl.lemma_end}")
            gloss_head.setdefault(gl.note_start, []).extend(head)
        for si, sent in enumerate(sentences_of(unit)):
            forms: list[tuple[str, str, list[str]]] = []  # form, upos, misc
            for k in range(sent.start, sent.end):
                misc = ["SpaceAfter=No", f"Entity={tags[k]}"]
                if k in gloss_at:
                    misc.append("Gloss=" + _misc_value(",".join(gloss_at[k])))
                misc.extend(gloss_head.get(k, []))
                if (unit.seq, k) in lemma_of:
                    misc.append("LemmaOf=" + _misc_value(",".join(lemma_of[(unit.seq, k)])))
                forms.append((token_form(unit.text[k]), "_", misc))
                mark = unit.marks.get(k + 1)
                if mark:
                    forms.append((mark, "PUNCT", ["SpaceAfter=No", "Entity=O", "Restored=Yes"]))
            if not forms:
                continue
            prov = provenance(doc, unit, sent.start)
            if first_sentence:
                out.append(f"# newdoc id = {doc.id}")
                first_sentence = False
            if si == 0:
                out.append(f"# newpar id = {uid}")
            out.append(f"# sent_id = {uid}.s{si}")
            out.append("# text = " + "".join(f for f, _, _ in forms))
            out.append(f"# unit_kind = {unit.kind}")
            if prov["pb"] is not None:
                out.append(f"# pb = {prov['pb']}")
                out.append(f"# line = {prov['line']}")
            for j, (form, upos, misc) in enumerate(forms, start=1):
                out.append(f"{j}\t{form}\t_\t{upos}\t_\t_\t_\t_\t_\t{'|'.join(misc)}")
            out.append("")
    return "\n".join(out) + ("\n" if out else "")


FORMAT = Format("conllu", lambda b: {f"conllu/{b.doc.id}.conllu": render(b.doc).encode("utf-8")}, merge_files)
