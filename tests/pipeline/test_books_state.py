"""Issue 30: which books are out of date is known without the whole archive's near-duplicate
search: a book asks only about the tasks it lacks, and still counts a near duplicate it
left out as nothing added, and one a person kept since as added."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from tests.pipeline.test_duplicates import near_pair_archive
from tests.sites.articles import ArticleSite


def test_a_book_asks_only_about_what_it_lacks_and_counts_near_duplicates_right(
        tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = near_pair_archive(tmp_path, site)  # #2 nearly repeats #1; #3 is another text
    assert set(ws.build().task_ids) == {1, 3}  # undecided: the later one left out
    asked: list[Collection[int] | None] = []
    everything = ws.left_out

    def left_out(involving: Collection[int] | None = None) -> dict[int, int]:
        asked.append(None if involving is None else set(involving))
        return everything(involving)

    ws.left_out = left_out  # type: ignore[method-assign]  # what books() asks, watched
    [book] = ws.books()
    assert (book.added, book.gone, book.out_of_date) == (0, 0, False)
    assert asked == [{2}]  # the one task the book lacks, not the whole archive

    ws.keep_both(1, 2)  # a person says both are bound: the book now lacks one
    [book] = ws.books()
    assert (book.added, book.gone, book.out_of_date) == (1, 0, True)
