"""README.md at the top of an output folder: the dataset card (sources, licence, stages that
ran, the schema of every file, counts). Generated from the per-document stats of the records
(records.document_stats), so it is always in step."""

from __future__ import annotations

from collections import Counter
from typing import get_args

from pipeline.export.bundle import Format
from pipeline.export.records import RECORD_KINDS, SCHEMAS, speakers
from pipeline.model import UnitKind


def render(stats: list[dict], stages: dict[str, str], files: list[str], failed: list[tuple[str, str]] = ()) -> str:
    docs = [st["document"] for st in stats]
    counts: Counter = Counter()
    kinds: Counter = Counter()
    labels: Counter = Counter()
    types: Counter = Counter()
    for st in stats:
        counts.update(st["counts"])
        kinds.update(st.get("unit_kinds", {}))
        labels.update(st["entity_labels"])
        types.update(st["gloss_types"])
    anchored = sum(st["glosses_anchored"] for st in stats)
    splits = Counter(d["split"] for d in docs)
    books = sorted({(d.get("title") or "?", (d.get("properties") or {}).get("ID", "?")) for d in docs})
    out = []
    out.append("# zhushu datasets")
    out.append("")
    out.append(
        "Annotated datasets of classical Chinese commentary texts made by the zhushu pipeline "
        "(ingest → segment → tag → align → export)."
    )
    out.append("")
    out.append("## Sources and licence")
    out.append("")
    for title, kid in books:
        out.append(f"- {title} ({kid}), from the Kanseki Repository (Kanripo), https://github.com/kanripo/{kid}")
    out.append("")
    out.append(
        "The texts are published by Kanripo under the Creative Commons Attribution-ShareAlike 4.0 "
        "licence (CC BY-SA 4.0, https://creativecommons.org/licenses/by-sa/4.0/). These datasets "
        "are derived from them and are distributed under the same licence; keep the attribution "
        "to the Kanseki Repository. The annotations (punctuation, entities, glosses) are machine "
        "output of the stages listed below, not hand-checked. Inside a stretch of six characters that "
        "stands in the segmenter's training text with one pattern of marks (the modern editions' "
        "punctuation of the train juan of data/punct, and the TLS 周禮 and 禮記 for base text), the "
        "marks are those editions' (the phrase memory, docs/segmentation.md)."
    )
    out.append("")
    out.append("## Stages")
    out.append("")
    out.append("| stage | status |")
    out.append("|---|---|")
    for name, status in stages.items():
        out.append(f"| {name} | {status} |")
    out.append("")
    out.append("A stage that did not run leaves its annotations absent (empty columns / files), never faked.")
    out.append("")
    if failed:  # a run with --keep-going: the documents below are not in these datasets
        out.append("## Failed documents (not in these datasets)")
        out.append("")
        out.append("| input | error |")
        out.append("|---|---|")
        for path, err in failed:
            out.append(f"| {path} | {err.replace('|', '∣')} |")
        out.append("")
    warnings = [w for d in docs for w in d.get("warnings") or ()]
    if warnings:  # a print read as printed though it looks wrong, a 經 left in its 注, characters dropped: the reader should know
        out.append("## Ingest warnings")
        out.append("")
        out.extend(f"- {w}" for w in warnings)
        out.append("")
    withdrawn = [(d["doc"], why, n) for st, d in zip(stats, docs) for why, n in sorted(st.get("glosses_withdrawn", {}).items())]
    if withdrawn:  # a commentary that does not gloss its passage: the links chance would give are not given
        out.append("## Glosses without their anchors (chance)")
        out.append("")
        out.append("Heads that stand in other passages of their juan at least half as often as in their own are "
                   "no evidence of a gloss; those glosses are kept unanchored (`lemma_start` null, the "
                   "reason in `glosses.reason`), and those with no formula word are not read as glosses at all.")
        out.append("")
        out.extend(f"- {doc_id}: {n} glosses — {why}" for doc_id, why, n in withdrawn)
        out.append("")
        prose = [(d["doc"], st.get("glosses_unanchored", 0)) for st, d in zip(stats, docs) if st.get("glosses_withdrawn")]
        out.append("In the same juan the other unanchored glosses (their head is not in the passage) are no "
                   "better evidence: where a commentary does not gloss its passage, a 「X者…也」 sentence is its "
                   "prose, read as a gloss by its grammar alone. Unanchored there: "
                   + ", ".join(f"{doc_id} {n}" for doc_id, n in prose) + ".")
        out.append("")
    out += _unmeasured(stats)
    out.append("## Counts")
    out.append("")
    out.append("| | count |")
    out.append("|---|---:|")
    out.append(f"| documents (juan) | {len(docs)} ({', '.join(f'{k} {v}' for k, v in sorted(splits.items()))}) |")
    for kind in RECORD_KINDS[1:]:
        out.append(f"| {kind} | {counts[kind]} |")
        if kind == "units":  # by kind, every kind of the model (a kind no unit has counts 0)
            for unit_kind in get_args(UnitKind):
                out.append(f"| units {unit_kind} | {kinds[unit_kind]} |")
    out.append(f"| characters of unit text | {sum(d['chars'] for d in docs)} |")
    for label, n in sorted(labels.items()):
        out.append(f"| entities {label} | {n} |")
    for typ, n in sorted(types.items()):
        out.append(f"| glosses {typ} | {n} |")
    if counts["glosses"]:
        out.append(f"| glosses anchored to a lemma | {anchored} |")
    out.append("")
    who = speakers(stats)
    if who:
        out.append("## Who speaks")
        out.append("")
        out.append("Units and characters of unit text by source (`units.source`: the commentator as the "
                   "print names them, one name however it is spelled; `source_name`: the person, where "
                   "the print makes it clear). Units without a source (base text, titles, headers) are not counted here.")
        out.append("")
        out.append("| source | person | units | characters |")
        out.append("|---|---|---:|---:|")
        for source, name, units, chars in who:
            out.append(f"| {source} | {name or '—'} | {units} | {chars} |")
        out.append("")
    out += _layouts(docs)
    out.append("## Conventions")
    out.append("")
    out.append(
        "- Offsets index the string stored beside them. An offset into a unit (sentences, "
        "entities, glosses `note_*`/`lemma_*`, collation `offset`, tokens) is a code-point offset "
        "into the unit's stored `text` (units table: no marker, no collation notes, no "
        "punctuation), in which a Kanripo character is spelled out as `&KRnnnn;` (or, a composed "
        "character, as its description `[門@里]`) and counts the characters of that spelling: "
        "`units.text[start:end]` equals the record's `text` for every row "
        "(`pipeline.pua.decode_entities` maps the entities to U+F0000+nnnn, a composed character "
        "to one Plane-16 private-use character). A restored mark in "
        "`tokens` has start = end (the place it stands). The raw `start`/`end` of units and "
        "collation notes index the source file, which spells the entities out as well."
    )
    out.append(
        "- `chars` (units, documents) counts characters with a Kanripo character as ONE."
    )
    out.append("- Ids: document `KR1d0030_010`, unit `KR1d0030_010#12` (seq in the document), gloss `KR1d0030_010#13.g0`, "
               "音義 reading `KR1d0053_001#6.r0`, collation note `KR1d0030_010.n3`.")
    out.append("- `glosses.confidence` (also CoNLL-U `ZhGlossConf`, TEI `link/@cert`, the HTML tooltip): for a 疏's "
               "quotation of its passage (the glosses of 疏 units) the quotation reader's probability, near "
               "calibrated against the modern editions' quotation marks on the dev juan (0.3–0.4: 41 % of them "
               "the editions', 0.9–1.0: 96 %); for the other glosses the formula's certainty × the anchoring's, "
               "an order rather than a probability (on the dev gold even its bands under 0.5 are mostly right).")
    out.append("- Page provenance: `pb` is the Kanripo page id (`KR1d0030_WYG_010-1a`), `line` the printed line on that page (1-based).")
    dev = sorted(d["doc"] for d in docs if d["split"] == "dev")
    out.append(f"- Split: `dev` = {', '.join(dev) or 'none of these documents'} (the project's development juan: "
               "juan 10 of the 集釋, juan 10, 20, … of the 注疏); `train` = the rest.")
    out.append("- Files are written atomically and are byte-identical across runs (sorted keys, documents in id order, no timestamps).")
    out.append("")
    out.append("## Files")
    out.append("")
    out.append("| path | what |")
    out.append("|---|---|")
    descr = {
        "jsonl/": "standoff records, one JSON object a line, one file per record kind",
        "parquet/": "the same records, one Parquet table per kind (read with pandas.read_parquet)",
        "conllu/": "one CoNLL-U file per document: a sentence per restored sentence, a token per word of the parse stage (UD-Kanbun: UPOS, XPOS, FEATS, lemma, HEAD, DEPREL), restored marks as PUNCT tokens (`punct`), NFC forms (original in MISC ZhOrig), layout spaces left out (MISC ZhSpacesBefore/After), SpaceAfter=No, MISC ZhSpan, ZhNE=<BIO>, ZhGloss / ZhGlossType / ZhGlossLemma / ZhGlossConf / ZhLemmaOf links, 音義 readings ZhReading / ZhReadingText / ZhReadingTarget / ZhReadingOf; passes `udvalidate --lang lzh --level 2`",
        "spacy/": "train.spacy / dev.spacy: spaCy DocBins, a Doc per restored sentence, the parse's words (a `&KRnnnn;` character is one token), POS, TAG, lemma, heads, deps, entities set",
        "iob/": "train.iob / dev.iob: `character<TAB>BIO tag`, a blank line between sentences, -DOCSTART- per document",
        "tei/": "one TEI P5 file per document (valid against TEI P5 tei_all and against schemas/tei_zhushu.rng, a documented TEI subset)",
        "html/": "a page per juan and index.html with counts and plots",
        "sqlite/": "zhushu.db: every table above in one SQLite database (keys, indexes, FTS5 trigram search, a character/pair index, page lines, character counts); `zhushu serve` shows it in Datasette with concordance, frequency and collocation queries",
    }
    present = sorted({f.split("/", 1)[0] + "/" for f in files if "/" in f})
    for folder in present:
        out.append(f"| `{folder}` | {descr.get(folder, '')} |")
    out.append("")
    out.append("## Record schemas (jsonl/ and parquet/)")
    for kind in RECORD_KINDS:
        out.append("")
        out.append(f"### {kind} (`jsonl/{kind}.jsonl`, `parquet/{kind}.parquet`)")
        out.append("")
        out.append("| column | type | meaning |")
        out.append("|---|---|---|")
        for name, typ, meaning in SCHEMAS[kind]:
            shown = "object (a JSON string in parquet)" if typ == "json" else typ
            out.append(f"| `{name}` | {shown} | {meaning.replace('|', chr(92) + '|')} |")  # a | inside a cell is escaped
        out.append("")
        out.append("Every column may be null where a stage did not run or does not apply.")
    out.append("")
    return "\n".join(out)


def _layouts(docs: list[dict]) -> list[str]:
    """Each document's layout and the evidence ingest checked it by (pipeline/ingest/check.py)."""
    out = ["## Layouts and the evidence for them", "",
           "How each document was read, and what it was checked against: the commentary share as read "
           "(commentary / (base + commentary) characters, markers included) beside the share the print "
           "shows (indentation and small notes, counted from the markup alone); the share of collation-note "
           "text that neither opens with 案/按 nor speaks of editions; empty units. A run stops when they "
           "disagree, unless the layout was named with `--layout`.", "",
           "| document | layout | commentary read | by the print | collation not like collation | empty units |",
           "|---|---|---:|---:|---:|---:|"]
    for d in sorted(docs, key=lambda d: d["doc"]):
        ev = d.get("evidence") or {}
        out.append(f"| {d['doc']} | {d.get('layout')} | {ev.get('commentary_share_read', '')} | "
                   f"{ev.get('commentary_share_print', '')} | {ev.get('collation_not_like_collation', '')} | "
                   f"{ev.get('empty_units', '')} |")
    out.append("")
    # a 注疏's 經 and 注 are told apart where a 注 runs on into the next 經 by a plain text of the 經:
    # which one, and how it was chosen (ingest's evidence `jing_text`)
    out += _evidence_table(docs, "jing_text", "plain 經 text",
                           "Where a 注 runs on into the next 經 the print shows no boundary; a plain text of the 經 finds it "
                           "(docs/ingest.md, \"Where the 經 resumes\"). The plain text each 注疏 juan was read with:")
    # who wrote each layer, as the juan's author line names them: a 注疏 the speaker table has no rows
    # for, a classic printed with its annotator's notes
    out += _evidence_table(docs, "author_line", "author line: layer, person (as printed)",
                           "A 注疏 the speaker table has no rows for names who wrote its 注, 音義 and 疏 from each juan's own "
                           "author line, only people the table knows; a classic printed with its annotator's notes (an author "
                           "line ending in 注, `漢　鄭𤣥　注`, or the SBCK's chapter title `士冠禮第一　儀禮　鄭氏注`) names him "
                           "for every note no attribution opens "
                           "(docs/datasets.md, \"Who speaks\"):")
    # the commentators a gathered commentary names in full (王昭禹曰) and that the print grammar took for
    # attributions, found where such a name opens a comment (ingest's evidence `named_in_full`)
    out += _evidence_table(docs, "named_in_full", "commentators named in full",
                           "A gathered commentary that names some of its sources in full (`王昭禹曰` beside `王氏曰`): the "
                           "names a juan opens comments with, each read as an attribution wherever it opens a line "
                           "(docs/ingest.md, \"Commentators named in full\"):")
    return out


def _evidence_table(docs: list[dict], key: str, column: str, intro: str) -> list[str]:
    """The card's lines for one key of ingest's evidence: `intro`, then a document / value table of the
    documents that have it; nothing where none has."""
    rows = [(d["doc"], (d.get("evidence") or {}).get(key)) for d in sorted(docs, key=lambda d: d["doc"])]
    rows = [(doc, value) for doc, value in rows if value]
    if not rows:
        return []
    return [intro, "", f"| document | {column} |", "|---|---|", *(f"| {doc} | {value} |" for doc, value in rows), ""]


FORMAT = Format("card", None, lambda _parts, info: {
    "README.md": render(info.stats, info.stages, sorted(info.files), info.failed).encode("utf-8")}, reads_files=True)


def _books(stats: list[dict], stage: str, unmeasured) -> str:
    """The books (with their juan) whose documents `stage` annotated and `unmeasured(document stats)`
    holds for, as the card names them ("KR1a0001 (3 juan), …"); "" when there are none."""
    books = Counter(st["document"]["book"] for st in stats
                    if stage in (st["document"].get("stages") or "").split(",") and unmeasured(st))
    return ", ".join(f"{book} ({n} juan)" for book, n in sorted(books.items()))


def _books_section(title: str, text: str, stats: list[dict], stage: str, unmeasured) -> list[str]:
    """A card section naming the books of `_books`; nothing when there are none."""
    books = _books(stats, stage, unmeasured)
    return [f"## {title}", "", text + books + ".", ""] if books else []


def caveats(stats: list[dict], failed: list[tuple[str, str]] = ()) -> list[str]:
    """One line for each section of the card that warns the reader (failed documents, ingest
    warnings, glosses without their anchors, annotations of books outside what was measured), for
    the run's summary on the terminal: the card says it at length, but a user who does not open it
    should not take the dataset for measured where it is not. In document order, whatever order the
    stats come in (a Dask run's documents finish in any order)."""
    stats = sorted(stats, key=lambda st: st["document"]["doc"])
    docs = [st["document"] for st in stats]
    out = []
    if failed:
        out.append(f"Failed documents (not in these datasets): {len(failed)}")
    warned = [d["doc"] for d in docs if d.get("warnings")]
    if warned:  # the first in full: it says what to do (a 注疏 without its plain 經: --base-text)
        first = next(w for d in docs for w in d.get("warnings") or ())
        out.append(f"Ingest warnings: {sum(len(d['warnings']) for d in docs if d.get('warnings'))} "
                   f"in {', '.join(warned)}; the first: {first}")
    withdrawn = [(d["doc"], sum(st["glosses_withdrawn"].values())) for st, d in zip(stats, docs)
                 if st.get("glosses_withdrawn")]
    if withdrawn:
        out.append("Glosses without their anchors (chance): " + ", ".join(f"{doc} ({n} glosses)" for doc, n in withdrawn))
    for title, _text, stage, unmeasured in UNMEASURED:
        books = _books(stats, stage, unmeasured)
        if books:
            out.append(f"{title}: {books}")
    return out


# The tagger's training and measures are the ritual classics, Kanripo's 禮類 (KR1d…: the 集釋, the
# 周禮注疏); elsewhere a lexicon word is often another word (the 周易's 鼎 and 豐 are hexagrams, 尸 a
# corpse). The punctuation is measured against editions of the 集釋 and the two 注疏 (data/punct), whose
# train juan the segmenter learned from; an edition already punctuated keeps its own marks.
RITUAL_CLASS = "KR1d"
MEASURED_PUNCTUATION = ("KR1d0030", "KR1d0003", "KR1d0053")

# The card's sections on books outside what was measured: (title, what was measured and where, the
# stage, whether a document is outside it, from its stats: export.records.document_stats).
UNMEASURED = (
    ("Entities outside the ritual books",
     "The entity tagger was trained and measured on the ritual classics (Kanripo's 禮類, ids KR1d…). "
     "In other books a word of its lexicon is often used otherwise (a hexagram, a corpse, a verb), and "
     "its spans are much less reliable: read by hand, 11 of 30 right in the 周易 and 18 of 30 in the "
     "論語 (docs/entities.md, \"Other books by hand\"). Outside the 禮類 here: ",
     "tag", lambda st: not st["document"]["book"].startswith(RITUAL_CLASS)),
    ("Punctuation of books it was not measured on",
     "The restored punctuation is measured against modern editions of the 儀禮集釋, 周禮注疏 and "
     "禮記註疏 (docs/segmentation.md), the books the segmenter learned from. Other books are "
     "unmeasured. By hand, with today's segmenter, a 注疏 it never saw reads about as well (儀禮注疏: 26 of 30 "
     "sentences right or nearly, 4 wrong), other commentary worse (禮記集說's Song commentators: 23 of 30 right "
     "or nearly, 7 wrong) (docs/segmentation.md, \"Stop 78\"; \"Stop 46: a book the segmenter does not know\" "
     "for an older one). Restored here without a measure: ",
     "segment", lambda st: not (st["document"].get("layout") or "").startswith("punctuated")
     and not st["document"]["book"].startswith(MEASURED_PUNCTUATION)),
    ("Punctuation of the 考證",
     "A 注疏's 考證 (the Qing editors' collation report, `units.kind` report) is punctuated piece by piece: its lemma as "
     "the juan's body reads it, the editors' words as a 疏 (docs/segmentation.md, \"Stop 83\"). No edition punctuates "
     "it to measure against; by hand, of 24 whole entries of three 注疏 15 are right, 7 have one break off and 2 are "
     "wrong. Its emendations and other editions' readings (朝當作祭, 卿監本訛鄉) are glosses anchored on the word of the body "
     "they correct (docs/glosses.md, \"The 考證's emendations and variant readings\"): by hand 27 of 30 right. Here: ",
     "segment", lambda st: st.get("unit_kinds", {}).get("report", 0) > 0),
)


def _unmeasured(stats: list[dict]) -> list[str]:
    return [line for title, text, stage, outside in UNMEASURED
            for line in _books_section(title, text, stats, stage, outside)]
