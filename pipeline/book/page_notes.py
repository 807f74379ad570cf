"""A chapter's footnotes at the foot of the page that calls them, for the PDF (issue 29).

The EPUB keeps a page's notes where the page had them (a list at the end) and marks each pair
(``footnotes.mark_footnotes``: ``epub:type`` noteref / footnote) so a reader opens a note in a
pop-up. Paper has no pop-ups: WeasyPrint sets an element of ``float: footnote`` at the foot of
the page where the element stands, so each note's content moves to just after its first mark,
into an inline ``span`` (blocks inside a sentence would break it), and the emptied note list
goes. The mark stays what the page wrote ("1", "[2]", "†") and the footnote repeats it as its
marker (``data-mark``); the note's id moves with it, so every link to the note lands on it, and
the links back to the mark are dropped (the call is on the same page).

WeasyPrint may still carry a note to the next page when that lets one more line of a
paragraph stay on this one (its orphans rule weighs lines above notes); that is GCPM's
allowance, and it is rarer the smaller the footnote area, so its style is a rule and a little
padding, no margin.
"""

from __future__ import annotations

from lxml import etree

from pipeline.book.footnotes import EPUB_TYPE
from pipeline.extract.dom import remove

XHTML = "http://www.w3.org/1999/xhtml"
FOOTNOTE_CLASS = "pdf-footnote"
# what may stand inside a sentence; any other element of a note becomes a span
_PHRASING = frozenset(("a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "del", "dfn", "em",
                       "i", "img", "ins", "kbd", "mark", "q", "s", "samp", "small", "span",
                       "strong", "sub", "sup", "time", "u", "var", "wbr"))
# what a note list is made of: emptied of its notes, it goes too
_NOTE_HOLDERS = frozenset(("li", "ol", "ul", "dl", "dt", "dd", "div", "section", "aside", "p"))


def notes_to_page_foot(section: etree._Element) -> None:
    """Move each note under ``section`` (XHTML) to its first mark as a page footnote."""
    ids = {el.get("id"): el for el in section.iter() if el.get("id")}
    for mark in [a for a in section.iter(f"{{{XHTML}}}a") if a.get(EPUB_TYPE) == "noteref"]:
        note = ids.get((mark.get("href") or "")[1:])
        if note is None or note.get(EPUB_TYPE) != "footnote" or _in_footnote(mark):
            continue  # not a note, moved to an earlier mark already, or a note's own mark
        footnote = etree.Element(f"{{{XHTML}}}span", {"class": FOOTNOTE_CLASS,
                                                      "data-mark": _text(mark)})
        footnote.set("id", note.attrib.pop("id"))
        footnote.text = note.text
        footnote.extend(list(note))
        _drop_links_back(footnote, mark)
        _inline(footnote)
        footnote.tail, mark.tail = mark.tail, None
        mark.addnext(footnote)
        note.set(EPUB_TYPE, "moved")
        _remove_emptied(note, section)


def _in_footnote(el: etree._Element) -> bool:
    """Whether ``el`` is in a footnote already (a note's notes stay links: no footnote in a
    footnote)."""
    return any(a.get("class") == FOOTNOTE_CLASS for a in el.iterancestors())


def _text(el: etree._Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _drop_links_back(footnote: etree._Element, mark: etree._Element) -> None:
    """Links from the note to its mark or to what wraps it (``<sup id="fnref1">``)."""
    lineage = {f"#{el.get('id')}" for el in (mark, *mark.iterancestors()) if el.get("id")}
    for a in list(footnote.iter(f"{{{XHTML}}}a")):
        if (a.get("href") or "") in lineage:
            remove(a)


def _inline(footnote: etree._Element) -> None:
    """Every block inside the note a span, the blocks kept apart by a space."""
    for el in footnote.iterdescendants():
        if isinstance(el.tag, str) and etree.QName(el).localname not in _PHRASING:
            el.tag = f"{{{XHTML}}}span"
            el.tail = " " + (el.tail or "")


def _remove_emptied(note: etree._Element, section: etree._Element) -> None:
    """The note, emptied, and what held only it (its list item, the list, the list's
    wrapper), up to the section."""
    el = note
    while el is not section and el.getparent() is not None:
        parent = el.getparent()
        remove(el)
        if (parent is section or etree.QName(parent).localname not in _NOTE_HOLDERS
                or _text(parent) or len(parent)):
            return
        el = parent
