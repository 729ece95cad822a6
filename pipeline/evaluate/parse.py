"""`zhushu eval parse`: the parse stage on UD Classical Chinese (Kyoto) with gold words withheld,
scored by the CoNLL 2018 scorer (`udeval`, udtools); and `split_names`: how often UD-Kanbun
splits an entity of the tag stage across subtrees when names are not merged into words.

Two settings (docs/parsing.md):

- `gold` — one treebank sentence a call, its characters only (no words, no tags): the words,
  tags and tree are the stage's;
- `own` — the treebank sentences of a document joined into chunks of about `chunk` characters,
  punctuated by our segmenter (as base text), cut into sentences at our sentence-final marks and
  parsed with our marks as PUNCT tokens, as the pipeline does; the marks are then removed
  (the treebank has none; they are leaves, so no other arc changes) and the words scored;
- `own-clauses` — the same, but cut at every restored mark (，、： too): the treebank's
  sentences are clause-sized (5.4 characters on average in dev).
"""

from __future__ import annotations

import io
import time
from pathlib import Path

from pipeline.model import Unit, spans_from_marks


def read_gold(path: str | Path) -> list[tuple[str, str, str]]:
    """(doc id, sent id, text) of every sentence of a CoNLL-U file (InputError if unreadable)."""
    from pipeline.errors import InputError

    out, doc, sid, forms = [], "", "", []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), None, "no such gold file (the UD Kyoto treebank files are in "
                         "../shared/data/ud/ of the project's shared material: give their path with --gold)") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(str(path), None, f"cannot read the gold file: {err}") from None
    for line in text.split("\n"):
        if line.startswith("# newdoc id"):
            doc = line.split("=", 1)[1].strip()
        elif line.startswith("# sent_id"):
            sid = line.split("=", 1)[1].strip()
        elif line and not line.startswith("#"):
            cols = line.split("\t")
            if cols[0].isdigit():
                forms.append(cols[1])
        elif not line and forms:
            out.append((doc, sid, "".join(forms)))
            forms = []
    if forms:
        out.append((doc, sid, "".join(forms)))
    return out


def _conllu(text: str, words, sent_id: str) -> list[str]:
    lines = [f"# sent_id = {sent_id}", f"# text = {text}"]
    keep = [w for w in words if w.start != w.end]
    new_id = {w.id: i for i, w in enumerate(keep, start=1)}
    for i, w in enumerate(keep, start=1):
        head = new_id.get(w.head, 0) if w.head else 0
        lines.append(
            f"{i}\t{text[w.start:w.end]}\t{w.lemma}\t{w.upos}\t{w.xpos}\t{w.feats}\t{head}\t{w.deprel}\t_\tSpaceAfter=No"
        )
    return lines + [""]


def system_output(gold: list[tuple[str, str, str]], parser, mode: str = "gold", segmenter=None, chunk: int = 150) -> str:
    out: list[str] = []
    if mode == "gold":
        for _doc, sid, text in gold:
            unit = Unit(seq=0, kind="base", marker=None, text=text, start=0, end=len(text))
            out += _conllu(text, parser.parse_unit(unit, entities=False), sid)
        return "\n".join(out) + "\n"
    # own punctuation: chunks of consecutive sentences of one document
    chunks: list[str] = []
    cur, cur_doc = "", None
    for doc, _sid, text in gold:
        if cur and (doc != cur_doc or len(cur) + len(text) > chunk):
            chunks.append(cur)
            cur = ""
        cur += text
        cur_doc = doc
    if cur:
        chunks.append(cur)
    marks = segmenter.predict(chunks, ["base"] * len(chunks))
    for ci, (text, mk) in enumerate(zip(chunks, marks)):
        unit = Unit(seq=0, kind="base", marker=None, text=text, start=0, end=len(text))
        unit.marks = {k: m for k, m in mk.items() if 0 < k <= len(text)}
        unit.sentences = spans_from_marks(len(text), unit.marks, final_only=(mode == "own"))
        words = parser.parse_unit(unit, entities=False)
        for si, sent in enumerate(unit.sentences):
            sw = [w for w in words if w.sentence == si]
            piece = text[sent.start : sent.end]
            shifted = [_shift(w, sent.start) for w in sw]
            out += _conllu(piece, shifted, f"chunk{ci}.s{si}")
    return "\n".join(out) + "\n"


def _shift(w, by: int):
    from dataclasses import replace

    return replace(w, start=w.start - by, end=w.end - by)


def score(gold_path: str | Path, system_text: str) -> dict:
    from udtools import udeval

    gold_ud = udeval.load_conllu_file(str(gold_path))
    sys_ud = udeval.load_conllu(io.StringIO(system_text), "system", {})
    res = udeval.evaluate(gold_ud, sys_ud)
    return {k: {"p": round(v.precision, 4), "r": round(v.recall, 4), "f1": round(v.f1, 4),
                "aligned_accuracy": round(v.aligned_accuracy, 4) if v.aligned_accuracy is not None else None}
            for k, v in res.items() if k in ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "Lemmas", "UAS", "LAS")}


def evaluate_parse(gold_path: str | Path, mode: str = "gold", limit: int | None = None,
                   system_out: str | Path | None = None, segmenter_model: str | Path | None = None) -> dict:
    from pipeline.parse import ParseStage

    gold = read_gold(gold_path)
    if limit:
        gold = gold[:limit]
        # score against the same sentences only
        text = Path(gold_path).read_text(encoding="utf-8").split("\n\n")
        cut = "\n\n".join(text[: len(gold)]) + "\n\n"
        tmp = Path(system_out or ".").with_suffix(".gold.conllu") if system_out else None
        gold_file = tmp or Path("/tmp") / f"zhushu-gold-{len(gold)}.conllu"
        gold_file.write_text(cut, encoding="utf-8")
    else:
        gold_file = Path(gold_path)
    parser = ParseStage.load().model
    segmenter = None
    if mode != "gold":
        from pipeline.segment import SegmentStage

        segmenter = SegmentStage.load(segmenter_model).model
    t = time.perf_counter()
    system = system_output(gold, parser, mode, segmenter)
    seconds = time.perf_counter() - t
    if system_out:
        Path(system_out).write_text(system, encoding="utf-8")
    res = score(gold_file, system)
    return {"gold": str(gold_path), "mode": mode, "sentences": len(gold),
            "chars": sum(len(t) for _d, _s, t in gold), "seconds": round(seconds, 1), "scores": res}


def split_names(docs, parser_merge_off) -> dict:
    """Entities of 2+ characters whose words (UD-Kanbun's, names not merged) do not form one
    subtree: more than one of their words has its head outside the entity."""
    total = split = multi = 0
    examples: list[str] = []
    for doc in docs:
        for unit in doc.units:
            if not unit.entities or not unit.text:
                continue
            words = parser_merge_off.parse_unit(unit)
            by_sent: dict[int, list] = {}
            for w in words:
                by_sent.setdefault(w.sentence, []).append(w)
            for ent in unit.entities:
                if ent.end - ent.start < 2:
                    continue
                total += 1
                inside = [w for ws in by_sent.values() for w in ws if ent.start <= w.start and w.end <= ent.end and w.start < w.end]
                if len(inside) < 2:
                    continue
                multi += 1
                sent_words = by_sent[inside[0].sentence]
                ids = {w.id for w in inside}
                outside = [w for w in inside if w.head not in ids]
                if len(outside) > 1:
                    split += 1
                    if len(examples) < 10:
                        examples.append(f"{doc.id}#{unit.seq} {ent.text} ({ent.label}): " + " ".join(
                            f"{w.form}<-{w.deprel}-{sent_words[w.head - 1].form if w.head else 'ROOT'}" for w in inside))
    return {"entities_2plus_chars": total, "of_them_several_words": multi, "split_across_subtrees": split,
            "share_split": round(split / multi, 4) if multi else None, "examples": examples}


def names_report(inputs: list[str]) -> dict:
    """split_names over documents read and run through segment and tag (names not merged)."""
    from pipeline.ingest import read_document
    from pipeline.parse import Parser
    from pipeline.segment import SegmentStage
    from pipeline.tag import TagStage

    seg, tag = SegmentStage.load(), TagStage.load()
    parser = Parser(merge_names=False)
    docs = (tag(seg(read_document(p))) for p in inputs)
    return split_names(docs, parser)
