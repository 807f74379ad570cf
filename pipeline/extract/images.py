"""Which picture each image of the page really shows, decided before anything is cut.

The choice needs context that noise removal throws away: a ``<noscript>`` copy after a lazy
placeholder, the ``<source>`` list of a ``<picture>``. So every ``<img>`` is resolved on the
whole page first (by ``pipeline.assets.sources``, the localize stage's own rules) and carries its
answer in ``RESOLVED``; the clean writer reads only that. An element that shows its picture as
an inline background gets an ``<img>`` of its own, so the picture is not lost.

Noise removal drops every ``<noscript>``: most hold a copy of the lazy image beside them (which
already shows it), or the fallback of a script or a frame (an analytics beacon, an ad). A
``<noscript>`` picture that copies no image of the page and stands for no script is the page's
only copy of it (a lazy ``<div>`` a script fills in, a placeholder that names no source): it
takes the ``<noscript>``'s place, so it is kept (issue 27).
"""

from __future__ import annotations

from lxml import etree

from pipeline.assets.sources import LAZY_BACKGROUND, background_image, image_source, is_placeholder

RESOLVED = "data-kuaibu-src"
# A <noscript> right after one of these is its fallback (measured on the dev sets' even halves:
# ad servers and counters, nearly every <noscript> image that is not a lazy image's copy).
_STANDS_FOR_SCRIPT = frozenset(("script", "iframe", "noscript"))
_NOT_CONTENT = frozenset(("html", "body", "head"))
# The elements that may show a background picture, found by their attributes (attribute steps
# cost libxml2 half what a predicate tried on every element does).
_STYLED = etree.XPath(" | ".join(f"//@{name}/.." for name in ("style", *LAZY_BACKGROUND)))


def mark_images(root: etree._Element, base_url: str, lazy_attrs: tuple[str, ...] = ()) -> None:
    for img in root.iter("img"):
        src = image_source(img, base_url, lazy_attrs)
        if src:
            img.set(RESOLVED, src)
    for el in _STYLED(root):
        if el.tag in _NOT_CONTENT or el.find(".//img") is not None:
            continue
        src = background_image(el, base_url)
        if src:
            el.insert(0, etree.Element("img", {RESOLVED: src, "alt": ""}))
    _show_noscript_pictures(root)


def _show_noscript_pictures(root: etree._Element) -> None:
    """Move out of its ``<noscript>`` each picture whose file differs from every image shown
    elsewhere on the page, unless the ``<noscript>`` stands for the image right before it (a
    lazy image that resolved: the copy may be another size of it) or for a script or frame,
    or the picture is a 1×1 beacon or sits in a link (an ad's click-through)."""
    shown = {img.get(RESOLVED) for img in root.iter("img")
             if next(img.iterancestors("noscript"), None) is None}
    for noscript in list(root.iter("noscript")):
        before = noscript.getprevious()
        if before is not None and before.tag in _STANDS_FOR_SCRIPT:
            continue
        lazy = _image_before(noscript)
        if lazy is not None and (copied := lazy.get(RESOLVED)) and not is_placeholder(copied):
            continue
        for img in list(noscript.iter("img")):
            src = img.get(RESOLVED)
            if src and src not in shown and not _beacon(img) and not _linked(img, noscript):
                shown.add(src)
                img.tail = None  # the rest of the <noscript> goes with it
                noscript.addprevious(img)


def _image_before(noscript: etree._Element) -> etree._Element | None:
    """The image right before a ``<noscript>``, or in its sole wrapper: the one it copies
    (where ``sources.image_source`` looks for a copy)."""
    node = noscript.getprevious()
    while node is not None and node.tag != "img" and len(node) == 1:
        node = node[0]
    return node if node is not None and node.tag == "img" else None


def _linked(img: etree._Element, noscript: etree._Element) -> bool:
    """Whether a link inside the ``<noscript>`` holds the image."""
    for up in img.iterancestors():
        if up is noscript:
            return False
        if up.tag == "a":
            return True
    return False


def _beacon(img: etree._Element) -> bool:
    """An analytics pixel: it declares itself one pixel (or none) wide or high."""
    return any((img.get(side) or "").strip() in ("0", "1", "0px", "1px")
               for side in ("width", "height"))
