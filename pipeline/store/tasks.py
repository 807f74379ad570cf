"""The task list, tasks.csv: what the archive holds, in a file a person can edit in Excel.

Many writers share the file: a run, ``add`` and ``build`` in a terminal, the window, a person
in Excel. Each ``TaskStore`` remembers which cells it changed; a save takes the archive-wide
lock, reads the file again if anyone wrote it since, puts its own changes on top by task id
and field, and replaces the file atomically. So a writer never writes back what it did not
change, and nobody's work is lost to another's save. Changes are written in batches
(``save_if_due``) because a full rewrite per change would write gigabytes at 100,000 tasks;
the archive's stage outputs are the truth, so ``reconcile`` restores any status a kill lost.

The list's order is the file's row order: the order a person pasted links in, arranged in the
window (``arrange``, ``main.py move``) or by moving rows in Excel, and the order a book binds
by default. Why the rows themselves and not a position column: a person who drags rows in Excel
sees their order kept with nothing to renumber, and the file reads top to bottom as the book
does. An arrangement merges as a cell does, by what this writer changed: the store remembers
which tasks it moved (``_moved``), and a save puts each of them, on the file as it is then,
right before the task that follows it in this store's order and was not moved by it (the
leading ones at the top, the trailing ones at the end); every other row keeps the place the
file gives it, so another writer's or Excel's arrangement of other tasks stands, and of two
writers that moved one task the later save wins, as with any cell. New tasks go at the end.

A file that does not parse as it stands is never rewritten: loading raises ``TaskFileError``
naming the line and what to fix, before a store exists that could save over it. Every cell
Kuaibu writes is bounded (so the file always reads back) and inert (no cell starts a formula
when Excel opens the file); the cells and rows themselves are ``pipeline.store.task_csv``'s.

Why one module of some 860 lines: it is one class (and the read-only record it hands out), and
its reading, its change records and its merge keep one invariant together (a store holds the
file as last read plus its own changed cells, nothing else); split across modules, each half
would have to trust the other's private state.

Each task is held as a read-only ``SealedTask``, replaced whole when it changes: at 100,000 tasks
``tasks()`` copying every one per look took seconds (the window looked three times to open).

The small jobs do not grow with the list (issue 30): a store opened ``lazy`` over a list whose
mirror is of the file as it is (``task_mirror``) reads a few tasks by id (``some``, ``near``,
``get``) and the whole list only when more is asked for; a build's "done" marks are appended to
the journal beside the file (``task_journal``, ``mark_bound``), which every read applies and the
next save writes in, rather than rewriting 100,000 rows for one article.
"""

from __future__ import annotations

import csv
import io
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import FrozenInstanceError, fields, replace
from itertools import repeat
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

from pipeline.records.errors import DiskFull, ErrorKind, TaskFileError
from pipeline.records.task import (
    MAX_TEXT_CHARS,
    STATUS_OF,
    STATUSES,
    TASK_IDS,
    Status,
    Task,
    cap_text,
    failure_changes,
)
from pipeline.store.archive import ArchiveBusy, file_lock, utc_now, write_atomic
from pipeline.store.plain_pickle import collector_paused
from pipeline.store.task_csv import (
    BARE_LINK,
    COLUMNS,
    FIELD_NAMES,
    FORMULA_GUARD,
    MAX_CELL_CHARS,
    RETIRED_COLUMNS,
    TEXT_COLUMNS,
    Lookahead,
    RowFields,
    check_cells,
    check_swallowed,
    decode_tasks,
    guard_cell,
    parse_rows,
    rows_of,
    sniff_delimiter,
    split_row_end,
    unguard_cell,
    with_missing,
)
from pipeline.store.task_journal import (
    Entry,
    JournalKey,
    append_journal,
    journal_key,
    read_journal,
    remove_journal,
)
from pipeline.store.task_snapshot import (
    Snapshot,
    file_key,
    read_snapshot,
    records_read_back,
    stale_writes,
    write_snapshot,
)
from pipeline.web.urls import MAX_URL_CHARS, UrlRejected, check_url_length, normalize_url

if TYPE_CHECKING:  # SQLite and the near-duplicate blocks: imported by the lists that have one
    from pipeline.store.task_mirror import TaskMirror

# The share of a long run's time its batched saves may take (``save_interval``): a save's cost
# varies with the machine's load, so the pacing aims at half the 10 % a run may spend on them.
SAVE_SHARE = 0.05
# How long a writer waits for another to finish its save (a save of 100,000 tasks takes
# about two seconds) before it says the list is busy.
LOCK_WAIT_SECONDS = 60.0
# A list this long (about 3,000 tasks) is kept as a snapshot beside the file too (see
# ``task_snapshot``): shorter ones parse in well under a tenth of a second.
SNAPSHOT_FROM_BYTES = 1_000_000


_EXTRA = "extra:"  # a changed cell of a person's column is recorded as "extra:<name>"
_FileKey = tuple[int, int, int]  # inode, size, mtime: which version of the file was read


_UNSTAMPED = frozenset({"last_checked"})
_T = TypeVar("_T")


def _bounded(name: str, value: object) -> object:
    """A field value as the store keeps it: text cut so every cell written reads back."""
    if name == "extra" and isinstance(value, dict):
        return {k: cap_text(v, MAX_CELL_CHARS) if isinstance(v, str) else v
                for k, v in value.items()}
    if isinstance(value, str):
        return cap_text(value, MAX_TEXT_CHARS if name in TEXT_COLUMNS else MAX_CELL_CHARS)
    return value


def _settle(task: Task) -> None:
    """After any change: the status as a ``Status``, and a failure kind only while failed.
    The one place ``error_kind`` is cleared, so a task that is retried, reclaimed or edited
    out of "failed" never keeps the kind of a failure it no longer has."""
    task.status = Status(task.status)
    if task.status != Status.FAILED:
        task.error_kind = ""
    if not task.error:
        task.error_code = task.error_args = ""


def _file_key(stat: os.stat_result) -> _FileKey:
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def _changed_names(before: Task, after: Task) -> set[str]:
    """The fields (and person's cells, as "extra:<name>") that differ between two copies."""
    names = {name for name in COLUMNS if getattr(before, name) != getattr(after, name)}
    if before.extra != after.extra:
        names.update(_EXTRA + k for k in before.extra.keys() | after.extra.keys()
                     if before.extra.get(k) != after.extra.get(k))
    return names


def _arranged(theirs: dict[int, _T], mine: list[int], moved: set[int]) -> dict[int, _T]:
    """The file's tasks (``theirs``) in the file's order, with each task this store ``moved``
    put where ``mine`` (this store's order) has it: right before the next task in ``mine``
    that it did not move and the file holds; those before any such task at the top, those
    after the last at the end (see the module)."""
    top: list[int] = []
    before: dict[int, list[int]] = {}
    run: list[int] = []
    anchored = False
    for task_id in mine:
        if task_id not in theirs:
            continue  # gone from the file: another writer's removal stands
        if task_id in moved:
            run.append(task_id)
            continue
        if run:
            (before.setdefault(task_id, []) if anchored else top).extend(run)
            run = []
        anchored = True
    out = {i: theirs[i] for i in top}
    for task_id, task in theirs.items():
        if task_id in moved:
            continue
        for placed in before.get(task_id, ()):
            out[placed] = theirs[placed]
        out[task_id] = task
    for placed in run:
        out[placed] = theirs[placed]
    return out


_READ_ONLY = ("a task from TaskStore.tasks() is shared and read-only: change it through the"
              " store (update), or change a copy (dataclasses.replace)")


class _ReadOnlyCells(dict[str, str]):
    """A sealed task's person's cells: read as a dict, refused as a change (``dict(cells)``
    is a copy to change)."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(_READ_ONLY)

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict[str, str]:
        return dict(self)

    def __reduce__(self) -> tuple[type, tuple[dict[str, str]]]:
        return dict, (dict(self),)


def _plain_task(values: dict[str, Any]) -> Task:
    return Task(**values)


class SealedTask(Task):
    """A task as ``TaskStore.tasks()`` hands it out: one shared snapshot per version of the
    task (made when it changes, not per call), so 100,000 tasks are not copied at every look;
    shared, it refuses every change (``FrozenInstanceError``, its ``extra`` a TypeError), so no
    caller can change what the next one reads. ``dataclasses.replace`` of it is a plain
    ``Task`` to change; it equals a ``Task`` with the same values."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Task:  # type: ignore[misc]
        # dataclasses.replace calls the class: the copy it makes is a plain, changeable Task,
        # its person's cells its own
        if isinstance(kwargs.get("extra"), _ReadOnlyCells):
            kwargs["extra"] = dict(kwargs["extra"])
        return Task(*args, **kwargs)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError(_READ_ONLY)

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(_READ_ONLY)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Task):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in FIELD_NAMES)

    __hash__ = None  # type: ignore[assignment]  # as Task's: equal by value, not hashable

    def __copy__(self) -> Task:
        return replace(self, extra=dict(self.extra))

    def __reduce__(self) -> tuple[object, tuple[dict[str, Any]]]:
        return _plain_task, ({**self.__dict__, "extra": dict(self.extra)},)


def sealed(task: Task) -> SealedTask:
    """A read-only snapshot of ``task`` as it is now (see ``SealedTask``)."""
    return sealed_values(task.__dict__)


# Every field's default in the field order, the ones without (id, url) given by every row.
_ROW_TEMPLATE = {f.name: f.default for f in fields(Task) if f.name != "extra"}


def sealed_values(values: dict[str, Any]) -> SealedTask:
    """A read-only task of these field values (a row's: the fields it lacks at their defaults),
    made at once: a load does not make a Task to copy it into its snapshot."""
    snapshot: SealedTask = object.__new__(SealedTask)
    record = snapshot.__dict__
    record.update(_ROW_TEMPLATE)
    record.update(values)
    _share_repeats(record)
    return snapshot


_NO_CELLS = _ReadOnlyCells()  # read-only, so every task without a person's cells shares it
_RECORD_KEYS = frozenset(FIELD_NAMES)  # a record's keys, as a snapshot must hold them
_ID_OF, _EXTRA_OF = itemgetter("id"), itemgetter("extra")
_ID_OF_TASK, _URL_OF_TASK = attrgetter("id"), attrgetter("url")


def _read_only_cells(cells: dict[str, str]) -> _ReadOnlyCells:
    return _ReadOnlyCells(cells) if cells else _NO_CELLS


def _types(records: list[dict[str, Any]], name: str) -> set[type]:
    """The types the records' field ``name`` holds."""
    return {*map(type, map(itemgetter(name), records))}


def _consume(steps: Iterator[object]) -> None:
    deque(steps, maxlen=0)


def _share_repeats(record: dict[str, Any]) -> None:
    """A record's values that repeat across a list held once: its categories (a handful of
    names over 100,000 tasks) and an empty ``extra``; they were a twentieth of a 100k list's
    memory (issue 30: the window at 100k in 400 MB)."""
    record["cat1"], record["cat2"] = sys.intern(record["cat1"]), sys.intern(record["cat2"])
    record["extra"] = _read_only_cells(record["extra"])


class IdRecord(Protocol):
    """Where the highest id an archive ever gave is kept (``Archive``: archive.json and the
    ids its folders hold), so no id a page once had is given to another."""

    def highest_id(self) -> int: ...

    def record_highest_id(self, top: int) -> None: ...


class TaskStore:
    """Thread-safe view of tasks.csv that writes back only its own changes (see the module).

    ``ids``: the archive's record of the ids it has given. With it, a new task's id is above
    every id the archive ever held, not only the file's (a deleted last row, an emptied
    trash), and each save raises the record to the file's highest id before writing the file.
    ``vet``: asked of the file as others wrote it before it is merged (a save's merge too);
    what it raises (a list cut short) leaves the store and the file as they are, as a file
    that does not parse does. ``lazy``: read through the list's mirror until more than a few
    tasks are needed (see the module); the list read whole then is the file as it is then.
    """

    def __init__(self, path: Path, flush_seconds: float = 1.0,
                 ids: IdRecord | None = None,
                 vet: Callable[[TaskStore], None] | None = None, *,
                 lazy: bool = False) -> None:
        self.path = Path(path)
        self.flush_seconds = flush_seconds
        self._ids = ids
        self._vet = vet
        self._id_floor: int | None = None  # ids.highest_id() as last read (None: read again)
        self._recorded = 0  # the highest id this store has put in the record
        self._lock = threading.RLock()
        self._save_lock = threading.Lock()
        # each task as a read-only record (``SealedTask``), replaced whole when it changes:
        # ``tasks()`` hands these out as they are, no copy made; None while the list is read
        # through its mirror (``lazy``), read whole when first needed (``_tasks``)
        self._records: dict[int, SealedTask] | None = {}
        self._mirror: TaskMirror | None = None
        # the status changes journaled beside the file (``task_journal``), as last read
        self._journal: list[Entry] = []
        self._journal_seen: JournalKey | None = None
        self._by_url: dict[str, int] | None = {}  # None: made when first asked (``_urls``)
        self._max_id = 0
        self._columns: list[str] = list(COLUMNS)
        self._dirty = False
        self._last_save: float | None = None
        self._save_cost = 0.0  # seconds the last save took
        # what this store changed since it last wrote: cells by task id, whole new tasks,
        # removed ones; a save applies exactly these to the file as it then is
        self._touched: dict[int, set[str]] = {}
        self._added: set[int] = set()
        self._removed: dict[int, str] = {}  # id → URL of a task taken off the list
        self._moved: set[int] = set()  # tasks this store arranged (``arrange``)
        self._seen: _FileKey | None = None  # the version of the file the store holds
        # how the file is spelled, kept by a save: its codec and separator (a new file's:
        # UTF-8 with the BOM Excel needs, commas)
        self._encoding, self._delimiter = "utf-8-sig", ","
        self._load(lazy)

    @property
    def lock_path(self) -> Path:
        """The archive-wide lock every writer of the file holds while it saves."""
        return self.path.with_name(f".{self.path.name}.lock")

    @property
    def dirty(self) -> bool:
        """Whether the store holds changes the file does not have yet."""
        return self._dirty

    def exact_version(self) -> tuple[int, int, int, int] | None:
        """The list's inode, size, mtime and ctime when the store holds it exactly as it is
        on disk (no unsaved change, no other version written since it read it); else None.
        No program sets a ctime: a hand edit put back to the old size and mtime still shows."""
        held = self.file_version
        if held is None:
            return None
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None
        if _file_key(stat) != held:
            return None
        return stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns

    @property
    def _tasks(self) -> dict[int, SealedTask]:
        """Every task, the list read whole the first time a lazily opened store needs more
        than a few tasks (``lazy``)."""
        with self._lock:
            if self._records is None:
                self._read_whole()
            assert self._records is not None
            return self._records

    @_tasks.setter
    def _tasks(self, tasks: dict[int, SealedTask]) -> None:
        self._records = tasks

    @property
    def file_version(self) -> _FileKey | None:
        """The version of tasks.csv (inode, size, mtime) this store holds exactly: None while
        it holds changes the file lacks, or when there is no file."""
        with self._lock:
            return None if self._dirty else self._seen

    # -- reading -----------------------------------------------------------------------------

    def _load(self, lazy: bool = False) -> None:
        """Every row is read and checked inside the constructor: a problem anywhere raises
        from it, so no store exists that could save a half-read list over the file. The
        snapshot of these very bytes, when there is one, stands for parsing them. ``lazy``:
        a list whose mirror is of the file as it is (``task_mirror``: made from a whole read
        of these very bytes, so they parse) is not read until more than a few of its tasks
        are asked for. The journal's status changes go on top either way."""
        if lazy and self._open_mirror():
            return
        self._read_file()
        self._take_journal()

    def _open_mirror(self) -> bool:
        """Read the list through its mirror; False when it has none for the file as it is."""
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return False
        if stat.st_size < SNAPSHOT_FROM_BYTES:
            return False
        from pipeline.store.task_mirror import TaskMirror

        mirror = TaskMirror.of(self.path, stat)
        if mirror is None:
            return False
        self._mirror, self._records, self._seen = mirror, None, _file_key(stat)
        self._by_url = None
        self._take_journal()
        return True

    def _read_whole(self) -> None:
        """The list read whole, for a store opened through the mirror: the file as it is now
        (vetted when it is no longer the one the mirror is of), taken as a merge would."""
        fresh = TaskStore(self.path, self.flush_seconds, self._ids)
        if self._vet is not None and fresh._seen != self._seen:
            self._vet(fresh)
        self._adopt(fresh)

    def _adopt(self, fresh: TaskStore) -> None:
        """Take a whole read's list as this store's (one that held no change of its own)."""
        assert fresh._records is not None
        self._records, self._by_url = fresh._records, fresh._by_url
        self._max_id, self._columns, self._seen = fresh._max_id, fresh._columns, fresh._seen
        self._encoding, self._delimiter = fresh._encoding, fresh._delimiter
        self._journal, self._journal_seen = fresh._journal, fresh._journal_seen
        self._dirty = fresh._dirty
        if self._mirror is not None:
            self._mirror.close()
            self._mirror = None

    def _take_journal(self) -> bool:
        """Read the journal again when it changed since last read, and apply it to the tasks
        held (compare-and-set: ``task_journal``); whether a task's status moved."""
        key = journal_key(self.path)
        if key == self._journal_seen:
            return False
        self._journal, self._journal_seen = read_journal(self.path)
        if self._records is None:
            return bool(self._journal)
        changed = False
        for entry in self._journal:
            task = self._records.get(entry.task_id)
            if task is not None and task.status == entry.before:
                self._records[entry.task_id] = sealed(replace(task, status=entry.after,
                                                              updated_at=entry.at))
                changed = True
        return changed

    def _read_file(self) -> None:
        """The file read whole: from its snapshot, else parsed (see ``_load``)."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
                stat = os.fstat(f.fileno())
        except FileNotFoundError:
            return
        self._seen = _file_key(stat)
        key = file_key(data, stat) if len(data) >= SNAPSHOT_FROM_BYTES else None
        with collector_paused():
            if key is not None and self._restore(read_snapshot(self.path, key)):
                return
            kept = self._parse(data)
        if key is not None and kept:
            try:  # a read never waits for a writer: the snapshot is the next save's then
                with file_lock(self.lock_path, 0, ""):
                    self._keep_snapshot(key)
            except (OSError, ArchiveBusy, DiskFull):
                pass  # a folder this process cannot write: parsed again next time

    def _parse(self, data: bytes) -> bool:
        """The file's bytes to tasks; whether the store now is what parsing them always
        gives (no row typed in without an id: those get ids from the archive's record)."""
        text, self._encoding = decode_tasks(data, self.path)
        self._delimiter = delimiter = sniff_delimiter(text)
        rows = parse_rows(text, delimiter, self.path)
        first = next(rows, None)
        if first is None:
            return False
        header = [unguard_cell(h.strip()) for h in first[1]]
        if "url" not in header:
            raise TaskFileError(f"{self.path}, line 1: no 'url' column in the header")
        body: Iterable[tuple[int, list[str]]] = rows
        if "" in header:  # rare: which unnamed columns hold something takes a pass first
            body = list(rows)
            keep = self._kept_columns(header, body)
        else:
            keep = self._kept_columns(header, [])
        self._columns = with_missing([header[i] for i in keep])
        return self._read_rows(Lookahead(body), header, keep, delimiter)

    def _restore(self, snapshot: Snapshot | None) -> bool:
        """Take the tasks from a snapshot of the file; False (the store untouched) when there
        is none or it does not hold records as this version makes them. Each check and step
        is a builtin mapped over every record (no Python step per task: a fifth of a second
        at 100,000 tasks before): the records' keys and the types of the fields the store
        relies on, then each record made the ``__dict__`` of a task. A category is already
        held once (the snapshot's memo wrote each name once); a person's cells are made
        read-only, the empty ones shared."""
        if snapshot is None:
            return False
        rows = snapshot.rows
        try:
            # records of as many keys as a task has fields, every key a field's name
            if not ({*map(type, rows)} <= {dict} and {*map(len, rows)} <= {len(_RECORD_KEYS)}
                    and set().union(*rows) <= _RECORD_KEYS
                    and _types(rows, "id") <= {int} and _types(rows, "status") <= {Status}
                    and _types(rows, "extra") <= {dict}):
                return False
        except TypeError:  # not a list
            return False
        _consume(map(dict.__setitem__, rows, repeat("extra"),
                     map(_read_only_cells, map(_EXTRA_OF, rows))))
        made = list(map(object.__new__, repeat(SealedTask, len(rows))))
        _consume(map(object.__setattr__, made, repeat("__dict__"), rows))
        tasks = dict(zip(map(_ID_OF, rows), made, strict=True))
        if len(tasks) != len(rows):
            return False
        self._encoding, self._delimiter = snapshot.encoding, snapshot.delimiter
        self._columns = snapshot.columns
        self._tasks = tasks
        self._max_id = max(tasks, default=0)
        # as ``_put`` makes it: the first task of a URL in the list's order, duplicates not
        self._by_url = None  # 100,000 links hashed only when one is looked up
        return True

    @property
    def _urls(self) -> dict[str, int]:
        """Each link's task: the first in the list's order that is not a duplicate (as
        ``_put`` makes it)."""
        if self._by_url is None:
            kept = [t for t in self._tasks.values() if t.status is not Status.DUPLICATE]
            kept.reverse()
            self._by_url = dict(zip(map(_URL_OF_TASK, kept), map(_ID_OF_TASK, kept),
                                    strict=True))
        return self._by_url

    def _keep_snapshot(self, key: str) -> None:
        """Keep the store's tasks as the snapshot of the file's bytes ``key`` names (the list's
        lock held). Raises OSError."""
        for stale in stale_writes(self.path):
            stale.unlink(missing_ok=True)  # a write a kill interrupted
        write_snapshot(self.path, key, self._encoding, self._delimiter, self._columns,
                       self._tasks.values())

    def _kept_columns(self, header: list[str], body: list[tuple[int, list[str]]]) -> list[int]:
        """Indexes of the header's columns worth keeping; a header a save would lose by is an
        error. Two columns of one name would be saved as one; columns without a name are kept
        when they hold something (one at most: two would collide) and dropped when empty
        (Excel's trailing commas); retired columns are dropped."""
        seen: dict[str, int] = {}
        for i, name in enumerate(header):
            if name and name in seen:
                raise TaskFileError(f"{self.path}, line 1: columns {seen[name] + 1} and {i + 1}"
                                    f" are both named {name!r}; a save would keep one: rename one")
            seen.setdefault(name, i)
        unnamed = [i for i, name in enumerate(header) if not name
                   and any(i < len(row) and row[i].strip() for _, row in body)]
        if len(unnamed) > 1:
            raise TaskFileError(f"{self.path}, line 1: columns {unnamed[0] + 1} and"
                                f" {unnamed[1] + 1} have no name but hold cells; name them")
        return [i for i, name in enumerate(header)
                if (name or i in unnamed) and name not in RETIRED_COLUMNS]

    def _read_rows(self, rows: Lookahead, header: list[str], keep: list[int],
                   delimiter: str) -> bool:
        """Rows to tasks; False when a person typed rows in without ids. Column parsers are
        looked up once: 100,000 rows load in about a second."""
        width = len(header)
        row_fields = RowFields(header, keep)
        id_at = header.index("id") if "id" in header else None
        url_at = header.index("url")
        typed_in: list[tuple[int, list[str]]] = []
        typed_at: list[int] = []  # how many tasks precede each typed-in row (its place)
        for line, row in rows:
            if len(row) != width:
                row = self._fit(line, row, rows, width, id_at)
            joined = "".join(row)  # one scan of the row's text answers the cheap questions
            if not joined.strip():
                continue
            # a cell holding a whole row holds its commas: few cells hold width - 1 of them
            if joined.count(delimiter) >= width - 1 and ("\n" in joined or "\r" in joined):
                check_swallowed(self.path, line, row, width, delimiter, url_at, id_at)
            if len(joined) > MAX_CELL_CHARS:
                check_cells(self.path, line, row, header)
            url = row[url_at].strip()
            if id_at is None or not row[id_at].strip():
                if not BARE_LINK.match(unguard_cell(url)):
                    raise TaskFileError(
                        f"{self.path}, line {line}: a row without an id and without a link in"
                        f" the url column ({url[:40]!r}); put the link there or delete the row")
                typed_in.append((line, row))
                typed_at.append(len(self._tasks))
            elif not url:
                raise TaskFileError(f"{self.path}, line {line}: task {row[id_at].strip()[:40]}"
                                    " has no link in the url column; put it back or delete the row")
            else:
                self._put(sealed_values(self._row_values(row, line, row_fields,
                                                         guarded=FORMULA_GUARD in joined)))
        for line, row in typed_in:  # rows a person added: they get ids after the rest
            self._adopt_row(row, line, row_fields)
        if typed_in:  # ... and keep the place they were typed in
            order = list(self._tasks)
            held, adopted = order[:-len(typed_in)], order[-len(typed_in):]
            for shift, (at, task_id) in enumerate(zip(typed_at, adopted, strict=True)):
                held.insert(at + shift, task_id)
            self._tasks = {i: self._tasks[i] for i in held}
        return not typed_in

    def _fit(self, line: int, row: list[str], rows: Lookahead, width: int,
             id_at: int | None) -> list[str]:
        """A short row made the header's width, or an error where the length hides data:
        cells past the header have no column (and mean the cells before them may be shifted);
        a short row is a person's (a typed-in URL) unless it is a row broken in pieces."""
        if len(row) > width:
            # even empty cells past the header: an unquoted comma shifts the cells after it
            # into the wrong columns, and Kuaibu's last column is often empty
            spill = next((j for j in range(width, len(row)) if row[j].strip()), width)
            raise TaskFileError(
                f"{self.path}, line {line}: {len(row)} cells but the header has {width};"
                f" cell {spill + 1} ({row[spill][:40]!r}) has no column"
                " (a comma inside a cell needs quotes, a new column a name in line 1)"
            )
        end = split_row_end(row, rows, width, id_at)
        if end is not None:
            raise TaskFileError(
                f"{self.path}, line {line}: the row is cut in pieces by line breaks up to line"
                f" {end} ({len(row)} of its {width} cells here); join the lines, or put the"
                " cell holding a line break in quotes"
            )
        return row + [""] * (width - len(row))

    def _row_values(self, row: list[str], line: int, row_fields: RowFields,
                    task_id: int | None = None, guarded: bool = True) -> dict[str, Any]:
        """One row's Task fields, checked (those it lacks: their defaults). ``guarded=False``
        says no cell holds FORMULA_GUARD, so text cells are only stripped (most rows)."""
        try:
            values = row_fields.values(row, guarded)
        except ValueError:
            name, cell = row_fields.bad_number(row)
            raise TaskFileError(
                f"{self.path}, line {line}: column {name!r} must be a number, not {cell[:40]!r}"
            ) from None
        if task_id is not None:
            values["id"] = task_id
        status = STATUS_OF.get(str(values.get("status") or Status.PENDING))
        if status is None:
            raise TaskFileError(
                f"{self.path}, line {line}: unknown status {str(values['status'])[:40]!r}"
                f" (one of: {', '.join(STATUSES)})"
            )
        values["status"] = status
        if values["id"] not in TASK_IDS:
            raise TaskFileError(f"{self.path}, line {line}: id {str(values['id'])[:40]} is out of"
                                f" range; an id is a whole number from 1 to {TASK_IDS[-1]:,}")
        if values["id"] in self._tasks:
            raise TaskFileError(f"{self.path}, line {line}: id {values['id']} appears twice")
        values["extra"] = row_fields.extras(row, guarded)
        return values

    def _adopt_row(self, row: list[str], line: int, row_fields: RowFields) -> None:
        """A row typed in by a person (no id): give it an id and a normalized URL."""
        task = Task(**self._row_values(row, line, row_fields, task_id=self._next_id()))
        task.original_url = task.original_url or task.url
        task.added_at = task.added_at or utc_now()
        try:
            check_url_length(task.url)
            url = normalize_url(task.url)
            check_url_length(url, encoded=True)
            task.url = url
        except UrlRejected as e:
            task.status, task.error_kind = Status.FAILED, e.kind
            for name, value in failure_changes(e.failure).items():
                setattr(task, name, value)
        if task.status != Status.FAILED and task.url in self._urls:
            task.status, task.duplicate_of = Status.DUPLICATE, self._urls[task.url]
        self._put(sealed(task))  # not a change: a read never writes; the id is saved with the next

    def _put(self, task: SealedTask) -> None:
        self._tasks[task.id] = task
        self._max_id = max(self._max_id, task.id)
        if task.status != Status.DUPLICATE:
            self._urls.setdefault(task.url, task.id)

    def _next_id(self, above: int = 0) -> int:
        """The id a new task gets: above every id this store, the file and the archive's
        record hold (and ``above``)."""
        if self._id_floor is None:
            self._id_floor = self._ids.highest_id() if self._ids is not None else 0
        task_id = max(self._max_id, self._id_floor, above) + 1
        if task_id not in TASK_IDS:
            raise TaskFileError(f"{self.path}: no task id left above {task_id - 1:,}")
        return task_id

    def __len__(self) -> int:
        with self._lock:
            return len(self._tasks)

    def get(self, task_id: int) -> Task:
        with self._lock:
            if self._records is None:
                found = self.some([task_id])
                if not found:
                    raise KeyError(task_id)
                return replace(found[0], extra=dict(found[0].extra))
            return replace(self._tasks[task_id], extra=dict(self._tasks[task_id].extra))

    def some(self, task_ids: Iterable[int]) -> list[Task]:
        """Those of these tasks the list holds (the trash's too), in the list's order, as
        ``tasks()`` hands them out: read through the mirror while the list is not read
        whole (a one-article build reads one task, not 100,000)."""
        with self._lock:
            if self._records is None:
                assert self._mirror is not None
                return self._from_mirror(self._mirror.records(task_ids))
            wanted = set(task_ids)
            return [t for t in self._records.values() if t.id in wanted]

    def near(self, fingerprints: Iterable[str], max_bits: int) -> list[Task]:
        """The tasks (the trash's too, in the list's order) among which every task whose
        fingerprint lies within ``max_bits`` of one of ``fingerprints`` is: through the
        mirror, those sharing an indexed block (``SimIndex.probes``); else every task."""
        with self._lock:
            if self._records is None:
                assert self._mirror is not None
                return self._from_mirror(self._mirror.near(list(fingerprints), max_bits))
            return list(self._records.values())

    def _from_mirror(self, records: list[dict[str, Any]]) -> list[Task]:
        """The mirror's records as tasks, the journal's changes on top."""
        changes = {e.task_id: e for e in self._journal}
        for record in records:
            entry = changes.get(record["id"])
            if entry is not None and record["status"] == entry.before:
                record.update(status=entry.after, updated_at=entry.at)
        return [sealed_values(record) for record in records]

    def keep_mirror(self) -> bool:
        """Keep the list read whole as its mirror (``task_mirror``), for the next one-task
        job, when it is long enough to have a snapshot, holds the file exactly as it is
        and the list's lock is free at once; whether one was written. A folder that cannot
        be written keeps none."""
        with self._lock:
            if self._records is None or self._dirty:
                return False
            records = [t.__dict__ for t in self._records.values()]
        import sqlite3

        from pipeline.store.task_mirror import TaskMirror, stale_mirror_writes, write_mirror

        try:
            with file_lock(self.lock_path, 0, ""):
                stat = os.stat(self.path)
                if (_file_key(stat) != self._seen or stat.st_size < SNAPSHOT_FROM_BYTES
                        or journal_key(self.path) != self._journal_seen):
                    return False
                if (kept := TaskMirror.of(self.path, stat)) is not None:
                    kept.close()  # one of this very file already
                    return False
                for stale in stale_mirror_writes(self.path):
                    stale.unlink(missing_ok=True)  # a write a kill interrupted
                return write_mirror(self.path, stat, records)
        except (OSError, ArchiveBusy, sqlite3.Error):
            return False

    def mark_bound(self, task_ids: Iterable[int]) -> list[int]:
        """Mark done those of these tasks that are localized (bound into a book), on the
        list as it is; the ids marked. Appended to the journal beside the file
        (``task_journal``: no rewrite of 100,000 rows for one article), or saved into the
        file when the journal is long or cannot be written."""
        with self._save_lock, file_lock(self.lock_path, LOCK_WAIT_SECONDS, self._busy()):
            self._merge_file()
            now = utc_now()
            entries = [Entry(t.id, Status.LOCALIZED, Status.DONE, now)
                       for t in self.some(task_ids) if t.status == Status.LOCALIZED]
            if not entries:
                return []
            try:
                journaled = append_journal(self.path, entries)
            except OSError:
                journaled = False
            with self._lock:
                if journaled:
                    self._take_journal()
                else:
                    for entry in entries:
                        self.update(entry.task_id, status=Status.DONE)
            if not journaled:
                self._save_locked()
            return [e.task_id for e in entries]

    def tasks(self) -> list[Task]:
        """The tasks in the list's order (see the module), safe to read while workers update
        the store: the store's read-only records (``SealedTask``; a change replaces a task's
        record, never changes one handed out), so a look costs a list, not 100,000 copies.
        The list is the caller's own."""
        with self._lock:
            return list(self._tasks.values())

    def ids(self) -> set[int]:
        """The ids the list holds, the trash's too (no copy of the tasks made)."""
        with self._lock:
            return set(self._tasks)

    def held(self, task_ids: Iterable[int]) -> set[int]:
        """Those of ``task_ids`` the list holds outside the trash: each looked up, not the
        list gone through (a search's fifty hits at 100,000 tasks)."""
        with self._lock:
            if self._records is None:
                return {t.id for t in self.some(task_ids) if not t.deleted}
            return {i for i in task_ids
                    if (task := self._tasks.get(i)) is not None and not task.deleted}

    def find_url(self, url: str) -> int | None:
        """The id of the task holding this normalized URL."""
        with self._lock:
            return self._urls.get(url)

    @property
    def columns(self) -> list[str]:
        with self._lock:
            self._tasks  # noqa: B018 — the columns are the file's: read it when not yet read
            return list(self._columns)

    # -- changing ----------------------------------------------------------------------------

    def add(self, url: str, original_url: str = "", cat1: str = "", cat2: str = "",
            title: str = "") -> Task:
        """A new pending task for a normalized URL that the store does not hold yet.

        Links longer than MAX_URL_CHARS are refused here too (intake rejects them with the
        reason first): a URL cut short would name another page.
        """
        for link in (url, original_url):
            if len(link) > MAX_URL_CHARS:
                raise ValueError(f"link of {len(link):,} characters; the longest taken is"
                                 f" {MAX_URL_CHARS:,}")
        with self._lock:
            if url in self._urls:
                raise ValueError(f"already in the task list as #{self._urls[url]}: {url}")
            now = utc_now()
            task = Task(id=self._next_id(), url=url, original_url=original_url or url,
                        title=cap_text(title), cat1=cap_text(cat1, MAX_CELL_CHARS),
                        cat2=cap_text(cat2, MAX_CELL_CHARS), added_at=now, updated_at=now)
            self._put(sealed(task))
            self._added.add(task.id)
            self._dirty = True
            return replace(task)

    def insert(self, task: Task) -> Task:
        """A task that keeps the id it has (``recover`` brings one back from its record in
        00_raw), at the end of the list; ValueError when the list holds its id or its URL
        already."""
        if task.id not in TASK_IDS:
            raise ValueError(f"id {task.id} is out of range")
        with self._lock:
            if task.id in self._tasks or task.url in self._urls:
                raise ValueError(f"#{task.id} or {task.url} is in the task list already")
            task = replace(task, extra=dict(task.extra))
            for name in FIELD_NAMES:
                setattr(task, name, _bounded(name, getattr(task, name)))
            _settle(task)
            self._put(sealed(task))
            self._added.add(task.id)
            self._dirty = True
            return replace(task, extra=dict(task.extra))

    def update(self, task_id: int, **changes: object) -> Task:
        """Change fields of one task; the change reaches tasks.csv with the next save.

        Text is bounded on the way in (``_bounded``): titles and errors from remote pages to
        MAX_TEXT_CHARS, so the store holds what the file will read back as.
        """
        bad = set(changes) - set(COLUMNS) - {"extra"}
        if bad or "id" in changes or "url" in changes:
            refused = sorted(bad | ({"id", "url"} & set(changes)))
            raise ValueError(f"cannot set {', '.join(refused)}")
        if "status" in changes and changes["status"] not in STATUSES:
            raise ValueError(f"unknown status {changes['status']!r}")
        if changes.get("error_kind") and changes["error_kind"] not in set(ErrorKind):
            raise ValueError(f"unknown error kind {changes['error_kind']!r}")
        with self._lock:
            before = self._tasks[task_id]
            task = replace(before, extra=dict(before.extra))
            for name, value in changes.items():
                setattr(task, name, _bounded(name, value))
            return self._changed(before, task)

    def mutate(self, task_id: int, change: Callable[[Task], None]) -> Task:
        """Read-modify-write one task under the store's lock (e.g. ``attempts += 1``)."""
        with self._lock:
            before = self._tasks[task_id]
            task = replace(before, extra=dict(before.extra))
            change(task)
            for name in FIELD_NAMES:  # whatever ``change`` set, bounded as ``update`` does
                setattr(task, name, _bounded(name, getattr(task, name)))
            return self._changed(before, task)

    def _changed(self, before: Task, task: Task) -> Task:
        """After an edit of a copy (lock held): settle the task, stamp it, remember what
        changed, and put its record in place of ``before``; the copy is the caller's. A
        refresh that found the article as it was changes only ``last_checked``: that is no
        change to the task, and ``updated_at`` stays."""
        _settle(task)
        names = _changed_names(before, task)
        if not names <= _UNSTAMPED:
            task.updated_at = utc_now()
            names |= {"updated_at"}
        self._touched.setdefault(task.id, set()).update(names)
        self._dirty = True
        self._tasks[task.id] = sealed(task)
        return task

    def arrange(self, task_ids: Iterable[int], before: int | None) -> None:
        """Move tasks, in the order given, to right before task ``before`` (None: to the end
        of the list); saved as this store's change (see the module). KeyError for an id the
        list does not hold; ValueError when ``before`` is one of the tasks moved."""
        moving = list(dict.fromkeys(task_ids))
        with self._lock:
            for task_id in (*moving, *([] if before is None else [before])):
                if task_id not in self._tasks:
                    raise KeyError(task_id)
            if before in moving:
                raise ValueError(f"#{before} cannot go before itself")
            chosen = set(moving)
            order = [i for i in self._tasks if i not in chosen]
            at = len(order) if before is None else order.index(before)
            order[at:at] = moving
            self._tasks = {i: self._tasks[i] for i in order}
            self._moved |= chosen
            self._dirty = True

    def order(self) -> list[int]:
        """The ids in the list's order (the trash's too), without copying a task."""
        with self._lock:
            return list(self._tasks)

    def places(self, task_ids: Iterable[int]) -> list[tuple[list[int], int | None]]:
        """Where these tasks stand: each run of them in the list's order with the task it
        stands before (None: at the end), so ``arrange`` of each puts them back there."""
        chosen = set(task_ids)
        runs: list[tuple[list[int], int | None]] = []
        run: list[int] = []
        with self._lock:
            for task_id in self._tasks:
                if task_id in chosen:
                    run.append(task_id)
                elif run:
                    runs.append((run, task_id))
                    run = []
        return runs + ([(run, None)] if run else [])

    def remove(self, task_ids: Iterable[int]) -> None:
        with self._lock:
            for task_id in task_ids:
                task = self._tasks.pop(task_id)
                if self._urls.get(task.url) == task_id:
                    del self._urls[task.url]
                self._touched.pop(task_id, None)
                self._moved.discard(task_id)
                if task_id in self._added:
                    self._added.discard(task_id)
                else:
                    self._removed[task_id] = task.url
            self._dirty = True

    def reconcile(self, stage_reached: Callable[[Task], Status]) -> int:
        """Make statuses agree with the archive after a crash or a hand edit.

        ``stage_reached(task)`` names the furthest stage whose output for that task exists
        ("pending" when none); it is asked of every task, failed and duplicate ones too (it
        may set aside outputs that are another page's). A "running" task goes back to that
        stage; a progress status ahead of or behind the outputs is moved to match. Failed
        and duplicate tasks keep their status. Returns how many tasks changed.
        """
        changed = 0
        with self._lock:
            for task in list(self._tasks.values()):
                reached = stage_reached(task)
                if task.status in (Status.FAILED, Status.DUPLICATE):
                    continue
                if task.status == Status.DONE and reached == Status.LOCALIZED:
                    continue  # "done" (bound into a book) leaves no output of its own
                if task.status != reached:
                    self._tasks[task.id] = sealed(replace(task, status=Status(reached)))
                    self._touched.setdefault(task.id, set()).add("status")
                    changed += 1
            if changed:
                self._dirty = True
        return changed

    # -- writing -----------------------------------------------------------------------------

    def save(self, snapshot: bool = True) -> bool:
        """Put this store's changes into tasks.csv now: under the archive-wide lock, merged
        into the file as it is (``merge_file``), written temp file → fsync → rename, so
        readers see the old file or the new, never a torn one. Nothing changed and the file
        there: nothing is written. A file that no longer parses raises ``TaskFileError`` and
        is left as it is; the changes stay in the store for the next save. True when the
        merge took in what another writer saved meanwhile (the list changed under its
        reader: nothing watching the file sees that change once this save has written it).

        Text cells go through ``guard_cell``: no cell of the file starts a formula in Excel.
        ``snapshot``: a long list's snapshot is kept beside it too (``task_snapshot``; a
        third more than the save at 100,000 tasks): not for a run's batched saves, which the
        next batch makes old (the next read that parses keeps one, the run's last save too).
        """
        with self._save_lock, file_lock(self.lock_path, LOCK_WAIT_SECONDS, self._busy()):
            return self._save_locked(snapshot)

    @contextmanager
    def transaction(self) -> Iterator[TaskStore]:
        """Read, change and write under one hold of the lock: changes decided on the file as
        it is (an add whose ids and duplicate checks no other writer can overtake)."""
        with self._save_lock, file_lock(self.lock_path, LOCK_WAIT_SECONDS, self._busy()):
            self._merge_file()
            yield self
            self._save_locked()

    def _busy(self) -> str:
        return (f"{self.path} has been held by another writer for {LOCK_WAIT_SECONDS:.0f} s;"
                " try again when it is done")

    def _save_locked(self, snapshot: bool = True) -> bool:
        """``save`` under the lock; whether another writer's changes were taken in."""
        started = time.monotonic()
        for stale in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            stale.unlink(missing_ok=True)  # a write that a kill interrupted (under the lock:
            # no other writer's temp file can be in progress)
        merged = self._merge_file()
        with self._lock:
            if not self._dirty and self._seen is not None:
                return merged
            # the records, in the list's order: read-only, so the rows are made after the
            # lock is let go (a run's workers are not held up while 100,000 rows are formatted)
            snapshots = list(self._tasks.values())
            columns = list(self._columns)
            encoding, delimiter = self._encoding, self._delimiter
            pending = self._touched, self._added, self._removed, self._moved
            self._touched, self._added, self._removed, self._moved = {}, set(), {}, set()
            self._dirty = False
        buf = io.StringIO(newline="")
        writer = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
        writer.writerow([guard_cell(c) for c in columns])
        with collector_paused():  # 100,000 rows, no cycle among them
            rows, texts = rows_of(snapshots, columns)
            writer.writerows(rows)
        top = max(map(_ID_OF_TASK, snapshots), default=0)
        data = buf.getvalue().encode(encoding)
        try:
            if self._ids is not None and top > self._recorded:
                # before the file: a kill between the two leaves the record ahead, not behind
                self._ids.record_highest_id(top)
                self._recorded = top
            # what was written, not the path's stat after: Excel takes no lock
            written = write_atomic(self.path, data)
            self._seen = _file_key(written)
            if self._journal_seen is not None:  # every entry is in the file now (the lock
                remove_journal(self.path)  # held since the merge read it: none since)
                self._journal, self._journal_seen = [], None
        except BaseException:
            with self._lock:  # not written: the changes wait for the next save
                for task_id, names in pending[0].items():
                    self._touched.setdefault(task_id, set()).update(names)
                self._added |= pending[1]
                self._removed |= pending[2]
                self._moved |= pending[3]
                self._dirty = True
            raise
        if snapshot and len(data) >= SNAPSHOT_FROM_BYTES:
            self._save_snapshot(file_key(data, written), snapshots, texts, columns, encoding,
                                delimiter)
        self._last_save = time.monotonic()
        self._save_cost = self._last_save - started
        return merged

    def _save_snapshot(self, key: str, snapshots: list[SealedTask],
                       texts: list[list[Any]], columns: list[str], encoding: str,
                       delimiter: str) -> None:
        """The records just written as the file's snapshot, when reading the file back gives
        exactly them (see ``records_read_back``); else none, and the next read parses and keeps one.
        A snapshot that cannot be written is no failure of the save."""
        with collector_paused():  # a tuple a task is checked, nothing cyclic
            exact = records_read_back(snapshots, texts, columns)
        try:
            for stale in stale_writes(self.path):
                stale.unlink(missing_ok=True)  # a write a kill interrupted
            if exact:
                write_snapshot(self.path, key, encoding, delimiter, columns, snapshots)
        except (OSError, DiskFull):
            pass

    def merge_file(self) -> bool:
        """Take in what others wrote to the file since this store read or wrote it, with this
        store's unsaved changes kept on top. False when the file is as the store last saw it.
        Raises ``TaskFileError`` (the store unchanged) when the file no longer parses, and
        what the store's ``vet`` raises on the file as it is, the store unchanged too.

        Never beside this store's own save (another thread's): a save clears the changes it
        writes before the file is in place, so a file read meanwhile — the one before, or the
        one written and not yet noted as seen — merged without them would undo them in memory
        while the file holds them, and nothing would read the file again (a task restored by
        Undo stayed in the trash in the window)."""
        with self._save_lock:
            return self._merge_file()

    def _merge_file(self) -> bool:
        """``merge_file`` with the save lock held."""
        try:
            key = _file_key(self.path.stat())
        except FileNotFoundError:
            key = None
        self._id_floor = None  # another writer may have given ids since
        if key == self._seen:
            with self._lock:
                return self._take_journal()
        fresh = TaskStore(self.path, self.flush_seconds, self._ids)
        if self._vet is not None:
            self._vet(fresh)
        with self._lock:
            if self._records is None:  # read through the mirror: nothing of its own to keep
                self._adopt(fresh)
            else:
                self._merge(fresh)
        return True

    def _merge(self, fresh: TaskStore) -> None:
        """The file's tasks (``fresh``) with this store's changes applied (lock held).

        A change goes to the task of the same id and URL: a task removed from the file, or an
        id that now names another page, takes none (a person's removal stands). A task this
        store added whose URL another writer added meanwhile is dropped for theirs; one whose
        id another took gets the next free id.
        """
        tasks = fresh._tasks
        for task_id, url in self._removed.items():
            if task_id in tasks and tasks[task_id].url == url:
                del tasks[task_id]
        for task_id, names in self._touched.items():
            mine, theirs = self._tasks.get(task_id), tasks.get(task_id)
            if task_id in self._added or mine is None or theirs is None or theirs.url != mine.url:
                continue
            theirs = replace(theirs, extra=dict(theirs.extra))
            for name in names:
                if name.startswith(_EXTRA):
                    column = name[len(_EXTRA):]
                    if column in mine.extra:
                        theirs.extra[column] = mine.extra[column]
                    else:
                        theirs.extra.pop(column, None)
                else:
                    setattr(theirs, name, getattr(mine, name))
            tasks[task_id] = sealed(theirs)
        added: set[int] = set()
        renamed: dict[int, int] = {}
        for task_id in sorted(self._added):
            mine = self._tasks[task_id]
            if mine.url in fresh._urls:
                continue  # another writer added the same page: theirs stands
            if task_id in tasks:
                mine = replace(mine, id=self._next_id(max(tasks)))
                self._touched.pop(task_id, None)
                renamed[task_id] = mine.id
            tasks[mine.id] = sealed(mine)
            added.add(mine.id)
        self._added = added
        self._removed = {i: url for i, url in self._removed.items() if i not in tasks}
        self._touched = {i: names for i, names in self._touched.items() if i in tasks}
        self._moved = {renamed.get(i, i) for i in self._moved} & tasks.keys()
        if self._moved:
            tasks = _arranged(tasks, [renamed.get(i, i) for i in self._tasks], self._moved)
        self._tasks = tasks
        by_url: dict[str, int] = {}
        for task in sorted(tasks.values(), key=lambda t: t.id):
            if task.status != Status.DUPLICATE:
                by_url.setdefault(task.url, task.id)
        self._by_url = by_url
        self._max_id = max(self._max_id, fresh._max_id, max(tasks, default=0))
        touched_columns = {name[len(_EXTRA):] for names in self._touched.values()
                           for name in names if name.startswith(_EXTRA)}
        self._columns = fresh._columns + [c for c in self._columns
                                          if c in touched_columns and c not in fresh._columns]
        self._seen = fresh._seen
        self._encoding, self._delimiter = fresh._encoding, fresh._delimiter
        self._journal, self._journal_seen = fresh._journal, fresh._journal_seen
        self._dirty = bool(self._touched or self._added or self._removed or self._moved
                           or fresh._dirty)

    @property
    def save_interval(self) -> float:
        """Seconds between batched saves: ``flush_seconds``, or as long as keeps the saves to
        ``SAVE_SHARE`` of the time at the last save's cost (19 times it)."""
        return max(self.flush_seconds, self._save_cost * (1 / SAVE_SHARE - 1))

    def save_if_due(self) -> bool:
        """Save when there are changes and the last save is older than ``save_interval``: a list
        so long that a save takes a while (seconds at 100,000 tasks) is rewritten at most
        ``SAVE_SHARE`` of a run's time."""
        if self._dirty and (self._last_save is None
                            or time.monotonic() - self._last_save >= self.save_interval):
            self.save(snapshot=False)
            return True
        return False
