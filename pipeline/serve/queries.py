"""The corpus questions, as SQL over sqlite/zhushu.db (pipeline/export/sqlite.py): Datasette's
canned queries (`zhushu serve`) and `zhushu stats` run the same statements.

Every parameter is a string (Datasette passes '' for one not given); '' means "any" for the
filters `book` (a title such as 儀禮集釋, or a Kanripo id such as KR1d0030), `kind`, `marker`
and `source`. Offsets are 0-based into `units.text` (as in every table); SQLite's substr/instr
are 1-based, hence the +1/-1 below. A Kanripo character is spelled `&KRnnnn;` in the text, so a
string search sees its 8 characters (search it as `&KR1234;`).

KWIC of a string: candidate units from the FTS5 trigram index (3+ characters) or the
character/pair index `units_grams` (1-2 characters), then every occurrence in each by a
recursive instr() — so overlapping hits are all found.

Collocation (Evert's window-based measures): O11 = how often c stands within `window`
characters (words) left or right of a hit of the node, inside the same unit (sentence);
R1 = the window slots counted, C1 = f(c) in the filtered corpus, N = its size;
E11 = R1 * C1 / N; MI = log2(O11 / E11); log-likelihood G2 = 2 Σ O ln(O / E) over the 2x2 table.
"""

from __future__ import annotations


def unit_filters(u: str = "u", d: str = "d") -> str:
    out = (f"(:book = '' OR {d}.title = :book OR {d}.doc LIKE :book || '\\_%' ESCAPE '\\')"
           f" AND (:kind = '' OR {u}.kind = :kind) AND (:marker = '' OR {u}.marker = :marker)"
           f" AND (:source = '' OR {u}.source = :source)")  # units.source: who speaks (export.records.SCHEMAS)
    return out


def unit_columns(u: str = "u") -> str:
    return f"{u}.kind, {u}.marker, {u}.source, {u}.source_name"


def link(unit: str) -> str:
    """Datasette's row page of a unit (tilde-encoded '#')."""
    return f"'/zhushu/units/' || replace({unit}, '#', '~23')"


def _phrase(param: str) -> str:
    # an FTS5 phrase; '' becomes a phrase that finds nothing (an empty MATCH is a syntax error)
    return f"'\"' || replace(coalesce(nullif({param}, ''), '-'), '\"', '\"\"') || '\"'"


def string_hits(param: str = ":q") -> str:
    """CTEs `cand` and `hits(rid, pos)`: every occurrence of the string (pos 1-based), in the
    units that pass the filters."""
    return f"""cand(rid) AS (
  SELECT rowid FROM units_fts WHERE length({param}) >= 3 AND units_fts MATCH {_phrase(param)}
  UNION
  SELECT rowid FROM units_grams WHERE length({param}) BETWEEN 1 AND 2 AND units_grams MATCH {_phrase(param)}
),
hits(rid, pos) AS (
  SELECT u.rowid, instr(u.text, {param}) FROM cand JOIN units u ON u.rowid = cand.rid JOIN documents d ON d.doc = u.doc
  WHERE instr(u.text, {param}) > 0 AND {unit_filters()}
  UNION ALL
  SELECT h.rid, h.pos + instr(substr(u.text, h.pos + 1), {param}) FROM hits h JOIN units u ON u.rowid = h.rid
  WHERE instr(substr(u.text, h.pos + 1), {param}) > 0
)"""


def _width(param: str, default: int) -> str:
    return f"CAST(coalesce(nullif({param}, ''), '{default}') AS INTEGER)"


def _context(start0: str, end0: str, w: str = "p.w") -> str:
    """left and right context columns of the span [start0, end0) of u.text (0-based)."""
    s, e = f"({start0})", f"({end0})"
    return (f"substr(u.text, max(0, {s} - {w}) + 1, {s} - max(0, {s} - {w})) AS left, "
            f"substr(u.text, {s} + 1, {e} - {s}) AS hit, "
            f"substr(u.text, {e} + 1, {w}) AS right")


KWIC = f"""WITH RECURSIVE p AS (SELECT {_width(':width', 12)} AS w),
{string_hits()}
SELECT d.title AS book, d.juan, {unit_columns()},
  {_context('h.pos - 1', 'h.pos - 1 + length(:q)')},
  l.pb, l.line, u.unit, h.pos - 1 AS start, {link('u.unit')} AS link
FROM hits h JOIN units u ON u.rowid = h.rid JOIN documents d ON d.doc = u.doc, p
JOIN unit_lines l ON l.rowid = (SELECT rowid FROM unit_lines WHERE unit = u.unit AND start <= h.pos - 1
                                ORDER BY start DESC LIMIT 1)
ORDER BY h.rid, h.pos"""

KWIC_ENTITY = f"""WITH p AS (SELECT {_width(':width', 12)} AS w)
SELECT d.title AS book, d.juan, {unit_columns()}, e.label,
  {_context('e.start', 'e.end')},
  e.pb, e.line, u.unit, e.start, {link('u.unit')} AS link
FROM entities e JOIN units u ON u.unit = e.unit JOIN documents d ON d.doc = e.doc, p
WHERE e.label = :label AND (:q = '' OR e.text = :q) AND {unit_filters()}
ORDER BY u.rowid, e.start"""

KWIC_LEMMA = f"""WITH p AS (SELECT {_width(':width', 12)} AS w)
SELECT d.title AS book, d.juan, {unit_columns()}, t.lemma, t.upos, t.deprel,
  {_context('t.start', 't.end')},
  t.pb, t.line, u.unit, t.start, {link('u.unit')} AS link
FROM tokens t JOIN units u ON u.unit = t.unit JOIN documents d ON d.doc = t.doc, p
WHERE t.lemma = :lemma AND NOT t.restored AND {unit_filters()}
ORDER BY u.rowid, t.start"""


def _overlaps(text: str, start: str, end: str, word: str = ":q") -> str:
    """True when an occurrence of the word in `text` contains the span [start, end) (0-based)."""
    lo = f"max(0, {end} - length({word}))"
    return f"instr(substr({text}, {lo} + 1, {start} + length({word}) - {lo}), {word}) > 0"


LEMMA_COMMENTARY = f"""SELECT * FROM (
  SELECT CASE WHEN c.marker = '疏' THEN '疏 quotation' ELSE 'gloss' END AS what, d.title AS book, d.juan,
    b.unit AS base_unit, g.lemma AS anchored_on, g.lemma_start AS at, g.type, c.marker, g.text AS says,
    c.punctuated AS commentary, g.lemma_pb AS pb, g.lemma_line AS line, b.rowid AS o1, c.seq AS o2,
    {link('c.unit')} AS link
  FROM glosses g JOIN units b ON b.unit = g.base_unit JOIN units c ON c.unit = g.unit JOIN documents d ON d.doc = g.doc
  WHERE g.lemma_start IS NOT NULL AND b.kind = 'base' AND (:unit = '' OR b.unit = :unit) AND :q != ''
    AND (instr(g.lemma, :q) > 0 OR (instr(:q, g.lemma) > 0 AND {_overlaps('b.text', 'g.lemma_start', 'g.lemma_end')}))
  UNION ALL
  SELECT 'reading', d.title, d.juan, b.unit, r.head, r.target_start, r.kind, c.marker, r.reading_text,
    c.punctuated, r.target_pb, r.target_line, b.rowid, c.seq, {link('c.unit')}
  FROM readings r JOIN units b ON b.unit = r.target_unit JOIN units c ON c.unit = r.unit JOIN documents d ON d.doc = r.doc
  WHERE b.kind = 'base' AND (:unit = '' OR b.unit = :unit) AND :q != ''
    AND (r.head = :q OR (instr(:q, r.head) > 0 AND {_overlaps('b.text', 'r.target_start', 'r.target_end')}))
) ORDER BY o1, at, o2"""

READINGS = f"""SELECT r.head, r.reading_text, r.kind, r.upper, r.lower, r.homophone, r.authority, r.alternatives,
  r.scope, d.title AS book, d.juan, r.pb, r.line, c.punctuated AS note, r.target_unit,
  substr(b.text, max(0, r.target_start - 8) + 1, min(r.target_start, 8)) || '【' || r.head || '】'
    || substr(b.text, r.target_end + 1, 8) AS read_in, {link('c.unit')} AS link
FROM readings r JOIN units c ON c.unit = r.unit JOIN documents d ON d.doc = r.doc LEFT JOIN units b ON b.unit = r.target_unit
WHERE (:head = '' OR r.head = :head)
  AND (:authority = '' OR r.authority = :authority
       OR EXISTS (SELECT 1 FROM json_each(r.alternatives) a WHERE json_extract(a.value, '$.authority') = :authority))
  AND (:sound = '' OR r.upper = :sound OR r.lower = :sound OR r.homophone = :sound OR instr(r.reading_text, :sound) > 0)
ORDER BY c.rowid, r.head_start"""

READINGS_OF_HEAD = """SELECT r.head, r.reading_text, r.kind, coalesce(r.authority, '') AS authority, count(*) AS n,
  count(DISTINCT r.doc) AS juan, min(r.pb) AS first_pb
FROM readings r WHERE (:head = '' OR r.head = :head)
GROUP BY r.head, r.reading_text, r.kind, r.authority ORDER BY r.head, n DESC, r.reading_text"""

FREQUENCY = f"""SELECT item, n, round(1e6 * n / sum(n) OVER (), 1) AS per_million FROM (
  SELECT u.char AS item, sum(u.n) AS n FROM char_counts u JOIN documents d ON d.doc = u.doc
  WHERE :by IN ('', 'char') AND {unit_filters()} GROUP BY u.char
  UNION ALL
  SELECT t.form, count(*) FROM tokens t JOIN units u ON u.unit = t.unit JOIN documents d ON d.doc = t.doc
  WHERE :by = 'word' AND NOT t.restored AND t.upos != 'PUNCT' AND {unit_filters()} GROUP BY t.form
) ORDER BY n DESC, item LIMIT {_width(':limit', 100)}"""


def _measures(table: str) -> str:
    """MI and log-likelihood from (c, o11, f, r1, n) rows."""
    return f"""m AS (
  SELECT c, o11, f, r1, n, 1.0 * r1 * f / n AS e11,
    r1 - o11 AS o12, f - o11 AS o21, n - r1 - f + o11 AS o22,
    1.0 * r1 * (n - f) / n AS e12, 1.0 * (n - r1) * f / n AS e21, 1.0 * (n - r1) * (n - f) / n AS e22
  FROM {table}
)
SELECT c AS collocate, o11 AS observed, f AS frequency, round(e11, 3) AS expected,
  round(log2(o11 / e11), 3) AS mi,
  round(2 * (o11 * ln(o11 / e11)
    + CASE WHEN o12 > 0 THEN o12 * ln(o12 / e12) ELSE 0 END
    + CASE WHEN o21 > 0 THEN o21 * ln(o21 / e21) ELSE 0 END
    + CASE WHEN o22 > 0 THEN o22 * ln(o22 / e22) ELSE 0 END), 3) AS log_likelihood
FROM m WHERE o11 >= {_width(':min_count', 1)}
ORDER BY log_likelihood DESC, collocate"""


COLLOCATES = f"""WITH RECURSIVE p AS (SELECT {_width(':window', 5)} AS w),
{string_hits()},
offs(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM offs, p WHERE k < p.w),
win(c) AS (
  SELECT substr(u.text, h.pos - o.k, 1) FROM hits h CROSS JOIN units u ON u.rowid = h.rid CROSS JOIN offs o
  WHERE h.pos - o.k >= 1
  UNION ALL
  SELECT substr(u.text, h.pos + length(:q) - 1 + o.k, 1) FROM hits h CROSS JOIN units u ON u.rowid = h.rid CROSS JOIN offs o
  WHERE h.pos + length(:q) - 1 + o.k <= length(u.text)
),
slots(c) AS MATERIALIZED (SELECT c FROM win WHERE unicode(c) > 127 AND c != '　'),  -- &KRnnnn; spellings and layout spaces left out
obs AS (SELECT c, count(*) AS o11 FROM slots GROUP BY c),
tot AS MATERIALIZED (SELECT (SELECT count(*) FROM slots) AS r1,
  (SELECT sum(u.n) FROM char_totals u JOIN documents d ON d.doc = u.doc WHERE {unit_filters()}) AS n),
fr AS MATERIALIZED (  -- the frequencies of the collocates, through the key led by char
  -- (named: the planner built an automatic index over the whole table instead, 0.5 s of 0.65)
  SELECT u.char AS c, sum(u.n) AS f FROM obs CROSS JOIN char_counts u INDEXED BY sqlite_autoindex_char_counts_1 ON u.char = obs.c JOIN documents d ON d.doc = u.doc
  WHERE {unit_filters()} GROUP BY u.char
),
t AS (SELECT obs.c, obs.o11, fr.f, tot.r1, tot.n FROM tot, obs JOIN fr ON fr.c = obs.c),
{_measures('t')}"""

COLLOCATES_WORDS = f"""WITH p AS (SELECT {_width(':window', 5)} AS w),
nodes AS (
  SELECT t.sentence, t.word FROM tokens t JOIN units u ON u.unit = t.unit JOIN documents d ON d.doc = t.doc
  WHERE t.form = :q AND NOT t.restored AND {unit_filters()}
),
slots(c) AS MATERIALIZED (
  SELECT x.form FROM nodes JOIN tokens x ON x.sentence = nodes.sentence, p
  WHERE x.word BETWEEN nodes.word - p.w AND nodes.word + p.w AND x.word != nodes.word
    AND NOT x.restored AND x.upos != 'PUNCT'
),
obs AS (SELECT c, count(*) AS o11 FROM slots GROUP BY c),
grp AS (
  SELECT t.form FROM tokens t JOIN units u ON u.unit = t.unit JOIN documents d ON d.doc = t.doc
  WHERE NOT t.restored AND t.upos != 'PUNCT' AND {unit_filters()}
),
tot AS MATERIALIZED (SELECT (SELECT count(*) FROM slots) AS r1, (SELECT count(*) FROM grp) AS n),
t AS (
  SELECT obs.c, obs.o11, fr.f, tot.r1, tot.n
  FROM tot, obs JOIN (SELECT form AS c, count(*) AS f FROM grp WHERE form IN (SELECT c FROM obs) GROUP BY form) fr ON fr.c = obs.c
),
{_measures('t')}"""

_FILTERS = "Filters: book (title or Kanripo id), kind (base, commentary, …), marker (鄭注, 注, 疏, 音義 …), source; empty = any."

# name -> (title, description, sql)
CANNED: dict[str, tuple[str, str, str]] = {
    "kwic": ("KWIC concordance of a string",
             "Every occurrence of q (any length; 1–2 characters through the units_grams index, 3+ through "
             "the trigram index) with `width` characters of left and right context inside its unit, the "
             "unit's kind / marker, juan, page and line of the hit, and a link to the unit. " + _FILTERS, KWIC),
    "kwic_entity": ("KWIC concordance of an entity label",
                    "Every entity with this label (ROLE, OBJECT, PLACE, ACT, MUSIC), or only those whose text "
                    "is q, in context. " + _FILTERS, KWIC_ENTITY),
    "kwic_lemma": ("KWIC concordance of a lemma (parse stage)",
                   "Every word of the parse whose lemma is `lemma`, in context (empty without the parse stage). "
                   + _FILTERS, KWIC_LEMMA),
    "lemma_commentary": ("A word of the 經 and what the commentary says of it",
                         "Every gloss (注 / 鄭注 / 釋曰), 疏 quotation and 音義 reading anchored on the word q in "
                         "a 經 (base) unit — or on a part of it, where it stands inside q — with the "
                         "commentary's text. `unit`: one 經 unit id only.", LEMMA_COMMENTARY),
    "readings_by_sound": ("音義 readings by head, authority or sound",
                          "反切 / 音X / 如字 readings of the 音義 notes: by head character, by authority (徐, 劉, "
                          "沈 …, also among the alternatives), by sound (an upper, lower or homophone "
                          "character, or part of the printed reading).", READINGS),
    "readings_of_head": ("How a character is read: readings grouped",
                         "The readings of a head (all heads when empty), grouped by printed reading and "
                         "authority, with counts.", READINGS_OF_HEAD),
    "frequency": ("Frequency of characters or words",
                  "by = char (default; from char_counts) or word (the parse's tokens, marks left out); "
                  "counts and per million of the filtered corpus; limit (default 100). " + _FILTERS, FREQUENCY),
    "collocates": ("Collocates of a node string (characters)",
                   "The characters within `window` (default 5) characters left and right of every occurrence "
                   "of q inside its unit, ranked by log-likelihood (G2), with observed and expected counts and "
                   "MI; min_count (default 1). " + _FILTERS, COLLOCATES),
    "collocates_words": ("Collocates of a node word (parse stage)",
                         "The words within `window` words of every token whose form is q, in its sentence, "
                         "marks left out; measures as for collocates. " + _FILTERS, COLLOCATES_WORDS),
}


def run_query(conn, name: str, **params: str) -> tuple[list[str], list[tuple]]:
    """Run a canned query with Datasette's conventions (every named parameter bound, '' when
    not given): (column names, rows)."""
    import re

    sql = CANNED[name][2]
    names = set(re.findall(r":(\w+)", re.sub(r"'[^']*'", "''", sql)))
    cur = conn.execute(sql, {n: str(params.get(n, "") if params.get(n) is not None else "") for n in names})
    return [c[0] for c in cur.description], cur.fetchall()
