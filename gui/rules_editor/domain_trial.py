"""Test on this domain, the rules editor's "This domain" tab: every stored page of the
section's domain extracted again with the rules as they stand (``Workspace.try_rules``, in the
background, nothing written) and listed before and after, worse first, lost articles in red.
Apart because it has state of its own (the run under way, the last one finished, which Apply
to domain asks with) and a list of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QLabel,
    QProgressBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.rules_editor.rich_text import ERROR_COLOUR, esc, red
from gui.worker import Jobs
from pipeline.records.errors import KuaibuError
from pipeline.records.task import cap_text
from pipeline.rules.model import Rules
from pipeline.usecases.rules import Trial
from pipeline.usecases.workspace import Workspace


@dataclass(frozen=True)
class TrialRun:
    """The domain's stored pages under one text of the rules."""

    generation: int
    section: str
    text: str
    trials: list[Trial]


def _chars(chars: int | None, confidence: float | None, none: str) -> str:
    return none if chars is None else f"{chars:,} ({confidence or 0:.2f})"


class DomainTrial(QWidget):
    """A section's stored pages under the rules; a row activated names its task."""

    finished = Signal(object)  # the TrialRun shown
    progress = Signal(int, int, int)  # generation, pages done, pages in all
    task_chosen = Signal(object)  # the Task of the row activated

    def __init__(self, workspace: Workspace, jobs: Jobs) -> None:
        super().__init__()
        self._workspace = workspace
        self._jobs = jobs
        self._generation = 0
        self.last: TrialRun | None = None  # the last run shown, until the rules are saved
        self.bar = QProgressBar()
        self.bar.setFormat("%v / %m")
        self.bar.hide()
        self.summary = QLabel(self.tr(
            "Test on this domain lists each stored page of the domain before and after the"
            " rules, the ones that got worse first."))
        self.summary.setWordWrap(True)
        self.page_list = QTreeWidget()
        self.page_list.setRootIsDecorated(False)
        self.page_list.setAlternatingRowColors(True)
        self.page_list.setHeaderLabels([self.tr("Task"), self.tr("Before"), self.tr("After"),
                                        self.tr("Change")])
        self.page_list.headerItem().setToolTip(1, self.tr("Characters (confidence) of the"
                                                          " stored article"))
        self.page_list.headerItem().setToolTip(2, self.tr("Characters (confidence) under"
                                                          " these rules"))
        for column, width in enumerate((380, 110, 110)):
            self.page_list.setColumnWidth(column, width)
        self.page_list.itemActivated.connect(self._chosen)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.bar)
        layout.addWidget(self.page_list, 1)
        self.progress.connect(self._progressed)

    def domain_words(self, section: str) -> str:
        """The section as a sentence names it."""
        return self.tr("every site") if section == "default" else section

    def run(self, section: str, text: str, rules: Rules,
            then: Callable[[TrialRun], None] | None = None) -> None:
        """Every stored page of ``section``'s domain (every page for "default") under
        ``rules`` (parsed from ``text``), in the background; ``then`` is called with the run
        once it is shown, unless a newer run or a stop came first."""
        self._generation += 1
        generation, workspace = self._generation, self._workspace
        report = self.progress.emit  # from the job's thread; Qt queues it here

        def stop() -> bool:
            return self._generation != generation

        def work() -> TrialRun:
            trials = workspace.try_rules(
                rules, domain=None if section == "default" else section,
                progress=lambda done, total: report(generation, done, total), stop=stop)
            return TrialRun(generation, section, text, trials)

        self.page_list.clear()
        self.bar.setValue(0)
        self.bar.show()
        self.summary.setText(self.tr("Testing the rules on the stored pages of %1…")
                             .replace("%1", self.domain_words(section)))
        self._jobs.start(work, lambda run: self._tried(run, then), self._failed)

    def stop(self) -> None:
        """Stop the run under way; its answer, should it come, is dropped."""
        self._generation += 1

    def _progressed(self, generation: int, done: int, total: int) -> None:
        if generation == self._generation:
            self.bar.setMaximum(max(total, 1))
            self.bar.setValue(done)

    def _tried(self, run: TrialRun, then: Callable[[TrialRun], None] | None) -> None:
        if run.generation != self._generation:
            return
        self.bar.hide()
        self.last = run
        self._show(run)
        self.finished.emit(run)
        if then is not None:
            then(run)

    def _failed(self, message: str) -> None:
        self.bar.hide()
        self.summary.setText(red(esc(message)))

    def _show(self, run: TrialRun) -> None:
        trials = run.trials
        self.page_list.clear()
        if not trials:
            self.summary.setText(self.tr("No stored pages of %1 yet.")
                                 .replace("%1", self.domain_words(run.section)))
            return
        lost = sum(t.lost for t in trials)
        shorter = sum(t.change < 0 and not t.lost for t in trials)
        longer = sum(t.change > 0 for t in trials)
        self.summary.setText(
            self.tr("%n stored pages of %1: %2 would lose their article, %3 get shorter,"
                    " %4 longer.", "", len(trials))
            .replace("%1", self.domain_words(run.section))
            .replace("%2", str(lost)).replace("%3", str(shorter)).replace("%4", str(longer)))
        none = self.tr("no article")
        for t in trials:  # worse first, as try_rules orders them
            item = QTreeWidgetItem([
                f"#{t.task.id} {cap_text(t.task.display_title, 80)}",
                _chars(t.before_chars, t.before_confidence, "—"),
                _chars(t.after_chars, t.after_confidence, none),
                "" if t.lost else f"{t.change:+,}" if t.change else "0"])
            item.setData(0, Qt.ItemDataRole.UserRole, t.task.id)
            if t.lost:
                item.setToolTip(2, t.error)
                for column in range(4):
                    item.setForeground(column, QBrush(QColor(ERROR_COLOUR)))
            elif t.change < 0:
                item.setForeground(3, QBrush(QColor("#8d6e00")))
            self.page_list.addTopLevelItem(item)

    def _chosen(self, item: QTreeWidgetItem, _column: int) -> None:
        """A row of the domain's list: its task, for the editor to preview."""
        task_id = item.data(0, Qt.ItemDataRole.UserRole)
        try:
            task = self._workspace.task(int(task_id))
        except KuaibuError:
            return
        self.task_chosen.emit(task)
