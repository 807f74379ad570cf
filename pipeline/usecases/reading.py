"""Reading a book: its contents, a chapter, a file a chapter uses — what a reader needs, for
the window's own reader (when the system has none for EPUB) and any face after it.

No archive is needed: a book is read where it lies. Each call opens the zip afresh, so a book
bound again meanwhile is read as it is now, and nothing stays open between pages. Every
failure is a ``BookUnreadable`` whose message is one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.book.chapters import chapter_file
from pipeline.book.reading import (
    BookContents,
    BookUnreadable,
    ReadingLimits,
    TocEntry,
    open_book,
    read_chapter,
    read_contents,
    read_part,
)

__all__ = ["BookContents", "BookUnreadable", "TocEntry", "book_chapter", "book_contents",
           "book_file", "chapter_of"]

LIMITS = ReadingLimits()


def book_contents(path: Path) -> BookContents:
    """The book's title, language, chapters in reading order and table of contents."""
    with open_book(path) as book:
        return read_contents(book, path.name, LIMITS)


def book_chapter(path: Path, part: str) -> str:
    """A chapter's XHTML (``part``: its name in ``BookContents.spine``, or a link's target)."""
    with open_book(path) as book:
        return read_chapter(book, path.name, part, LIMITS)


def book_file(path: Path, part: str) -> bytes:
    """A file of the book a chapter uses: a picture, a stylesheet."""
    with open_book(path) as book:
        return read_part(book, path.name, part, LIMITS)


def chapter_of(volumes: Sequence[Path], task_id: int) -> tuple[Path, str] | None:
    """The volume that binds the task's article and its chapter's name in that volume's reading
    order; None when none of them does (a book split in volumes binds each article in one).
    A volume that cannot be read is passed over: another may still hold the chapter."""
    name = chapter_file(task_id)
    for path in volumes:
        try:
            spine = book_contents(path).spine
        except BookUnreadable:
            continue
        for part in spine:
            if part == name or part.endswith("/" + name):
                return path, part
    return None
