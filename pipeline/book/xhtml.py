"""Article HTML → a well-formed, valid XHTML fragment for an EPUB chapter (issue 6, "Safety").

The clean stage already normalizes, but 01_clean is a folder a person (or an older version) may
have edited, so the book defends itself: only whitelisted elements and attributes are copied
into a fresh tree, everything else is unwrapped (its text kept) or dropped with its content
(scripts, frames, forms, media), by the clean stage's own policy (``pipeline.text.markup``); a
table inside a table is laid out as blocks — it is always a layout table and never fits a
reader's page. Then ``content_model`` repairs the HTML5 content models EPUBCheck enforces,
and ``anchors`` keeps the ids that links land on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from lxml import etree, html

from pipeline.book.anchors import CHAPTER_TOP, fix_ids_and_fragments
from pipeline.book.content_model import TABLE_PARTS, VOID, fix_content_models
from pipeline.book.footnotes import OPS, mark_footnotes
from pipeline.book.values import append_safe_text, clean_url, has_text, xml_safe
from pipeline.store.asset_map import rewrite_images
from pipeline.text.language import language_tag
from pipeline.text.markup import (
    ARTICLE_TAGS,
    BOOK_ONLY_TAGS,
    NEVER_READ_TAGS,
    RENAME,
    TABLE_CELL_TAGS,
)

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# What a tag becomes is ``pipeline.text.markup``'s policy: NEVER_READ_TAGS are dropped with their
# content, RENAME applies, _KEEP is copied, and any other tag is unwrapped (children kept).
_KEEP = ARTICLE_TAGS | BOOK_ONLY_TAGS
# The book keeps <center>'s look as a class its style sheet knows (the clean stage's divs are
# unwrapped, and the centring with them).
_CLASS_OF_RENAMED = {"center": "center"}
_NO_SELF_NESTING = frozenset(("a",))  # HTML5: no a inside a
# the only class names that reach the book: the ones this pipeline gives and style.css knows
_CLASSES = frozenset(("missing-image", "center", "table", "table-row", "table-cell", "dt", "dd",
                      "figcaption"))


# an image's pixel size (width, height) by its ``src`` in the article, when known
ImageSize: TypeAlias = Callable[[str], "tuple[int, int] | None"]


def link_fragments(content_html: str) -> list[tuple[str, str]]:
    """(URL, fragment) of each link of an article that points at a place in another page,
    the URL as ``to_xhtml`` sees it: what a book's other chapters must keep ids for."""
    source = _parse(xml_safe(content_html))
    found = []
    for a in source.iter("a"):
        value = xml_safe(a.get("href") or "").strip()
        url = None if value.startswith("#") else clean_url(value)
        if url and url.startswith("http") and "#" in url:
            found.append((url, url.split("#", 1)[1]))
    return found


def _parse(fragment: str) -> etree._Element:
    return (html.fragment_fromstring(fragment, create_parent="div") if fragment.strip()
            else html.Element("div"))


@dataclass
class ChapterBody:
    xhtml: str  # a fragment: the children of <body>, with no namespace declarations
    images: set[str] = field(default_factory=set)  # the image paths it references
    # each id kept (as the article wrote it) → as written here: what links from other
    # chapters may land on
    anchors: dict[str, str] = field(default_factory=dict)


def to_xhtml(content_html: str, *, image_href: Callable[[str], str | None],
             link_href: Callable[[str], str | None], lang: str | None,
             image_size: ImageSize | None = None, chapter: int = 0,
             targets: Iterable[str] = ()) -> ChapterBody:
    """The chapter body: ``content_html`` made safe and valid, as an XHTML fragment.

    ``image_href(src)`` gives the book path of a local image (None → placeholder);
    ``link_href(url)`` gives an in-book href for a link to another archived article, ``""``
    for this article itself (None → the link stays external); ``image_size(src)`` the local
    image's pixel size when known (the asset map's), which its ``<img>`` carries as width and
    height. ``chapter`` is the article's task id (its ids' namespace), ``targets`` the
    fragments other articles' links name in it.
    """
    sizes: dict[str, tuple[int, int]] = {}
    with_images = rewrite_images(xml_safe(content_html),
                                 _sized(image_href, image_size, sizes), lang)
    source = _parse(with_images)
    out = etree.Element("div", nsmap={"epub": OPS})  # the chapter page declares it too
    converter = _Converter(link_href, sizes)
    converter.copy_children(source, out, frozenset())
    fix_content_models(out)
    _mark_lone_images(out)
    anchors = fix_ids_and_fragments(out, chapter, targets)
    mark_footnotes(out)
    serialized = etree.tostring(out, encoding="unicode", method="xml")
    start = serialized.find(">") + 1
    body = serialized[start: -len("</div>")] if serialized.endswith("</div>") else ""
    return ChapterBody(body, converter.images, anchors)


def _sized(image_href: Callable[[str], str | None], image_size: ImageSize | None,
           sizes: dict[str, tuple[int, int]]) -> Callable[[str], str | None]:
    """``image_href`` noting in ``sizes`` the pixel size of each book path it gives, for the
    ``<img>`` written there (the source's ``src`` is gone by then)."""

    def href(src: str) -> str | None:
        path = image_href(src)
        size = image_size(src) if path and image_size else None
        if path and size and all(0 < n < 100_000 for n in size):
            sizes[path] = size
        return path

    return href


def _mark_lone_images(root: etree._Element) -> None:
    """A paragraph that holds only images (perhaps linked, perhaps with line breaks between)
    is a picture, not prose: class ``lone-image`` lets the style sheet centre it like a
    figure and spare it the paragraph indent. The class is given here only (``_CLASSES``
    does not let an article's own ``lone-image`` through)."""
    for p in root.iter("p"):
        inner = [el for el in p.iter() if el is not p]
        if (any(el.tag == "img" for el in inner)
                and all(el.tag in ("img", "a", "br") for el in inner)
                and not any(has_text(el.text) or (el is not p and has_text(el.tail))
                            for el in (p, *inner))):
            p.set("class", " ".join([*(p.get("class") or "").split(), "lone-image"]))


class _Converter:
    """Copies whitelisted nodes from the parsed HTML into a fresh element tree.

    ``inside`` is the set of output tags around the current node: it keeps a link out of a
    link and a table out of a table.
    """

    def __init__(self, link_href: Callable[[str], str | None],
                 image_sizes: dict[str, tuple[int, int]] | None = None) -> None:
        self.link_href = link_href
        self.image_sizes = image_sizes or {}  # book path → (width, height) in pixels
        self.images: set[str] = set()

    def copy_children(self, src: etree._Element, dst: etree._Element,
                      inside: frozenset[str]) -> None:
        append_safe_text(dst, src.text)
        for child in src:
            self.copy(child, dst, inside)
            append_safe_text(dst, child.tail)

    def copy(self, src: etree._Element, dst: etree._Element, inside: frozenset[str]) -> None:
        if not isinstance(src.tag, str):  # comments, processing instructions
            return
        tag = src.tag.lower()
        if tag in NEVER_READ_TAGS:
            return
        if tag == "math":
            append_safe_text(dst, src.get("alttext") or src.text_content())
            return
        if tag == "table":
            self.copy_table(src, dst, inside)
            return
        if tag in TABLE_PARTS:  # a table part outside a table: lay it out as a block
            tag = "div"
        new_class = _CLASS_OF_RENAMED.get(tag)
        tag = RENAME.get(tag, tag)
        if tag not in _KEEP or tag in inside & _NO_SELF_NESTING:
            self.copy_children(src, dst, inside)  # unwrapped: its content stays
            return
        if tag == "img":
            self.copy_img(src, dst)
        else:
            el = etree.SubElement(dst, tag)
            self.copy_attributes(src, el, tag)
            if new_class:
                el.set("class", new_class)
            if tag not in VOID:
                self.copy_children(src, el, inside | {tag})
                return
        # a void element the parser gave children (libxml2 does not know <wbr> is empty):
        # the children follow it
        self.copy_children(src, dst, inside)

    def copy_img(self, src: etree._Element, dst: etree._Element) -> None:
        path = src.get("src") or ""
        # rewrite_images has put book paths in every src it kept; anything else is not ours
        if not path or "://" in path or path.startswith(("//", "data:", "javascript:")):
            return
        img = etree.SubElement(dst, "img", src=path, alt=xml_safe(src.get("alt") or "").strip())
        # the stored file's own size when known (its aspect is what a reader reserves room
        # by); else what the page declared
        size = self.image_sizes.get(path) or (src.get("width"), src.get("height"))
        for name, given in zip(("width", "height"), size, strict=True):
            value = str(given or "").strip()
            if value.isdigit() and len(value) <= 5:
                img.set(name, value)
        self.images.add(path)

    def copy_attributes(self, src: etree._Element, el: etree._Element, tag: str) -> None:
        for name, value in src.attrib.items():
            name, value = str(name).lower(), xml_safe(str(value)).strip()
            if name == "id" and value:
                el.set("id", value)  # kept, written and made unique at the end if linked
            elif name == "name" and tag == "a" and value and not src.get("id"):
                el.set("id", value)  # HTML 4's anchor
            elif name == "title" and value:
                el.set("title", value)
            elif name == "lang" or name.endswith("}lang"):
                lang = language_tag(value)  # EPUBCheck rejects a malformed xml:lang
                if lang:
                    el.set("lang", lang)
                    el.set(XML_LANG, lang)
            elif name == "dir" and value.lower() in ("ltr", "rtl", "auto"):
                el.set("dir", value.lower())
            elif name == "class":
                kept = [c for c in value.split() if c in _CLASSES]
                if kept:
                    el.set("class", " ".join(kept))
            elif name == "href" and tag == "a":
                href = self.resolve_href(value)
                if href:
                    el.set("href", href)
            elif tag == "ol" and name == "start" and re.fullmatch(r"-?\d{1,6}", value):
                el.set("start", value)
            elif tag == "ol" and name == "reversed":
                el.set("reversed", "reversed")
            elif tag == "ol" and name == "type" and value in ("1", "a", "A", "i", "I"):
                el.set("type", value)
            elif tag == "li" and name == "value" and re.fullmatch(r"-?\d{1,6}", value):
                el.set("value", value)  # dropped later unless the li ends up in an ol

    def resolve_href(self, value: str) -> str | None:
        """A place in this article stays ``#fragment`` (checked against the ids at the end);
        another archived article is its ``link_href`` token with the fragment; any other
        link is the cleaned URL, its fragment kept."""
        if value.startswith("#"):
            return value if len(value) > 1 else None
        url = clean_url(value)
        if url is None or not url.startswith("http"):
            return url
        place = self.link_href(url)
        if place is None:
            return url
        fragment = url.split("#", 1)[1] if "#" in url else ""
        if place == "":  # this article: its place, or its chapter's top
            return "#" + (fragment or CHAPTER_TOP)
        return f"{place}#{fragment}" if fragment else place

    def copy_table(self, src: etree._Element, dst: etree._Element,
                   inside: frozenset[str]) -> None:
        caption, head_rows, body_rows = _table_parts(src)
        inner = inside | {"table"}
        if "table" in inside:
            # a table inside a table: rows and cells as blocks, always valid, always fits
            box = etree.SubElement(dst, "div", {"class": "table"})
            if caption is not None:
                self.copy_children(caption, etree.SubElement(box, "div"), inner)
            for row in head_rows + body_rows:
                line = etree.SubElement(box, "div", {"class": "table-row"})
                for cell in row:
                    self.copy_cell(cell, etree.SubElement(line, "div", {"class": "table-cell"}),
                                   inner)
            return
        if caption is None and not head_rows and not body_rows:
            return
        table = etree.SubElement(dst, "table")
        if caption is not None:
            self.copy_children(caption, etree.SubElement(table, "caption"), inner)
        for group, rows in (("thead", head_rows), ("tbody", body_rows)):
            if not rows:
                continue
            section = etree.SubElement(table, group)
            for row in rows:
                tr = etree.SubElement(section, "tr")
                for cell in row:
                    tag = cell.tag.lower() if isinstance(cell, etree._Element) else "td"
                    td = etree.SubElement(tr, tag if tag in TABLE_CELL_TAGS else "td")
                    if isinstance(cell, etree._Element) and tag in TABLE_CELL_TAGS:
                        _copy_span(cell, td)
                    self.copy_cell(cell, td, inner)

    def copy_cell(self, cell: Cell, target: etree._Element, inside: frozenset[str]) -> None:
        if isinstance(cell, str):
            append_safe_text(target, cell)
        elif isinstance(cell.tag, str) and cell.tag.lower() in TABLE_CELL_TAGS:
            self.copy_children(cell, target, inside)
        else:  # stray content in a row or table: it becomes a cell of its own
            self.copy(cell, target, inside)


Cell: TypeAlias = "etree._Element | str"  # a table cell, or stray content made one


def _table_parts(table: etree._Element) -> tuple[etree._Element | None, list[list[Cell]],
                                                  list[list[Cell]]]:
    """A table's caption, header rows and body rows (tfoot rows last), stray content as cells."""
    caption: etree._Element | None = None
    head: list[list[Cell]] = []
    body: list[list[Cell]] = []
    foot: list[list[Cell]] = []

    def add_rows(container: etree._Element, rows: list[list[Cell]]) -> None:
        stray: list[Cell] = [container.text] if has_text(container.text) else []
        for child in container:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if tag == "tr":
                if stray:
                    rows.append(stray)
                    stray = []
                rows.append(_row_cells(child))
            elif tag and tag not in NEVER_READ_TAGS:
                stray.append(child)
            if has_text(child.tail):
                stray.append(child.tail)
        if stray:
            rows.append(stray)

    if has_text(table.text):
        body.append([table.text])
    for child in table:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if tag == "caption" and caption is None:
            caption = child
        elif tag == "thead":
            add_rows(child, head)
        elif tag == "tbody":
            add_rows(child, body)
        elif tag == "tfoot":
            add_rows(child, foot)
        elif tag == "tr":
            body.append(_row_cells(child))
        elif tag and tag not in NEVER_READ_TAGS:
            body.append([child])
        if has_text(child.tail):
            body.append([child.tail])
    return caption, head, body + foot


def _row_cells(tr: etree._Element) -> list[Cell]:
    cells: list[Cell] = [tr.text] if has_text(tr.text) else []
    for child in tr:
        if isinstance(child.tag, str) and child.tag.lower() not in NEVER_READ_TAGS:
            cells.append(child)
        if has_text(child.tail):
            cells.append(child.tail)
    return cells


def _copy_span(src: etree._Element, td: etree._Element) -> None:
    for name, limit in (("colspan", 1000), ("rowspan", 65534)):
        value = (src.get(name) or "").strip()
        if value.isdigit() and 1 <= int(value) <= limit and value != "1":
            td.set(name, str(int(value)))
