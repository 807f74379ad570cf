"""Check for updates: ask the sites again for archived articles (``Runner.refresh``, in the
run's child process like any run) and say at the end what changed.

The window decides which tasks (the selected rows, a category tree node, or all); this picks
the archived ones among them (``Workspace.refresh_ids``, in a job), asks before a check that
goes to the network, and, once the run has ended and the window follows tasks.csv again,
reads what changed since the check started (``Workspace.changes``) for the summary: the
counts, then each changed article's title and a line on what changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from gui.task_model import Node, in_node
from gui.worker import Jobs
from pipeline.records.events import Progress
from pipeline.records.task import Task
from pipeline.store.archive import utc_now
from pipeline.usecases.base import NoSuchTask
from pipeline.usecases.workspace import Workspace


@dataclass(frozen=True)
class Changed:
    """One article a check found changed, as the summary names it."""

    task_id: int
    title: str
    summary: str  # the pipeline's line (English, as in 04_logs/changes.csv)


def ids_in_node(tasks: Iterable[Task], node: Node) -> list[int] | None:
    """The tasks of a category tree node (as the table's filter takes them); None for All."""
    if node[0] is None:
        return None
    return [t.id for t in tasks if in_node(t, node)]


def read_changed(workspace: Workspace, since: str) -> list[Changed]:
    """The articles changed at ``since`` or later, each once (its last change), by id."""
    latest = {c.task_id: c for c in workspace.changes(since=since)}
    found = []
    for task_id, change in sorted(latest.items()):
        try:
            title = workspace.task(task_id).display_title
        except NoSuchTask:  # removed meanwhile: its link still says which it was
            title = change.url
        found.append(Changed(task_id, title, change.summary))
    return found


class UpdateCheck(QObject):
    """One check for updates at a time, from choosing the tasks to the summary.

    The window starts the run itself (``start_requested``) and calls ``begin`` when it has;
    ``run_ended`` (the window's ``run_finished``) ends it and, for a check, ``summarized``
    carries the summary.
    """

    start_requested = Signal(list)  # task ids to check, agreed to
    said = Signal(str)  # a message for the status bar (nothing to check, a failed read)
    summarized = Signal(str)  # the check is over: its counts and the changed articles

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self._parent = parent
        # the question before a check goes to the sites; the window puts its own here
        self.confirm: Callable[[str], bool] = lambda _question: True
        self.active = False  # a check's run is going
        self.started_at = ""
        self.summary_box: QMessageBox | None = None

    def choose(self, workspace: Workspace, task_ids: list[int] | None) -> None:
        """Find the archived articles among ``task_ids`` (None: all), then ask."""
        self.jobs.start(lambda: workspace.refresh_ids(task_ids), self._chosen, self.said.emit)

    def _chosen(self, ids: list[int]) -> None:
        if not ids:
            self.said.emit(self.tr("Nothing to check: only archived articles are checked for"
                                   " updates."))
            return
        if self.confirm(self.tr("Check %n archived articles for updates? Each is asked of its"
                                " site again; a changed one keeps its old copy in the archive's"
                                " history.", "", len(ids))):
            self.start_requested.emit(ids)

    def begin(self) -> None:
        """The check's run is starting: changes logged from now on are this check's."""
        self.active, self.started_at = True, utc_now()

    def counts_text(self, p: Progress) -> str:
        """The run row's counts while a check is going."""
        return (self.tr("changed %1 · unchanged %2 · could not check %3")
                .replace("%1", str(p.changed))
                .replace("%2", str(p.unchanged))
                .replace("%3", str(p.unchecked)))

    def run_ended(self, workspace: Workspace | None, progress: Progress | None) -> None:
        """A run ended and the window follows the file again; for a check, read what changed
        (a run that failed has said why already)."""
        if not self.active:
            return
        self.active = False
        if workspace is None or progress is None:
            return
        since = self.started_at
        self.jobs.start(lambda: read_changed(workspace, since),
                        lambda changed: self._summarize(progress, changed),
                        lambda message: self._summarize(progress, [], message))

    def summary_text(self, p: Progress, changed: list[Changed], problem: str = "") -> str:
        lines = [self.tr("Checked %1: %2 changed, %3 unchanged, %4 could not be checked")
                 .replace("%1", str(p.finished))
                 .replace("%2", str(p.changed))
                 .replace("%3", str(p.unchanged))
                 .replace("%4", str(p.unchecked))]
        if p.finished < p.total:
            lines.append(self.tr("Stopped: %n articles were not checked.", "",
                                 p.total - p.finished))
        lines += [f"#{c.task_id} {c.title}: {c.summary}" for c in changed]
        if problem:
            lines.append(problem)
        return "\n".join(lines)

    def _summarize(self, p: Progress, changed: list[Changed], problem: str = "") -> None:
        text = self.summary_text(p, changed, problem)
        self.summarized.emit(text)
        self.show_summary(text)

    def show_summary(self, text: str) -> None:
        """The summary in a box that does not hold the window (the log keeps it too)."""
        if self.summary_box is not None:
            self.summary_box.close()
        head, _, rest = text.partition("\n")
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Check for updates"), head,
                          QMessageBox.StandardButton.Ok, self._parent)
        box.setInformativeText(rest)
        box.setModal(False)
        box.show()
        self.summary_box = box
