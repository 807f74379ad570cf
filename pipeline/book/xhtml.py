"""Article HTML → a well-formed, valid XHTML fragment for an EPUB chapter (issue 6, "Safety").

The clean stage already normalizes, but 01_clean is a folder a person (or an older version) may
have edited, so the book defends itself: only whitelisted elements and attributes are copied
into a fresh tree, everything else is unwrapped (its text kept) or dropped with its content
(scripts, frames, forms, media), by the clean stage's own policy (``pipeline.markup``). Then
the HTML5 content models EPUBCheck enforces are repaired: blocks inside phrasing parents, stray
list items, table structure (a table inside a table is laid out as blocks — it is always a
layout table and never fits a reader's page), figure captions, definition lists, duplicate or
malformed ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias
from urllib.parse import quote, urlsplit

from lxml import etree, html

from pipeline.asset_map import rewrite_images
from pipeline.extract.dom import append_text
from pipeline.markup import ARTICLE_TAGS, BOOK_ONLY_TAGS, NEVER_READ_TAGS, RENAME

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# Characters XML 1.0 forbids, plus C1 controls and noncharacters that validators reject.
_BAD_CHARS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
_LANG = re.compile(r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$")
_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,127}$")
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST = re.compile(rf"^{_LABEL}(\.{_LABEL})*\.?$")
_RESERVED_ID_PREFIX = "kb-"  # ids the chapter template uses

# What a tag becomes is ``pipeline.markup``'s policy: NEVER_READ_TAGS are dropped with their
# content, RENAME applies, _KEEP is copied, and any other tag is unwrapped (children kept).
_KEEP = ARTICLE_TAGS | BOOK_ONLY_TAGS
# The book keeps <center>'s look as a class its style sheet knows (the clean stage's divs are
# unwrapped, and the centring with them).
_CLASS_OF_RENAMED = {"center": "center"}
_TABLE_PARTS = frozenset(("caption", "thead", "tbody", "tfoot", "tr", "td", "th"))

# HTML5 content categories, as far as the tags written here need them (RENAME has made b, i,
# cite, dfn, var, kbd, samp, del, ins and h1 into others).
_PHRASING_PARENTS = frozenset((
    "p", "h2", "h3", "h4", "h5", "h6", "pre", "code", "em", "strong", "u", "s", "sub", "sup",
    "small", "mark", "abbr", "q", "span", "bdi",
))
_FLOW_ONLY = frozenset((
    "p", "div", "hr", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "ul", "ol", "li", "dl",
    "dt", "dd", "table", "figure", "figcaption",
))
_TRANSPARENT = frozenset(("a",))
_NO_SELF_NESTING = frozenset(("a",))  # HTML5: no a inside a
_HEADINGS = frozenset(("h2", "h3", "h4", "h5", "h6"))
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
    """An absolute http(s)/mailto URL that validators accept, or None when it cannot be one."""
    url = xml_safe(url).strip()
    if url.startswith("//"):
        url = "https:" + url
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "mailto":
        return "mailto:" + quote(url[7:], safe="@.+-_!~*'();:&=,%?")
    if scheme not in ("http", "https"):
        return None
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


@dataclass
class ChapterBody:
    xhtml: str  # a fragment: the children of <body>, with no namespace declarations
    images: set[str] = field(default_factory=set)  # the image paths it references


def to_xhtml(content_html: str, *, image_href: Callable[[str], str | None],
             link_href: Callable[[str], str | None], lang: str | None) -> ChapterBody:
    """The chapter body: ``content_html`` made safe and valid, as an XHTML fragment.

    ``image_href(src)`` gives the book path of a local image (None → placeholder);
    ``link_href(url)`` gives an in-book href for a link to another archived article (None → the
    link stays external).
    """
    with_images = rewrite_images(xml_safe(content_html), image_href, lang)
    source = (html.fragment_fromstring(with_images, create_parent="div") if with_images.strip()
              else html.Element("div"))
    out = etree.Element("div")
    converter = _Converter(link_href)
    converter.copy_children(source, out, frozenset())
    _fix(out)
    _fix_ids_and_fragments(out)
    serialized = etree.tostring(out, encoding="unicode", method="xml")
    body = serialized[len("<div>"): -len("</div>")] if serialized.startswith("<div>") else ""
    return ChapterBody(body, converter.images)


class _Converter:
    """Copies whitelisted nodes from the parsed HTML into a fresh element tree.

    ``inside`` is the set of output tags around the current node: it keeps a link out of a
    link and a table out of a table.
    """

    def __init__(self, link_href: Callable[[str], str | None]) -> None:
        self.link_href = link_href
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
        for name in ("width", "height"):
            value = (src.get(name) or "").strip()
            if value.isdigit() and len(value) <= 5:
                img.set(name, value)
        self.images.add(path)

    def copy_attributes(self, src: etree._Element, el: etree._Element, tag: str) -> None:
        for name, value in src.attrib.items():
            name, value = str(name).lower(), xml_safe(str(value)).strip()
            if name == "id" and value:
                el.set("id", value)  # validity and uniqueness are checked at the end
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
        if value.startswith("#"):
            return value if len(value) > 1 else None  # checked against the ids at the end
        url = clean_url(value)
        if url is None:
            return None
        if url.startswith("http"):
            return self.link_href(url) or url
        return url

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
                    td = etree.SubElement(tr, tag if tag in ("td", "th") else "td")
                    if isinstance(cell, etree._Element) and tag in ("td", "th"):
                        _copy_span(cell, td)
                    self.copy_cell(cell, td, inner)

    def copy_cell(self, cell: Cell, target: etree._Element, inside: frozenset[str]) -> None:
        if isinstance(cell, str):
            _append_text(target, cell)
        elif isinstance(cell.tag, str) and cell.tag.lower() in ("td", "th"):
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
    if no_heading and el.tag in _HEADINGS:
        el.tag = "p"
    if el.tag in _PHRASING_PARENTS and any(_is_flow(c) for c in el):
        if el.tag == "p":
            el.tag = "div"
        elif el.tag in _HEADINGS or el.tag == "pre":
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


def _fix_ids_and_fragments(root: etree._Element) -> None:
    """Keep the first of each valid id; a ``#fragment`` link to a missing id loses its href."""
    seen: set[str] = set()
    for el in root.iter():
        value = el.get("id")
        if value is None:
            continue
        if not _ID.match(value) or value in seen or value.startswith(_RESERVED_ID_PREFIX):
            del el.attrib["id"]
        else:
            seen.add(value)
    for a in root.iter("a"):
        href = a.get("href") or ""
        if href.startswith("#") and href[1:] not in seen:
            del a.attrib["href"]
