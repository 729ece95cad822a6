"""The `tag` stage: ROLE / OBJECT / PLACE spans in base and commentary units.

    tagger = load_tagger()                 # models/tagger, loaded once per process
    tagger.tag(["司射適西階西倚扑"])         # -> [[Entity(0, 2, "ROLE", "司射", "model"), …]]
    tag_document(doc)                       # fills unit.entities of base + commentary units

The model is a character CRF (pipeline/tagger_crf.py) trained on silver data (the lexicon of
models/lexicon projected over juan 1–30 less the dev juan, with the productive name patterns,
pipeline/tagger_silver.py), with the lexicon as features hidden per occurrence at random,
distributional character classes (models/tagger/clusters.tsv) and partial labels. See docs/entities.md for the method, the comparison with a spaCy
NER and the measured numbers. Training: `zhushu train tagger` (train()).
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from pipeline.errors import InputError
from pipeline.lexicon import LEXICON_PATH, REPO, load_lexicon
from pipeline.model import Document, Entity

TAGGER_DIR = REPO / "models" / "tagger"
MODEL_FILE = "model.crfsuite"
META_FILE = "meta.json"
CLUSTERS_FILE = "clusters.tsv"


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class Tagger:
    """A loaded tagger: `tag(texts)` -> one list of Entity per text."""

    def __init__(self, path: str | Path | None = None):
        from pipeline.tagger_crf import CRFModel

        self.path = Path(path) if path else TAGGER_DIR
        meta_path = self.path / META_FILE
        model_path = self.path / MODEL_FILE
        if not model_path.exists():
            raise InputError(str(model_path), None, "no tagger model here; run `zhushu train tagger`")
        try:
            self.meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        except json.JSONDecodeError as err:
            raise InputError(str(meta_path), err.lineno, f"bad JSON: {err.msg}") from None
        lex_path = REPO / self.meta["lexicon"] if self.meta.get("lexicon") else LEXICON_PATH
        if not lex_path.exists():
            raise InputError(str(lex_path), None, "the tagger's lexicon is missing")
        if self.meta.get("lexicon_sha256") and _sha(lex_path) != self.meta["lexicon_sha256"]:
            import warnings

            warnings.warn(f"{lex_path} changed since the tagger was trained; run `zhushu train tagger`", stacklevel=2)
        self.lexicon = load_lexicon(lex_path)
        params = self.meta.get("params", {})
        context_words = frozenset(params.get("context_words", ""))
        clusters = None
        if params.get("clusters"):
            from pipeline.tagger_clusters import read_clusters

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


_CACHE: dict[str, Tagger] = {}
_CACHE_LOCK = threading.Lock()


def load_tagger(path: str | Path | None = None) -> Tagger:
    """The tagger in `path` (default models/tagger), loaded once per process."""
    key = str(Path(path).resolve() if path else TAGGER_DIR)
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = Tagger(path)
        return _CACHE[key]


def tag_document(doc: Document, tagger: Tagger | None = None) -> Document:
    """Fill unit.entities of every base and commentary unit (other units are left empty)."""
    tagger = tagger or load_tagger()
    units = [u for u in doc.units if u.kind in ("base", "commentary")]
    for unit, ents in zip(units, tagger.tag([u.text for u in units]), strict=True):
        unit.entities = ents
    return doc


def train(
    out_dir: str | Path | None = None,
    *,
    max_iterations: int = 100,
    lex_dropout: float = 0.7,
    seed: int = 13,
    rebuild_lexicon: bool = True,
    log=print,
) -> dict:
    """Rebuild the lexicon, project it into silver data, train the CRF; write models/tagger."""
    from pipeline import atomic
    from pipeline.lexicon import write_lexicon
    from pipeline.tagger_crf import train_crf
    from pipeline.tagger_silver import build_silver

    out = Path(out_dir) if out_dir else TAGGER_DIR
    if rebuild_lexicon:
        entries = write_lexicon()
        log(f"lexicon: {len(entries)} entries -> {LEXICON_PATH.relative_to(REPO)}")
    lexicon = load_lexicon()
    items = build_silver(lexicon)
    n_chars = sum(len(i.text) for i in items)
    n_spans = sum(len(i.spans) for i in items)
    log(f"silver: {len(items)} units, {n_chars} chars, {n_spans} spans (dev juan excluded)")
    from threadpoolctl import threadpool_limits

    from pipeline.tagger_clusters import build_clusters, cluster_texts, write_clusters

    with threadpool_limits(1):  # one thread: the same classes (and bytes) on every run
        clusters = build_clusters(cluster_texts())
    log(f"character classes: {len(clusters)} characters, {len(set(clusters.values()))} classes")
    with atomic.staged_dir(out) as stage:
        write_clusters(stage / CLUSTERS_FILE, clusters)
        params = train_crf(items, lexicon, stage / MODEL_FILE, lex_dropout=lex_dropout, max_iterations=max_iterations,
                           seed=seed, clusters=clusters, mask_in=0.3, per_span=True, partial=True, agent=True)
        meta = {
            "kind": "crf",
            "lexicon": str(LEXICON_PATH.relative_to(REPO)),
            "lexicon_sha256": _sha(LEXICON_PATH),
            "lexicon_entries": len(lexicon),
            "silver": {"units": len(items), "chars": n_chars, "spans": n_spans, "excluded": ["KR1d0030_010"]},
            "params": params,
        }
        atomic.write_text(stage / META_FILE, json.dumps(meta, ensure_ascii=False, indent=1) + "\n")
    with _CACHE_LOCK:
        _CACHE.pop(str(out.resolve()), None)
    log(f"model -> {out}")
    return meta
