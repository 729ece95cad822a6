"""html/: a static page per juan (html/<doc>.html), html/index.html with counts and plots
(inline SVG), html/style.css. No external resources, no JavaScript libraries.

On a juan page the base text and the commentary are shown punctuated, entities coloured by
label, collation notes in small grey type, page breaks as small page ids. Hovering a gloss (or
opening the page at #<gloss id>, or at ?gloss=<gloss id> without scrolling) shows its lemma and
type and its confidence (a 疏 quotation's: the reader's probability, near calibrated on dev), whom
the note says the statement is by where it names him (鄭司農 (鄭衆)), and highlights the lemma in the
base text; a 疏 quotation under UNSURE (more likely not the
editions' quotation than so) is drawn fainter. (The other glosses' confidence is the formula's and
the anchoring's certainty, docs/glosses.md: an order, not a probability — even its lowest band is
mostly right — so they are all drawn alike.)
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from html import escape
from urllib.parse import quote

from pipeline.export.bundle import CorpusInfo, Format, Parts, Sink, stream_files
from pipeline.export.card import caveats
from pipeline.export.common import (
    BEFORE_NOTE,
    IN_MARKER,
    LEAD,
    Markup,
    doc_title,
    milestone_places,
    non_overlapping_entities,
    render,
)
from pipeline.export.records import speakers
from pipeline.model import ENTITY_LABELS, GLOSS_TYPES, Document, withdrawn_as_chance
from pipeline.pua import encode_entities, is_kanripo_char, kanripo_form

COLOURS = {
    "ROLE": "#c0392b",
    "OBJECT": "#1f6fb2",
    "PLACE": "#1e8449",
    "MUSIC": "#7d3c98",
}

CSS = """\
body { font-family: "Noto Serif CJK TC", "Noto Serif CJK SC", "Noto Sans CJK TC", serif; max-width: 60em;
       margin: 1em auto; padding: 0 1em; line-height: 1.9; color: #222; background: #fdfcf8; }
nav { font-family: sans-serif; font-size: .9em; margin-bottom: 1em; }
nav a { margin-right: 1em; }
h1 { font-size: 1.5em; margin: .3em 0; }
.legend { font-family: sans-serif; font-size: .85em; color: #555; }
.legend span { margin-right: 1em; }
.u { margin: .2em 0; }
.u.base { font-size: 1.15em; }
.u.title, .u.header { font-weight: bold; color: #555; }
.u.commentary { margin-left: 2em; font-size: .95em; color: #444; border-left: 3px solid #e5dcc8; padding-left: .6em; }
.marker { font-weight: bold; color: #8a6d3b; margin-right: .3em; }
.who { font-family: sans-serif; font-size: .75em; color: #fff; background: #8a6d3b; border-radius: 3px; padding: 0 .3em; margin-right: .3em; }
.u.m-zhu { border-left-color: #b8860b; }
.u.m-yinyi { font-size: .85em; color: #1f4e79; border-left: 3px dashed #9db7d5; }
.u.m-yinyi .marker { color: #1f4e79; }
.u.m-shu { font-size: .9em; color: #555; border-left-color: #c9c0d8; }
.u.m-shu .marker { color: #6c3483; }
.u.report { margin-left: 2em; font-size: .85em; color: #666; border-left: 3px double #ccc; padding-left: .6em; }
details.u summary { cursor: pointer; color: #6c3483; }
.reading { border-bottom: 1px dashed #1f4e79; cursor: help; }
.e { font-weight: bold; }
.e.ROLE { color: #c0392b; } .e.OBJECT { color: #1f6fb2; } .e.PLACE { color: #1e8449; }
.e.MUSIC { color: #7d3c98; }
.coll { font-size: .7em; color: #888; }
.pb { font-family: sans-serif; font-size: .6em; color: #aaa; vertical-align: super; margin: 0 .2em; }
.kr { color: #a00; }
.gloss { position: relative; border-bottom: 2px dotted #8a6d3b; cursor: help; }
.gloss:hover, .gloss:target, .gloss.show { background: #f6ecd2; }
.gloss.unsure { border-bottom: 2px dotted #cdbb96; }
.gloss:hover::after, .gloss:target::after, .gloss.show::after {
  content: "⟶ " attr(data-lemma) " · " attr(data-type) " · " attr(data-conf) attr(data-by);
  position: absolute; left: 0; top: 1.7em; z-index: 10; white-space: nowrap;
  background: #333; color: #fff; padding: 0 .5em; border-radius: 3px; font-size: .85em; font-weight: normal; }
.lemma { border-bottom: 2px solid #e5dcc8; }
.lemma.hl { background: #ffe08a; border-bottom-color: #c08a00; }
table { border-collapse: collapse; font-family: sans-serif; font-size: .85em; margin: 1em 0; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: right; }
th { background: #f1ede2; } td.l, th.l { text-align: left; }
figure { margin: 1em 0; } figcaption { font-family: sans-serif; font-size: .85em; color: #555; }
.note { font-family: sans-serif; font-size: .85em; color: #555; }
.warn { font-family: sans-serif; font-size: .85em; background: #fdf2e9; border-left: 4px solid #d35400; padding: .2em .8em; margin: .8em 0; }
.warn ul { margin: .2em 0; padding-left: 1.2em; }
"""

JS = """\
document.addEventListener("DOMContentLoaded", function () {
  function mark(id, on) {
    document.querySelectorAll('.lemma').forEach(function (el) {
      if ((el.dataset.g || "").split(" ").indexOf(id) >= 0) { el.classList.toggle("hl", on); }
    });
  }
  document.querySelectorAll(".gloss").forEach(function (g) {
    g.addEventListener("mouseenter", function () { mark(g.id, true); });
    g.addEventListener("mouseleave", function () { mark(g.id, false); });
  });
  function reveal(el) {  // a gloss inside a folded 疏: open the fold, or the link shows nothing
    var fold = el && el.closest("details");
    if (fold) { fold.open = true; }
  }
  if (location.hash.length > 1) {
    var target = decodeURIComponent(location.hash.slice(1));
    reveal(document.getElementById(target));
    mark(target, true);
  }
  var shown = new URLSearchParams(location.search).get("gloss");  // ?gloss=<id>: show it, no scrolling
  var el = shown && document.getElementById(shown);
  if (el) { reveal(el); el.classList.add("show"); mark(shown, true); }
});
"""


def _href(doc_id: str) -> str:
    """The link to a document's page: its file name, percent-encoded (a `#` or `?` in a file name
    would otherwise start a fragment or a query)."""
    return escape(quote(f"{doc_id}.html"))


@lru_cache(maxsize=1 << 16)  # a pure function of the character, called for every character
def _char(ch: str) -> str:
    if is_kanripo_char(ch):
        return f'<span class="kr" title="{escape(kanripo_form(ch))}">〓</span>'
    if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F:  # a control character of the source: its picture
        return f'<span class="kr" title="U+{ord(ch):04X}">{chr(0x2400 + ord(ch)) if ord(ch) < 0x20 else "�"}</span>'
    return escape(ch)


def _unanchored(gl) -> str:
    """What the tooltip adds to the lemma of a gloss with no anchor: why."""
    if gl.lemma_start is not None:
        return ""
    if withdrawn_as_chance(gl.reason):  # the lemma stands in the passage: chance put it there
        return " (anchor withdrawn as chance: see the dataset card)"
    return " (not in the base text)"


def _said_by(gl) -> str:
    """What the tooltip adds where the note names whom the statement is by: ` · 鄭司農 (鄭衆)`."""
    if not gl.said_by:
        return ""
    name = f" ({gl.said_by_name})" if gl.said_by_name and gl.said_by_name != gl.said_by else ""
    return f" · {gl.said_by}{name}"


def _gid(doc: Document, seq: int, i: int) -> str:
    return f"g-{seq}-{i}"


# how each commentary of the 注疏 is shown; a 疏 longer than FOLD_SHU characters is folded
MARKER_CLASS = {"注": "m-zhu", "音義": "m-yinyi", "疏": "m-shu", "小注": "m-xiaozhu"}
FOLD_SHU = 120
# a 疏 quotation with a lower confidence is drawn fainter: on dev, those under 0.5 are the editions'
# quotations less than half the time (docs/quotations.md, "Stop 42")
UNSURE = 0.5


def _sound_text(note: str, sound) -> str:
    who = "".join(sound.authority)
    return (who + " " if who else "") + note[sound.start : sound.end]


def _reading_title(note: str, r) -> str:
    """What hovering a read head shows: its reading, the alternatives, the scope."""
    parts = [_sound_text(note, s) for s in r.sounds]
    return "音義: " + encode_entities(r.head) + " " + "；".join(encode_entities(x) for x in parts) + (f"（{r.scope}）" if r.scope else "")


def _who(unit) -> str:
    """Who speaks in the unit (Unit.source / source_name): the person, with the source as printed
    on hover; the printed source alone where the person is not known and no marker shows it."""
    if unit.source is None:
        return ""
    if unit.source_name is not None:
        return f'<span class="who" title="{escape(unit.source)}">{escape(unit.source_name)}</span>'
    if unit.source != unit.marker:
        return f'<span class="who">{escape(unit.source)}</span>'
    return ""


def render_doc(doc: Document, prev_id: str | None = None, next_id: str | None = None) -> str:
    reading_spans: dict[int, list[tuple[int, int, str]]] = {}
    for unit in doc.units:
        for r in unit.readings:
            if r.target is not None and r.anchor_start is not None:
                reading_spans.setdefault(r.target, []).append((r.anchor_start, r.anchor_end, _reading_title(unit.text, r)))
    lemma_spans: dict[int, list[tuple[int, int, str]]] = {}
    for unit in doc.units:
        for i, gl in enumerate(unit.glosses):
            if gl.base_seq is not None and gl.lemma_start is not None and gl.lemma_end is not None:
                lemma_spans.setdefault(gl.base_seq, []).append((gl.lemma_start, gl.lemma_end, _gid(doc, unit.seq, i)))
    notes_at: dict[int, list[tuple[int, int, str]]] = {}
    for note in doc.notes:
        notes_at.setdefault(note.unit_seq, []).append(
            (note.offset, 2, f'<span class="coll">（{"".join(_char(c) for c in note.text)}）</span>')
        )
    # a page id before the first thing printed on the page (`milestone_places`): before the unit,
    # in its marker, in its text or before a collation note
    pages_at: dict[int, list[tuple[int, int, str]]] = {}
    pages_lead: dict[int, list[str]] = {}
    pages_in_marker: dict[int, list[tuple[int, int, str]]] = {}
    for (_, pb), place in zip(doc.pages, milestone_places(doc, [idx for idx, _ in doc.pages])):
        if place is None:
            continue
        seq, where, k = place
        mark = f'<span class="pb" title="{escape(pb)}">{escape(pb.rsplit("_", 1)[-1])}</span>'
        if where == LEAD:
            pages_lead.setdefault(seq, []).append(mark)
        elif where == IN_MARKER:
            pages_in_marker.setdefault(seq, []).append((k, 3, mark))
        else:
            # at one offset: restored marks (1), a page printed before the note (1.5), the note (2), pages (3)
            pages_at.setdefault(seq, []).append((k, 1.5 if where == BEFORE_NOTE else 3, mark))

    body = []
    for unit in doc.units:
        if not unit.text and unit.seq not in notes_at:
            body.extend(pages_lead.get(unit.seq, ()) + [m for _, _, m in pages_in_marker.get(unit.seq, ())])
            continue
        spans = []
        quotations = unit.marker == "疏"  # a 疏's glosses are its quotations, their confidence the reader's probability
        for i, gl in enumerate(unit.glosses):
            gid = _gid(doc, unit.seq, i)
            lemma = encode_entities(gl.lemma) + _unanchored(gl)
            conf = f"{gl.confidence:.2f}"
            by = _said_by(gl)
            spans.append(
                Markup(
                    gl.note_start,
                    gl.note_end,
                    f'<span class="gloss{" unsure" if quotations and gl.confidence < UNSURE else ""}" id="{gid}"'
                    f' data-lemma="{escape(lemma)}" data-type="{escape(gl.type)}" data-conf="{conf}"'
                    + (f' data-by="{escape(by)}"' if by else "")
                    + f' title="lemma: {escape(lemma)} · {escape(gl.type)} · confidence {conf}{escape(by)}">',
                    "</span>",
                    rank=0,
                )
            )
        for s, e, gid in lemma_spans.get(unit.seq, []):
            spans.append(Markup(s, e, f'<span class="lemma" data-g="{gid}">', "</span>", rank=0))
        for s, e, title in reading_spans.get(unit.seq, []):
            spans.append(Markup(s, e, f'<span class="reading" title="{escape(title)}">', "</span>", rank=0))
        for r in unit.readings:  # the head as printed in the 音義 note
            spans.append(Markup(r.head_start, r.head_end, f'<span class="reading" title="{escape(_reading_title(unit.text, r))}">', "</span>", rank=0))
        for ent in non_overlapping_entities(unit):
            spans.append(Markup(ent.start, ent.end, f'<span class="e {escape(ent.label)}" title="{escape(ent.label)}">', "</span>", rank=1))
        points = [(k, 1, escape(m)) for k, m in sorted(unit.marks.items())]
        points += notes_at.get(unit.seq, []) + pages_at.get(unit.seq, [])
        inner = render(unit.text, spans, points, _char)
        marker = "".join(pages_lead.get(unit.seq, ())) + _who(unit) + (
            f'<span class="marker">{render(unit.marker, [], pages_in_marker.get(unit.seq, []), escape)}</span>' if unit.marker else "")
        classes = f"u {unit.kind}" + (f" {MARKER_CLASS[unit.marker]}" if unit.marker in MARKER_CLASS else "")
        if unit.marker == "疏" and len(unit.text) > FOLD_SHU:
            # the opening as the body prints it, its restored marks too (a run of bare characters read as
            # one word in the folded view)
            opening = "".join((escape(unit.marks[k]) if k and k in unit.marks else "") + _char(c) for k, c in enumerate(unit.text[:24]))
            body.append(f'<details class="{classes}" id="u{unit.seq}"><summary>{marker}{opening}…'
                        f' <small>({len(unit.text)} 字)</small></summary>{inner}</details>')
        else:
            body.append(f'<div class="{classes}" id="u{unit.seq}">{marker}{inner}</div>')
    nav = ['<a href="index.html">index</a>']
    if prev_id:
        nav.append(f'<a href="{_href(prev_id)}">← {escape(prev_id)}</a>')
    if next_id:
        nav.append(f'<a href="{_href(next_id)}">{escape(next_id)} →</a>')
    legend = " ".join(f'<span class="e {lab}">{lab}</span>' for lab in ENTITY_LABELS)
    title = doc_title(doc)
    return _page(
        f"{title} ({doc.id})",
        f"<nav>{' '.join(nav)}</nav>\n<h1>{escape(title)} <small>{escape(doc.id)}</small></h1>\n"
        + _warnings("What ingest warns of: a print read as printed though it looks wrong, a 經 left in its 注, characters no print has (the dataset card lists it too)", doc.warnings)
        + f'<p class="legend">{legend} <span class="gloss" data-lemma="lemma" data-type="type" data-conf="confidence">gloss: hover to see its lemma</span>'
          f' <span class="gloss unsure" data-lemma="lemma" data-type="type" data-conf="under {UNSURE}">unsure 疏 quotation</span>'
          f' <span class="coll">（collation note）</span></p>\n' + "\n".join(body),
    )


def _warnings(heading: str, lines: list[str]) -> str:
    """A box of warnings above a page's text (none: nothing): a reader of the HTML alone sees what
    the card and the terminal say (a 注疏 read without its plain 經, a misprinted marker, books
    outside what was measured)."""
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<div class="warn"><p>{escape(heading)}:</p><ul>{items}</ul></div>\n'


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hant">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n"
        '<link rel="stylesheet" href="style.css">\n'
        f"<script>\n{JS}</script>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


# --- index: counts and plots ---------------------------------------------------------------


def _bar_chart(title: str, categories: list[str], series: dict[str, list[float]], colours: dict[str, str], width: int = 720) -> str:
    """A horizontal stacked bar chart as inline SVG (deterministic, no dependencies)."""
    bar_h, gap, left, top = 14, 4, 120, 28
    height = top + len(categories) * (bar_h + gap) + 30
    totals = [sum(series[s][i] for s in series) for i in range(len(categories))]
    vmax = max(totals + [1])
    scale = (width - left - 60) / vmax
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f'<text x="0" y="16" font-family="sans-serif" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for i, cat in enumerate(categories):
        y = top + i * (bar_h + gap)
        out.append(f'<text x="{left - 6}" y="{y + bar_h - 3}" font-family="sans-serif" font-size="11" text-anchor="end">{escape(cat)}</text>')
        x = float(left)
        for name in series:
            v = series[name][i]
            if v <= 0:
                continue
            w = v * scale
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{colours.get(name, "#888")}"><title>{escape(cat)} {escape(name)}: {v:g}</title></rect>')
            x += w
        out.append(f'<text x="{x + 4:.1f}" y="{y + bar_h - 3}" font-family="sans-serif" font-size="10" fill="#555">{totals[i]:g}</text>')
    ly = top + len(categories) * (bar_h + gap) + 14
    lx = left
    for name in series:
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{colours.get(name, "#888")}"/>')
        out.append(f'<text x="{lx + 14}" y="{ly}" font-family="sans-serif" font-size="11">{escape(name)}</text>')
        lx += 24 + 8 * len(name)
    out.append("</svg>")
    return "\n".join(out)


def render_index(stats: list[dict], stages_note: str) -> str:
    """The index page from the per-document stats (records.document_stats), in id order."""
    docs = [st["document"] for st in stats]
    ids = [d["doc"] for d in docs]
    chars = {(st["document"]["doc"], k): st["chars"].get(k, 0) for st in stats for k in ("base", "commentary", "other")}
    ent_counts = Counter({(st["document"]["doc"], lab): n for st in stats for lab, n in st["entity_labels"].items()})
    gloss_counts: Counter = Counter()
    for st in stats:
        gloss_counts.update(st["gloss_types"])
    n_glosses = sum(gloss_counts.values())
    anchored = sum(st["glosses_anchored"] for st in stats)
    ents = any(st["entity_labels"] for st in stats)

    rows = []
    for d in docs:
        cells = [
            f'<td class="l"><a href="{_href(d["doc"])}">{escape(d["doc"])}</a></td>',
            f'<td class="l">{escape(d.get("juan") or "")}</td>',
            f'<td class="l">{escape(d["split"])}</td>',
            f"<td>{d['units']}</td><td>{d['chars']}</td><td>{d['sentences']}</td>",
        ]
        cells += [f"<td>{ent_counts[(d['doc'], lab)]}</td>" for lab in ENTITY_LABELS]
        cells.append(f"<td>{d['glosses']}</td><td>{d['collation']}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    total = [
        '<td class="l"><b>total</b></td><td></td><td></td>',
        f"<td>{sum(d['units'] for d in docs)}</td><td>{sum(d['chars'] for d in docs)}</td>",
        f"<td>{sum(d['sentences'] for d in docs)}</td>",
    ]
    total += [f"<td>{sum(ent_counts[(i, lab)] for i in ids)}</td>" for lab in ENTITY_LABELS]
    total.append(f"<td>{n_glosses}</td><td>{sum(d['collation'] for d in docs)}</td>")
    head = "".join(
        f"<th{' class=l' if h in ('document', 'juan', 'split') else ''}>{h}</th>"
        for h in ["document", "juan", "split", "units", "chars", "sentences", *ENTITY_LABELS, "glosses", "collation"]
    )
    table = f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n<tr>" + "".join(total) + "</tr>\n</table>"

    charts = []
    charts.append(
        _bar_chart(
            "Characters per juan",
            ids,
            {k: [chars[(i, k)] for i in ids] for k in ("base", "commentary", "other")},
            {"base": "#5d6d7e", "commentary": "#c8b88a", "other": "#d5d8dc"},
        )
    )
    if ents:
        charts.append(
            _bar_chart("Entities per juan, by label", ids, {lab: [ent_counts[(i, lab)] for i in ids] for lab in ENTITY_LABELS}, COLOURS)
        )
    if n_glosses:
        types = [t for t in GLOSS_TYPES if gloss_counts[t]] + sorted(t for t in gloss_counts if t not in GLOSS_TYPES)
        charts.append(_bar_chart("Glosses by type", types, {"glosses": [gloss_counts[t] for t in types]}, {"glosses": "#8a6d3b"}))

    top_rows = []
    for lab in ENTITY_LABELS:
        c: Counter = Counter()
        for st in stats:
            c.update(st["entity_texts"].get(lab, {}))
        if c:
            top = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
            top_rows.append(
                f'<tr><td class="l"><span class="e {lab}">{lab}</span></td><td class="l">'
                + "　".join(f"{escape(t)} {n}" for t, n in top)
                + "</td></tr>"
            )
    who = speakers(stats)
    who_table = ("<h2>Who speaks</h2>\n<table>\n<tr><th class=\"l\">source</th><th class=\"l\">person</th><th>units</th><th>chars</th></tr>\n"
                 + "\n".join(f'<tr><td class="l">{escape(s)}</td><td class="l">{escape(name or "—")}</td><td>{u}</td><td>{c}</td></tr>'
                             for s, name, u, c in who) + "\n</table>\n") if who else ""
    top_table = ("<h2>Most frequent entities</h2>\n<table>\n" + "\n".join(top_rows) + "\n</table>") if top_rows else ""
    gloss_line = (
        f"<p>{n_glosses} glosses, {anchored} anchored to a lemma in the base text.</p>" if n_glosses else ""
    )
    body = (
        "<h1>zhushu datasets: counts</h1>\n"
        f'<p class="note">{escape(stages_note)}</p>\n'
        + _warnings("The dataset card (README.md) warns", caveats(stats))
        + table
        + "\n"
        + gloss_line
        + who_table
        + "\n".join(f"<figure>{c}</figure>" for c in charts)
        + "\n"
        + top_table
    )
    return _page("zhushu datasets: counts", body)


def files_for_index(stats: list[dict], stages_note: str) -> dict[str, bytes]:
    return {
        "html/index.html": render_index(stats, stages_note).encode("utf-8"),
        "html/style.css": CSS.encode("utf-8"),
    }


def _corpus(parts: Parts, info: CorpusInfo, sink: Sink) -> None:
    note = "Stages: " + "; ".join(f"{k}: {v}" for k, v in info.stages.items())
    stream_files(parts, info, sink)
    for rel, data in files_for_index(info.stats, note).items():
        sink.write(rel, data)


FORMAT = Format("html", lambda b: {f"html/{b.doc.id}.html": render_doc(b.doc).encode("utf-8")}, stream=_corpus)
