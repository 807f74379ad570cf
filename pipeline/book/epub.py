"""One EPUB 3 file with ebooklib: cover, index page, chapters, images, nav + NCX.

ebooklib makes the package document, the EPUB 3 navigation document and the NCX; its writer
is given one change: images are streamed from 02_assets into the zip uncompressed (JPEG and
PNG do not shrink) and staged chapters are read one at a time, so a book never holds every
image in memory, let alone twice.
"""

from __future__ import annotations

import os
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ebooklib import epub
from lxml import etree

from pipeline.book.chapters import BookImage, Chapter, chapter_file, resolve_links
from pipeline.book.collect import Cat1Group, Entry, display_category

COVER_IMAGE = "images/cover.jpg"


@dataclass
class VolumeContent:
    """Everything one book file holds, already rendered except the chapters' link tokens."""

    identifier: uuid.UUID
    title: str
    lang: str
    description: str
    chapters: list[Chapter]
    groups: list[Cat1Group]
    cover_jpeg: bytes
    cover_page: bytes
    index_page: bytes
    # a cat1 group's page and then its cat2 groups' pages, in ``groups``' order
    category_pages: list[list[bytes]]
    stylesheet: bytes
    labels: dict[str, str]
    # in-book or external href for a linked article, by its task id and the link's fragment
    link_href: Callable[[int, str], str | None]
    author: str = "Kuaibu"
    publisher: str | None = None


class _DiskImage(epub.EpubItem):
    """An image read from its file only when the zip is written."""

    def __init__(self, uid: str, image: BookImage) -> None:
        super().__init__(uid=uid, file_name=image.name, media_type=image.media_type)
        self.source = image.source

    def get_content(self, default: bytes | None = None) -> bytes:
        return self.source.read_bytes()


class _StagedChapter(epub.EpubItem):
    """A chapter staged on disk; its link tokens are resolved as it is written."""

    def __init__(self, chapter: Chapter, link_href: Callable[[int, str], str | None]) -> None:
        super().__init__(uid=f"a{chapter.entry.task_id}", file_name=chapter.file_name,
                         media_type="application/xhtml+xml")
        self.staged = chapter.staged
        self.link_href = link_href

    def get_content(self, default: bytes | None = None) -> bytes:
        return resolve_links(self.staged.read_bytes(), self.link_href)


class _StreamingWriter(epub.EpubWriter):  # type: ignore[misc]
    """ebooklib's writer (EbookLib pinned at 0.20), with images streamed and stored."""

    def _write_items(self) -> None:
        folder = self.book.FOLDER_NAME
        for item in self.book.get_items():
            name = f"{folder}/{item.file_name}"
            if isinstance(item, _DiskImage):
                self.out.write(item.source, name, compress_type=zipfile.ZIP_STORED)
            elif isinstance(item, epub.EpubNcx):
                self.out.writestr(name, _with_depth(self._get_ncx()))
            elif isinstance(item, epub.EpubNav):
                self.out.writestr(name, self._get_nav(item))
            else:
                self.out.writestr(name, item.get_content())


def category_file(group: int, child: int | None = None) -> str:
    """A category's page: its part of the index, in the spine before its chapters (a cat1
    group's lists its cat2 groups too)."""
    return f"c{group}.xhtml" if child is None else f"c{group}-{child}.xhtml"


def _toc(groups: list[Cat1Group], labels: dict[str, str]) -> list[object]:
    """cat1 → cat2 → articles; each category links to its page, its part of the index
    (a reader choosing a category sees what it holds). The page sits in the spine before
    the category's chapters: a link back to index.xhtml would break the navigation's
    reading order, which EPUBCheck checks (NAV-011)."""

    def link(e: Entry) -> epub.Link:
        return epub.Link(chapter_file(e.task_id), e.title, f"toc-a{e.task_id}")

    toc: list[object] = [epub.Link("index.xhtml", labels["index"], "toc-index")]
    for i, g in enumerate(groups, 1):
        children: list[object] = [link(e) for e in g.direct]
        for j, c in enumerate(g.children, 1):
            children.append((epub.Section(c.display, category_file(i, j)),
                             [link(e) for e in c.entries]))
        top = display_category(g.name) if g.name else labels["uncategorized"]
        toc.append((epub.Section(top, category_file(i)), children))
    return toc


def _with_depth(ncx: bytes) -> bytes:
    """The NCX with ``dtb:depth`` saying how deep its navMap goes (ebooklib writes 0, which
    some readers take as "no levels" and flatten the table of contents)."""
    root = etree.fromstring(ncx, etree.XMLParser(resolve_entities=False, no_network=True))
    ns = {"n": "http://www.daisy.org/z3986/2005/ncx/"}

    def depth(el: etree._Element) -> int:
        return 1 + max((depth(p) for p in el.findall("n:navPoint", ns)), default=0)

    nav_map = root.find("n:navMap", ns)
    levels = depth(nav_map) - 1 if nav_map is not None else 0
    for meta in root.iterfind("n:head/n:meta[@name='dtb:depth']", ns):
        meta.set("content", str(max(1, levels)))
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


def write_volume(path: Path, content: VolumeContent) -> None:
    """Write the book to ``path`` (temp file, then rename: a failed build leaves the old one)."""
    book = epub.EpubBook()
    book.set_identifier(f"urn:uuid:{content.identifier}")
    book.set_title(content.title)
    book.set_language(content.lang)
    book.add_author(content.author)
    if content.publisher:
        book.add_metadata("DC", "publisher", content.publisher)
    now = datetime.now(UTC).replace(microsecond=0)
    book.add_metadata("DC", "date", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if content.description:
        book.add_metadata("DC", "description", content.description)
    book.set_cover(COVER_IMAGE, content.cover_jpeg, create_page=False)
    book.add_item(epub.EpubItem(uid="style", file_name="style.css", media_type="text/css",
                                content=content.stylesheet))
    cover = book.add_item(epub.EpubItem(uid="cover", file_name="cover.xhtml",
                                        media_type="application/xhtml+xml",
                                        content=content.cover_page))
    index = book.add_item(epub.EpubItem(uid="index", file_name="index.xhtml",
                                        media_type="application/xhtml+xml",
                                        content=content.index_page))
    chapters = {c.entry.task_id: book.add_item(_StagedChapter(c, content.link_href))
                for c in content.chapters}
    reading: list[object] = []  # each category's page, then its chapters

    def page(name: str, content: bytes) -> object:
        return book.add_item(epub.EpubItem(uid=name.removesuffix(".xhtml"), file_name=name,
                                           media_type="application/xhtml+xml",
                                           content=content))

    for i, (g, pages) in enumerate(zip(content.groups, content.category_pages, strict=True), 1):
        reading.append(page(category_file(i), pages[0]))
        reading.extend(chapters[e.task_id] for e in g.direct)
        for j, c in enumerate(g.children, 1):
            reading.append(page(category_file(i, j), pages[j]))
            reading.extend(chapters[e.task_id] for e in c.entries)
    seen: set[str] = set()
    for chapter in content.chapters:
        for image in chapter.images:
            if image.name not in seen:
                seen.add(image.name)
                book.add_item(_DiskImage(f"img{len(seen)}", image))
    nav = epub.EpubNav(title=content.labels["contents"])
    nav.add_link(href="style.css", rel="stylesheet", type="text/css")
    book.add_item(nav)
    book.add_item(epub.EpubNcx())
    book.toc = _toc(content.groups, content.labels)
    book.spine = [cover, index, *reading]
    book.guide = [
        {"href": "cover.xhtml", "title": content.labels["cover"], "type": "cover"},
        {"href": "index.xhtml", "title": content.labels["index"], "type": "toc"},
        {"href": content.chapters[0].file_name, "title": content.chapters[0].entry.title,
         "type": "text"},
    ]
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        writer = _StreamingWriter(str(tmp), book, {"epub3_pages": False, "mtime": now,
                                                   "landmark_title": content.labels["guide"]})
        writer.process()
        writer.write()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
