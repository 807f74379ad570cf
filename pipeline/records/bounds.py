"""The ranges of the numbers a person types on the command line, each declared once.

Settings carry their ranges in ``Settings`` (``--set``); these are the other numbers a
command takes: how many hits, links or pages, which task, how old. A number outside its
range is refused with the range named, before anything is read or written, instead of
reaching SQLite as an overflow or a loop as "no limit".
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.records.task import TASK_IDS


@dataclass(frozen=True)
class Bound:
    """A whole number from ``low`` to ``high``, both included."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"a whole number from {self.low} to {self.high}"

    def check(self, value: int) -> int:
        """``value`` itself, or ValueError saying what it must be (the caller names it)."""
        if not self.low <= value <= self.high:
            raise ValueError(f"must be {self}, not {value}")
        return value

    def parse(self, text: str) -> int:
        """The number typed in ``text``, or ValueError saying what it must be (a number of
        thousands of digits is refused as out of range, never parsed)."""
        digits = text.strip()
        if len(digits) > 30 and digits.lstrip("+-").isdigit():
            raise ValueError(f"must be {self}, not {digits[:20]}…")
        try:
            value = int(digits)
        except ValueError:
            raise ValueError(f"must be {self}, not {text!r}") from None
        return self.check(value)


# a search query: at most this many characters and words (every word must be in an article;
# more is a pasted text, not a query, and each word is one more join for SQLite)
SEARCH_QUERY_CHARS = 1_000
SEARCH_QUERY_WORDS = 32
# search --limit: hits printed (the window shows 50); more is a dump, not a search
SEARCH_LIMIT = Bound(1, 1_000)
# harvest --limit: links taken from one list page and its next pages
HARVEST_LIMIT = Bound(1, 10_000)
# harvest --next-pages: a harvest is depth 1, a few pages of one list
NEXT_PAGES = Bound(0, 20)
# --id, --duplicate, --of, --keep-both, --undecide: a task id as tasks.csv may hold it
TASK_ID = Bound(TASK_IDS.start, TASK_IDS.stop - 1)
# run --refresh --older-than: days (a hundred years is "all")
OLDER_THAN_DAYS = Bound(0, 36_500)
