"""Which picture each image of the page really shows, decided before anything is cut.

The choice needs context that noise removal throws away: a ``<noscript>`` copy after a lazy
placeholder, the ``<source>`` list of a ``<picture>``. So every ``<img>`` is resolved on the
whole page first (by ``pipeline.assets.sources``, the localize stage's own rules) and carries its
answer in ``RESOLVED``; the clean writer reads only that. An element that shows its picture as
an inline background gets an ``<img>`` of its own, so the picture is not lost.
"""

from __future__ import annotations

from lxml import etree

from pipeline.assets.sources import LAZY_BACKGROUND, background_image, image_source

RESOLVED = "data-kuaibu-src"
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
