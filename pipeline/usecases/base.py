"""The archive, its list and its settings, and what every use case needs of them.

A part of ``Workspace`` (``pipeline.usecases.workspace``), the use cases both faces call;
split by area as Anki's ``aqt/operations`` is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set
from itertools import filterfalse
from operator import attrgetter
from pathlib import Path

from pipeline.records.article import Article
from pipeline.records.errors import KuaibuError, TaskFileError
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.rules.model import Rules, load_rules
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from pipeline.usecases.changed import Changed, ChangeListener
from pipeline.web.addresses import SYSTEM, AddressPolicy, Network

_DELETED_AT = attrgetter("deleted_at")  # in the trash: ``Task.deleted``

# A task list that lacks more than this share of the tasks whose pages 00_raw holds (or
# holds none of them) is taken for an emptied or cut-short file, not a person's deletions
# (the trash is the way to take many off the list), and refused until ``recover``.
TRUNCATED_SHARE = 0.5


class NoSuchTask(KuaibuError):
    """A task id that the list does not hold."""


class NoArchive(KuaibuError):
    """The folder named is not there (only the commands that add tasks make an archive)."""


class ReadOnlyArchive(KuaibuError):
    """What was asked would write to an archive this process cannot write to."""


class TaskListTruncated(TaskFileError):
    """tasks.csv lacks most of the archive's tasks (emptied, or cut short): loading it would
    lose them. The message is one line with the count and what to run. A TaskFileError: like a
    file that does not parse, it is never merged into nor written over (a run logs it once
    and goes on, the window says it and follows the file again once it is whole)."""

    def __init__(self, path: Path, lost: int, archived: int) -> None:
        super().__init__(f"{path} lacks {lost:,} of the {archived:,} tasks whose pages 00_raw"
                         " holds; opening it would lose them: run 'python main.py recover' to"
                         " rebuild the list from 00_raw (nothing was changed)")
        self.lost, self.archived = lost, archived


class WorkspaceBase:
    """One open archive: its folder, its task list and the settings the faces run with."""

    def __init__(self, archive: Archive, store: TaskStore, settings: Settings,
                 network: Network = SYSTEM, read_only: bool = False) -> None:
        self.archive = archive
        self.store = store
        self.settings = settings
        self.network = network  # the address policy's resolver and class table (a test's)
        self.reconciled = 0  # statuses corrected when it was opened
        # the folder cannot be written (a mounted backup, a disc, another user's folder):
        # only what reads works; see ``open``
        self.read_only = read_only
        self._listeners: list[ChangeListener] = []
        # how many changes this workspace has said: a reader that notes it before reading
        # knows its answer holds every change up to that count (the window drops an answer
        # older than one it has shown)
        self.generation = 0

    def listen(self, listener: ChangeListener) -> None:
        """Be told what changed after each change made through this workspace, or taken in
        from the file (another writer's); see ``pipeline.usecases.changes``."""
        self._listeners.append(listener)

    def changed(self, change: Changed) -> None:
        """Tell the listeners that ``change`` happened (after it is made)."""
        self.generation += 1
        for listener in list(self._listeners):
            listener(change)

    def refuse_writing(self, what: str) -> None:
        """Raise ReadOnlyArchive when the archive is read-only, ``what`` saying what would
        have written to it (e.g. "'index' writes search.db"); nothing otherwise."""
        if self.read_only:
            raise ReadOnlyArchive(f"{self.archive.root} is read-only here: {what}; status,"
                                  " search, books, report --out and build --out only read")

    def tasks(self) -> list[Task]:
        """The task list, the trash left out."""
        return list(filterfalse(_DELETED_AT, self.store.tasks()))  # in C: 100,000 a look

    def order(self) -> list[int]:
        """The ids in the list's order (the trash's among them), without copying a task: what
        a face shows the list in (``TaskEditing.move`` arranges it)."""
        return self.store.order()

    def trash(self) -> list[Task]:
        """The tasks taken off the list and not yet gone for good."""
        return list(filter(_DELETED_AT, self.store.tasks()))

    def task(self, task_id: int) -> Task:
        try:
            return self.store.get(task_id)
        except KeyError:
            raise NoSuchTask(f"no task #{task_id} in {self.archive.tasks_path}") from None

    def refresh(self) -> bool:
        """Take in what other writers (a run, a terminal, a person in Excel) saved meanwhile;
        False when the file is as this workspace last saw it. A file emptied or cut short
        meanwhile raises TaskListTruncated and is not taken in: the list stays as it was."""
        merged = self.store.merge_file()
        if merged:
            self.changed(Changed.TASKS)
        return merged

    def save(self) -> None:
        """Merge this workspace's edits into tasks.csv. What others saved meanwhile is
        taken in on the way (a hand edit landing while an edit waited to be saved): that is
        a change to the list, said as ``refresh`` says one."""
        if self.store.save():
            self.changed(Changed.TASKS)

    def close(self) -> None:
        """Save what is unsaved; a workspace with nothing to say writes nothing, nor does a
        read-only one (a file it would convert, e.g. UTF-16, stays as it is)."""
        if self.store.dirty and not self.read_only:
            self.store.save()

    def counts(self) -> Counter[Status]:
        return Counter(map(attrgetter("status"), self.tasks()))

    def rules(self) -> Rules:
        """rules.yaml as saved; a broken file raises RulesError naming its line."""
        return load_rules(self.archive.rules_path)

    def _addresses(self) -> AddressPolicy:
        """The address policy before any link is known: the setting, over this network."""
        return AddressPolicy.from_setting(self.settings.allow_addresses, self.network)

    def article(self, task_id: int) -> Article | None:
        return self.archive.read_article(task_id)

    def raw_html(self, task: Task, rules: Rules | None = None) -> str:
        """The stored raw page, decoded as the clean stage decodes it ("" before fetch). A
        rules.yaml being edited into a broken state still lets the page show."""
        from pipeline.records.errors import RulesError
        from pipeline.run.stages import decode_stored

        if not self.archive.has_raw(task.id):
            return ""
        if rules is None:
            try:
                rules = self.rules()
            except RulesError:
                rules = Rules()
        return decode_stored(self.archive, task, rules, self.settings).text


def refuse_truncated(archive: Archive, store: TaskStore,
                     archived: Set[int] | None = None) -> None:
    """Raise TaskListTruncated when ``store`` (the file as read) lacks more than
    ``TRUNCATED_SHARE`` of the tasks whose pages 00_raw holds (``archived``: those ids as a
    listing already found them), or all of them."""
    if archived is None:
        archived = archive.record_ids()
    lost = len(archived - store.ids())
    if archived and (lost == len(archived) or lost > TRUNCATED_SHARE * len(archived)):
        raise TaskListTruncated(archive.tasks_path, lost, len(archived))
