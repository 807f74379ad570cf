"""Article HTML → a well-formed, valid XHTML fragment for an EPUB chapter (issue 6, "Safety").

The clean stage already normalizes, but 01_clean is a folder a person (or an older version) may
have edited, so the book defends itself: only whitelisted elements and attributes are copied
into a fresh tree, everything else is unwrapped (its text kept) or dropped with its content
(scripts, frames, forms, media), by the clean stage's own policy (``pipeline.text.markup``). Then
the HTML5 content models EPUBCheck enforces are repaired: blocks inside phrasing parents, stray
list items, table structure (a table inside a table is laid out as blocks — it is always a
layout table and never fits a reader's page), figure captions, definition lists.

Anchors survive (issue 15): an id is kept when some link in the book points at it (in the
article, or ``targets``: other articles' links to this one), written ``a<task>-<id>``
(``anchor_id``) so it is unique in the book and never the template's ``kb-top``; a link to a
place in the article becomes ``#a<task>-<id>``, or loses its href when no such id is left (an
EPUB may not link to a missing fragment). A link to another archived article keeps its
fragment in its ``kuaibu:<id>#<fragment>`` token, which ``chapters.resolve_links`` resolves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import TypeAlias
from urllib.parse import quote, unquote, urlsplit

from lxml import etree, html

from pipeline.extract.dom import append_text
from pipeline.store.asset_map import rewrite_images
from pipeline.text.markup import (
    ARTICLE_HEADING_TAGS,
    ARTICLE_TAGS,
    BOOK_ONLY_TAGS,
    NEVER_READ_TAGS,
    RENAME,
    TABLE_CELL_TAGS,
    TABLE_ROW_GROUP_TAGS,
    keeps_link,
)

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# Characters XML 1.0 forbids, plus C1 controls and noncharacters that validators reject.
_BAD_CHARS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
_LANG = re.compile(r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")
# What an id may hold as it is written: an XML name's ASCII part (EPUBCheck validates ids as
# XML IDs); every other character is written as its code point, ``fn:1`` as ``fn_3a_1``.
_NOT_ID_CHAR = re.compile(r"[^A-Za-z0-9_.-]")
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST = re.compile(rf"^{_LABEL}(\.{_LABEL})*\.?$")
CHAPTER_TOP = "kb-top"  # the chapter template's own id: a link to the article's start

# What a tag becomes is ``pipeline.text.markup``'s policy: NEVER_READ_TAGS are dropped with their
# content, RENAME applies, _KEEP is copied, and any other tag is unwrapped (children kept).
_KEEP = ARTICLE_TAGS | BOOK_ONLY_TAGS
# The book keeps <center>'s look as a class its style sheet knows (the clean stage's divs are
# unwrapped, and the centring with them).
_CLASS_OF_RENAMED = {"center": "center"}
_TABLE_PARTS = TABLE_ROW_GROUP_TAGS | TABLE_CELL_TAGS | {"caption", "tr"}  # inside a table

# HTML5 content categories, as far as the tags written here need them (RENAME has made b, i,
# cite, dfn, var, kbd, samp, del, ins and h1 into others).
_PHRASING_PARENTS = ARTICLE_HEADING_TAGS | frozenset((
    "p", "pre", "code", "em", "strong", "u", "s", "sub", "sup",
    "small", "mark", "abbr", "q", "span", "bdi",
))
_FLOW_ONLY = ARTICLE_HEADING_TAGS | frozenset((
    "p", "div", "hr", "blockquote", "pre", "ul", "ol", "li", "dl",
    "dt", "dd", "table", "figure", "figcaption",
))
_TRANSPARENT = frozenset(("a",))
_NO_SELF_NESTING = frozenset(("a",))  # HTML5: no a inside a
_VOID = frozenset(("br", "hr", "img", "wbr"))
# the only class names that reach the book: the ones this pipeline gives and style.css knows
_CLASSES = frozenset(("missing-image", "center", "table", "table-row", "table-cell", "dt", "dd",
                      "figcaption"))


def xml_safe(text: str) -> str:
    """``text`` without the characters an XML document may not hold."""
    return _BAD_CHARS.sub("", text)


def valid_lang(value: str | None) -> str | None:
    """A BCP 47-shaped language tag, or None (EPUBCheck rejects a malformed ``xml:lang``)."""
    value = (value or "").strip().replace("_", "-")
    return value if _LANG.match(value) else None


def clean_url(url: str) -> str | None:
    """An absolute URL of a scheme ``markup.keeps_link`` keeps, that validators accept, or
    None when it cannot be one."""
    url = xml_safe(url).strip()
    if url.startswith("//"):
        url = "https:" + url
    if not keeps_link(url):
        return None
    if url[:7].lower() == "mailto:":
        return "mailto:" + quote(url[7:], safe="@.+-_!~*'();:&=,%?")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    if not host.isascii():
        try:
            ascii_host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return None
        url = url.replace(parts.netloc, parts.netloc.replace(host, ascii_host), 1)
        host = ascii_host
    if not _HOST.match(host) or port == 0:
        return None
    url = re.sub(r"%(?![0-9A-Fa-f]{2})", "%25", url)
    return quote(url, safe=":/?#[]@!$&'()*+,;=%~-._")


# an image's pixel size (width, height) by its ``src`` in the article, when known
ImageSize: TypeAlias = Callable[[str], "tuple[int, int] | None"]


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
    out = etree.Element("div")
    converter = _Converter(link_href, sizes)
    converter.copy_children(source, out, frozenset())
    _fix(out)
    _mark_lone_images(out)
    anchors = _fix_ids_and_fragments(out, chapter, targets)
    serialized = etree.tostring(out, encoding="unicode", method="xml")
    body = serialized[len("<div>"): -len("</div>")] if serialized.startswith("<div>") else ""
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
                and not any(_has_text(el.text) or (el is not p and _has_text(el.tail))
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
        _append_text(dst, src.text)
        for child in src:
            self.copy(child, dst, inside)
            _append_text(dst, child.tail)

    def copy(self, src: etree._Element, dst: etree._Element, inside: frozenset[str]) -> None:
        if not isinstance(src.tag, str):  # comments, processing instructions
            return
        tag = src.tag.lower()
        if tag in NEVER_READ_TAGS:
            return
        if tag == "math":
            _append_text(dst, src.get("alttext") or src.text_content())
            return
        if tag == "table":
            self.copy_table(src, dst, inside)
            return
        if tag in _TABLE_PARTS:  # a table part outside a table: lay it out as a block
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
            if tag not in _VOID:
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
                lang = valid_lang(value)
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
            _append_text(target, cell)
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
        stray: list[Cell] = [container.text] if _has_text(container.text) else []
        for child in container:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if tag == "tr":
                if stray:
                    rows.append(stray)
                    stray = []
                rows.append(_row_cells(child))
            elif tag and tag not in NEVER_READ_TAGS:
                stray.append(child)
            if _has_text(child.tail):
                stray.append(child.tail)
        if stray:
            rows.append(stray)

    if _has_text(table.text):
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
        if _has_text(child.tail):
            body.append([child.tail])
    return caption, head, body + foot


def _row_cells(tr: etree._Element) -> list[Cell]:
    cells: list[Cell] = [tr.text] if _has_text(tr.text) else []
    for child in tr:
        if isinstance(child.tag, str) and child.tag.lower() not in NEVER_READ_TAGS:
            cells.append(child)
        if _has_text(child.tail):
            cells.append(child.tail)
    return cells


def _copy_span(src: etree._Element, td: etree._Element) -> None:
    for name, limit in (("colspan", 1000), ("rowspan", 65534)):
        value = (src.get(name) or "").strip()
        if value.isdigit() and 1 <= int(value) <= limit and value != "1":
            td.set(name, str(int(value)))


def _has_text(text: str | None) -> bool:
    """Whether ``text`` is more than HTML white space (a no-break space is text)."""
    return bool(text and text.strip(" \t\n\r\f"))


def _append_text(el: etree._Element, text: str | None) -> None:
    if text:
        append_text(el, xml_safe(text))


def _is_flow(el: etree._Element) -> bool:
    """Whether ``el`` may not sit where only phrasing content is allowed."""
    if el.tag in _FLOW_ONLY:
        return True
    return el.tag in _TRANSPARENT and any(_is_flow(c) for c in el)


def _unwrap(el: etree._Element) -> None:
    """Replace ``el`` by its children and text."""
    parent = el.getparent()
    assert parent is not None
    index = parent.index(el)
    children = list(el)
    previous = parent[index - 1] if index > 0 else None
    lead = (el.text or "")
    if previous is None:
        parent.text = (parent.text or "") + lead
    else:
        previous.tail = (previous.tail or "") + lead
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    tail = el.tail or ""
    parent.remove(el)
    if tail:
        if children:
            children[-1].tail = (children[-1].tail or "") + tail
        elif previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def _wrap_runs(el: etree._Element, wrapper: str,
               keep: Callable[[etree._Element], bool]) -> list[etree._Element]:
    """Wrap each run of children not passing ``keep`` (and stray text) in a new ``wrapper``."""
    items: list[etree._Element | str] = []
    if _has_text(el.text):
        items.append(el.text or "")
    for child in el:
        items.append(child)
        if _has_text(child.tail):
            items.append(child.tail or "")
        child.tail = None
    el.text = None
    for child in list(el):
        el.remove(child)
    made: list[etree._Element] = []
    run: etree._Element | None = None
    for item in items:
        if isinstance(item, str) or not keep(item):
            if run is None:
                run = etree.SubElement(el, wrapper)
                made.append(run)
            if isinstance(item, str):
                _append_text(run, item)
            else:
                run.append(item)
        else:
            run = None
            el.append(item)
    return made


def _group_list_items(el: etree._Element) -> list[etree._Element]:
    """Runs of ``li`` outside a list go into a ``ul`` of their own."""
    made: list[etree._Element] = []
    current: etree._Element | None = None
    for child in list(el):
        if child.tag == "li":
            if current is None:
                current = etree.Element("ul")
                child.addprevious(current)
                made.append(current)
            tail, child.tail = child.tail, None
            current.append(child)
            if _has_text(tail):
                current.tail = (current.tail or "") + (tail or "")
                current = None
        else:
            current = None
    return made


def _dl_is_valid(dl: etree._Element) -> bool:
    """dt+ dd+ groups and nothing else (HTML5's content model for dl)."""
    if _has_text(dl.text) or any(_has_text(c.tail) for c in dl):
        return False
    tags = "".join("t" if c.tag == "dt" else "d" if c.tag == "dd" else "x" for c in dl)
    return re.fullmatch(r"(t+d+)*", tags) is not None


def _fix(el: etree._Element, *, no_heading: bool = False) -> None:
    """Repair content models bottom-up, so a child is always fixed before its parent."""
    inner_no_heading = no_heading or el.tag in ("th", "dt", "caption")
    for child in list(el):
        _fix(child, no_heading=inner_no_heading)
    _fix_own(el, no_heading)


def _fix_own(el: etree._Element, no_heading: bool) -> None:
    """The rules about ``el`` and its direct children (its descendants are already fixed)."""
    inner_no_heading = no_heading or el.tag in ("th", "dt", "caption")
    wrappers = (_wrap_runs(el, "li", lambda c: c.tag == "li") if el.tag in ("ul", "ol")
                else _group_list_items(el))
    for wrapper in wrappers:  # new elements need the same care as the old ones
        _fix_own(wrapper, inner_no_heading)
    if el.tag == "dl" and not _dl_is_valid(el):
        el.tag = "div"
    for child in el:
        if child.tag in ("dt", "dd") and el.tag != "dl":
            child.tag, child.attrib["class"] = "div", child.tag
        if child.tag == "li" and el.tag != "ol":
            child.attrib.pop("value", None)
    captions = [c for c in el if c.tag == "figcaption"]
    if el.tag == "figure" and captions:
        first = captions.pop(0)  # HTML5: one figcaption, first or last child; ours goes last
        tail, first.tail = first.tail, None
        prev = first.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + (tail or "")
        else:
            el.text = (el.text or "") + (tail or "")
        el.append(first)
    for extra in captions:
        extra.tag, extra.attrib["class"] = "div", "figcaption"
    if no_heading and el.tag in ARTICLE_HEADING_TAGS:
        el.tag = "p"
    if el.tag in _PHRASING_PARENTS and any(_is_flow(c) for c in el):
        if el.tag == "p":
            el.tag = "div"
        elif el.tag in ARTICLE_HEADING_TAGS or el.tag == "pre":
            _flatten(el)
        elif el.getparent() is not None:
            _unwrap(el)
            return
    if el.tag not in _VOID and el.text is None and len(el) == 0:
        el.text = ""  # <td></td>, never <td/>: kinder to HTML-minded readers


def _flatten(el: etree._Element) -> None:
    """Unwrap every block inside a heading or pre until only phrasing content remains."""
    while True:
        block = next((c for c in el.iter() if c is not el and
                      (_is_flow(c) or c.tag in _TABLE_PARTS)), None)
        if block is None:
            return
        _unwrap(block)


def _fix_ids_and_fragments(root: etree._Element, chapter: int,
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
