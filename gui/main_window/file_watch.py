"""Following tasks.csv while other writers save it: a terminal's run, ``add`` or ``build``, a
person's edit in Excel.

Apart because it has state of its own — a timer and the one look at the file in flight — and
one rule about it: a look at a time, and a change the window made itself looked at right after
the look in flight. The window keeps no copy it writes back; it shows what this reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from gui.worker import Jobs
from pipeline.records.task import Task
from pipeline.usecases.workspace import Workspace

# How often the window looks whether another writer changed tasks.csv (a stat call).
WATCH_MS = 1000


@dataclass
class Refreshed:
    tasks: list[Task] | None  # None: the file is as the window last saw it


class FileWatch(QObject):
    """Looks at the open archive's tasks.csv every ``WATCH_MS`` (once started) and whenever
    asked; says what changed with ``read``. ``workspace`` and ``running`` are the window's:
    the archive open now, and whether a run of the window's own is going (it reports as it
    goes and is followed when it ends)."""

    read = Signal(object)  # list[Task]: the tasks as the file holds them now
    failed = Signal(str)  # why the file could not be read (a hand edit broke it)

    def __init__(self, jobs: Jobs, workspace: Callable[[], Workspace | None],
                 running: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._workspace = workspace
        self._running = running
        self._timer = QTimer(self)
        self._timer.setInterval(WATCH_MS)
        self._timer.timeout.connect(self.follow)
        self._refreshing = False  # a look at the file is in flight
        self._refresh_again = False  # and the window changed tasks meanwhile

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def follow(self, changed_here: bool = False) -> None:
        """Show what other writers saved: a terminal's run, ``add`` or ``build``, a person's
        edit in Excel. The window's own run reports as it goes and is followed when it ends;
        ``changed_here``: the window's workspace itself changed tasks (a build's done marks)."""
        workspace = self._workspace()
        if workspace is None or self._running():
            return
        if self._refreshing:  # one at a time; a change made here is looked at right after
            self._refresh_again = self._refresh_again or changed_here
            return
        self._refreshing = True

        def refresh() -> Refreshed:
            changed = workspace.refresh() or changed_here
            return Refreshed(workspace.tasks() if changed else None)

        self._jobs.start(refresh, self.take, self._refresh_failed)

    def take(self, result: Refreshed) -> None:
        """A look's answer, or the file as a run left it: passed on when it changed, and a
        change made here meanwhile looked at next."""
        self._refreshing = False
        if result.tasks is not None and self._workspace() is not None:
            self.read.emit(result.tasks)
        if self._refresh_again:
            self._refresh_again = False
            self.follow(changed_here=True)

    def _refresh_failed(self, message: str) -> None:
        """A file broken by a hand edit: nothing is written over it, and the window follows
        it again once it is fixed (or recovered)."""
        self._refreshing = False
        self.failed.emit(message)
