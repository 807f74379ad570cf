"""The use cases: one archive as the command line, the demo and the window work on it.

Both faces call only this layer (and the records it hands out: ``Task``, ``Article``,
``Settings``, ``Archive`` paths), so an action does the same thing whichever face asked for it:
the window's Build marks tasks done as ``build`` does, a domain's re-clean picks the same tasks.
Every change to tasks.csv goes through the ``TaskStore``, which merges it into the file as it
is; nothing here keeps a copy of the list that it writes back whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive, ArchiveBusy
from pipeline.store.tasks import TaskStore
from pipeline.usecases.base import NoArchive, refuse_truncated
from pipeline.usecases.books import Books
from pipeline.usecases.capturing import Capturing
from pipeline.usecases.changed import Changed
from pipeline.usecases.exporting import Exporting
from pipeline.usecases.harvesting import Harvesting
from pipeline.usecases.importing import Importing
from pipeline.usecases.library import Library
from pipeline.usecases.paste_draft import PasteDraft
from pipeline.usecases.rules import RulesWork
from pipeline.web.addresses import SYSTEM, Network

LINE_COUNT_CHUNK = 1 << 20  # the list counted a megabyte at a time (see ``tasks_on_file``)


def tasks_on_file(root: Path) -> int:
    """About how many tasks the archive at ``root`` lists: its task list's lines less the
    header, counted in the bytes, not read as CSV (a cell holding a line break counts twice);
    0 when it has no list. What a face says while ``Workspace.open`` reads the list, which at
    100,000 tasks takes seconds; a megabyte at a time, so the count never holds the
    interpreter long from the thread that paints. A long list's snapshot says it without
    the file being read (``task_snapshot.tasks_listed``)."""
    from pipeline.store.task_snapshot import tasks_listed

    if (listed := tasks_listed(Archive(Path(root)).tasks_path)) is not None:
        return listed
    lines = 0
    last = b"\n"
    try:
        with open(Archive(Path(root)).tasks_path, "rb") as f:
            while chunk := f.read(LINE_COUNT_CHUNK):
                lines += chunk.count(b"\n")
                last = chunk[-1:]
    except OSError:  # no list yet, or not a folder this can read: open says why
        return 0
    lines += last != b"\n"  # a last line with no line break after it
    return max(0, lines - 1)


@dataclass(frozen=True)
class Recovery:
    """What ``recover`` did: the tasks brought back from their records in 00_raw, how many
    the list held already, and the records it left out (id, why)."""

    restored: list[int]
    held: int
    left_out: list[tuple[int, str]]


class Workspace(Harvesting, Library, Books, RulesWork, Capturing, Importing, PasteDraft,
                Exporting):
    """One open archive: its folder, its task list and the settings the faces run with;
    every use case, each from the part of its area."""

    @classmethod
    def open(cls, root: Path, settings: Settings | None = None,
             network: Network = SYSTEM, *, create: bool = True) -> Workspace:
        """Open an archive; statuses are made to agree with the stage outputs, unless a run is
        working on it (the run does that itself when it starts). A missing folder is made
        with ``create``, else refused (a typo must not leave an empty archive behind). A
        folder this process cannot write is opened read-only: nothing is made, reconciled or
        locked, the task list is read as the file says. ``network`` is the address policy's
        resolver and class table (a test's hook). A task list that lacks most of the
        archive's tasks raises TaskListTruncated, nothing written (see ``TRUNCATED_SHARE``;
        ``recover`` brings them back); on a read-only archive, where nothing can be lost,
        it is read as it is."""
        workspace = cls._load(root, settings, network, create=create, vet=True)
        if not workspace.read_only:
            workspace.reconciled = workspace.reconcile(vet=True)
        return workspace

    @classmethod
    def _load(cls, root: Path, settings: Settings | None, network: Network = SYSTEM, *,
              create: bool, vet: bool) -> Workspace:
        """The archive and its list as read (see ``open``); ``vet``: the list refuses to
        take in a file cut short by another writer meanwhile (every face but ``recover``)."""
        settings = settings or Settings()
        root = Path(root)
        if not root.exists() and not create:
            raise NoArchive(f"no archive at {root} ('add', 'harvest' or 'demo' makes one)")
        if root.exists() and not root.is_dir():
            raise NoArchive(f"{root} is a file, not an archive folder")
        read_only = root.exists() and not Archive(root.resolve()).writable
        archive = Archive(root.resolve()) if read_only else Archive.open(root)
        # lazy: a one-task command reads its task through the list's mirror (``task_mirror``)
        store = TaskStore(archive.tasks_path, flush_seconds=settings.tasks_flush_seconds,
                          ids=archive, vet=partial(refuse_truncated, archive) if vet else None,
                          lazy=True)
        return cls(archive, store, settings, network, read_only=read_only)

    @classmethod
    def recover(cls, root: Path, settings: Settings | None = None) -> tuple[Workspace, Recovery]:
        """Rebuild the task list from the records in 00_raw (the records are the truth): each
        record whose id the list lacks comes back as a task with its id, URL and fetch time,
        its article's title and figures when 01_clean holds it; the rows still in the file
        stay as they are. Written under the list's lock, merged into the file as it is. A
        record whose URL the list holds under another id, or that names none, is left out
        and set aside to 00_raw/history/<id>/ (kept). Raises ArchiveBusy during a run."""
        workspace = cls._load(root, settings, create=False, vet=False)
        workspace.refuse_writing("'recover' writes tasks.csv")
        archive = workspace.archive
        restored: list[int] = []
        left_out: list[tuple[int, str]] = []
        with archive.run_lock(), workspace.store.transaction() as store:
            held = {t.id for t in store.tasks()}
            archived = sorted(archive.record_ids())
            for task_id in archived:
                if task_id in held:
                    continue
                task = workspace._recovered(task_id)
                if isinstance(task, str):
                    left_out.append((task_id, task))
                elif (other := store.find_url(task.url)) is not None:
                    left_out.append((task_id, f"its page is in the list as #{other}"))
                else:
                    store.insert(task)
                    restored.append(task_id)
            for task_id, _ in left_out:
                archive.set_aside(task_id)
            left_out = [(i, f"{why}; kept in 00_raw/history/{i}") for i, why in left_out]
        workspace.reconciled = workspace.reconcile()
        return workspace, Recovery(restored, len(archived) - len(restored) - len(left_out),
                                   left_out)

    def _recovered(self, task_id: int) -> Task | str:
        """A task as its record in 00_raw and its outputs tell it, or why they cannot."""
        import json

        from pipeline.records.task import TASK_IDS
        from pipeline.run.reconcile import stage_reached
        from pipeline.run.stages import cleaned_changes
        from pipeline.store.archive import utc_now

        try:
            record = json.loads(self.archive.raw_meta(task_id).read_bytes())
        except (OSError, ValueError):
            return "its record in 00_raw is not readable JSON"
        url = record.get("url") if isinstance(record, dict) else None
        if not isinstance(url, str) or "://" not in url or task_id not in TASK_IDS:
            return "its record in 00_raw names no link"
        fetched = str(record.get("fetched_at") or "")
        task = Task(id=task_id, url=url, original_url=url, added_at=fetched or utc_now(),
                    fetched_at=fetched, updated_at=utc_now())
        if (article := self.archive.read_article(task_id)) is not None:
            for name, value in cleaned_changes(article).items():
                setattr(task, name, value)
            if (assets := self.archive.read_assets(task_id)) is not None:
                task.images_ok = assets.ok
        task.status = stage_reached(self.archive, task_id)
        return task

    def reconcile(self, vet: bool = False) -> int:
        """Move each status to what the archive's outputs show (after a kill, a hand edit);
        how many changed. Nothing while a run holds the archive: its tasks are in flight.
        ``vet``: a list cut short is refused first (``refuse_truncated``), judged on the same
        look at 00_raw the reconcile takes. Nothing either while neither the list nor the
        stage folders changed since a reconcile found them agreeing (``agreed_since``: the
        one that noted it had vetted the same list): opening an archive of 100,000 tasks
        for one command does not judge every task again. Killed writes' temp files under
        02_assets and 00_raw/history then wait for the next run's reconcile."""
        from pipeline.run.reconcile import agreed_since, note_agreed, reconcile

        try:
            with self.archive.run_lock():
                # judged on the file as it is: a run that just ended saved statuses (a
                # failure after the fetch among them) this store has not seen yet
                merged = self.store.merge_file()
                if agreed_since(self.archive, self.store):
                    changed = 0
                else:
                    listing = self.archive.stage_listing()
                    if vet:
                        refuse_truncated(self.archive, self.store, listing.records.keys())
                    changed = reconcile(self.archive, self.store, listing)
                    if changed:
                        self.store.save()
                    elif vet:
                        note_agreed(self.archive, self.store, listing)
            if merged or changed:
                self.changed(Changed.TASKS)
            return changed
        except ArchiveBusy:
            if vet:
                refuse_truncated(self.archive, self.store)
            return 0
