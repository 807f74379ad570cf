"""Following tasks.csv while other writers save it: a terminal's run, ``add`` or ``build``, a
person's edit in Excel.

Apart because it has state of its own — a timer and the one look at the file in flight — and
two rules about it: a look at a time, a change the window made itself looked at right after
the look in flight; and an answer older than one already shown is dropped. The window keeps
no copy it writes back; it shows what this reads.

A look only takes the file in (``Workspace.refresh``); when it found a change the workspace
says so (``Changed.TASKS``), and the window asks for the tasks with ``follow(changed_here=
True)``, as after any other change: one way to the table, whoever changed the list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from gui.task_model import reuse_unchanged
from gui.worker import Jobs
from pipeline.records.task import Task
from pipeline.usecases.workspace import Workspace

# How often the window looks whether another writer changed tasks.csv (a stat call).
WATCH_MS = 1000


@dataclass
class Refreshed:
    tasks: list[Task] | None  # None: nothing was asked for
    # the workspace's count of changes before the tasks were read: they hold every change
    # up to it, so an answer with a lower count than one shown is older than what is shown
    generation: int = 0


def read_tasks(workspace: Workspace, shown: list[Task]) -> Refreshed:
    """The tasks as the workspace holds them, with the count of changes they hold; those
    unchanged since ``shown`` (what the table showed when the read began) are its own records
    (``reuse_unchanged``), so the table's sync finds them by identity."""
    generation = workspace.generation
    return Refreshed(reuse_unchanged(workspace.tasks(), shown), generation)


class FileWatch(QObject):
    """Looks at the open archive's tasks.csv every ``WATCH_MS`` (once started) and whenever
    asked; says what changed with ``read``. ``workspace`` and ``running`` are the window's:
    the archive open now, and whether a run of the window's own is going (it reports as it
    goes and is followed when it ends); ``shown``: the tasks the table shows now."""

    read = Signal(object)  # list[Task]: the tasks as the file holds them now
    failed = Signal(str)  # why the file could not be read (a hand edit broke it)

    def __init__(self, jobs: Jobs, workspace: Callable[[], Workspace | None],
                 running: Callable[[], bool], shown: Callable[[], list[Task]],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._workspace = workspace
        self._running = running
        self._shown_tasks = shown
        self._timer = QTimer(self)
        self._timer.setInterval(WATCH_MS)
        self._timer.timeout.connect(self.follow)
        self._refreshing = False  # a look at the file is in flight
        self._refresh_again = False  # and the window changed tasks meanwhile
        self._shown = 0  # the generation of the tasks last passed on

    def start(self) -> None:
        """Look each second at the archive just opened (whose count of changes starts anew)."""
        self._shown = 0
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def follow(self, changed_here: bool = False) -> None:
        """Take in what other writers saved (a terminal's run, ``add`` or ``build``, a
        person's edit in Excel); ``changed_here``: the tasks changed (said by the workspace),
        read them and pass them on. The window's own run reports as it goes and is followed
        when it ends."""
        workspace = self._workspace()
        if workspace is None or self._running():
            return
        if self._refreshing:  # one at a time; a change made here is looked at right after
            self._refresh_again = self._refresh_again or changed_here
            return
        self._refreshing = True
        shown = self._shown_tasks() if changed_here else []

        def refresh() -> Refreshed:
            workspace.refresh()  # a change found is said by the workspace: then asked to read
            return read_tasks(workspace, shown) if changed_here else Refreshed(None)

        self._jobs.start(refresh, self.take, self._refresh_failed)

    def take(self, result: Refreshed) -> None:
        """A look's answer, or the file as a run left it: passed on when it changed, and a
        change made here meanwhile looked at next."""
        self._refreshing = False
        if (result.tasks is not None and self._workspace() is not None
                and result.generation >= self._shown):
            self._shown = result.generation
            self.read.emit(result.tasks)
        if self._refresh_again:
            self._refresh_again = False
            self.follow(changed_here=True)

    def _refresh_failed(self, message: str) -> None:
        """A file broken by a hand edit: nothing is written over it, and the window follows
        it again once it is fixed (or recovered)."""
        self._refreshing = False
        self.failed.emit(message)
