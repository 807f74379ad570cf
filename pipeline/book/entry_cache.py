"""What a build needs of each article, kept beside the archive: ``<archive>/entries.db``.

A build of one article writes the archive-wide index.html, which lists every article with its
title, dates, length and images; reading and measuring 100,000 articles for that took minutes.
So each article's part of the book's view (``collect.Summary``: no body text) and of its image
map (the local images and how many it names) is kept in SQLite, keyed by its files' identity
(inode, size, mtime: every write is a new file), written as the clean and localize stages
write the files and checked against them at every read: a file changed by any other means (a
hand edit, a restored backup, an older version) is read again, never trusted stale.

Derived, like search.db: deleting it loses nothing, and when it cannot be opened or written
(a read-only archive, a full disk, a damaged file) every article is read from its files.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

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
"""
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
                db.executescript("DROP TABLE IF EXISTS articles; DROP TABLE IF EXISTS images;"
                                 f" PRAGMA user_version = {VERSION};")
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

    def _write(self, sql: str, rows: Sequence[tuple[object, ...]]) -> None:
        if self._db is None or not rows:
            return
        try:
            with self._db:
                self._db.executemany(sql, rows)
        except sqlite3.Error:
            pass  # derived: the next read of the files puts them in

    def _rows(self, table: str) -> dict[int, tuple[str, ...]]:
        if self._db is None:
            return {}
        try:
            return {row[0]: row[1:] for row in self._db.execute(f"SELECT * FROM {table}")}
        except sqlite3.Error:
            return {}

    def put_articles(self, articles: Iterable[tuple[int, Article]]) -> None:
        """After the clean stage wrote each 01_clean/<id>.json: its summary, keyed by it."""
        rows = []
        for task_id, article in articles:
            if (key := file_key(self.archive.clean_meta(task_id))) is not None:
                rows.append((task_id, key, json.dumps(asdict(summary_of(article)),
                                                      ensure_ascii=False)))
        self._write("INSERT OR REPLACE INTO articles VALUES (?, ?, ?)", rows)

    def put_images(self, maps: Iterable[tuple[int, AssetMap]]) -> None:
        """After the localize stage wrote each 01_clean/<id>.assets.json."""
        rows = []
        for task_id, assets in maps:
            if (key := file_key(self.archive.assets_map(task_id))) is not None:
                local, total = local_images(self.archive, assets)
                rows.append((task_id, key, json.dumps(local, ensure_ascii=False), total))
        self._write("INSERT OR REPLACE INTO images VALUES (?, ?, ?, ?)", rows)

    def summaries(self, task_ids: Iterable[int]) -> dict[int, Summary]:
        """The summaries of these tasks' articles (none for a task without a readable one):
        from the cache where its file is the one summarised, else read and put in."""
        known = self._rows("articles")
        out: dict[int, Summary] = {}
        fresh: list[tuple[object, ...]] = []
        for task_id in task_ids:
            key = file_key(f"{self._clean}{task_id}.json")
            if key is None:
                continue
            row = known.get(task_id)
            if row is not None and row[0] == key:
                try:
                    out[task_id] = Summary.from_json(row[1])
                    continue
                except (ValueError, TypeError, KeyError):
                    pass  # a row damaged or of another shape: read the article
            article = self.archive.read_article(task_id)
            if article is None:
                continue
            out[task_id] = summary = summary_of(article)
            fresh.append((task_id, key, json.dumps(asdict(summary), ensure_ascii=False)))
        self._write("INSERT OR REPLACE INTO articles VALUES (?, ?, ?)", fresh)
        return out

    def images(self, task_ids: Iterable[int]) -> dict[int, Images]:
        """Each task's local images and image count (none and 0 before it is localized)."""
        known = self._rows("images")
        out: dict[int, Images] = {}
        fresh: list[tuple[object, ...]] = []
        for task_id in task_ids:
            key = file_key(f"{self._clean}{task_id}.assets.json")
            if key is None:
                out[task_id] = ([], 0)
                continue
            row = known.get(task_id)
            if row is not None and row[0] == key:
                out[task_id] = (json.loads(row[1]), int(row[2]))
                continue
            out[task_id] = local, total = local_images(
                self.archive, self.archive.read_assets(task_id) or AssetMap())
            fresh.append((task_id, key, json.dumps(local, ensure_ascii=False), total))
        self._write("INSERT OR REPLACE INTO images VALUES (?, ?, ?, ?)", fresh)
        return out
