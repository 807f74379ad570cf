"""Normalize the chosen article to a small, well-formed, XHTML-ready whitelist (issue 4 §7).

The policy is ``pipeline.text.markup``'s: what is dropped with its content, what each tag is
written as, and the vocabulary kept (h2–h6, p, lists, tables with colspan/rowspan, pre/code
with white space exact, blockquote, figure/figcaption, img, links, em/strong, sub/sup, s/u).
Here it becomes a structure: runs of <br> become paragraphs (seed 003 §3.3); divs, spans and
other wrappers become plain content; attributes come only from ``keep_attrs``, never ``on*``
or ``javascript:``. The same walk gives the plain text and the image list.

Anchors survive (issue 15): a link into the page (``#fn1``) stays a bare fragment, and every id
is kept, since another article of a book may link to any of them (the book keeps only the ones
some link points at). An id on a wrapper the whitelist unwraps (``<section id>``, ``<a name>``,
``<span id>`` in a heading) goes to the first element its place is written into.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

from lxml import etree

from pipeline.extract.dom import PRIVATE_USE, XML_INVALID, append_text, tag_of
from pipeline.extract.images import RESOLVED
from pipeline.extract.options import WrapOptions
from pipeline.extract.rewrap import rewrap
from pipeline.text.markup import (
    ARTICLE_BLOCK_TAGS,
    ARTICLE_HEADING_TAGS,
    ARTICLE_INLINE_TAGS,
    NEVER_READ_TAGS,
    RENAME,
    TABLE_CELL_TAGS,
    TABLE_ROW_GROUP_TAGS,
    keeps_link,
)

_SIMPLE_BLOCKS = ARTICLE_HEADING_TAGS | {"p", "pre"}  # phrasing inside
_FLOW_BLOCKS = frozenset(("blockquote",))  # inline runs inside are wrapped in <p>
_LISTS = frozenset(("ul", "ol", "dl"))
_TABLE_PARTS = TABLE_ROW_GROUP_TAGS | {"table", "tr"}  # containers of rows
# Blocks whose content stays, their tag not: RENAME has made every wrapper a div already.
_UNWRAP_BLOCKS = frozenset(("div", "body", "html", "figure-body"))
_PHRASING_ONLY = _SIMPLE_BLOCKS | frozenset(("a", "em", "strong", "sub", "sup", "code", "s", "u"))
_NO_FIGURE = _PHRASING_ONLY | _LISTS | _TABLE_PARTS
# What may stand directly inside lists and tables, and what loose content is wrapped in there.
_CHILDREN = {
    "ul": ("li",), "ol": ("li",), "dl": ("dt", "dd"),
    "table": ("caption", "thead", "tbody", "tfoot", "tr"),
    "thead": ("tr",), "tbody": ("tr",), "tfoot": ("tr",), "tr": ("td", "th"),
}
_AUTO_CHILD = {"ul": "li", "ol": "li", "dl": "dd", "table": "tr", "thead": "tr", "tbody": "tr",
               "tfoot": "tr", "tr": "td"}
_LIST_ITEM = {"ul": "li", "ol": "li", "dl": "dd"}
_ATTR_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")
# A class naming a caption or a photo credit; not one that says the block has none
# ("no_caption", "withoutcaption": a picture block whose text is the story), nor a credit card.
_CAPTION = re.compile(r"(?<!no)(?<!no[-_])(?<!without)caption|credit(?!.?card)", re.I)


@dataclass
class Cleaned:
    html: str
    text: str
    images: list[str] = field(default_factory=list)
    private_use_dropped: int = 0  # code points no reader's font draws (dom.PRIVATE_USE)


def clean(
    content: list[etree._Element],
    base_url: str,
    keep_attrs: tuple[str, ...],
    drop_heading: str | None = None,
    caption_max_chars: int = 300,
    caption_share: float = 0.3,
    hard_wrap: WrapOptions | None = None,
) -> Cleaned:
    """Whitelisted XHTML for the content blocks, with their text and absolute image URLs.

    Images are those ``images.mark_images`` resolved on the whole page beforehand.
    """
    writer = _Writer(base_url, keep_attrs, drop_heading, caption_max_chars)
    writer.roots.update(content)
    out = etree.Element("div")
    for el in content:
        writer.node(el, out, wrap=True, with_tail=False)
    rewrap(out, hard_wrap or WrapOptions())  # while the empty <p>s that end paragraphs are here
    _prune_empty(out)
    html = "".join(
        etree.tostring(child, encoding="unicode", method="xml", with_tail=False) for child in out
    )
    return Cleaned(html=html, text=plain_text(out, caption_share), images=writer.images,
                   private_use_dropped=writer.private_use_dropped)


class _Writer:
    """Copies a source subtree into the whitelist, tracking the open paragraph per container."""

    def __init__(self, base: str, keep: tuple[str, ...], drop_heading: str | None,
                 caption_max_chars: int) -> None:
        self.base = base
        self.caption_max_chars = caption_max_chars
        # on* handlers never; names XML cannot carry (a:b, spaces) neither
        self.keep = tuple(a for a in keep if _ATTR_NAME.match(a) and not a.lower().startswith("on"))
        self.drop_heading = " ".join(drop_heading.split()) if drop_heading else None
        self.images: list[str] = []
        self.private_use_dropped = 0
        self.open: dict[etree._Element, etree._Element] = {}
        # The selection's own ids name regions of the page, not places in the article.
        self.roots: set[etree._Element] = set()
        self.ids: set[str] = set()  # the first element of an id keeps it, as browsers find it
        self.pending: str | None = None  # an unwrapped element's id, waiting for a place
        # What an element owes before its next words: a space (white space stood between two
        # inline runs) or a line break (a block boundary in a run that takes no paragraphs).
        self.owed: dict[etree._Element, str] = {}

    # Inline runs in a flow container go into one open <p>; a block closes it. Lists and
    # tables take no loose content: it goes into an open <li>, <dd> or cell of its own.
    def auto(self, container: etree._Element, tag: str = "p") -> etree._Element:
        child = self.open.get(container)
        if child is None:
            child = self.make(container, tag)
            self.open[container] = child
        return child

    def para(self, container: etree._Element) -> etree._Element:
        return self.auto(container, "p")

    def inline_target(self, out: etree._Element, wrap: bool) -> etree._Element:
        if wrap:
            return self.para(out)
        while (child := _AUTO_CHILD.get(out.tag)) is not None:
            out = self.auto(out, child)
        return out

    def open_run(self, out: etree._Element, wrap: bool) -> etree._Element | None:
        """The run inline content of ``out`` goes into now, if one is open (none is made)."""
        run = self.open.get(out)
        while not wrap and run is not None and run.tag in _AUTO_CHILD:
            run = self.open.get(run)
        return run

    def close(self, container: etree._Element) -> None:
        self.open.pop(container, None)

    def pay(self, el: etree._Element) -> None:
        """Part the words about to go into ``el`` from those already there, as owed."""
        owed = self.owed.pop(el, None)
        if owed == "br" and (len(el) or (el.text or "").strip()):
            etree.SubElement(el, "br")
        elif owed == " ":
            append_text(el, " ")

    def text(self, text: str | None, out: etree._Element, wrap: bool) -> None:
        if text and not text.isascii():  # an ASCII text holds no private-use code point
            text, dropped = PRIVATE_USE.subn("", text)
            self.private_use_dropped += dropped
        if not text:
            return
        if wrap or out.tag in _AUTO_CHILD:
            if not text.strip():
                # Between two inline runs white space parts their words (`<span>10:00</span>
                # <span>Source</span>`); before a run's first words it is only layout.
                if (run := self.open_run(out, wrap)) is not None:
                    self.owed.setdefault(run, " ")
                return
            out = self.inline_target(out, wrap)
        self.pay(out)
        append_text(out, XML_INVALID.sub("", text))
        self.place(out, None)

    def children(self, src: etree._Element, out: etree._Element, wrap: bool) -> None:
        self.text(src.text, out, wrap)
        for child in src:
            self.node(child, out, wrap)

    def node(self, el: etree._Element, out: etree._Element, wrap: bool,
             with_tail: bool = True) -> None:
        tag = tag_of(el)
        tag = RENAME.get(tag, tag)
        if tag and tag not in NEVER_READ_TAGS:
            self.element(el, tag, out, wrap)
        if with_tail:
            self.text(el.tail, out, wrap)

    def element(self, el: etree._Element, tag: str, out: etree._Element, wrap: bool) -> None:
        if tag not in ("img", "figure", "figcaption") and out.tag not in _NO_FIGURE:
            # A "caption" of several paragraphs is the story told beside a picture (WordPress
            # themes put whole posts in wp-caption-text): prose, not a caption.
            if _CAPTION.search(el.get("class") or "") and _shorter(el, self.caption_max_chars):
                # <div class="caption"> is an image's caption: say so in the markup.
                if out.tag != "figure":
                    if wrap:
                        self.close(out)
                    out = self.make(out, "figure")
                tag = "figcaption"
        if tag == "br":
            self.br(out, wrap)
        elif tag == "img":
            self.img(el, self.inline_target(out, wrap))
        elif tag == "hr":
            if wrap:
                self.close(out)
                self.make(out, "hr", source=el)
        elif tag in ARTICLE_BLOCK_TAGS and out.tag not in _PHRASING_ONLY:
            self.block(el, tag, out, wrap)
        elif tag in ARTICLE_INLINE_TAGS:
            target = self.inline_target(out, wrap)
            attrs = self.attrs(el, tag)
            if tag == "a" and "href" not in attrs:
                self.defer(el)  # <a name="sec2">, <a id="fn1">: only a place
                self.children(el, target, False)
                return
            self.children(el, self.make(target, tag, attrs, el), False)
        elif tag in _UNWRAP_BLOCKS or tag in ARTICLE_BLOCK_TAGS:
            # A run that takes no paragraphs (a list item, a cell, a heading) parts the block's
            # words from those before and after it by a line break; a flow closes its paragraph.
            breaks = not wrap and out.tag not in _AUTO_CHILD and out.tag != "pre"
            if breaks:
                self.owed[out] = "br"
            self.close(out)
            self.defer(el)
            self.children(el, out, wrap)
            self.close(out)
            if breaks:
                self.owed[out] = "br"
        else:  # span, font, small, time, custom tags: their content only
            self.defer(el)
            self.children(el, out, wrap)

    def block(self, el: etree._Element, tag: str, out: etree._Element, wrap: bool) -> None:
        if tag in ARTICLE_HEADING_TAGS and self.drop_heading:
            if " ".join("".join(el.itertext()).split()) == self.drop_heading:
                self.defer(el)  # a link to the headline lands on what follows it
                return
        stray_row = tag in _TABLE_PARTS and tag != "table" and out.tag not in _TABLE_PARTS
        if stray_row or tag in TABLE_CELL_TAGS and out.tag not in _TABLE_PARTS:
            self.defer(el)
            self.children(el, out, wrap)  # a stray row or cell outside any table: its text
            return
        if tag in ("li", "dt", "dd"):
            tag = tag if tag in _CHILDREN.get(out.tag, ()) else _LIST_ITEM.get(out.tag, "p")
        elif tag == "caption" and out.tag != "table" or tag == "figcaption" and out.tag != "figure":
            tag = "p"
        self.close(out)
        while tag not in _CHILDREN.get(out.tag, (tag,)):
            out = self.auto(out, _AUTO_CHILD[out.tag])  # a <p> right in a <ul> goes in an <li>
        new = self.make(out, tag, self.attrs(el, tag), el)
        if tag == "pre":
            self.pre(el, new)
        elif tag in _FLOW_BLOCKS:
            self.children(el, new, True)
        else:
            self.children(el, new, False)

    def pre(self, el: etree._Element, new: etree._Element) -> None:
        """Code keeps every space and newline: only tags are changed, never text."""
        self.children(el, new, False)

    def br(self, out: etree._Element, wrap: bool) -> None:
        if not wrap:
            etree.SubElement(out, "br")
            return
        p = self.open.get(out)
        if p is None:
            return
        last = p[-1] if len(p) else None
        if last is not None and last.tag == "br" and not (last.tail or "").strip():
            # A second <br> in a row ends the paragraph (seed 003 §3.3).
            p.remove(last)
            self.close(out)
        elif len(p) or (p.text or "").strip():
            etree.SubElement(p, "br")

    def img(self, el: etree._Element, out: etree._Element) -> None:
        src = el.get(RESOLVED) or ""
        # the localize stage decodes data: images like any other; a file: image only where
        # the page itself is a file (an imported page whose address is unknown), whose
        # import reads it from beside the page, and the book names only the stored copy
        local = src.startswith("file:") and self.base.startswith("file:")
        if not src.startswith(("http:", "https:", "data:image/")) and not local:
            return
        attrs = self.attrs(el, "img")
        attrs["src"] = src
        attrs.setdefault("alt", el.get("alt", "") or "")
        self.make(out, "img", attrs, el)
        if src not in self.images:
            self.images.append(src)

    def make(self, parent: etree._Element, tag: str, attrs: dict[str, str] | None = None,
             source: etree._Element | None = None) -> etree._Element:
        """A new output element, with its source's id or the one waiting for a place."""
        self.pay(parent)
        new = etree.SubElement(parent, tag, attrs or {})
        self.place(new, self.anchor(source))
        return new

    def anchor(self, el: etree._Element | None) -> str | None:
        """The id ``el`` is a link target by (``<a name>`` too), unless taken or not ours."""
        if el is None or el in self.roots:
            return None
        value = el.get("id") or (el.get("name") if tag_of(el) == "a" else None)
        if not value:  # most elements: no id to read
            return None
        value = XML_INVALID.sub("", value).strip()
        if not value or any(c.isspace() for c in value) or value in self.ids:
            return None
        return value

    def defer(self, el: etree._Element) -> None:
        """An element that is not written leaves its id to what its place is written into."""
        if self.pending is None:
            self.pending = self.anchor(el)

    def place(self, el: etree._Element, own: str | None) -> None:
        """Give ``el`` its own id, or else the waiting one. An element has one id: a waiting id
        that meets an element with its own is dropped (both named the same place)."""
        name = own or self.pending
        self.pending = None
        if name is not None and el.get("id") is None:
            el.set("id", name)
            self.ids.add(name)

    def attrs(self, el: etree._Element, tag: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for name in self.keep:
            value = el.get(name)
            if value is None or name in ("src", "srcset", "id", "name"):  # ids: anchor()
                continue
            value = XML_INVALID.sub("", value.strip())
            if name == "href":
                if tag != "a":
                    continue
                href = _link(self.base, value)
                if href is None:
                    continue
                value = href
            elif name in ("colspan", "rowspan"):
                if tag not in TABLE_CELL_TAGS or not value.isdigit():
                    continue
            elif value.lower().startswith("javascript:"):
                continue
            out[name] = value
        return out


def _link(base: str, href: str) -> str | None:
    """An absolute link, or a bare ``#fragment`` for a place in the article itself (against
    the base it would be another page when a ``<base href>`` names one)."""
    if href.startswith("#"):
        return href if len(href) > 1 else None  # "#" alone goes nowhere (a script's handle)
    href = urljoin(base, href)
    return href if keeps_link(href) else None


def _shorter(el: etree._Element, limit: int) -> bool:
    return len("".join("".join(el.itertext()).split())) <= limit


def _prune_empty(root: etree._Element) -> None:
    """Remove blocks and inline wrappers left with no text and no image."""
    for el in reversed(list(root.iter())):
        if el is root or el.tag in ("br", "img", "hr", "td", "th", "tr"):
            continue
        if len(el) == 0 and not (el.text or "").strip():
            parent = el.getparent()
            # An inline wrapper holding only white space (`means<em> </em>predictable`) is
            # that space: it goes, and the words on either side stay apart.
            space = " " if el.text and el.tag in ARTICLE_INLINE_TAGS else ""
            if space or el.tail:
                _append_after_removal(el, parent, space)
            parent.remove(el)
        elif el.tag == "p" and len(el) and el[-1].tag == "br" and not (el[-1].tail or "").strip():
            el.remove(el[-1])


def _append_after_removal(el: etree._Element, parent: etree._Element, lead: str = "") -> None:
    """What stood in ``el``'s place (``lead``, then its tail) stays where it was."""
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + lead + (el.tail or "")
    else:
        parent.text = (parent.text or "") + lead + (el.tail or "")


_TEXT_BLOCKS = ARTICLE_HEADING_TAGS | frozenset((
    "p", "pre", "blockquote", "ul", "ol", "dl", "li", "dt", "dd", "table", "tr", "figure",
    "figcaption", "caption", "hr"))


def _pre_text(el: etree._Element) -> str:
    """A code block's text as it shows: a <br> in it (syntax highlighters write lines so) is a
    line break, not nothing."""
    parts = [el.text or ""]
    for child in el:
        if isinstance(child.tag, str):  # not a comment
            parts.append("\n" if child.tag == "br" else _pre_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def plain_text(root: etree._Element, caption_share: float = 0.3) -> str:
    """Readable text of cleaned HTML: a line per block, code blocks verbatim.

    A caption annotates its image: the article's text (its 字数, its dedup hash, what the
    benchmark scores) is the prose, and the caption stays in the HTML only. Except in a photo
    post, where the captions are the story: when they hold at least ``caption_share`` of all
    the text, they are text too."""
    parts: list[str] = []
    verbatim: list[str] = []
    captions: list[str] = []

    def walk(el: etree._Element) -> None:
        tag = el.tag
        if tag == "figcaption":
            captions.append(" ".join("".join(el.itertext()).split()))
            parts.append(f"\n\x01{len(captions) - 1}\n")
            return
        if tag == "pre":
            verbatim.append(_pre_text(el).strip("\n"))
            parts.append(f"\n\x00{len(verbatim) - 1}\n")
            return
        if tag in _TEXT_BLOCKS or tag == "br":
            parts.append("\n")
        elif tag in TABLE_CELL_TAGS:
            parts.append("\t")
        if el.text:
            parts.append(el.text)
        for child in el:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if tag in _TEXT_BLOCKS:
            parts.append("\n")

    walk(root)
    text = "".join(parts)
    caption_chars = sum(len(c) for c in captions)
    with_captions = caption_chars >= caption_share * (caption_chars + len(text))
    lines = []
    for line in text.split("\n"):
        if line.startswith("\x00"):
            lines.append(verbatim[int(line[1:])])
        elif line.startswith("\x01"):
            if with_captions and (caption := captions[int(line[1:])]):
                lines.append(caption)
        elif line := " ".join(line.split()):
            lines.append(line)
    return "\n".join(lines)
