"""tasks.csv by id, kept beside it: one task read without reading 100,000 (issue 30).

A one-article build, a look at one task, the near duplicates of one article: each needs a few
tasks, and reading the whole list for them (its snapshot unpickled, the file hashed) took half
a second at 100,000 tasks, growing with the archive. ``.tasks.csv.byid`` (SQLite) holds each
task's record as a whole read of the list made it, keyed by id, with its fingerprint's four
16-bit blocks indexed (``SimIndex.probes``: the buckets the near-duplicate lookup of one hash
reads), so those jobs read what they need and nothing else.

tasks.csv stays the truth. The mirror is used only while the list is the very file it was
made from: its key is the file's inode, size, mtime and ctime (no program sets a ctime, so a
hand edit put back to the old size and mtime still shows), checked at every open; any other
file, or a mirror of another version or not ours, and the list is read whole as before. It is
made by a one-task reader that found none for the file as it is, once, from the records that
read gave, under the list's lock taken at once (never waited for) and only for a file left
alone ``SETTLED_SECONDS`` (a change within the clock's tick could not be told apart); never
by a save (a run's batches would make it again and again for nobody). Written aside then
renamed: a kill leaves the old mirror or the new, and the mirror of an old file is never used.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import closing
from itertools import count
from operator import itemgetter
from pathlib import Path
from typing import Any

from pipeline.records.task import HAS_ARTICLE, STATUS_OF
from pipeline.store.archive import SETTLED_SECONDS, fsync_dir
from pipeline.store.plain_pickle import dump_plain, load_plain
from pipeline.store.task_csv import FIELD_NAMES
from pipeline.text.dedup import SimIndex

# Bump when the tables change (the fields are checked by name).
VERSION = 1
_BLOCKS = len(SimIndex._BLOCKS)


def mirror_path(tasks_path: Path) -> Path:
    return tasks_path.with_name(f".{tasks_path.name}.byid")


def stat_key(stat: os.stat_result) -> str:
    """The version of tasks.csv a mirror holds: inode, size, mtime and ctime."""
    return f"{stat.st_ino}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ctime_ns}"


# The fields kept as one pickled tuple a task (a tuple of plain values pickles in under two
# microseconds; a status member and a person's cells take their own columns, as text)
_PLAIN = tuple(n for n in FIELD_NAMES if n not in ("id", "status", "extra"))
_GET_PLAIN = itemgetter(*_PLAIN)
_GET = itemgetter("id", "status", "fingerprint", "extra")
_SCHEMA = (
    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
    "CREATE TABLE meta (version INTEGER, key TEXT, fields TEXT);"
    "CREATE TABLE tasks (id INTEGER PRIMARY KEY, place INTEGER, status TEXT, b0, b1, b2, b3,"
    " odd INTEGER, plain BLOB, extra TEXT);")
_HEX = frozenset("0123456789abcdef")
_PLACE = itemgetter(0)


def _row(place: int, values: tuple[int, str, str, dict[str, str]],
         plain: bytes) -> tuple[Any, ...]:
    """A task's row: its place in the list, its fingerprint's four blocks as their hex digits
    (a fingerprint as Kuaibu writes one, 16 of them). Any other, typed by hand, and an
    article's missing one (cleaned before fingerprints) is ``odd``: always a candidate,
    compared (or fingerprinted first) as the whole list's search does."""
    task_id, status, fingerprint, cells = values
    extra = json.dumps(cells, ensure_ascii=False) if cells else None
    if len(fingerprint) == 16 and _HEX.issuperset(digits := fingerprint.lower()):
        return (task_id, place, status, digits[12:], digits[8:12], digits[4:8], digits[:4], 0,
                plain, extra)
    odd = bool(fingerprint) or status in HAS_ARTICLE
    return task_id, place, status, None, None, None, None, int(odd), plain, extra


def write_mirror(tasks_path: Path, stat: os.stat_result,
                 records: Sequence[dict[str, Any]]) -> bool:
    """Keep ``records`` (a whole read of the file whose stat is ``stat``, each a task's
    ``__dict__``) as its mirror, when the file was left alone ``SETTLED_SECONDS``; whether it
    was written. Only under the list's lock. Raises OSError or ``sqlite3.Error``."""
    if stat.st_mtime_ns >= time.time_ns() - int(SETTLED_SECONDS * 1e9):
        return False
    target = mirror_path(tasks_path)
    temp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    temp.unlink(missing_ok=True)
    plain = map(dump_plain, map(_GET_PLAIN, records))
    try:
        with closing(sqlite3.connect(temp)) as db, db:
            db.executescript(_SCHEMA)
            db.executemany("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           map(_row, count(), map(_GET, records), plain))
            for n in range(_BLOCKS):
                db.execute(f"CREATE INDEX block{n} ON tasks (b{n}) WHERE b{n} IS NOT NULL")
            db.execute("CREATE INDEX odd ON tasks (odd) WHERE odd")
            db.execute("INSERT INTO meta VALUES (?, ?, ?)",
                       (VERSION, stat_key(stat), "\t".join(FIELD_NAMES)))
        with open(temp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)
    return True


def stale_mirror_writes(tasks_path: Path) -> list[Path]:
    """Temp files of mirror writes a kill interrupted."""
    target = mirror_path(tasks_path)
    return list(target.parent.glob(f"{target.name}.*.tmp"))


class TaskMirror:
    """The mirror of tasks.csv as it is now, open for reading (see the module)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    @classmethod
    def of(cls, tasks_path: Path, stat: os.stat_result) -> TaskMirror | None:
        """The mirror of the file whose stat is ``stat`` (taken by the caller: the version it
        holds), or None when there is none for that file or it is not one this version made."""
        path = mirror_path(tasks_path)
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                 check_same_thread=False)
        except sqlite3.Error:
            return None
        try:
            found = db.execute("SELECT version, key, fields FROM meta").fetchone()
        except sqlite3.Error:
            found = None
        if found != (VERSION, stat_key(stat), "\t".join(FIELD_NAMES)):
            db.close()
            return None
        return cls(db)

    def close(self) -> None:
        self._db.close()

    def records(self, task_ids: Iterable[int]) -> list[dict[str, Any]]:
        """The records of those ids the list holds, in the list's order (a plain ``dict``
        each, as the whole read made it); an id it lacks is not among them."""
        found = dict(self._rows("id IN ({})", sorted({int(i) for i in task_ids})))
        return [record for _, record in sorted(found.values(), key=_PLACE)]

    def near(self, fingerprints: Collection[str], max_bits: int) -> list[dict[str, Any]]:
        """The records whose fingerprint shares a block, give or take ``SimIndex``'s flips,
        with one of ``fingerprints``, and the odd ones (see ``_row``), in the list's order:
        every task within ``max_bits`` of one is among them."""
        index = SimIndex(max_bits)
        probes: list[set[str]] = [set() for _ in range(_BLOCKS)]
        for fingerprint in fingerprints:
            if (value := _value(fingerprint)) is not None:
                for block, part in index.probes(value):
                    probes[block].add(f"{part:04x}")
        found = dict(self._rows("odd", []))
        for block, parts in enumerate(probes):
            found.update(self._rows(f"b{block} IN ({{}})", sorted(parts)))
        return [record for _, record in sorted(found.values(), key=_PLACE)]

    def _rows(self, where: str, values: list[Any]
              ) -> Iterator[tuple[int, tuple[int, dict[str, Any]]]]:
        """(id, (place, record)) of the records ``where`` chooses, ``{}`` in it standing
        for ``values``' marks."""
        for start in range(0, max(len(values), 1), 500):  # SQLite's bound on parameters
            chunk = values[start:start + 500]
            if "{}" in where and not chunk:
                return
            sql = ("SELECT id, place, status, plain, extra FROM tasks WHERE"
                   f" {where.format(','.join('?' * len(chunk)))}")
            for task_id, place, status, plain, extra in self._db.execute(sql, chunk):
                record = dict(zip(_PLAIN, load_plain(plain), strict=True))
                record.update(id=task_id, status=STATUS_OF.get(status, status),
                              extra=json.loads(extra) if extra else {})
                yield task_id, (place, record)


def _value(fingerprint: str) -> int | None:
    try:
        return int(fingerprint, 16) if fingerprint else None
    except ValueError:
        return None
