"""Which articles changed in 01_clean: ``<archive>/.clean_changes``, a journal of task ids.

index.html's pages are kept from build to build (``book.index``); to know which of them an
article's new record, image map or removal touches, a build once stat'ed every article's two
files — 200,000 stats at 100,000 articles, and a one-article build grew with the archive
(issue 30). So every writer of 01_clean/<id>.json and <id>.assets.json (the clean and localize
stages, ``Archive.forget_derived`` / ``forget`` / ``set_aside``, an image map dropped to be
made again) appends the id here after the file is in place, and the index reads only what was
appended since it last looked (a ``Mark``).

A journal of ids, not of files: a line is ``<id>\\n``, appended under ``.clean_changes.lock``
(an ``O_APPEND`` write of a short line is whole anyway; the lock keeps an append from landing
in a file being replaced by ``forget_read``). A writer that cannot append (a read-only folder)
loses nothing: its rename still moved 01_clean's mtime, which the index notes beside its mark,
and a folder that moved with nothing journaled is looked at whole.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from pipeline.records.errors import DiskFull
from pipeline.store.archive import ArchiveBusy, file_lock, write_atomic

JOURNAL = ".clean_changes"
LOCK = ".clean_changes.lock"
LOCK_WAIT_SECONDS = 30.0
# a journal read to its end this long is replaced by an empty one (a line is a few bytes:
# about 150,000 changes)
FORGET_FROM_BYTES = 1 << 20


class Mark(NamedTuple):
    """How far a reader has read: the journal file (its inode) and the offset in it."""

    inode: int
    offset: int


def note_changed(root: Path, task_ids: Iterable[int]) -> None:
    """Append these ids: their files in 01_clean were written, replaced or removed."""
    lines = "".join(f"{int(i)}\n" for i in task_ids)
    if not lines:
        return
    try:
        with file_lock(root / LOCK, LOCK_WAIT_SECONDS, "the clean journal is busy"), \
                open(root / JOURNAL, "a", encoding="ascii") as f:
            f.write(lines)
    except (OSError, ArchiveBusy):
        pass  # the rename moved 01_clean's mtime: the index looks at every article


def changed_since(root: Path, mark: Mark | None) -> tuple[set[int], Mark]:
    """The ids appended since ``mark`` and the mark of the journal's end. A mark of another
    file (the journal was replaced after that reader read it to its end) reads the file from
    its start; a missing journal has nothing in it."""
    try:
        with open(root / JOURNAL, "rb") as f:
            inode = os.fstat(f.fileno()).st_ino
            start = mark.offset if mark is not None and mark.inode == inode else 0
            f.seek(start)
            data = f.read()
    except OSError:
        return set(), Mark(0, 0)
    whole = data[:data.rfind(b"\n") + 1]  # a line being appended is read next time
    return ({int(line) for line in whole.split() if line.isdigit()},
            Mark(inode, start + len(whole)))


def forget_read(root: Path, mark: Mark) -> Mark:
    """Once a long journal is read to its end (``mark``) by the one reader that keeps a mark
    (index.html's state), replace it by an empty file; the mark to keep then."""
    if mark.offset < FORGET_FROM_BYTES:
        return mark
    try:
        with file_lock(root / LOCK, 0, "the clean journal is busy"):
            st = os.stat(root / JOURNAL)
            if st.st_ino != mark.inode or st.st_size != mark.offset:
                return mark  # appended meanwhile: forgotten another time
            written = write_atomic(root / JOURNAL, b"")
    except (OSError, ArchiveBusy, DiskFull):
        return mark
    return Mark(written.st_ino, 0)
