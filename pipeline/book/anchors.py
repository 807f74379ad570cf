"""Anchors survive (issue 15): an id is kept when some link in the book points at it (in the
article, or ``targets``: other articles' links to this one), written ``a<task>-<id>``
(``anchor_id``) so it is unique in the book and never the template's ``kb-top``; a link to a
place in the article becomes ``#a<task>-<id>``, or loses its href when no such id is left (an
EPUB may not link to a missing fragment). A link to another archived article keeps its
fragment in its ``kuaibu:<id>#<fragment>`` token, which ``chapters.resolve_links`` resolves.

Apart from the whitelist (``xhtml``): ids are written once the body is copied and repaired,
and ``chapters`` looks them up (``find_anchor``) to resolve links between articles.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable
from urllib.parse import unquote

from lxml import etree

# What an id may hold as it is written: an XML name's ASCII part (EPUBCheck validates ids as
# XML IDs); every other character is written as its code point, ``fn:1`` as ``fn_3a_1``.
_NOT_ID_CHAR = re.compile(r"[^A-Za-z0-9_.-]")
CHAPTER_TOP = "kb-top"  # the chapter template's own id: a link to the article's start


def anchor_id(chapter: int, name: str) -> str:
    """How the id ``name`` of the article ``chapter`` is written in the book: unique across
    the book's chapters, a valid XML ID whatever the page used (``a12-sec2``)."""
    return f"a{chapter}-" + _NOT_ID_CHAR.sub(lambda m: f"_{ord(m.group()):x}_", name)


def find_anchor(fragment: str, names: Container[str]) -> str | None:
    """The id a URL fragment names: as written, then percent-decoded (as browsers look)."""
    for name in (fragment, unquote(fragment)):
        if name in names:
            return name
    return None


def fix_ids_and_fragments(root: etree._Element, chapter: int,
                           targets: Iterable[str]) -> dict[str, str]:
    """Keep the ids some link points at (``targets`` from other chapters, the ``#fragment``
    links here), written ``anchor_id``; point each ``#fragment`` link at its id, or take its
    href away when the id is gone (``#kb-top`` is the chapter's own). Returns each id kept,
    as the article wrote it → as written here."""
    named = _first_ids(root)
    own = [a for a in root.iter("a") if (a.get("href") or "").startswith("#")
           and a.get("href") != "#" + CHAPTER_TOP]
    fragments = [a.get("href", "")[1:] for a in own] + [f for f in targets if f != CHAPTER_TOP]
    anchors = _write_ids(named, {find_anchor(f, named) for f in fragments}, chapter)
    for a in own:
        found = find_anchor(a.get("href", "")[1:], anchors)
        if found is not None:
            a.set("href", "#" + anchors[found])
        else:
            del a.attrib["href"]
    return anchors


def _first_ids(root: etree._Element) -> dict[str, etree._Element]:
    """Every id taken off its element, each mapped to the first element that had it (the one
    a browser finds)."""
    named: dict[str, etree._Element] = {}
    for el in root.iter():
        value = el.attrib.pop("id", None)
        if value and not any(c.isspace() for c in value):
            named.setdefault(value, el)
    return named


def _write_ids(named: dict[str, etree._Element], wanted: Container[str | None],
               chapter: int) -> dict[str, str]:
    """Put the wanted ids back, as ``anchor_id`` writes them, unique in the chapter."""
    anchors: dict[str, str] = {}
    written = {CHAPTER_TOP}
    for name, el in named.items():
        if name in wanted:
            value = anchor_id(chapter, name)
            while value in written:  # "fn:1" and "fn_3a_1" are written alike
                value += "_"
            written.add(value)
            el.set("id", value)
            anchors[name] = value
    return anchors
