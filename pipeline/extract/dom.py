"""Parsing and the small DOM facts every extraction step shares.

lxml is used directly on the hot path: its tree builds several times faster than BeautifulSoup's,
and the speed target (half of trafilatura's time per page) leaves no room for a second tree.
"""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

from pipeline.text.markup import drop_never_read

# Tags that start a new block of text; everything else is read as inline, so that unknown or
# custom tags (<o:p>, <font>, <my-span>) never split a paragraph.
BLOCK_TAGS = frozenset(
    "address article aside blockquote body center dd details dialog div dl dt fieldset "
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li main menu nav ol p pre "
    "section summary table tbody td tfoot th thead tr ul caption".split()
)

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*>", re.I)  # "?>" or a broken ">"
# Characters that libxml2's HTML parser lets through but no XML text may hold (controls,
# non-characters, lone surrogates): setting such text on an element raises, an EPUB may not
# carry it, and no page means it. The parser also expands character references to them
# (``&#26;``), so those go before parsing too.
XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
# Private-use code points: an icon font's glyphs (``<i class="fa">&#xf015;</i>``) or a broken
# source's own mapping. Without that font every reader draws an empty box, so clean drops
# them and counts them in the article's record (``Article.private_use_dropped``).
PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")
# Its characters outside the surrogates, each found by ``in``, which runs at memchr's speed
# for one byte, and for one character in a text: running the pattern over a whole page costs
# a third of parsing it, and nearly no page holds any of them. Those below U+0020 are looked
# for in the page's UTF-8 (a byte below 0x80 stands only for itself there; a text wider than
# Latin-1, most pages, takes two and a half times as long to search for them), U+FFFE and
# U+FFFF in the text (their three bytes in the UTF-8 take nine times as long).
_XML_INVALID_BYTES = tuple(bytes([c]) for c in range(0x20) if XML_INVALID.match(chr(c)))
_XML_INVALID_WIDE = ("\ufffe", "\uffff")
_INVALID_REF = re.compile(
    r"&#(?:0*(?:[0-8]|1[1-2]|1[4-9]|2\d|3[01])(?!\d)|[xX]0*(?:[0-8bBcCeEfF]|1[\da-fA-F])"
    r"(?![\da-fA-F]));?"
)

# Plain etree elements, not lxml.html's HtmlElement: its per-node class lookup costs more than
# its conveniences are worth here.
# huge_tree: without it libxml2 gives up on nesting deeper than 256 (old pages that never close a
# <font>) and returns an empty document. collect_ids off: libxml2 would hash every id into a
# table that only XPath's id() reads, which nothing here calls (a few percent of parsing).
_PARSER = etree.HTMLParser(
    remove_comments=True, remove_pis=True, default_doctype=False, huge_tree=True,
    collect_ids=False,
)
# The same for the page's UTF-8, which libxml2 reads as it is: from a str, lxml hands it the
# text's UTF-16 (or Latin-1), which it converts to UTF-8 first, a sixth of parsing a page.
_UTF8_PARSER = etree.HTMLParser(
    remove_comments=True, remove_pis=True, default_doctype=False, huge_tree=True,
    collect_ids=False, encoding="utf-8",
)
# Deeper than this, an element's descendants are flattened to text: the cleaner walks the tree
# recursively, and no real article needs more levels than this.
MAX_DEPTH = 120
# The elements with MAX_DEPTH ancestors, step by step down from the root: each element is
# visited once (``count(ancestor::*)`` on every element costs three times as much).
_TOO_DEEP = etree.XPath("/*" * (MAX_DEPTH + 1))


def parse(text: str) -> etree._Element:
    """Parse a page into an lxml tree; malformed markup is repaired, never an error."""
    # lxml refuses str input that still carries an XML encoding declaration.
    text = _XML_DECL.sub("", text, count=1)
    page = _repaired(text)
    # Characters no XML may hold go before the repairs read the text. The repairs delete such
    # characters only as the white space inside a </body > they delete whole, so a repaired
    # text holding none is what repairing the text without them gives.
    data = _xml_utf8(page)
    if data is None:
        page = _repaired(XML_INVALID.sub("", text))
    root = _libxml2(page, data)
    if _gave_up(root, page):
        root = _libxml2(_ROOT_TAGS.sub(r"<\1>", page))
    if root is None:
        root = etree.fromstring("<html><body></body></html>", _PARSER)
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    _into_body(root, body)
    for deep in _TOO_DEEP(root):
        etree.strip_tags(deep, "*")
    return root


def _repaired(text: str) -> str:
    """The page with what libxml2 would misread mended: character references to what no XML
    may hold gone, its body not closed early, its <title> closed."""
    return _close_title(_PAGE_END.sub("", _INVALID_REF.sub("", text)))


def _xml_utf8(text: str) -> bytes | None:
    """``text`` as UTF-8, or None when it holds a character ``XML_INVALID`` matches (lone
    surrogates are what UTF-8 cannot encode)."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return None
    if any(c in data for c in _XML_INVALID_BYTES) or any(c in text for c in _XML_INVALID_WIDE):
        return None
    return data


# libxml2 drops whatever follows </html> and puts what follows </body> beside the body; a
# browser keeps both in the body (the HTML Standard's "after body" modes). Pages with text there
# are common: a footer script that closes the page early, CMS includes, pasted documents.
# Case spelled out rather than IGNORECASE (no other character folds to these letters, so the
# matches are the same): so the pattern starts with a literal "</" that sre jumps between,
# where IGNORECASE has it try every character of the page, a sixth of parsing it.
_PAGE_END = re.compile(r"</(?:[bB][oO][dD][yY]|[hH][tT][mM][lL])\s*>")


def _into_body(root: etree._Element, body: etree._Element) -> None:
    """Content libxml2 leaves beside <body> goes into it, in page order: a page that closes its
    body early, or that includes a second document (``<html><head>…<body>`` in the middle, as
    CMS includes do), has its text after </body>, where nothing would look for it."""
    before: int | None = 0  # where the next element found before <body> goes
    for el in list(root):
        if el is body:
            before = None
        elif isinstance(el.tag, str) and el.tag != "head":
            if before is None:
                body.append(el)
            else:
                body.insert(before, el)
                before += 1


def _libxml2(text: str, data: bytes | None = None) -> etree._Element | None:
    """``text`` parsed, from ``data``, its UTF-8, when given (the same tree, sooner). A text
    that still starts with an XML declaration is parsed as the str, which lxml refuses as
    before when the declaration names an encoding."""
    try:
        if not text.strip():
            return None
        if data is None or text.startswith("<?xml"):
            return etree.fromstring(text, _PARSER)
        return etree.fromstring(data, _UTF8_PARSER)
    # libxml2 recovers from nearly anything, not from everything: a page that still trips it
    # (an XML declaration naming a garbage encoding raises ValueError) reads as an empty one.
    except (etree.XMLSyntaxError, ValueError):
        return None


# The document's own tags; a page whose <html> tag is garbled (another page's bytes spliced
# into it: `<html xmogo.jpg" alt="…`) makes libxml2 read the rest as attribute values.
_ROOT_TAGS = re.compile(r"<(html|head|body)\b[^>]*>", re.I)


def _gave_up(root: etree._Element | None, text: str) -> bool:
    """libxml2 returned a handful of elements from a page full of markup."""
    few = root is None or sum(1 for _ in islice(root.iter(), 12)) < 12
    return few and text.count("<", 0, 20_000) > 100


_TITLE_OPEN = re.compile(r"<title\b[^>]*>", re.I)
_TITLE_CLOSE = re.compile(r"</title\s*>", re.I)


def _close_title(text: str) -> str:
    """Close a <title> its page never closes: the parser reads everything after it as the
    title's text, and the page has no body (old CMS templates that write the title with a
    script). The title ends where the next tag starts."""
    opened = _TITLE_OPEN.search(text)
    if opened is None or _TITLE_CLOSE.search(text, opened.end()):
        return text
    end = text.find("<", opened.end())
    if end < 0:
        return text
    return f"{text[:end]}</title>{text[end:]}"


def tag_of(el: etree._Element) -> str:
    """The lower-case tag name, or "" for comments and processing instructions."""
    tag = el.tag
    return tag if isinstance(tag, str) else ""  # libxml2's HTML parser lower-cases tags


def text_of(el: etree._Element) -> str:
    """All text under an element, white space collapsed."""
    return " ".join("".join(el.itertext()).split())


def remove(el: etree._Element) -> None:
    """Remove an element but keep its tail text (it belongs to the parent's flow)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


def append_text(el: etree._Element, text: str) -> None:
    """Add text at the end of ``el``'s content: after its last child (as its tail) if any."""
    if len(el):
        last = el[-1]
        last.tail = (last.tail or "") + text
    else:
        el.text = (el.text or "") + text


def split_br_runs(root: etree._Element) -> None:
    """Turn text separated by runs of ``<br>`` into paragraphs, before anything is scored.

    Blogger and WordPress posts, old portals, forums and many Chinese sites write a whole article
    as one flow of text broken by ``<br><br>``: read as one block, its prose and the link list
    after it share one link density and neither wins (seed 003 §3.3: cut blocks at p, div and
    br). A single ``<br>`` stays a line break inside its paragraph.
    """
    for parent in {br.getparent() for br in root.iter("br")}:
        if parent is None or tag_of(parent) in ("html", "head") or not _has_br_run(parent):
            continue
        if _in_pre(parent):  # code whose lines a highlighter broke with <br>: blank lines stay
            continue
        _regroup(parent)
        if tag_of(parent) == "p":
            parent.tag = "div"  # a paragraph cannot hold paragraphs


def _in_pre(el: etree._Element) -> bool:
    return tag_of(el) == "pre" or any(tag_of(a) == "pre" for a in el.iterancestors())


def _has_br_run(parent: etree._Element) -> bool:
    children = list(parent)
    return any(
        tag_of(a) == "br" and tag_of(b) == "br" and not (a.tail or "").strip()
        for a, b in zip(children, children[1:], strict=False)
    )


def _regroup(parent: etree._Element) -> None:
    children = list(parent)
    text = parent.text
    for child in children:
        parent.remove(child)
    parent.text = None
    run: etree._Element | None = None  # the open paragraph

    def put_text(value: str | None) -> None:
        nonlocal run
        if not value:
            return
        if run is None and value.strip():
            run = etree.SubElement(parent, "p")
        append_text(run if run is not None else parent, value)

    put_text(text)
    i = 0
    while i < len(children):
        child = children[i]
        tail, child.tail = child.tail, None
        tag = tag_of(child)
        nxt = children[i + 1] if i + 1 < len(children) else None
        if tag == "br" and nxt is not None and tag_of(nxt) == "br" and not (tail or "").strip():
            run = None  # a run of <br>: the paragraph ends; the run itself is dropped
            while nxt is not None and tag_of(nxt) == "br" and not (nxt.tail or "").strip():
                i += 1
                nxt = children[i + 1] if i + 1 < len(children) else None
            i += 1
            if nxt is not None and tag_of(nxt) == "br":  # the last <br> of the run has a tail
                tail, nxt.tail = nxt.tail, None
                i += 1
            put_text(tail)
            continue
        if tag in BLOCK_TAGS:
            run = None
            parent.append(child)
        elif run is not None:
            run.append(child)
        elif tag == "br":
            parent.append(child)
        else:
            run = etree.SubElement(parent, "p")
            run.append(child)
        put_text(tail)
        i += 1


_SPACES = re.compile(r"\s+")


def page_text(page_html: str) -> str:
    """The readable text of a whole page, one block a line (what a cut article is compared
    with): what never reaches a reader dropped (``markup.drop_never_read``: scripts, styles,
    the head, form controls), source line breaks read as spaces, as a browser does."""
    root = parse(page_html)
    drop_never_read(root)
    for el in root.iter():
        el.text = _SPACES.sub(" ", el.text or "")
        el.tail = _SPACES.sub(" ", el.tail or "")
        if isinstance(el.tag, str) and (el.tag in BLOCK_TAGS or el.tag == "br"):
            el.text = "\n" + el.text
            el.tail = "\n" + el.tail
    lines = (line.strip() for line in "".join(root.itertext()).splitlines())
    return "\n".join(line for line in lines if line)
