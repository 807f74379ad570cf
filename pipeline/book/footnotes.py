"""Footnotes a reader can open as notes (issue 29): each mark ``epub:type="noteref"``
``role="doc-noteref"``, each note an ``<aside epub:type="footnote" role="doc-footnote">``.

Apple Books, KOReader and Kobo show a note in a pop-up only when the link and its target say
what they are; a plain ``<a href="#fn1">`` is followed like any link, away from the text. Which
pairs are notes is the extractor's policy (``extract.notes.note_pairs``: by how they link,
never by class names), applied here to the chapter body once its ids are written; of a mark
and its back link, which link to each other, the note is the one that comes later.

HTML allows ``role="doc-footnote"`` on an ``aside`` (not on the ``li`` or ``p`` pages keep
their notes in), so the note's content is put in one, which takes the note's id: inside a list
item or a block that holds blocks; around a paragraph or a heading. A note inside a line (a
``span``) can hold no aside and gets ``epub:type`` alone.
"""

from __future__ import annotations

from lxml import etree

from pipeline.extract.notes import note_pairs

OPS = "http://www.idpf.org/2007/ops"
EPUB_TYPE = f"{{{OPS}}}type"
# notes whose content goes into an aside inside them; around them for these:
_HOLDS_BLOCKS = frozenset(("li", "dd", "div", "blockquote", "figure", "td", "th"))
_HOLDS_LINES = frozenset(("p", "pre", "h1", "h2", "h3", "h4", "h5", "h6"))


def mark_footnotes(root: etree._Element) -> None:
    """Give each note pair under ``root`` its semantics. ``root`` must map the ``epub``
    prefix to OPS (its serialization then declares it once)."""
    order = {el: k for k, el in enumerate(root.iter())}
    notes: dict[etree._Element, None] = {}  # in the order found, each once
    for mark, note in note_pairs(root):
        if order[note] > order[mark]:
            mark.set(EPUB_TYPE, "noteref")
            mark.set("role", "doc-noteref")
            notes[note] = None
    for note in notes:
        _as_note(note)


def _as_note(note: etree._Element) -> None:
    if note.tag == "aside":
        aside = note
    elif note.tag in _HOLDS_BLOCKS:
        aside = etree.Element("aside")
        aside.text, note.text = note.text, None
        aside.extend(list(note))
        note.append(aside)
    elif note.tag in _HOLDS_LINES and note.getparent() is not None:
        aside = etree.Element("aside")
        aside.tail, note.tail = note.tail, None
        note.addprevious(aside)
        aside.append(note)
    else:
        note.set(EPUB_TYPE, "footnote")
        return
    if aside is not note and note.get("id"):
        aside.set("id", note.attrib.pop("id"))
    aside.set(EPUB_TYPE, "footnote")
    aside.set("role", "doc-footnote")
