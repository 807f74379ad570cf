"""What the archive says was done: the furthest stage whose output exists for a task, and
the one reconcile of the task list with it (at the start of every run and when the archive
is opened). The stage outputs are the truth; a status word a kill lost comes back from them.
"""


from __future__ import annotations

import time
from collections.abc import Callable

from pipeline.records.errors import DiskFull
from pipeline.records.task import Status, Task
from pipeline.store.archive import (
    NOTED_FROM_RECORDS,
    SETTLED_SECONDS,
    Archive,
    StageListing,
    write_atomic,
)
from pipeline.store.plain_pickle import dump_plain, load_plain
from pipeline.store.record_urls import RecordUrls
from pipeline.store.tasks import TaskStore

# Beside the archive: the task list's and the stage folders' versions when a reconcile last
# found them agreeing (see ``agreed_since``).
RECONCILED = ".reconciled"


def stage_reached(archive: Archive, task_id: int) -> Status:
    """The furthest stage whose output exists for a task."""
    if archive.has_assets(task_id):
        return Status.LOCALIZED
    if archive.has_clean(task_id):
        return Status.CLEANED
    if archive.has_raw(task_id):
        return Status.FETCHED
    return Status.PENDING


def listed_stages(listing: StageListing) -> Callable[[int], Status]:
    """``stage_reached`` for every task at once, from one listing of 00_raw and one of
    01_clean (``Archive.stage_listing``: no file opened or stat'ed per task). Only while no
    run writes those folders (the run lock held): the listing is the folders as they were."""
    raw, cleaned, localized = listing.records, listing.cleaned, listing.localized

    def reached(task_id: int) -> Status:
        if task_id in localized:
            return Status.LOCALIZED
        if task_id in cleaned:
            return Status.CLEANED
        if task_id in raw:
            return Status.FETCHED
        return Status.PENDING

    return reached


def reconcile(archive: Archive, store: TaskStore, listing: StageListing | None = None) -> int:
    """Make the statuses agree with the archive's outputs (see ``TaskStore.reconcile``); how
    many changed. A task is its URL: outputs an earlier page left under a task's id (its
    record names another URL: an id given again by an older version, a link changed by hand)
    go to 00_raw/history/<id>/ first, and out of the search index, so the task counts as not
    fetched, a run fetches its own page and a book never binds the other under its link. A
    record is read only when it or the task's link is not as last read (``RecordUrls``).
    The temp files of writes a kill interrupted are swept first. ``listing``: the stage
    folders as the caller looked at them under the same lock. Only with the run lock held:
    no run is writing those files."""
    set_aside: list[int] = []
    if listing is None:
        listing = archive.stage_listing()
    archive.sweep_unfinished_writes(listing)
    listed = listed_stages(listing)
    records = listing.records
    known = RecordUrls(archive.root)

    def own_stage(task: Task) -> Status:
        reached = listed(task.id)
        if reached == Status.PENDING:  # nothing stored: no record to read
            return reached
        inode = records.get(task.id)
        if known.url(task.id, inode) == task.url:
            return reached
        fetched_for = archive.fetched_url(task.id)
        if fetched_for is None or fetched_for == task.url:
            if fetched_for is not None:
                known.note(task.id, inode, fetched_for)
            return reached
        archive.set_aside(task.id)
        set_aside.append(task.id)
        return stage_reached(archive, task.id)

    changed = store.reconcile(own_stage)
    known.keep(records, set_aside)
    if set_aside:
        from pipeline.store.search import SearchIndex, SearchIndexError  # sqlite3: rarely

        try:
            index = SearchIndex.of(archive.root)
            try:
                index.drop(set_aside)
            finally:
                index.close()
        except SearchIndexError:
            pass  # derived: the task's next clean replaces the entry, 'python main.py index'
            # makes it all again
    return changed


def agreed_since(archive: Archive, store: TaskStore) -> bool:
    """Whether neither the task list nor 00_raw and 01_clean changed since a reconcile found
    them agreeing (``note_agreed``), so reconciling again would change nothing: a stat of
    the list and of each folder, not a look at 100,000 tasks. A task's status, link or row
    changed by anyone moves the list's mtime and ctime (a write, a rename, Excel's save); a
    stage file made, renamed or removed by a run or by hand moves its folder's mtime."""
    folders = archive.folder_keys()
    if folders is None:
        return False
    held = store.exact_version()
    if held is None:
        return False
    try:
        noted = load_plain((archive.root / RECONCILED).read_bytes())
    except Exception:  # noqa: BLE001 — missing or not ours: reconciled
        return False
    return bool(noted == (held, folders))


def note_agreed(archive: Archive, store: TaskStore, listing: StageListing) -> None:
    """After a reconcile that changed nothing on a list that passed the truncation check
    (run lock held): note the list's and the folders' versions (``agreed_since``). Only for
    an archive of ``NOTED_FROM_RECORDS`` records, and only when the listing's folders and the
    list were left alone ``SETTLED_SECONDS`` (a change within their clock's tick could not be
    told apart, as git's racy entries). An older note is left: the ctime of a list written
    since never matches it."""
    held = store.exact_version()
    settled = time.time_ns() - int(SETTLED_SECONDS * 1e9)
    if (listing.settled is None or len(listing.records) < NOTED_FROM_RECORDS
            or held is None or held[2] >= settled):
        return
    try:
        write_atomic(archive.root / RECONCILED, dump_plain((held, listing.settled)))
    except (OSError, DiskFull):
        pass  # a folder that cannot be written: reconciled every time

