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
    stylesheet: bytes
    labels: dict[str, str]
    link_href: Callable[[int], str | None]  # in-book or external href for a linked article


class _DiskImage(epub.EpubItem):
    """An image read from its file only when the zip is written."""

    def __init__(self, uid: str, image: BookImage) -> None:
        super().__init__(uid=uid, file_name=image.name, media_type=image.media_type)
        self.source = image.source

    def get_content(self, default: bytes | None = None) -> bytes:
        return self.source.read_bytes()


class _StagedChapter(epub.EpubItem):
    """A chapter staged on disk; its link tokens are resolved as it is written."""

    def __init__(self, chapter: Chapter, link_href: Callable[[int], str | None]) -> None:
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
                self.out.writestr(name, self._get_ncx())
            elif isinstance(item, epub.EpubNav):
                self.out.writestr(name, self._get_nav(item))
            else:
                self.out.writestr(name, item.get_content())


def _toc(groups: list[Cat1Group], labels: dict[str, str]) -> list[object]:
    """cat1 → cat2 → articles; each category links to its first article (reading order)."""

    def link(e: Entry) -> epub.Link:
        return epub.Link(chapter_file(e.task_id), e.title, f"toc-a{e.task_id}")

    toc: list[object] = [epub.Link("index.xhtml", labels["index"], "toc-index")]
    for g in groups:
        children: list[object] = [link(e) for e in g.direct]
        for c in g.children:
            children.append((epub.Section(c.display, chapter_file(c.entries[0].task_id)),
                             [link(e) for e in c.entries]))
        top = display_category(g.name) if g.name else labels["uncategorized"]
        toc.append((epub.Section(top, chapter_file(g.entries[0].task_id)), children))
    return toc


def write_volume(path: Path, content: VolumeContent) -> None:
    """Write the book to ``path`` (temp file, then rename: a failed build leaves the old one)."""
    book = epub.EpubBook()
    book.set_identifier(f"urn:uuid:{content.identifier}")
    book.set_title(content.title)
    book.set_language(content.lang)
    book.add_author("Kuaibu")
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
    chapters = [book.add_item(_StagedChapter(c, content.link_href)) for c in content.chapters]
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
    book.spine = [cover, index, *chapters]
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
