"""The `tag` stage: ROLE / OBJECT / PLACE spans in base and commentary units.

    tagger = load_tagger()                 # models/tagger, loaded once per process
    tagger.tag(["司射適西階西倚扑"])         # -> [[Entity(0, 2, "ROLE", "司射", "model"), …]]
    tag_document(doc)                       # fills unit.entities of base + commentary units

The model is a character CRF (crf.py) trained on silver data (the lexicon of
models/lexicon projected over juan 1–30 less the dev juan, with the productive name patterns,
pipeline/train/tag/silver.py), with the lexicon as features hidden per occurrence at random,
distributional character classes (models/tagger/clusters.tsv) and partial labels. See docs/entities.md for the method, the comparison with a spaCy
NER and the measured numbers. Training: `zhushu train tagger` (pipeline/train/tag/).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from pathlib import Path

from pipeline import paths
from pipeline.errors import InputError
from pipeline.model import Document, Entity
from pipeline.readings import READING_NOTES, phonetic_spans
from pipeline.stage import Stage
from pipeline.tag.lexicon import LEXICON_PATH, cited_name_spans, load_lexicon, other_word

TAGGER_DIR = paths.TAGGER_MODEL
MODEL_FILE = "model.crfsuite"
META_FILE = "meta.json"
CLUSTERS_FILE = "clusters.tsv"


def file_sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class Tagger:
    """A loaded tagger: `tag(texts)` -> one list of Entity per text."""

    def __init__(self, path: str | Path | None = None):
        from pipeline.tag.crf import CRFModel

        self.path = Path(path) if path else TAGGER_DIR
        meta_path = self.path / META_FILE
        model_path = self.path / MODEL_FILE
        if not model_path.exists():
            raise InputError(str(model_path), None, "no tagger model here; run `zhushu train tagger`")
        try:
            self.meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        except json.JSONDecodeError as err:
            raise InputError(str(meta_path), err.lineno, f"bad JSON: {err.msg}") from None
        lex_path = paths.REPO / self.meta["lexicon"] if self.meta.get("lexicon") else LEXICON_PATH
        if not lex_path.exists():
            raise InputError(str(lex_path), None, "the tagger's lexicon is missing")
        if self.meta.get("lexicon_sha256") and file_sha(lex_path) != self.meta["lexicon_sha256"]:
            import warnings

            warnings.warn(f"{lex_path} changed since the tagger was trained; run `zhushu train tagger`", stacklevel=2)
        self.lexicon = load_lexicon(lex_path)
        params = self.meta.get("params", {})
        context_words = frozenset(params.get("context_words", ""))
        clusters = None
        if params.get("clusters"):
            from pipeline.tag.clusters import read_clusters

            cl_path = self.path / CLUSTERS_FILE
            if not cl_path.exists():
                raise InputError(str(cl_path), None, "the tagger's character classes are missing")
            clusters = read_clusters(cl_path)
        self.model = CRFModel(model_path, self.lexicon, clusters, context_words=context_words, agent=bool(params.get("agent")))
        self._lock = threading.Lock()  # a crfsuite Tagger is not thread-safe

    def __getstate__(self):  # a crfsuite handle cannot be pickled: reload from the folder
        return {"path": str(self.path)}

    def __setstate__(self, state):
        self.__init__(state["path"])

    def tag(self, texts: list[str]) -> list[list[Entity]]:
        out = []
        with self._lock:
            for text in texts:
                spans = self.model.predict_fast(text)
                out.append([Entity(s, e, lab, text[s:e], "model") for s, e, lab in spans])
        return out


def load_tagger(path: str | Path | None = None) -> Tagger:
    """The tagger in `path` (default models/tagger), loaded once per process (the stage cache)."""
    return TagStage.load(path).model


class TagStage(Stage):
    name = "tag"
    requires = ("units",)
    provides = ("entities",)
    default_model = TAGGER_DIR

    @classmethod
    def load_model(cls, path: Path | None) -> Tagger:
        return Tagger(path)

    def __call__(self, doc: Document) -> Document:
        return tag_document(doc, self.model)


def tag_document(doc: Document, tagger: Tagger | None = None) -> Document:
    """Fill unit.entities of every base and commentary unit (other units are left empty)."""
    tagger = tagger or load_tagger()
    units = [u for u in doc.units if u.kind in ("base", "commentary")]
    for unit, ents in zip(units, tagger.tag([u.text for u in units]), strict=True):
        unit.entities = kept_entities(unit.text, unit.marker, ents, tagger.lexicon)
    return doc


def kept_entities(text: str, marker: str | None, ents: list[Entity], lexicon=None) -> list[Entity]:
    """The model's entities of a unit that the stage keeps: none inside a cited name or chapter
    (公 of 公羊傳, 王 of 王制云) or a named person (周公, 文王) nor, in an 音義 note, inside a reading
    formula (羊 of 「攘如羊反」 spells a sound); a span of one character twice, or of two names of the
    lexicon (`lexicon`, the default one unless given), is two (_parts); a 「舉X者」 whose X is no thing
    of the lexicon is no agent (_mentions); a word the context shows to be another word (爵 of 爵禄, 婦
    of 婦德: lexicon.other_word, which the silver data obeys) is none. `zhushu eval entities` scores
    what this keeps."""
    if lexicon is None:
        lexicon = load_lexicon()
    ents = [part for e in ents for part in _parts(e, lexicon)
            if not _mentions(part, lexicon) and not other_word(text, part.start, part.end, part.text)]
    blocked = cited_name_spans(text)
    if marker == READING_NOTES:
        blocked += phonetic_spans(text)
    if not blocked:
        return ents
    return [e for e in ents if not any(a < e.end and e.start < b for a, b in blocked)]


# 「舉X者」: the agent who lifts a thing (舉觶者, 舉爵者, 舉旌者), or, far more often in a 疏, "(it) mentions X"
# (舉此二者, 舉賢者, 舉大者, 舉重者, 舉五者): 58 such ROLE spans over the three books with an X that names
# no OBJECT of the lexicon, nearly all of them the second (stop 46)
_LIFTER = re.compile(r"舉(.{1,2})者")


def _mentions(e: Entity, lexicon) -> bool:
    """A ROLE span 「舉X者」 the lexicon does not list whose X is no OBJECT of it: no one who lifts."""
    m = _LIFTER.fullmatch(e.text) if e.label == "ROLE" and e.text not in lexicon else None
    return m is not None and lexicon.label(m.group(1)) != "OBJECT"


def _parts(e: Entity, lexicon) -> list[Entity]:
    """A span the tagger ran two names into, as the two (stop 45):
    - one character twice: no name of the rite is that; the tagger ran a name ending one clause into
      the same name opening the next (「授祝，祝授尸」, 「贊醴婦，婦祭脯醢」, 「之於廟，廟中」: 38 spans of the
      three books). The second is a verb in 「祝祝卒」 (the 祝 prays), which is left.
    - coordinated names are separate spans (the guideline: 諸公卿大夫 → 諸公 / 卿 / 大夫): a span the
      lexicon does not list that is wholly two of its names of the span's label — 宰史 (「凡介行人宰史」),
      祝史, 宰祝, 巫祝, 胥宰, 宰君: 49 spans of the three books, which the retrained taggers merged; 介婦
      (the younger sons' wives, not listed) is cut too, once."""
    t = e.text
    if len(t) == 2 and t[0] == t[1]:
        cut = 1
    elif len(t) >= 2 and t not in lexicon:
        cut = next((k for k in range(1, len(t)) if lexicon.label(t[:k]) == e.label == lexicon.label(t[k:])), None)
    else:
        cut = None
    if cut is None:
        return [e]
    return [Entity(e.start, e.start + cut, e.label, t[:cut], e.source),
            Entity(e.start + cut, e.end, e.label, t[cut:], e.source)]
