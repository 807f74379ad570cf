"""Footnotes, endnotes and references: found by how they link, never by their class names.

To the chrome and junk rules a note list looks like layout (it sits at the end, its class says
"foot", its lines are short and full of links), yet the article points into it. That pointing
is the signal: a *mark* (a numeral or a sign in a sentence, linked into the page:
``<a href="#fn1">1</a>``) leads to a *note*, and the note links back to its mark
(``<a href="#fnref1">↩</a>``) or is one of several marked items of one list. It serves pages
with notes: Pandoc, Hugo, Jekyll (kramdown), Python-Markdown, WordPress footnote plugins and
blocks, Substack, Wikipedia's references, Word's HTML export (all link back), and the
hand-numbered note lists of older pages (which do not). Navigation never links like this: a
table of contents, "skip to content" and "back to top" stand alone in their blocks, not in a
sentence, and a comment's time links to the comment's own heading, inside its own list.

``mark_notes`` runs on each pass's fresh page and sets ``NOTE`` on both ends of every pair, on
what each holds and on what holds each below the element where the two meet (the note list and
its wrapper; the sentence with the mark); density's chrome, junk and trim rules leave those be.
The clean writer copies attributes by name, so ``NOTE`` never reaches an article.
"""

from __future__ import annotations

from urllib.parse import unquote

from lxml import etree

from pipeline.extract.dom import BLOCK_TAGS, tag_of
from pipeline.extract.options import DEFAULT, ExtractOptions

NOTE = "data-kuaibu-note"
_LIST_ITEMS = frozenset(("li", "dd", "dt"))
# What XPath's normalize-space() takes for white space: a link into the page is one whose href
# starts with "#" after these. (Read in Python over the links: XPath's predicate, tried on
# every <a> of every page, cost a third more.)
_XML_SPACE = " \t\r\n"
Named = dict[str, etree._Element]


def mark_notes(root: etree._Element, opts: ExtractOptions = DEFAULT) -> None:
    """Set ``NOTE`` on every note pair: its mark, its note, and what holds each of them below
    the element where they meet."""
    for mark, note in note_pairs(root, opts):
        _mark_pair(mark, note)


def note_pairs(root: etree._Element, opts: ExtractOptions = DEFAULT
               ) -> list[tuple[etree._Element, etree._Element]]:
    """Every (mark, note) pair under ``root``: the extractor spares them, the book marks them
    as a reader's pop-up notes (``book.footnotes``)."""
    inward = [a for a in root.iter("a") if (a.get("href") or "").lstrip(_XML_SPACE)[:1] == "#"]
    if not inward:
        return []  # most pages: no link into themselves, no notes
    named = _named(root)
    pairs = [(a, note) for a in inward if (note := _target(a, named)) is not None
             and not _related(a, note) and _is_mark(a, opts)
             and _chars(note) <= opts.note_max_chars]
    listed = _marked_items(pairs)
    return [(mark, note) for mark, note in pairs
            if len(listed.get(note, ())) >= opts.note_list_items
            or _links_back(note, mark, named)]


def _marked_items(pairs: list[tuple[etree._Element, etree._Element]]
                  ) -> dict[etree._Element, set[etree._Element]]:
    """Each list item marked from outside its list → all the items of that list so marked.
    A mark inside the list is no footnote's: a comment's time links to the comment's own
    heading (Blogger's ``<dl>`` of comments)."""
    lists: dict[etree._Element, set[etree._Element]] = {}
    for mark, note in pairs:
        parent = note.getparent()
        if tag_of(note) in _LIST_ITEMS and parent is not None and not _related(mark, parent):
            lists.setdefault(parent, set()).add(note)
    return {note: items for items in lists.values() for note in items}


# The elements with an id and the <a name>s, in document order. Attribute steps rather than a
# predicate tried on every element (//*[@id]): the same elements, in about half the time.
_NAMING = etree.XPath("//@id/.. | //a/@name/..")


def _named(root: etree._Element) -> Named:
    """What a fragment can name: the first element of each id, and ``<a name>`` (HTML 4's
    anchors, still on older pages)."""
    named: Named = {}
    for el in _NAMING(root):
        for value in (el.get("id"), el.get("name") if el.tag == "a" else None):
            if value:
                named.setdefault(value, el)
    return named


def _target(a: etree._Element, named: Named) -> etree._Element | None:
    """The element an in-page link leads to: the fragment as written, then percent-decoded,
    as a browser looks it up."""
    href = (a.get("href") or "").strip()
    if not href.startswith("#") or len(href) < 2:
        return None
    found = named.get(href[1:])
    return found if found is not None else named.get(unquote(href[1:]))


def _chars(el: etree._Element) -> int:
    return len("".join("".join(el.itertext()).split()))


def _is_mark(a: etree._Element, opts: ExtractOptions) -> bool:
    """A numeral or a sign in running text. A "skip to content" or "back to top" link stands
    alone in its block."""
    own = _chars(a)
    if not 0 < own <= opts.note_mark_chars:
        return False
    block = next((el for el in a.iterancestors() if tag_of(el) in BLOCK_TAGS), None)
    return block is not None and _chars(block) - own >= opts.note_context_chars


def _related(a: etree._Element, b: etree._Element) -> bool:
    """Whether one holds the other (a heading's own anchor, a link to the block it sits in)."""
    return a is b or any(x is b for x in a.iterancestors()) or any(
        x is a for x in b.iterancestors())


def _below_meeting(end: etree._Element, other: etree._Element) -> list[etree._Element]:
    """``end`` and its ancestors up to, not including, the first one that holds ``other``."""
    meeting = set(other.iterancestors())
    lineage = [end]
    for el in end.iterancestors():
        if el in meeting:
            break
        lineage.append(el)
    return lineage


def _links_back(note: etree._Element, mark: etree._Element, named: Named) -> bool:
    """Whether the note links to its mark or to what wraps it (``<sup id="fnref1">``)."""
    lineage = _below_meeting(mark, note)
    return any(_target(a, named) in lineage for a in note.iter("a"))


def _mark_pair(mark: etree._Element, note: etree._Element) -> None:
    for end, other in ((mark, note), (note, mark)):
        for el in [*end.iter(), *_below_meeting(end, other)]:
            if isinstance(el.tag, str):
                el.set(NOTE, "")
