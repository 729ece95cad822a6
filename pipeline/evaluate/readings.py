"""`zhushu eval readings`: score the 音義 reading parser (pipeline/readings.py) against gold.

A gold record is one 音義 note with the 經 / 注 / title texts it glosses, as ingest gave them
(`targets`, each with its unit seq), and its readings checked by hand (format:
annotations/gold/README.md). The note is parsed as the align stage parses it
(`parse_note(note, targets, fold, reading_alternates)`), and each gold reading is matched to
the system reading with the same head span in the note:

- head_accuracy: gold readings whose head span (and head) the system has;
- anchor_accuracy: … and whose anchor (target unit, start, end; or none) is the gold one;
- parse_accuracy: … and whose reading is the gold one: every sound in order (kind, the formula
  as printed, 反切 upper / lower, 音X, authority) and the scope;
- head_precision: system readings whose head span is a gold one (spurious heads lower it).

`anchor_accuracy_given_head` and `parse_accuracy_given_head` are the same over the readings
whose head is right; `by_book` splits all of them by the book (KR1d0003, KR1d0053).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import InputError
from pipeline.jsonlines import read_jsonl
from pipeline.model import Reading

SOUND_KINDS = ("fanqie", "homophone", "ruzi", "word")


def read_gold(path: str | Path) -> list[dict]:
    """Gold records, checked; a malformed one raises InputError naming the file and line."""
    path = str(path)
    recs = []
    for lineno, rec in read_jsonl(path):
        for key, typ in (("id", str), ("note", str), ("targets", list), ("readings", list)):
            if not isinstance(rec.get(key), typ):
                raise InputError(path, lineno, f"gold record needs {key!r} ({typ.__name__})")
        seqs = {}
        for t in rec["targets"]:
            if not isinstance(t, dict) or not isinstance(t.get("seq"), int) or not isinstance(t.get("text"), str):
                raise InputError(path, lineno, "a target needs an integer 'seq' and a 'text'")
            seqs[t["seq"]] = t["text"]
        for i, r in enumerate(rec["readings"]):
            _check_reading(r, rec["note"], seqs, path, lineno, f"reading {i}")
        recs.append(rec)
    if not recs:
        raise InputError(path, None, "no gold records")
    return recs


def _check_reading(r, note: str, seqs: dict[int, str], path: str, lineno: int, where: str) -> None:
    if not isinstance(r, dict):
        raise InputError(path, lineno, f"{where} must be an object")
    for key in ("head", "head_start", "head_end", "anchor", "sounds", "scope"):
        if key not in r:
            raise InputError(path, lineno, f"{where} has no {key!r}")
    s, e = r["head_start"], r["head_end"]
    if not (isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= len(note)) or note[s:e] != r["head"]:
        raise InputError(path, lineno, f"{where}: head {r['head']!r} is not the note's text at {s}..{e}")
    a = r["anchor"]
    if a is not None:
        text = seqs.get(a.get("seq")) if isinstance(a, dict) else None
        if text is None:
            raise InputError(path, lineno, f"{where}: anchor must name one of the targets' seq")
        if not (isinstance(a.get("start"), int) and isinstance(a.get("end"), int) and 0 <= a["start"] < a["end"] <= len(text)):
            raise InputError(path, lineno, f"{where}: anchor span outside target {a['seq']}")
    if not isinstance(r["sounds"], list) or not r["sounds"]:
        raise InputError(path, lineno, f"{where}: 'sounds' must be a non-empty list")
    for j, snd in enumerate(r["sounds"]):
        if not isinstance(snd, dict) or snd.get("kind") not in SOUND_KINDS or not isinstance(snd.get("text"), str):
            raise InputError(path, lineno, f"{where}, sound {j}: needs a kind in {SOUND_KINDS} and the 'text' as printed")


def reading_record(note: str, r: Reading, seqs: list[int] | None = None) -> dict:
    """One reading in the gold shape; `seqs` maps parse_note's target indices to unit seqs
    (None: `r.target` is already a seq, as document_readings gives it)."""
    anchor = None
    if r.target is not None and r.anchor_start is not None:
        anchor = {"seq": seqs[r.target] if seqs is not None else r.target, "start": r.anchor_start, "end": r.anchor_end}
    return {
        "head": r.head, "head_start": r.head_start, "head_end": r.head_end, "anchor": anchor,
        "sounds": [{"kind": s.kind, "text": note[s.start : s.end], "upper": s.upper, "lower": s.lower,
                    "homophone": s.homophone, "authority": "".join(s.authority) or None} for s in r.sounds],
        "scope": r.scope,
    }


def system_readings(rec: dict, fold=None, alternates=None) -> list[dict]:
    """The parser's readings of a gold record's note, in the gold shape."""
    from pipeline.readings import parse_note

    seqs = [t["seq"] for t in rec["targets"]]
    readings = parse_note(rec["note"], [t["text"] for t in rec["targets"]], fold, alternates)
    return [reading_record(rec["note"], r, seqs) for r in readings]


def _sound_key(s: dict) -> tuple:
    return (s["kind"], s["text"], s.get("upper"), s.get("lower"), s.get("homophone"), s.get("authority") or None)


def evaluate(gold_path: str | Path, variants: bool = True, details: bool = False) -> dict:
    """Head, anchor and parse accuracy of the parser on the gold file (see the module doc).
    `variants`: anchor through pipeline.variants as the align stage does."""
    fold = alternates = None
    if variants:
        from pipeline.variants import fold, reading_alternates as alternates
    recs = read_gold(gold_path)
    counts: dict[str, dict[str, int]] = {}
    errors = []
    for rec in recs:
        book = rec["id"].split("_")[0]
        system = system_readings(rec, fold, alternates)
        by_span = {(r["head_start"], r["head_end"]): r for r in system}
        gold_spans = {(g["head_start"], g["head_end"]) for g in rec["readings"]}
        for key in ("all", book):
            c = counts.setdefault(key, dict.fromkeys(("gold", "system", "system_right", "head", "anchor", "parse"), 0))
            c["gold"] += len(rec["readings"])
            c["system"] += len(system)
            c["system_right"] += sum((r["head_start"], r["head_end"]) in gold_spans for r in system)
        for g in rec["readings"]:
            s = by_span.get((g["head_start"], g["head_end"]))
            head = s is not None and s["head"] == g["head"]
            anchor = head and s["anchor"] == g["anchor"]
            parse = head and [_sound_key(x) for x in s["sounds"]] == [_sound_key(x) for x in g["sounds"]] \
                and (s["scope"] or None) == (g["scope"] or None)
            for key in ("all", book):
                counts[key]["head"] += head
                counts[key]["anchor"] += anchor
                counts[key]["parse"] += parse
            if details and not (head and anchor and parse):
                errors.append({"id": rec["id"], "gold": g, "system": s,
                               "wrong": [n for n, ok in (("head", head), ("anchor", anchor), ("parse", parse)) if not ok]})
    out = {"records": len(recs), **_scores(counts.pop("all")), "by_book": {b: _scores(c) for b, c in sorted(counts.items())}}
    if details:
        out["errors"] = errors
    return out


def _scores(c: dict[str, int]) -> dict:
    def ratio(a: int, b: int) -> float:
        return round(a / b, 4) if b else 0.0

    return {
        "readings": c["gold"], "system_readings": c["system"],
        "head_accuracy": ratio(c["head"], c["gold"]),
        "anchor_accuracy": ratio(c["anchor"], c["gold"]),
        "parse_accuracy": ratio(c["parse"], c["gold"]),
        "anchor_accuracy_given_head": ratio(c["anchor"], c["head"]),
        "parse_accuracy_given_head": ratio(c["parse"], c["head"]),
        "head_precision": ratio(c["system_right"], c["system"]),
        "counts": {"head": c["head"], "anchor": c["anchor"], "parse": c["parse"]},
    }
