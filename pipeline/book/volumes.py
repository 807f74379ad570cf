"""Splitting a collection into volumes under a size budget (issue 6: 50 MB, the e-mail limit
of common e-readers), so every file is one a reader accepts, each valid on its own."""

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
