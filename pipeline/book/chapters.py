"""Each article rendered once into a staged chapter file, with the images it really uses.

Staging on disk keeps memory flat (a 1,000-article book never holds all its chapters) and gives
the exact sizes the volume split needs. Links to other archived articles are left as
``kuaibu:<id>`` tokens, resolved per volume when the book is written: only then is it known
whether the target is in the same book.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from pipeline.archive import Archive
from pipeline.book.collect import Entry, display_category, load_assets
from pipeline.book.pages import render_xhtml
from pipeline.book.xhtml import clean_url, to_xhtml
from pipeline.urls import UrlRejected, normalize_url

LINK_TOKEN = re.compile(rb'(<a\b[^>]*?)\shref="kuaibu:(\d+)"')

# Raster types every EPUB 3 reader must show, by their first bytes (the extension may lie).
_MAGIC: tuple[tuple[bytes, int, str, str], ...] = (
    (b"\xff\xd8\xff", 0, "image/jpeg", "jpg"),
    (b"\x89PNG\r\n\x1a\n", 0, "image/png", "png"),
    (b"GIF87a", 0, "image/gif", "gif"),
    (b"GIF89a", 0, "image/gif", "gif"),
    (b"WEBP", 8, "image/webp", "webp"),
)


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


def chapter_file(task_id: int) -> str:
    return f"text/a{task_id}.xhtml"


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
                head = f.read(16)
            size = path.stat().st_size
        except OSError:
            return None
        for magic, offset, media_type, ext in _MAGIC:
            if head[offset: offset + len(magic)] == magic:
                return BookImage(f"images/{path.stem}.{ext}", path, media_type, size)
        return None


def prepare_chapter(archive: Archive, entry: Entry, *, env: jinja2.Environment,
                    catalog: ImageCatalog, link_ids: dict[str, int], labels: dict[str, str],
                    lang: str, staging: Path) -> Chapter:
    """Render one article into ``staging``; the images it shows come back with it."""
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

    def link_href(url: str) -> str | None:
        key = link_key(url)
        target = link_ids.get(key) if key else None
        return f"kuaibu:{target}" if target is not None else None

    page, shown = render_chapter(env, entry, article.content_html if article else "",
                                 image_href=image_href, link_href=link_href, labels=labels,
                                 lang=lang, stylesheet="../style.css")
    staged = staging / f"a{entry.task_id}.xhtml"
    staged.write_bytes(page)
    images = tuple(offered[href] for href in sorted(shown) if href in offered)
    return Chapter(entry, chapter_file(entry.task_id), staged, len(page), images)


def render_chapter(env: jinja2.Environment, entry: Entry, content_html: str, *,
                   image_href: Callable[[str], str | None],
                   link_href: Callable[[str], str | None], labels: dict[str, str], lang: str,
                   stylesheet: str) -> tuple[bytes, frozenset[str]]:
    """One article's chapter page (chapter.xhtml.j2 around the whitelisted body) and the
    image hrefs it shows. The book and the window's preview both render with this, so the
    preview is the chapter as the book will show it."""
    chapter_lang = entry.lang or lang
    body = to_xhtml(content_html, image_href=image_href, link_href=link_href, lang=chapter_lang)
    category = " · ".join(display_category(c) for c in (entry.cat1, entry.cat2) if c)
    page = render_xhtml(
        env, "chapter.xhtml.j2",
        article={
            "title": entry.title, "author": entry.author, "url": clean_url(entry.url),
            "domain": entry.domain, "published": entry.published_day,
            "category": category or labels["uncategorized"], "updated": entry.revised_day,
        },
        body=Markup(body.xhtml), lang=chapter_lang, labels=labels, stylesheet=stylesheet,
    )
    return page, frozenset(body.images)


def resolve_links(page: bytes, href_for: Callable[[int], str | None]) -> bytes:
    """Replace ``kuaibu:<id>`` link tokens: an in-book href, the article's URL, or no href."""

    def replace(m: re.Match[bytes]) -> bytes:
        href = href_for(int(m.group(2)))
        if href is None:
            return m.group(1)
        return m.group(1) + b' href="' + _attr(href) + b'"'

    return LINK_TOKEN.sub(replace, page)


def _attr(value: str) -> bytes:
    return (value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            .encode("utf-8"))
