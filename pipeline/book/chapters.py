"""Each article rendered once into a staged chapter file, with the images it really uses.

Staging on disk keeps memory flat (a 1,000-article book never holds all its chapters) and gives
the exact sizes the volume split needs. Links to other archived articles are left as
``kuaibu:<id>`` tokens (``kuaibu:<id>#<fragment>`` for a place in one), resolved per volume
when the book is written: only then is it known whether the target is in the same book, and
every chapter's ids are known. Which ids a chapter keeps is known before any is rendered:
``link_targets`` reads the book's links first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import unescape

import jinja2
from markupsafe import Markup

from pipeline.assets.sniff import SNIFF_BYTES, sniff_image
from pipeline.book.anchors import find_anchor
from pipeline.book.collect import Entry, display_category, load_assets
from pipeline.book.labels import chapter_labels
from pipeline.book.pages import render_xhtml
from pipeline.book.values import clean_url
from pipeline.book.xhtml import ChapterBody, ImageSize, to_xhtml
from pipeline.store.archive import Archive
from pipeline.text.language import UNDETERMINED
from pipeline.web.urls import UrlRejected, normalize_url

LINK_TOKEN = re.compile(rb'(<a\b[^>]*?)\shref="kuaibu:(\d+)(?:#([^"]*))?"')
# (task id, fragment or "") → the href a link to that article gets in one volume, or None
LinkHref = Callable[[int, str], "str | None"]

# The raster types every EPUB 3 reader must show (core media types ``image/<type>``), told by
# their first bytes (``assets.sniff``: the extension may lie) → the extension the book gives.
_BOOK_IMAGE_EXTENSIONS = {"jpeg": "jpg", "png": "png", "gif": "gif", "webp": "webp"}


@dataclass(frozen=True)
class BookImage:
    name: str  # inside the book: "images/<sha256>.<ext>"
    source: Path
    media_type: str
    size: int


@dataclass(frozen=True)
class Chapter:
    entry: Entry
    file_name: str  # inside the book: "text/a<id>.xhtml"
    staged: Path
    size: int
    images: tuple[BookImage, ...]
    anchors: dict[str, str] = field(default_factory=dict)  # its ids: the page's → written


def chapter_file(task_id: int) -> str:
    return f"text/a{task_id}.xhtml"


def link_token(task_id: int) -> str:
    """The href a link to an archived article has until its volume is known."""
    return f"kuaibu:{task_id}"


def chapter_href(chapter: Chapter, fragment: str) -> str:
    """The in-book href of a link to ``chapter`` (from a chapter beside it): at the id the
    fragment names, or at the chapter's start when the article has no such id."""
    href = chapter.file_name.removeprefix("text/")
    name = find_anchor(fragment, chapter.anchors) if fragment else None
    return f"{href}#{chapter.anchors[name]}" if name is not None else href


def outside_href(url: str, fragment: str) -> str | None:
    """A link to an archived article that is not beside it in this book (or volume): the
    article's URL, the fragment kept."""
    kept = clean_url(url)
    return f"{kept.split('#', 1)[0]}#{fragment}" if kept and fragment else kept


def link_targets(entries: Iterable[Entry],
                 link_ids: dict[str, int]) -> dict[int, frozenset[str]]:
    """For each article, the fragments the other articles' links name in it: the ids its
    chapter must keep. (Each article's links to itself are its own chapter's business.)"""
    found: dict[int, set[str]] = {}
    for entry in entries:
        for url, fragment in entry.fragment_links:
            key = link_key(url)
            target = link_ids.get(key) if key else None
            if target is not None and target != entry.task_id:
                found.setdefault(target, set()).add(fragment)
    return {task_id: frozenset(fragments) for task_id, fragments in found.items()}


def link_key(url: str) -> str | None:
    """The form two links to the same article share (normalized, no fragment)."""
    try:
        return normalize_url(url).split("#", 1)[0]
    except (UrlRejected, ValueError):
        return None


class ImageCatalog:
    """Local image files as book images: inside 02_assets, present, of a known raster type."""

    def __init__(self, archive: Archive) -> None:
        self.assets_dir = archive.assets_dir.resolve()
        self.root = archive.root
        self._known: dict[str, BookImage | None] = {}

    def lookup(self, relative: str) -> BookImage | None:
        if relative not in self._known:
            self._known[relative] = self._sniff(relative)
        return self._known[relative]

    def _sniff(self, relative: str) -> BookImage | None:
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.assets_dir):  # a hand-edited map must not reach out
            return None
        try:
            with open(path, "rb") as f:
                head = f.read(SNIFF_BYTES)
            size = path.stat().st_size
        except OSError:
            return None
        kind = sniff_image(head)
        if kind not in _BOOK_IMAGE_EXTENSIONS:
            return None
        return BookImage(f"images/{path.stem}.{_BOOK_IMAGE_EXTENSIONS[kind]}", path,
                         f"image/{kind}", size)


def prepare_chapter(archive: Archive, entry: Entry, *, env: jinja2.Environment,
                    catalog: ImageCatalog, link_ids: dict[str, int], labels: dict[str, str],
                    staging: Path, targets: frozenset[str] = frozenset()) -> Chapter:
    """Render one article into ``staging``; the images it shows and the ids it keeps come
    back with it. ``targets``: the fragments other articles' links name in it."""
    article = archive.read_article(entry.task_id)
    assets = load_assets(archive, entry.task_id)
    offered: dict[str, BookImage] = {}

    def image_href(src: str) -> str | None:
        asset = assets.entries.get(src)
        image = catalog.lookup(asset.path) if asset and asset.path else None
        if image is None:
            return None
        offered["../" + image.name] = image
        return "../" + image.name

    def image_size(src: str) -> tuple[int, int] | None:
        asset = assets.entries.get(src)
        return (asset.width, asset.height) if asset and asset.width and asset.height else None

    def link_href(url: str) -> str | None:
        key = link_key(url)
        target = link_ids.get(key) if key else None
        return link_token(target) if target is not None else None

    page, body = render_chapter(env, entry, article.content_html if article else "",
                                image_href=image_href, link_href=link_href, labels=labels,
                                stylesheet="../style.css", image_size=image_size,
                                targets=targets)
    staged = staging / f"a{entry.task_id}.xhtml"
    staged.write_bytes(page)
    images = tuple(offered[href] for href in sorted(body.images) if href in offered)
    return Chapter(entry, chapter_file(entry.task_id), staged, len(page), images, body.anchors)


SHOWN_URL_CHARS = 90  # a longer source URL is shown with its middle elided


def shown_url(url: str, limit: int = SHOWN_URL_CHARS) -> str:
    """The source URL as the header prints it: whole (on paper and e-ink the link is all a
    reader has), its middle cut visibly when very long, keeping the host and the page name."""
    if len(url) <= limit:
        return url
    tail = limit // 3
    return f"{url[: limit - tail - 1]}…{url[-tail:]}"


def render_chapter(env: jinja2.Environment, entry: Entry, content_html: str, *,
                   image_href: Callable[[str], str | None],
                   link_href: Callable[[str], str | None], labels: dict[str, str],
                   stylesheet: str, image_size: ImageSize | None = None,
                   targets: frozenset[str] = frozenset()) -> tuple[bytes, ChapterBody]:
    """One article's chapter page (chapter.xhtml.j2 around the whitelisted body) and that
    body (the image hrefs it shows, the ids it keeps). The book and the window's preview both
    render with this, so the preview is the chapter as the book will show it; in both, a link
    to the article itself is a link to a place in its chapter. The page is in the article's
    own language, never the book's: an English article in a Chinese book is set as English
    (the stylesheet's fonts and indents follow ``lang``) and its header says "Published",
    not "发布" (issue 29, ``labels.chapter_labels``); an article with no letters to tell is
    "und" (undetermined). ``labels``: the book's."""
    chapter_lang = entry.lang or UNDETERMINED
    labels = chapter_labels(entry.lang, labels)
    body = to_xhtml(content_html, image_href=image_href,
                    link_href=_with_itself(entry, link_href), lang=chapter_lang,
                    image_size=image_size, chapter=entry.task_id, targets=targets)
    category = " · ".join(display_category(c) for c in (entry.cat1, entry.cat2) if c)
    page = render_xhtml(
        env, "chapter.xhtml.j2",
        article={
            "title": entry.title, "author": entry.author, "url": clean_url(entry.url),
            "shown_url": shown_url(entry.url), "domain": entry.domain,
            "published": entry.published_day, "fetched": entry.fetched_day,
            "category": category or labels["uncategorized"], "updated": entry.revised_day,
        },
        body=Markup(body.xhtml), lang=chapter_lang, labels=labels, stylesheet=stylesheet,
    )
    return page, body


def _with_itself(entry: Entry, link_href: Callable[[str], str | None]
                 ) -> Callable[[str], str | None]:
    """``link_href`` that gives ``""`` (this document) for a link to the article itself, by
    its URL or by its task."""
    own, token = link_key(entry.url), link_token(entry.task_id)

    def href(url: str) -> str | None:
        if own is not None and link_key(url) == own:
            return ""
        found = link_href(url)
        return "" if found == token else found

    return href


def resolve_links(page: bytes, href_for: LinkHref) -> bytes:
    """Replace ``kuaibu:<id>[#fragment]`` link tokens: an in-book href, the article's URL, or
    no href."""

    def replace(m: re.Match[bytes]) -> bytes:
        fragment = unescape((m.group(3) or b"").decode("utf-8"), {"&quot;": '"'})
        href = href_for(int(m.group(2)), fragment)
        if href is None:
            return m.group(1)
        return m.group(1) + b' href="' + _attr(href) + b'"'

    return LINK_TOKEN.sub(replace, page)


def _attr(value: str) -> bytes:
    return (value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .encode("utf-8"))
