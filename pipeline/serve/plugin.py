"""Datasette plugin of `zhushu serve`: in the canned queries' HTML, the `link` column is a link
to the unit's row page and the `hit` of a concordance is marked, so the KWIC lines read as
left | hit | right."""

from __future__ import annotations

from datasette import hookimpl
from markupsafe import Markup, escape


@hookimpl
def render_cell(value, column, table):
    if table is not None or not isinstance(value, str):
        return None
    if column == "link" and value.startswith("/"):
        return Markup(f'<a href="{escape(value)}">unit</a>')
    if column == "hit":
        return Markup(f'<mark class="zhushu-hit">{escape(value)}</mark>')
    if column == "left":
        return Markup(f'<span class="zhushu-left" style="display:block;text-align:right">{escape(value)}</span>')
    return None
