"""Saved documents (`--save-state` / `--state`): one JSON file per annotated document, so that
stages can run one at a time (the DVC stages) and pick up where the last one stopped."""

from __future__ import annotations

import dataclasses
import json

STATE_VERSION = 1


def document_to_json(doc, stages: list[str], skipped: dict[str, str] | None = None) -> bytes:
    payload = {"version": STATE_VERSION, "stages": stages, "skipped": skipped or {}, "document": dataclasses.asdict(doc)}
    return (json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def document_from_json(data: bytes | str):
    from pipeline import model
    from pipeline.pua import register_composed

    payload = json.loads(data)
    if not isinstance(payload, dict) or not isinstance(payload.get("document"), dict):
        raise ValueError("not a document zhushu saved (--save-state writes {\"version\", \"stages\", \"document\", …})")
    if payload.get("version") != STATE_VERSION:
        raise ValueError(f"saved in state version {payload.get('version')!r}, this zhushu reads {STATE_VERSION}: "
                         "save it again with --save-state")
    d = payload["document"]

    def build(cls, values: dict):
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})

    units = []
    for u in d.get("units", []):
        unit = build(model.Unit, u)
        unit.marks = {int(k): v for k, v in (u.get("marks") or {}).items()}
        if u.get("model_marks") is not None:
            unit.model_marks = {int(k): v for k, v in u["model_marks"].items()}
        unit.signs = {int(k): v for k, v in (u.get("signs") or {}).items()}
        unit.sentences = [build(model.Sentence, s) for s in u.get("sentences", [])]
        unit.clauses = [build(model.Sentence, s) for s in u.get("clauses", [])]
        unit.entities = [build(model.Entity, e) for e in u.get("entities", [])]
        unit.glosses = [build(model.Gloss, g) for g in u.get("glosses", [])]
        unit.readings = [_reading(build, r) for r in u.get("readings", [])]
        unit.words = [build(model.Word, w) for w in u.get("words", [])]
        units.append(unit)
    doc = build(model.Document, d)
    register_composed(doc.source)  # the exports spell its composed characters out again
    doc.units = units
    doc.notes = [build(model.CollationNote, n) for n in d.get("notes", [])]
    doc.pages = [tuple(p) for p in d.get("pages", [])]
    doc.lines = [tuple(x) for x in d.get("lines", [])]
    return doc, list(payload.get("stages", [])), dict(payload.get("skipped", {}))


def _reading(build, r: dict):
    from pipeline import model

    reading = build(model.Reading, r)
    reading.sounds = [build(model.Sound, dict(x, authority=tuple(x.get("authority", ())))) for x in r.get("sounds", [])]
    return reading
