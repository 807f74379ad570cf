"""What a page declares for machines, read once per walk: its <meta>s, JSON-LD scripts and
<title> (``Head``), the elements marked by itemprop, rel, <time pubdate> or a byline class
(``Marked``), whether an element sits in the comments (a mark there is a commenter's), and
the site's name, the documented version and the languages it declares.

Apart because the title, the date and the author all read these declarations first, each
from its own module."""

from __future__ import annotations

import re

from lxml import etree


class Head:
    """The <meta> and <script> elements, the first <title> and the canonical <link>'s address,
    in document order, collected in one pass (metas and JSON-LD are read for the title, the
    date and the author; the address where the page is read without its URL)."""

    def __init__(self, root: etree._Element) -> None:
        self.metas: list[etree._Element] = []
        self.scripts: list[etree._Element] = []
        self.title: etree._Element | None = None
        self.canonical: str | None = None
        for el in root.iter("meta", "script", "title", "link"):
            tag = el.tag
            if tag == "meta":
                self.metas.append(el)
            elif tag == "script":
                self.scripts.append(el)
            elif tag == "link":
                if self.canonical is None and (el.get("rel") or "").strip().lower() == (
                    "canonical"
                ):
                    self.canonical = (el.get("href") or "").strip() or None
            elif self.title is None and el is not root:
                self.title = el


class Marked:
    """Elements that mark a date or an author for machines (itemprop, rel, <time pubdate>) or
    a byline by class, in document order. ``gather``'s walk collects a superset (every kind
    at once; a query per kind costs a tree walk each); each method here is exactly its
    query's filter."""

    def __init__(self, found: list[etree._Element]) -> None:
        self.found = found

    def dates(self) -> list[etree._Element]:
        """As ``//*[@itemprop='datePublished'] | //time[@pubdate]``."""
        return [el for el in self.found if el.get("itemprop") == "datePublished"
                or (el.tag == "time" and el.get("pubdate") is not None)]

    def authors(self) -> list[etree._Element]:
        """As ``//*[@itemprop='author'] | //*[@rel='author']``."""
        return [el for el in self.found
                if el.get("itemprop") == "author" or el.get("rel") == "author"]

    def bylines(self) -> list[etree._Element]:
        """As ``//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ')]`` (a class
        token, as XPath's normalize-space splits them), not inside the comments."""
        return [el for el in self.found
                if "byline" in _XPATH_SPACE.split(el.get("class") or "")
                and not in_comments(el)]


MARK_PROPS = frozenset(("datePublished", "author"))
_XPATH_SPACE = re.compile(r"[ \t\r\n]+")  # XPath's white space, not Python's wider one


_IN_COMMENTS_XPATH = etree.XPath(
    "boolean(ancestor-or-self::*[contains(@class, 'comment') or contains(@id, 'comment')])"
)


def in_comments(el: etree._Element) -> bool:
    """Inside a comment thread: a commenter's "by …" is not the article's author."""
    return bool(_IN_COMMENTS_XPATH(el))


def meta_map(metas: list[etree._Element]) -> dict[str, str]:
    """meta name/property/itemprop (lower-cased) → content; the first occurrence wins."""
    out: dict[str, str] = {}
    for el in metas:
        key = el.get("property") or el.get("name") or el.get("itemprop") or el.get("http-equiv")
        content = el.get("content")
        if key and content and content.strip():
            out.setdefault(key.strip().lower(), content.strip())
    return out


# The metas documentation generators write for the version a page documents: DocSearch's
# (Docusaurus, Sphinx and MkDocs themes), and the plain names others use. Two pages stating
# different versions are two editions, never duplicates of each other (see pipeline.text.dedup).
_VERSION_METAS = ("docsearch:version", "docs-version", "doc-version", "version")


def site_name_of(metas: dict[str, str]) -> str | None:
    """The site's own name, as its pages declare it: what a title must not merely be (the run
    report flags an article whose title is this name)."""
    name = " ".join((metas.get("og:site_name") or metas.get("application-name") or "").split())
    return name[:200] or None


def source_version_of(metas: dict[str, str]) -> str | None:
    return next((metas[k][:100] for k in _VERSION_METAS if k in metas), None)


def declared_langs(root: etree._Element, metas: dict[str, str]) -> tuple[str, ...]:
    """What the page says its language is, as written, in the order it is believed
    (<html lang>, xml:lang, Content-Language, og:locale): ``language.article_language``
    takes the first well-formed one that its text agrees with."""
    found = (root.get("lang"), root.get("{http://www.w3.org/XML/1998/namespace}lang"),
             metas.get("content-language"), metas.get("og:locale"))
    return tuple(value for value in found if value)
