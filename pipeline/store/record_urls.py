"""The URL each record in 00_raw names, as reconcile last read it: the check that a task's
stored page is its own without opening 100,000 records at every open.

Kept in ``<archive>/.record_urls`` by task id with the record's inode. A record is only ever
replaced by a rename of a new file (``write_atomic``), made while the old one still exists,
so a record of another inode is another record, read again; a task whose link changed in
tasks.csv no longer matches the URL noted, and is read again too. Derived: missing, damaged
or from another copy of the archive (other inodes), it is made again by reading the records.
Read and written only under the run lock (reconcile), temp file → fsync → rename.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pipeline.records.errors import DiskFull
from pipeline.store.archive import NOTED_FROM_RECORDS, write_atomic
from pipeline.store.plain_pickle import dump_plain, load_plain

RECORD_URLS = ".record_urls"


class RecordUrls:
    """Task id → (the record's inode, the URL it names), as read."""

    def __init__(self, root: Path) -> None:
        self.path = root / RECORD_URLS
        self._known: dict[int, tuple[int, str]] = {}
        self._changed = False
        try:
            known = load_plain(self.path.read_bytes())
        except Exception:  # noqa: BLE001 — missing or not ours: every record is read again
            return
        if isinstance(known, dict) and all(type(v) is tuple and len(v) == 2
                                           for v in known.values()):
            self._known = known

    def url(self, task_id: int, inode: int | None) -> str | None:
        """The URL the record of this inode names, when it was read before; else None."""
        known = self._known.get(task_id)
        if known is None or inode is None or known[0] != inode:
            return None
        return known[1]

    def note(self, task_id: int, inode: int | None, url: str) -> None:
        if inode is not None and self._known.get(task_id) != (inode, url):
            self._known[task_id] = (inode, url)
            self._changed = True

    def keep(self, records: dict[int, int], moved: Iterable[int]) -> None:
        """Write what was noted, less the records that are gone (``records``: id → inode, the
        listing the reconcile judged by; ``moved``: the ids whose files it set aside); nothing
        when nothing changed. A note whose record has another inode now stays until its
        task is read again: it matches nothing. A folder that cannot be written keeps none:
        the records are read next time."""
        if len(records) < NOTED_FROM_RECORDS:
            return
        gone = (self._known.keys() - records.keys()) | (self._known.keys() & set(moved))
        for task_id in gone:
            del self._known[task_id]
        if not (self._changed or gone):
            return
        try:
            write_atomic(self.path, dump_plain(self._known))
        except (OSError, DiskFull):
            pass
