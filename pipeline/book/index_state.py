"""What index.html's last build wrote, kept in entries.db so the next writes only what changed.

The index is a hub (index.html: the categories with their counts and pages, the date range,
the books) and each category's pages (index/<category>-<k>.html, ``PAGE_ROWS`` rows a page).
A build compares the task list in memory with each category's ``Shelf`` (a digest of its
members' cells, ``categories``) and reads the clean journal for the articles whose files
changed; only the categories either touches are looked at again, and of their pages only
those whose digest (``Shelf.pages``) differs are written. The hub is made from the shelves'
counts, dates and language votes, never from the rows.

JSON in one row of entries.db (``EntryCache.index_state``): a few lines a category, read in a
blink at 100,000 articles. Anything unexpected in it reads as no state: everything is made
again, as from a new archive.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter

from pipeline.records.task import Task
from pipeline.store.clean_journal import Mark

VERSION = 1
Group = tuple[str, str]  # (cat1, cat2) as the tasks hold them, spaces at the ends dropped
FolderKey = tuple[int, int]  # a folder's inode and mtime (ns): it moves with every name


# the task's cells an index row shows (its title, the extracted one, link, fetched), read by
# one C call a task: the digest below reads them for every task of the list at each build
_CELLS = attrgetter("title", "extracted_title", "url", "fetched_at")
_JOIN = "\x1f".join


def cells(task: Task) -> str:
    """The task's cells an index row shows, as one string."""
    return _JOIN(_CELLS(task))


def categories(bindable: Iterable[Task]) -> dict[Group, tuple[list[Task], str]]:
    """Each category's tasks in the list's order, and a digest of what its rows are made of
    from the task list: a title edited in Excel, a task added, moved, removed or rearranged
    changes it. One pass, each category's spaces dropped once (a list's records share their
    category strings): at 100,000 tasks this pass is most of a build's index."""
    by_cell: dict[tuple[str, str], tuple[list[Task], list[str]]] = {}
    groups: dict[Group, tuple[list[Task], list[str]]] = {}
    for t in bindable:
        found = by_cell.get((t.cat1, t.cat2))
        if found is None:
            found = by_cell[(t.cat1, t.cat2)] = groups.setdefault(
                (t.cat1.strip(), t.cat2.strip()), ([], []))
        found[0].append(t)
        found[1].append(f"{t.id}\x1f{_JOIN(_CELLS(t))}")  # ``cells``, with no call a task
    return {g: (members, hashlib.blake2b("\x1e".join(texts).encode("utf-8", "surrogatepass"),
                                         digest_size=16).hexdigest())
            for g, (members, texts) in groups.items()}


@dataclass
class Shelf:
    """One category's part of the index as last written: what its rows were made of, what
    the hub shows of it, and its pages (file name, digest of what it was made of)."""

    cells: str
    count: int
    published: list[str]  # first and last published day ([] when none has one)
    fetched: list[str]  # first and last fetched day
    langs: list[tuple[str, int]]  # the language votes, in the order first met
    pages: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class IndexState:
    made: str  # how the rows were made (``index._how_made``)
    layout: str  # how the pages were (the rows' making, order, archive name, page template)
    journal: Mark  # how far the clean journal was read
    clean: FolderKey | None  # 01_clean as the journal was read (None: it was still changing)
    pages_folder: FolderKey | None  # index/ as left
    shelves: dict[Group, Shelf]
    # which task list the shelves were made of (``index.WholeList.key``; None: not known)
    source: str | None = None

    def to_json(self) -> str:
        return json.dumps({
            "version": VERSION, "made": self.made, "layout": self.layout,
            "journal": list(self.journal), "clean": self.clean,
            "pages_folder": self.pages_folder, "source": self.source,
            "shelves": [[*group, s.cells, s.count, s.published, s.fetched, s.langs, s.pages]
                        for group, s in self.shelves.items()],
        }, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | None) -> IndexState | None:
        """The state kept, or None (none, another version's or damaged)."""
        if text is None:
            return None
        try:
            data = json.loads(text)
            if data["version"] != VERSION:
                return None
            return cls(
                str(data["made"]), str(data["layout"]), Mark(*map(int, data["journal"])),
                _folder(data["clean"]), _folder(data["pages_folder"]),
                {(str(c1), str(c2)): Shelf(str(digest), int(count), list(published),
                                            list(fetched),
                                            [(str(t), int(n)) for t, n in langs],
                                            [(str(p), str(d)) for p, d in pages])
                 for c1, c2, digest, count, published, fetched, langs, pages
                 in data["shelves"]},
                data["source"] if isinstance(data.get("source"), str) else None)
        except (ValueError, TypeError, KeyError):
            return None


def _folder(value: list[int] | None) -> FolderKey | None:
    if value is None:
        return None
    ino, mtime = value
    return int(ino), int(mtime)
