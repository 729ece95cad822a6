"""The segment stage: restore punctuation (，、：；。？！) in base text and commentary.

    seg = load_segmenter()                       # models/segmenter, loaded once per process
    seg.predict(["司射適西階西倚扑升自西階東面請射于公"], ["base"])
    # -> [{6: "，", 8: "，", 12: "，", 18: "。"}]   (k -> mark after the k-th character)
    segment_document(doc)                        # fills unit.marks / sentences / clauses

Requires: units with clean text (ingest). Provides: Unit.marks, Unit.sentences, Unit.clauses
for base and commentary units, and for a 注疏's 考證 entries (report units, piece by piece: pipeline/kaozheng.py);
header and title units are left untouched. A unit whose marks
are an edition's own (marks_source "edition": the punctuated layout) keeps them: its sentences
and clauses are cut at them; `repunctuate=True` (`--repunctuate`) restores marks there too (the
edition's stay in Unit.signs).

The model folder holds config.json whose "type" says which backend reads it: "bilstm"
(bilstm.py, one BiLSTM; models/segmenter-v2, -v6 and -v7 (two layers, every text folded t2s; v7, the default's, reads each 注's
passage too: segment/passage.py) are ones too, trained with the punctuated 注疏, kinds per marker and a book embedding, run in float), "ensemble" (ensemble.py:
seed-varied BiLSTMs averaged, more accurate, a third of the speed), "hybrid" (hybrid.py: the
v1's BiLSTM and a Stanza tokenizer voting, an option of 30 Nov, about a third of the speed, needs
`stanza`) or "crf" (crf.py, the baseline). Training lives in pipeline/train/segment/.
Output is deterministic: inference runs in eval mode, one thread by default.

音義 notes (kind 音義) get the reading grammar's marks over the model's (yinyi.py: the entry
boundaries of pipeline/readings.py, per-book head rules), whatever the backend; a pure function of
the note and its book, so batch-invariant. `Segmenter.yinyi_grammar = False` gives the model alone.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

from pipeline import paths
from pipeline.model import EDITION, Document, spans_from_marks
from pipeline.stage import Stage

DEFAULT_MODEL = paths.SEGMENTER_DEFAULT


def _norm_kind(kind: str) -> str:
    """base / note, or a 注疏 kind (注, 疏, 音義, 小注) that v2 models read (others read it as note)."""
    if kind in ("note", "commentary"):
        return "note"
    if kind in ("注", "疏", "音義", "小注"):
        return kind
    return "base"


@contextmanager
def _torch_threads(n: int | None):
    if n is None:
        yield
        return
    import torch

    old = torch.get_num_threads()
    if old != n:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        if old != n:
            torch.set_num_threads(old)


def run_time_probs(backend, texts: list[str], kinds: list[str], books: list[str | None],
                   passages: list[str | None] | None = None) -> list:
    """The backend's per-character mark probabilities as the pipeline computes them (one torch
    thread, `read_segmenter`'s default): a prior fitted over them is the same on any machine — with
    the machine's thread count they differ in the 7th decimal, enough to flip a near-tied choice.
    `passages`: per text its passage, for a model with a passage channel (as the pipeline gives it)."""
    with _torch_threads(1):  # in probs' own batches, as the shipped priors were fitted (stop 51 kept them)
        return backend.probs(texts, kinds, books=books, passages=passages)


class Segmenter:
    """A loaded segmentation model. `predict(texts, kinds)` -> one {k: mark} dict per text.

    The dicts cover positions 1..n: the unit end (k = n) gets a mark too, so a punctuated unit
    ends with one (the BiLSTM backends put 。 there, the edition's mark at 97 % of unit ends;
    the CRF learned that position); scoring ignores it.
    """

    def __init__(self, backend, path: Path, kind: str, threads: int | None = 1, yinyi_grammar: bool = True,
                 prior=None, context_prior=None, memory=None):
        self.backend = backend
        # the folder's phrase memory (segment/memory.py): the editions' breaks in stretches seen in training
        self.memory = memory
        # the folder's passage prior (segment/passage.py), read where a 注 is given its passage
        self.prior = prior
        # the folder's context prior (segment/context.py): breaks and sentence-final marks, in its books
        self.context_prior = context_prior
        self.path = path
        self.type = kind
        self.name = f"{kind}:{path.name}"
        self.threads = threads
        # 音義 notes: the reading grammar's marks laid over the model's (segment/yinyi.py)
        self.yinyi_grammar = yinyi_grammar

    def without_memory(self) -> Segmenter:
        """A copy that does not read the phrase memory: for text the memory was built from (train
        juan), whose marks it knows by heart — a measurement there would see the edition, not the
        model."""
        import copy

        out = copy.copy(self)
        out.memory = None
        return out

    def predict(self, texts: list[str], kinds: list[str], books: list[str] | None = None,
                passages: list[str | None] | None = None) -> list[dict[int, str]]:
        """`kinds`: base / note, or the 注疏 kinds 注 / 疏 / 音義 / 小注 (models without them read
        note); `books`: per text the book id (KR1d0030, KR1d0003, …) for models with a book
        embedding (None: the 集釋); `passages`: per text the base unit it comments on, or None
        (read by the folder's passage prior, for 注 and notes)."""
        return [marks for marks, _own in self.predict_both(texts, kinds, books, passages)]

    def predict_both(self, texts: list[str], kinds: list[str], books: list[str] | None = None,
                     passages: list[str | None] | None = None) -> list[tuple[dict[int, str], dict[int, str] | None]]:
        """predict's marks, each with the model's own marks (its threshold and final_threshold, no
        passage or context prior) where the priors changed them, else None: the 注 gloss reader
        reads those (align; it was built on them and reads a subject the prior sets off,
        「舜，征有苗而死」, as a head)."""
        if len(texts) != len(kinds):
            raise ValueError("texts and kinds differ in length")
        if passages is not None and len(passages) != len(texts):
            raise ValueError("texts and passages differ in length")
        kinds = [_norm_kind(k) for k in kinds]
        with _torch_threads(self.threads if self.type in TORCH_BACKENDS else None):
            if self.type in ("bilstm", "ensemble") and (self.prior is not None and passages is not None
                                                        or self.context_prior is not None):
                both = self._predict_with_priors(list(texts), kinds, books, passages or [None] * len(texts))
            elif self.type in ("bilstm", "ensemble"):  # BiLSTMs read the 注疏 kinds and the book (and the passage)
                both = [(p, None) for p in self.backend.predict(list(texts), kinds, books=books, passages=passages)]
            else:
                both = [(p, None) for p in self.backend.predict(list(texts), ["base" if k == "base" else "note" for k in kinds])]
        if "疏" in kinds:  # a word doubled in a 疏 is a break (segment/repeats.py); under the memory's decisions
            from pipeline.segment.repeats import with_doubled_word_breaks

            both = [(with_doubled_word_breaks(t, p), own) if k == "疏" else (p, own) for t, k, (p, own) in zip(texts, kinds, both)]
        if self.memory is not None:  # over the model's and the priors' marks (the 音義 grammar's are its own)
            mem = self.memory.apply
            both = [(mem(t, k, p), own if own is None else mem(t, k, own)) for t, k, (p, own) in zip(texts, kinds, both)]
        if self.yinyi_grammar and "音義" in kinds:  # (the prior reads no 音義 note)
            from pipeline.segment.yinyi import punctuate

            bs = books or [None] * len(texts)
            both = [(punctuate(t, p, b), None) if k == "音義" else (p, own) for t, (p, own), k, b in zip(texts, both, kinds, bs)]
        return both

    def _predict_with_priors(self, texts, kinds, books, passages) -> list[tuple[dict[int, str], dict[int, str] | None]]:
        """The model's probabilities once. The breaks: where a 注 has its passage, the context
        prior's notes decision in its books, else the passage prior's (with the model's own marks
        beside them); the context prior's for the other kinds it reads in its books; else the
        model's threshold. Each break's mark: the context prior's final decision in its books,
        else as the model chooses it (final_threshold)."""
        import numpy as np

        from pipeline.segment import bilstm

        # (a BiLSTM or an ensemble of them here: the run-time batches, bilstm.RUN_BATCH_CHARS)
        probs = self.backend.probs(texts, kinds, books=books, max_chars=bilstm.RUN_BATCH_CHARS, passages=passages)
        bs = books or [None] * len(texts)
        threshold, fin = self.backend.threshold, getattr(self.backend, "final_threshold", None)
        cp = self.context_prior
        out = []
        for p, t, k, b, passage in zip(probs, texts, kinds, bs, passages):
            if not t:
                out.append(({}, None))
                continue
            fgroup = cp.final_group(b) if cp is not None else None

            def marks(idx: np.ndarray) -> dict[int, str]:
                finals = cp.finals(p, idx, t, k, b, fgroup) if fgroup and len(idx) else None
                return bilstm.marks_at(p, idx, len(t), final_threshold=fin, finals=finals)

            own = np.nonzero(p[: len(t) - 1, 0] < threshold)[0]
            group = self.prior.group(k, b) if self.prior is not None and passage else None
            ngroup = cp.note_group(k, b) if cp is not None and passage else None
            if group is not None or ngroup is not None:
                # the model's own: its breaks and its own choice of mark (not the context prior's finals)
                own_marks = bilstm.marks_at(p, own, len(t), final_threshold=fin)
                if ngroup is not None:
                    published = marks(cp.note_breaks(p, passage, t, k, b, ngroup))
                else:
                    published = marks(np.nonzero(self.prior.breaks(p, passage, t, group))[0])
                out.append((published, own_marks if own_marks != published else None))
                continue
            bgroup = cp.break_group(k, b) if cp is not None else None
            out.append((marks(cp.breaks(p, t, k, b, bgroup) if bgroup else own), None))
        return out


def _bilstm(folder: Path, cfg: dict):
    from pipeline.segment.bilstm import NeuralSegmenter

    return NeuralSegmenter.load(folder)


def _ensemble(folder: Path, cfg: dict):
    from pipeline.segment.ensemble import EnsembleSegmenter

    return EnsembleSegmenter.load(folder)


def _hybrid(folder: Path, cfg: dict):
    from pipeline.segment.hybrid import HybridSegmenter

    return HybridSegmenter.load(folder)


def _crf(folder: Path, cfg: dict):
    from pipeline.segment.crf import CRFSegmenter

    return CRFSegmenter(folder / cfg.get("file", "crf.model"))


# The backends, by the "type" of a model folder's config.json: the one registry of them (the
# CLI's `--type` choices come from here). Each backend module is imported only when used.
BACKENDS = {"bilstm": _bilstm, "ensemble": _ensemble, "hybrid": _hybrid, "crf": _crf}
TORCH_BACKENDS = frozenset(("bilstm", "ensemble", "hybrid"))


def read_segmenter(folder: Path, threads: int | None = 1, with_prior: bool = True) -> Segmenter:
    """Read the segmenter in `folder` (uncached: `load_segmenter` is the cached entry point);
    `with_prior`: with the folder's passage prior, if it has one."""
    cfg_file = folder / "config.json"
    if not cfg_file.exists():
        raise FileNotFoundError(f"no segmenter model in {folder} (run `zhushu train segmenter`)")
    cfg = json.loads(cfg_file.read_text(encoding="utf-8"))
    kind = cfg.get("type", "bilstm")
    if kind not in BACKENDS:
        raise ValueError(f"unknown segmenter type {kind!r} in {cfg_file}")
    with _torch_threads(threads if kind in TORCH_BACKENDS else None):
        backend = BACKENDS[kind](folder, cfg)
    from pipeline.segment.context import ContextPrior
    from pipeline.segment.memory import PhraseMemory
    from pipeline.segment.passage import PassagePrior

    return Segmenter(backend, folder, kind, threads, prior=PassagePrior.load(folder) if with_prior else None,
                     context_prior=ContextPrior.load(folder) if with_prior else None,
                     memory=PhraseMemory.load(folder, cfg) if with_prior else None)


def load_segmenter(path: str | Path | None = None, threads: int | None = 1) -> Segmenter:
    """The segmenter in `path` (default models/segmenter-v7-passage: v7 with its priors and the phrase memory),
    loaded once per process and path (through the stage cache); another thread count than 1 gives
    an uncached copy."""
    if threads != 1:
        return read_segmenter(Path(path) if path else DEFAULT_MODEL, threads)
    return SegmentStage.load(path).model


class SegmentStage(Stage):
    name = "segment"
    requires = ("units",)
    provides = ("marks", "sentences", "clauses")
    default_model = DEFAULT_MODEL
    releases_gil = True  # torch.lstm (BiLSTM backends); the CRF backend is merely not sped up

    @classmethod
    def load_model(cls, path: Path | None) -> Segmenter:
        return read_segmenter(path)

    def __call__(self, doc: Document, repunctuate: bool = False) -> Document:
        return segment_document(doc, self.model, repunctuate=repunctuate)


def segment_document(doc: Document, segmenter: Segmenter | None = None, repunctuate: bool = False) -> Document:
    """Fill marks, sentences and clauses of the base and commentary units of a document; units
    with an edition's marks keep them unless `repunctuate`."""
    units = [u for u in doc.units if u.kind in ("base", "commentary") and u.text]
    if not repunctuate:
        for u in units:
            if u.marks_source == EDITION:
                u.sentences = spans_from_marks(len(u.text), u.marks, final_only=True)
                u.clauses = spans_from_marks(len(u.text), u.marks, final_only=False)
        units = [u for u in units if u.marks_source != EDITION]
    reports = [u for u in doc.units if u.kind == "report" and u.text and (repunctuate or u.marks_source != EDITION)]
    if not units and not reports:
        return doc  # nothing to predict: the model need not be loaded
    seg = segmenter or load_segmenter()
    kinds = [unit_kind(u) for u in units]
    preds = marks_and_own(seg, [u.text for u in units], kinds, books=[doc.book] * len(units),
                          passages=passages_of(doc, units))
    for u, (marks, own) in zip(units, preds):
        u.marks = dict(sorted(marks.items()))
        u.model_marks = dict(sorted(own.items())) if own is not None else None
        u.marks_source = None  # restored by zhushu
        u.sentences = spans_from_marks(len(u.text), u.marks, final_only=True)
        u.clauses = spans_from_marks(len(u.text), u.marks, final_only=False)
    if reports:
        segment_reports(doc, reports, seg)
    return doc


def segment_reports(doc: Document, reports: list, seg) -> None:
    """Fill marks, sentences and clauses of a 注疏 juan's 考證 entries (pipeline/kaozheng.py), after its body: a lemma
    stretch the body holds takes the body's marks there, the rest is read by `seg` piece by piece, and each of the
    editors' statements about a word of the lemma is kept one clause."""
    from pipeline.kaozheng import SEPARATOR, Body, report_pieces, statements

    body = Body(doc)
    marks: list[dict[int, str]] = [{} for _ in reports]
    pieces = [report_pieces(u.text, body.texts) for u in reports]
    todo = []  # (report index, piece) read by the model
    for r, u in enumerate(reports):
        for p in pieces[r]:
            if p.kind is None:
                if p.mark_after:
                    marks[r][p.end] = p.mark_after
                continue
            stretch = u.text[p.start:p.end]
            found = body.locate(stretch, p.kind) if p.lemma else None
            if found is None:
                todo.append((r, p))
            else:
                source, at = found
                marks[r].update({p.start + k - at: m for k, m in source.marks.items() if at < k < at + len(stretch)})
    predicted = seg.predict([reports[r].text[p.start:p.end] for r, p in todo], [p.kind for _, p in todo],
                            books=[doc.book] * len(todo)) if todo else []
    for (r, p), got in zip(todo, predicted):
        n = p.end - p.start
        marks[r].update({p.start + k: m for k, m in got.items() if not (p.lemma and k == n)})
    for u, m, ps in zip(reports, marks, pieces):
        # each statement about a word of the lemma (監本禜訛宗, 朝當作祭) is one clause: the model, which never saw the idiom,
        # broke inside them (監，本訛作…) and ran one into the next (docs/segmentation.md "Stop 83"). No break from its start
        # to its reading (but after X字 / N字: 咸陽二字，當作陽城) or inside 「脫X字」; a break after a one-character reading,
        # the only length the print makes sure of (胥師二字 or 服之親三字 run on)
        for st in statements(u.text, ps):
            inner = st.reading if st.reading is not None else st.end - 1
            for k in [k for k in m if st.start < k <= inner and u.text[k - 1] != "字"]:
                del m[k]
            one = st.reading is None or (len(st.lemma) == 1 and st.end == st.reading + 1)
            if one and st.end < len(u.text) and u.text[st.end] not in SEPARATOR + "字" and st.end not in m:
                m[st.end] = "，"
        u.marks = dict(sorted(m.items()))
        u.model_marks = None
        u.marks_source = None
        u.sentences = spans_from_marks(len(u.text), u.marks, final_only=True)
        u.clauses = spans_from_marks(len(u.text), u.marks, final_only=False)


def marks_and_own(seg, texts: list[str], kinds: list[str], **extra) -> list[tuple[dict[int, str], dict[int, str] | None]]:
    """Segmenter.predict_both; for a segmenter of the caller's with predict alone, its marks are
    the model's own (None)."""
    if hasattr(seg, "predict_both"):
        return seg.predict_both(texts, kinds, **extra)
    return [(marks, None) for marks in seg.predict(texts, kinds, **extra)]


def unit_kind(u) -> str | None:
    """The kind the model reads a unit as: a commentary unit's from its marker (鄭注 → 注, 釋曰 → 疏; v2
    models read it), "note" for commentary a print leaves unmarked (the SBCK 儀禮's 鄭注, a WYG
    compiler's own words, a preface), "base" for base text, None for any other unit (a heading, a title)."""
    from pipeline.people import layer_authors
    from pipeline.segment.data import MARKER_KIND

    if u.kind == "commentary":
        # not MARKER_KIND[""]: in the punct records the empty marker is the 經, but a unit's kind says what it is
        if not u.marker:
            return "note"
        if u.marker in MARKER_KIND:
            return MARKER_KIND[u.marker]
        # a later book quoting a 注疏's 疏 or 注 under its own marker (儀禮述註's 疏曰 / ○䟽曰 / 孔疏曰, 禮記集說's 孔氏曰 / 賈氏曰,
        # 註曰, 鄭氏曰): the kind of the layer its speaker wrote (stop 82: the tune juan's 疏 read as notes lose 2.0 / 1.6 seg F1).
        # Not 音義: a reading-note grammar would be laid over whatever 陸德明's words a later book quotes.
        layer = layer_authors().get(u.source_name or "")
        return layer if layer in ("注", "疏") else "note"
    return "base" if u.kind == "base" else None


def passages_of(doc: Document, units: list) -> list[str | None]:
    """Per unit, its passage (segment/passage.py, commentary_passages): for a 注 (any commentary but a
    疏) the base unit printed right before it — the passage it glosses; the prior was fitted on such
    pairs —, for a 疏 the base and 注 units since the 疏 before it; else None."""
    from pipeline.segment.passage import commentary_passages

    passage = dict(zip(map(id, doc.units), commentary_passages([(unit_kind(u), u.text, None) for u in doc.units])))
    return [passage.get(id(u)) if u.kind == "commentary" else None for u in units]


def punctuated_lines(doc: Document, indent: str = "　") -> list[str]:
    """The document as text: base units flush, commentary indented with its marker, as in
    the source; header/title units as they are."""
    out = []
    for u in doc.units:
        if u.kind == "commentary":
            out.append(f"{indent}{u.marker or ''}{u.punctuated()}")
        elif u.kind in ("base", "report"):
            out.append(u.punctuated())
        else:
            out.append(u.text)
    return out
