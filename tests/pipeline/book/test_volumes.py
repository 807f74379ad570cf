from pathlib import Path

from pipeline.book.chapters import BookImage, Chapter
from pipeline.book.collect import Entry
from pipeline.book.volumes import ARTICLE_OVERHEAD, BOOK_OVERHEAD, pack


def chapter(task_id: int, size: int, *images: tuple[str, int]) -> Chapter:
    entry = Entry(task_id, "https://x.example/", "t", "", "", None, None, None, None, 0)
    return Chapter(entry, f"text/a{task_id}.xhtml", Path("/dev/null"), size,
                   tuple(BookImage(n, Path(n), "image/jpeg", s) for n, s in images))


def ids(volumes: list[list[Chapter]]) -> list[list[int]]:
    return [[c.entry.task_id for c in v] for v in volumes]


def test_everything_fits_in_one_book() -> None:
    chapters = [chapter(i, 1000) for i in range(1, 50)]
    assert ids(pack(chapters, 50 * 1024 * 1024)) == [list(range(1, 50))]


def test_split_keeps_order_and_counts_a_shared_image_once_per_volume() -> None:
    room = 10_000
    budget = BOOK_OVERHEAD + room + 4 * ARTICLE_OVERHEAD
    chapters = [chapter(1, 100, ("a", 4000)), chapter(2, 100, ("a", 4000)),
                chapter(3, 100, ("b", 5000)), chapter(4, 100, ("a", 4000), ("c", 3000)),
                chapter(5, 100)]
    # 1+2 share "a" (4200); 3 adds 5100 → 9300; 4 needs "a" again in a new volume
    assert ids(pack(chapters, budget)) == [[1, 2, 3], [4, 5]]


def test_an_article_over_the_budget_gets_a_volume_of_its_own() -> None:
    chapters = [chapter(1, 10), chapter(2, 10, ("huge", 10**8)), chapter(3, 10)]
    assert ids(pack(chapters, BOOK_OVERHEAD + 10_000)) == [[1], [2], [3]]
