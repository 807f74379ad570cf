"""The HTML5 content models EPUBCheck enforces, repaired in a chapter body after the
whitelist: blocks inside phrasing parents (a heading or <pre> keeps phrasing only, table
parts unwrapped too), stray list items, figure captions, definition lists.

Apart from the whitelist (``xhtml``), which decides what is copied: this decides where it may
sit, bottom-up over the copied tree."""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from pipeline.book.values import append_safe_text, has_text
from pipeline.text.markup import ARTICLE_HEADING_TAGS, TABLE_CELL_TAGS, TABLE_ROW_GROUP_TAGS

TABLE_PARTS = TABLE_ROW_GROUP_TAGS | TABLE_CELL_TAGS | {"caption", "tr"}  # inside a table

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
VOID = frozenset(("br", "hr", "img", "wbr"))


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
    if has_text(el.text):
        items.append(el.text or "")
    for child in el:
        items.append(child)
        if has_text(child.tail):
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
                append_safe_text(run, item)
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
            if has_text(tail):
                current.tail = (current.tail or "") + (tail or "")
                current = None
        else:
            current = None
    return made


def _dl_is_valid(dl: etree._Element) -> bool:
    """dt+ dd+ groups and nothing else (HTML5's content model for dl)."""
    if has_text(dl.text) or any(has_text(c.tail) for c in dl):
        return False
    tags = "".join("t" if c.tag == "dt" else "d" if c.tag == "dd" else "x" for c in dl)
    return re.fullmatch(r"(t+d+)*", tags) is not None


def fix_content_models(el: etree._Element, *, no_heading: bool = False) -> None:
    """Repair content models bottom-up, so a child is always fixed before its parent."""
    inner_no_heading = no_heading or el.tag in ("th", "dt", "caption")
    for child in list(el):
        fix_content_models(child, no_heading=inner_no_heading)
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
    if el.tag not in VOID and el.text is None and len(el) == 0:
        el.text = ""  # <td></td>, never <td/>: kinder to HTML-minded readers


def _flatten(el: etree._Element) -> None:
    """Unwrap every block inside a heading or pre until only phrasing content remains."""
    while True:
        block = next((c for c in el.iter() if c is not el and
                      (_is_flow(c) or c.tag in TABLE_PARTS)), None)
        if block is None:
            return
        _unwrap(block)
