"""Splitting a collection into volumes under a size budget (issue 6: 50 MB, the e-mail limit
of common e-readers), so every file is one a reader accepts, each valid on its own.

The PDF build splits where the EPUB does (the same chapters and images, so about the same
bytes): volume k of either holds the same articles under the same name, Send-to-Kindle's limit
is the same for a PDF, and WeasyPrint, which lays a whole document out in memory, never holds
more than one volume."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.book.chapters import Chapter

# Per book: cover image, stylesheet, OPF, nav, NCX and the index page's frame; per article:
# its entries in the OPF, nav, NCX and the index table.
BOOK_OVERHEAD = 512 * 1024
ARTICLE_OVERHEAD = 2 * 1024


def pack(chapters: Sequence[Chapter], budget: int) -> list[list[Chapter]]:
    """Consecutive runs of chapters whose files and images fit ``budget`` bytes.

    Sizes are uncompressed (an upper bound of what the zip holds) and an image shared by two
    articles counts once per volume. A single article bigger than the budget gets a volume of
    its own: it cannot be cut, and leaving it out would lose it.
    """
    volumes: list[list[Chapter]] = []
    current: list[Chapter] = []
    images: set[str] = set()
    used = BOOK_OVERHEAD
    for chapter in chapters:
        new_images = {i.name: i.size for i in chapter.images if i.name not in images}
        cost = chapter.size + ARTICLE_OVERHEAD + sum(new_images.values())
        if current and used + cost > budget:
            volumes.append(current)
            current, images, used = [], set(), BOOK_OVERHEAD
            new_images = {i.name: i.size for i in chapter.images}
            cost = chapter.size + ARTICLE_OVERHEAD + sum(new_images.values())
        current.append(chapter)
        images.update(new_images)
        used += cost
    if current:
        volumes.append(current)
    return volumes


def volume_label(labels: dict[str, str], k: int, count: int) -> str:
    """"Volume k of n" in the book's language; "" for a book in one volume."""
    return labels["volume"].format(k=k, n=count) if count > 1 else ""


def volume_title(title: str, label: str) -> str:
    """The book's title with its volume's ``volume_label`` after it, when it has one."""
    return f"{title} · {label}" if label else title


def volume_stem(stem: str, k: int, count: int) -> str:
    """Volume k's file name without its extension (the collection's own for one volume)."""
    return stem + (f".vol{k}" if count > 1 else "")
