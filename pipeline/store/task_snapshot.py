"""tasks.csv as last parsed, kept beside it: the list read back without parsing 100,000 rows.

tasks.csv stays the truth, the file a person edits and every writer merges into; the snapshot
(``.tasks.csv.snapshot``) is a cache of what parsing it gave. It is used only for the very
bytes it was made from: its key is the file's size, modification time and SHA-256, and a
reader hashes the bytes it read (a fortieth of a second at 36 MB) before trusting it, so a
hand edit, Excel's save or a copy from another archive is parsed as before, with every check
and refusal of a file that does not read. Anything wrong with the snapshot itself (missing,
cut short, from another version of Kuaibu, not ours) makes it ignored, never an error.

Why pickle, restricted: the C unpickler builds 100,000 dicts in a quarter of a second
(csv and the checks take five times that), and an unpickler that refuses every class can
make nothing but builtin containers and scalars out of whatever the file holds. Written
temp file → fsync → rename, under the list's lock, so a kill mid-write leaves the old
snapshot or the new one, and a killed write's temp file is swept by the next save.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any

from pipeline.records.task import Task
from pipeline.store.archive import write_atomic
from pipeline.store.plain_pickle import dump_plain, load_plain
from pipeline.store.task_csv import COLUMNS, FIELD_NAMES, NUMBER_FIELDS, with_missing

# Bump when parsing a file gives other records than before (a check, a column's meaning).
_MAGIC = b"kuaibu tasks.csv snapshot 1\n"


_get_integers = attrgetter(*(n for n in NUMBER_FIELDS if n not in ("confidence", "attempts")))
_get_attempts, _get_confidence, _get_extra = (attrgetter("attempts"), attrgetter("confidence"),
                                              attrgetter("extra"))


def snapshot_path(tasks_path: Path) -> Path:
    return tasks_path.with_name(f".{tasks_path.name}.snapshot")


def stale_writes(tasks_path: Path) -> list[Path]:
    """Temp files of snapshot writes a kill interrupted (``write_atomic``'s names)."""
    snapshot = snapshot_path(tasks_path)
    return list(snapshot.parent.glob(f".{snapshot.name}.*.tmp"))


def file_key(data: bytes, stat: os.stat_result) -> str:
    """Which bytes of tasks.csv a snapshot holds: size, mtime and SHA-256 of ``data``, the
    bytes read (or written) under that stat."""
    return f"{stat.st_size}:{stat.st_mtime_ns}:{hashlib.sha256(data).hexdigest()}"


@dataclass(frozen=True)
class Snapshot:
    """The parsed file: its codec and separator, its columns, each task's field values in
    the file's order (``extra`` a plain dict)."""

    encoding: str
    delimiter: str
    columns: list[str]
    rows: list[dict[str, Any]]


def read_snapshot(tasks_path: Path, key: str) -> Snapshot | None:
    """The snapshot of the file whose ``file_key`` is ``key``; None when there is none for
    those bytes or it cannot be read as one."""
    try:
        with open(snapshot_path(tasks_path), "rb") as f:
            if f.readline() != _MAGIC:
                return None
            header = json.loads(f.readline())
            if header.get("key") != key or header.get("fields") != list(FIELD_NAMES):
                return None
            rows = load_plain(f)  # from the file: no 45 MB copy of it at 100,000 tasks
        encoding, delimiter, columns = header["encoding"], header["delimiter"], header["columns"]
    except Exception:  # noqa: BLE001 — a cache in any state it should not be in is ignored
        return None
    fine = (isinstance(rows, list) and isinstance(columns, list)
            and all(isinstance(c, str) for c in columns)
            and isinstance(encoding, str) and isinstance(delimiter, str))
    return Snapshot(encoding, delimiter, columns, rows) if fine else None


def tasks_listed(tasks_path: Path) -> int | None:
    """How many tasks the list holds, as its snapshot's header says, when the snapshot is of
    a file of this size and mtime (not hashed: an answer "about", for what a face says while
    the list is read); None when there is none to ask."""
    try:
        stat = os.stat(tasks_path)
        with open(snapshot_path(tasks_path), "rb") as f:
            if f.readline() != _MAGIC:
                return None
            header = json.loads(f.readline())
        count = header["tasks"]
        key = header["key"]
    except Exception:  # noqa: BLE001 — none, or not one this version wrote
        return None
    if (not isinstance(key, str) or type(count) is not int
            or not key.startswith(f"{stat.st_size}:{stat.st_mtime_ns}:")):
        return None
    return count


def records_read_back(tasks: Sequence[Task], texts: Sequence[Sequence[Any]],
                      columns: list[str]) -> bool:
    """Whether reading back the rows a save writes of ``tasks`` (``texts``: their text
    fields' values, grouped any way: ``rows_of``'s columns, each task's ``get_texts``) gives
    ``tasks``, so its records can be the file's snapshot: columns as written, texts without
    space at their ends (a read strips cells), whole numbers as ints,
    ``confidence`` at the three places it is written with, a cell in every person's column
    and no other. Almost always; checked a field at a time over every task at once."""
    if not (with_missing(columns) == columns and all(c and c == c.strip() for c in columns)):
        return False
    every_text = list(chain.from_iterable(texts))
    try:  # strip gives a text back as it is when there is nothing to take off
        if list(map(str.strip, every_text)) != every_text:
            return False
    except TypeError:  # a None or a number set into a text field
        return False
    if not {*map(type, chain.from_iterable(map(_get_integers, tasks)))} <= {int, type(None)}:
        return False
    if not {*map(type, map(_get_attempts, tasks))} <= {int}:
        return False
    confidences = [c for c in map(_get_confidence, tasks) if c is not None]
    if any(type(c) is not float or round(c, 3) != c for c in confidences):
        return False
    extras = frozenset(columns) - frozenset(COLUMNS)
    cells = list(map(_get_extra, tasks))
    if not extras:
        return not any(cells)
    return all(c.keys() == extras and all(type(v) is str for v in c.values()) for c in cells)


def write_snapshot(tasks_path: Path, key: str, encoding: str, delimiter: str,
                   columns: Iterable[str], tasks: Iterable[Task]) -> None:
    """Keep ``tasks`` (the file's records, in its order) as the snapshot of the bytes
    ``key`` names. Only under the list's lock (see the module). Raises OSError."""
    records = [t.__dict__ for t in tasks]
    payload = dump_plain(records)
    header = {"key": key, "fields": list(FIELD_NAMES), "encoding": encoding,
              "delimiter": delimiter, "columns": list(columns), "tasks": len(records)}
    write_atomic(snapshot_path(tasks_path),
                 b"".join((_MAGIC, json.dumps(header).encode() + b"\n", payload)))
