"""The book's own pages from jinja2 templates: chapter, index, cover page, cover text, CSS.

Templates may be overridden in ``<archive>/templates/``; an override that breaks XHTML would
break every reader, so each rendered page is parsed before it goes in, and a failure names the
template.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import jinja2
from lxml import etree

from pipeline.book.collect import Cat1Group, P, display_category
from pipeline.records.errors import BookError


def render_xhtml(env: jinja2.Environment, name: str, **context: Any) -> bytes:
    """A rendered XHTML page, checked to be well-formed XML."""
    try:
        page = env.get_template(name).render(**context)
    except jinja2.TemplateError as e:
        raise BookError(f"template {name}: {e}") from None
    data = page.encode("utf-8")
    try:
        etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as e:
        raise BookError(f"template {name} does not give well-formed XHTML: {e}") from None
    return data


def render_lines(env: jinja2.Environment, name: str, **context: Any) -> list[str]:
    """A plain-text template's non-empty lines (drawn, not parsed: no HTML escaping)."""
    try:
        text = env.overlay(autoescape=False).get_template(name).render(**context)
    except jinja2.TemplateError as e:
        raise BookError(f"template {name}: {e}") from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def stylesheet(env: jinja2.Environment) -> bytes:
    """style.css as found on the template path (an override in the archive wins)."""
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, "style.css")
    return source.encode("utf-8")


def category_anchor(group: int, child: int | None = None) -> str:
    """The id of a category's heading in the index page (1-based, in book order), which the
    table of contents links to."""
    return f"kb-c{group}" if child is None else f"kb-c{group}-{child}"


def index_tree(groups: list[Cat1Group[P]], labels: dict[str, str],
               row: Callable[[P], Any]) -> list[dict[str, Any]]:
    """The category tree as both index templates read it, each article made a row by ``row``."""
    tree = []
    for i, g in enumerate(groups, 1):
        tree.append({
            "id": category_anchor(i),
            "title": display_category(g.name) if g.name else labels["uncategorized"],
            "entries": [row(e) for e in g.direct],
            "children": [{"id": category_anchor(i, j), "title": c.display,
                          "entries": [row(e) for e in c.entries]}
                         for j, c in enumerate(g.children, 1)],
        })
    return tree


class Dated(Protocol):
    """What a date range reads of an article (an ``Entry``, an index line)."""

    @property
    def published_day(self) -> str: ...
    @property
    def fetched_day(self) -> str: ...


def date_range(entries: Sequence[Dated]) -> str:
    """``2019-02-20 – 2021-05-01`` from published dates (fetched dates when none has one)."""
    return (day_span(e.published_day for e in entries)
            or day_span(e.fetched_day for e in entries))


def day_span(days: Iterable[str]) -> str:
    """``first – last`` of these YYYY-MM-DD days (the empty ones left out), one day alone,
    or "" (index.html joins its categories' spans with it)."""
    dates = sorted(d for d in days if d)
    if not dates:
        return ""
    return dates[0] if dates[0] == dates[-1] else f"{dates[0]} – {dates[-1]}"
