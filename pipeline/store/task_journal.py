"""Status changes not yet in tasks.csv: ``.tasks.csv.journal``, folded in by the next save.

A build of one article marks it done; saving the whole list for that rewrote 36 MB at 100,000
tasks (two seconds, growing with the archive). So a few such changes are appended here
instead, a line each, and every reader of the list takes them on top of the file: a whole
read (``TaskStore``), a look at one task through the mirror (``task_mirror``), a face
following the file (``merge_file``). The next save of the list, by any writer that holds
changes of its own (a run's batch, an edit), writes them into tasks.csv and then removes the
journal, both under the list's lock, so the file a person edits is still the whole truth
after every save.

An entry is a compare-and-set: ``<id>\\t<before>\\t<after>\\t<when>``, applied only to a task
whose status is still ``before``. So an entry is harmless once in the file (a kill between the
save and the journal's removal: the file says ``after`` already), and a person's edit in Excel
since (a status typed over it) wins over it. Only a change that leaves a task among the
articles a book binds goes here (localized to done, ``JOURNALED``: what a build marks):
index.html's kept state relies on the file alone saying which articles are bindable.

Appended under the list's lock (one ``write`` of whole lines; a line cut short by a kill is
ended before the next append and read as no entry), so a save that folds the journal in
never removes a line it did not read. A journal longer than ``JOURNAL_MOST_BYTES`` is not
appended to: the change is saved into the file as before (``TaskStore.mark_bound``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from pipeline.records.task import STATUS_OF, Status
from pipeline.store.archive import fsync_dir

# A journal this long (some 20,000 entries) is folded by the change that finds it so.
JOURNAL_MOST_BYTES = 1 << 20
# The changes the journal takes: a localized article bound into a book.
JOURNALED = frozenset({(Status.LOCALIZED, Status.DONE)})

JournalKey = tuple[int, int, int, int]  # inode, size, mtime, ctime: the journal as read


class Entry(NamedTuple):
    task_id: int
    before: Status
    after: Status
    at: str


def journal_path(tasks_path: Path) -> Path:
    return tasks_path.with_name(f".{tasks_path.name}.journal")


def journal_key(tasks_path: Path) -> JournalKey | None:
    """The journal's version (None: there is none)."""
    try:
        st = os.stat(journal_path(tasks_path))
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def read_journal(tasks_path: Path) -> tuple[list[Entry], JournalKey | None]:
    """Every whole entry, oldest first, and the version read; a line that is not one (cut
    short by a kill, typed by hand) is no entry."""
    path = journal_path(tasks_path)
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read()
    except OSError:
        return [], None
    entries = []
    for line in data[:data.rfind(b"\n") + 1].decode("utf-8", "replace").splitlines():
        parts = line.split("\t")
        if len(parts) != 4 or not parts[0].isdigit():
            continue
        before, after = STATUS_OF.get(parts[1]), STATUS_OF.get(parts[2])
        if before is not None and after is not None and (before, after) in JOURNALED:
            entries.append(Entry(int(parts[0]), before, after, parts[3]))
    return entries, (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def append_journal(tasks_path: Path, entries: Iterable[Entry]) -> bool:
    """Append ``entries`` (the list's lock held); False, nothing written, when the journal
    is ``JOURNAL_MOST_BYTES`` long already (the caller saves the change into the file).
    Raises OSError."""
    lines = "".join(f"{e.task_id}\t{e.before}\t{e.after}\t{e.at}\n" for e in entries)
    path = journal_path(tasks_path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size >= JOURNAL_MOST_BYTES:
            return False
        if size:  # a line a kill cut short is ended first: the next is whole on its own
            with open(path, "rb") as f:
                f.seek(size - 1)
                if f.read(1) != b"\n":
                    lines = "\n" + lines
        os.write(fd, lines.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if not size:
        fsync_dir(path.parent)
    return True


def remove_journal(tasks_path: Path) -> None:
    """After a save that folded every entry into the file (the list's lock held)."""
    journal_path(tasks_path).unlink(missing_ok=True)
