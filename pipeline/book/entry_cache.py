"""What a build needs of each article, kept beside the archive: ``<archive>/entries.db``.

A build of one article writes the archive-wide index.html, which lists every article with its
title, dates, length and images; reading and measuring 100,000 articles for that took minutes.
So each article's part of the book's view (``collect.Summary``: no body text) and of its image
map (the local images and how many it names) is kept in SQLite, keyed by its files' identity
(inode, size, mtime: every write is a new file), written as the clean and localize stages
write the files and checked against them at every read: a file changed by any other means (a
hand edit, a restored backup, an older version) is read again, never trusted stale.

index.html's rows are kept too (``index_rows``: each article's ``<tr>`` as last rendered,
keyed by what it was made from: its files' identity, the task's cells it shows, and the
page's language, place and row template), so a build renders only the rows that changed, and
what the index last wrote (``index_state``: each category's pages and what they were made
of), so a build writes only the pages that changed (``book.index``).

Derived, like search.db: deleting it loses nothing, and when it cannot be opened or written
(a read-only archive, a full disk, a damaged file) every article is read from its files.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from pipeline.book.collect import Summary, summary_of
from pipeline.records.article import Article
from pipeline.store.archive import Archive
from pipeline.store.asset_map import AssetMap

CACHE_NAME = "entries.db"
# what a row holds changes with ``Summary``: a file of another version is emptied and filled
# again as the articles are read
VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS articles (id INTEGER PRIMARY KEY, key TEXT NOT NULL,
                                     summary TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS images (id INTEGER PRIMARY KEY, key TEXT NOT NULL,
                                   local TEXT NOT NULL, total INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS index_rows (id INTEGER PRIMARY KEY, files TEXT NOT NULL,
                                       cells TEXT NOT NULL, made TEXT NOT NULL,
                                       title TEXT NOT NULL, published TEXT, day TEXT NOT NULL,
                                       lang TEXT, html TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS index_state (id INTEGER PRIMARY KEY, state TEXT NOT NULL);
-- index.html's rows before its pages were kept (one key for files and cells)
DROP TABLE IF EXISTS rows;
"""
_TABLES = ("articles", "images", "index_rows", "index_state")
_CHUNK = 500  # ids asked of SQLite at once (its limit on a statement's parameters is higher)
Images = tuple[list[str], int]  # the local images (paths from the archive root), how many named


def file_key(path: str | Path) -> str | None:
    """Which version of a file this is (None: there is none): inode, size and mtime."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def local_images(archive: Archive, assets: AssetMap) -> Images:
    """An image map's local files (only those inside 02_assets) and its image count."""
    inside = archive.assets_dir.resolve()
    local = [a.path for a in assets.entries.values() if a.path
             and (archive.root / a.path).resolve().is_relative_to(inside)]
    return local, assets.total


T = TypeVar("T")


@dataclass(frozen=True)
class _Table(Generic[T]):
    """A table of values each made from one file of 01_clean/, and how."""

    name: str
    suffix: str  # the file: 01_clean/<id><suffix>
    columns: int  # beside the id and the key
    read: Callable[[Archive, int], T | None]  # from the file (None: unreadable)
    encode: Callable[[T], tuple[object, ...]]
    decode: Callable[[tuple[Any, ...]], T]
    absent: T | None  # what a task without the file has (None: nothing)


def _read_summary(archive: Archive, task_id: int) -> Summary | None:
    article = archive.read_article(task_id)
    return None if article is None else summary_of(article)


def _read_images(archive: Archive, task_id: int) -> Images:
    return local_images(archive, archive.read_assets(task_id) or AssetMap())


_SUMMARIES: _Table[Summary] = _Table(
    "articles", ".json", 1, _read_summary,
    lambda s: (json.dumps(asdict(s), ensure_ascii=False),),
    lambda row: Summary.from_json(row[0]), None)
_IMAGES: _Table[Images] = _Table(
    "images", ".assets.json", 2, _read_images,
    lambda images: (json.dumps(images[0], ensure_ascii=False), images[1]),
    lambda row: (json.loads(row[0]), int(row[1])), ([], 0))


class Row(NamedTuple):
    """index.html's row of one article as kept: ``files`` and ``cells`` say what it shows
    (its two files' identity, the task's cells it reads), apart because a build looks at the
    files only of the articles the clean journal names; ``made`` how (the page's language,
    place and row template); what orders it and votes for the page's language beside the
    rendered ``html``."""

    files: str
    cells: str
    made: str
    title: str
    published: str | None
    day: str  # the published date's YYYY-MM-DD, "" when it has none (``collect.day_of``)
    lang: str | None
    html: str



class EntryCache:
    """One archive's cache (see the module). Every method works without the file too."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        # 01_clean/<id>.json and <id>.assets.json as strings: a Path per article and file
        # cost more than the stat itself over 100,000 articles
        self._clean = os.path.join(archive.clean_dir, "")
        self._db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(archive.root / CACHE_NAME, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # derived: a crash may lose the last rows
            if db.execute("PRAGMA user_version").fetchone()[0] != VERSION:
                db.executescript("".join(f"DROP TABLE IF EXISTS {t};" for t in _TABLES)
                                 + f" PRAGMA user_version = {VERSION};")
            db.executescript(_SCHEMA)
            self._db = db
        except sqlite3.Error:
            pass  # not writable here, or damaged: read the files

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> EntryCache:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _write(self, table: str, rows: Sequence[tuple[object, ...]]) -> bool:
        """Whether the rows are in (derived: the next read of the files puts them in)."""
        if self._db is None or not rows:
            return False
        try:
            with self._db:
                self._db.executemany(f"INSERT OR REPLACE INTO {table} VALUES"
                                     f" ({', '.join('?' * len(rows[0]))})", rows)
        except sqlite3.Error:
            return False
        return True

    def _rows(self, table: str, task_ids: Sequence[int]) -> dict[int, tuple[Any, ...]]:
        """The rows of these ids: a one-article build reads one row, not the table."""
        if self._db is None:
            return {}
        out = {}
        try:
            for n in range(0, len(task_ids), _CHUNK):
                chunk = task_ids[n:n + _CHUNK]
                for row in self._db.execute(f"SELECT * FROM {table} WHERE id IN"
                                            f" ({', '.join('?' * len(chunk))})", chunk):
                    out[row[0]] = row[1:]
        except sqlite3.Error:
            return {}
        return out

    def put_articles(self, articles: Iterable[tuple[int, Article]]) -> None:
        """After the clean stage wrote each 01_clean/<id>.json: its summary, keyed by it."""
        self._put(_SUMMARIES, ((task_id, summary_of(a)) for task_id, a in articles))

    def put_images(self, maps: Iterable[tuple[int, AssetMap]]) -> None:
        """After the localize stage wrote each 01_clean/<id>.assets.json."""
        self._put(_IMAGES, ((task_id, local_images(self.archive, assets))
                            for task_id, assets in maps))

    def _put(self, table: _Table[T], values: Iterable[tuple[int, T]]) -> None:
        rows = []
        for task_id, value in values:
            if (key := file_key(f"{self._clean}{task_id}{table.suffix}")) is not None:
                rows.append((task_id, key, *table.encode(value)))
        self._write(table.name, rows)

    def summaries(self, task_ids: Iterable[int]) -> dict[int, Summary]:
        """The summaries of these tasks' articles (none for a task without a readable one)."""
        return self._cached(_SUMMARIES, task_ids)

    def images(self, task_ids: Iterable[int]) -> dict[int, Images]:
        """Each task's local images and image count (none and 0 before it is localized)."""
        return self._cached(_IMAGES, task_ids)

    def _cached(self, table: _Table[T], task_ids: Iterable[int]) -> dict[int, T]:
        """What ``table`` keeps of these tasks: from the cache where the file is the one it
        was made from, else read from the file and put in."""
        task_ids = list(task_ids)
        known = self._rows(table.name, task_ids)
        out: dict[int, T] = {}
        fresh: list[tuple[object, ...]] = []
        for task_id in task_ids:
            key = file_key(f"{self._clean}{task_id}{table.suffix}")
            if key is None:
                if table.absent is not None:
                    out[task_id] = table.absent
                continue
            row = known.get(task_id)
            if row is not None and row[0] == key:
                try:
                    out[task_id] = table.decode(row[1:])
                    continue
                except (ValueError, TypeError, KeyError):
                    pass  # a row damaged or of another shape: read the file
            value = table.read(self.archive, task_id)
            if value is None:
                continue
            out[task_id] = value
            fresh.append((task_id, key, *table.encode(value)))
        self._write(table.name, fresh)
        return out

    @property
    def keeps(self) -> bool:
        """Whether the file is open: what is put is kept for the next build."""
        return self._db is not None

    def index_rows(self, task_ids: Sequence[int]) -> dict[int, Row]:
        """These ids' index.html rows as the last build left them (``book.index`` checks
        each against its task and, when the clean journal names it, its files)."""
        return {i: Row._make(row) for i, row in self._rows("index_rows", task_ids).items()}

    def files(self, task_id: int) -> str:
        """Which versions of its record and image map an index row shows: the two
        ``file_key``s joined by ``|`` ("" when there is no record; nothing after ``|``
        when there is no image map)."""
        record = file_key(f"{self._clean}{task_id}.json")
        if record is None:
            return ""
        return f"{record}|{file_key(f'{self._clean}{task_id}.assets.json') or ''}"

    def index_files(self) -> set[str]:
        """The files every kept row was made from as ``<name>:<inode>`` (``12.json:8812``),
        what one listing of 01_clean gives when a change was not journaled (``book.index``):
        made by SQLite from ``files``, no row's text read."""
        if self._db is None:
            return set()
        try:
            return {name for (name,) in self._db.execute(
                "SELECT id || '.json:' || substr(files, 1, instr(files, ':') - 1)"
                " FROM index_rows"
                " UNION ALL SELECT id || '.assets.json:' || substr(a, 1, instr(a, ':') - 1)"
                " FROM (SELECT id, substr(files, instr(files, '|') + 1) AS a FROM index_rows)"
                " WHERE a != ''")}
        except sqlite3.Error:
            return set()

    def put_index_rows(self, rows: Iterable[tuple[int, Row]]) -> None:
        self._write("index_rows", [(task_id, *row) for task_id, row in rows])

    def drop_index_rows(self, task_ids: Sequence[int]) -> None:
        """The rows of articles that have no record now: no listing finds them again."""
        if self._db is None or not task_ids:
            return
        try:
            with self._db:
                self._db.executemany("DELETE FROM index_rows WHERE id = ?",
                                     [(i,) for i in task_ids])
        except sqlite3.Error:
            pass  # derived: found again by the next listing, and dropped then

    def index_state(self) -> str | None:
        """What index.html's last build wrote (``book.index_state``), as it put it."""
        if self._db is None:
            return None
        try:
            found = self._db.execute("SELECT state FROM index_state WHERE id = 0").fetchone()
        except sqlite3.Error:
            return None
        return None if found is None else str(found[0])

    def put_index_state(self, state: str) -> bool:
        """Whether it is kept."""
        return self._write("index_state", [(0, state)])
