"""The failed tasks, grouped so they can be dealt with together: by kind of failure
(``Workspace.failures``: network ones retried when the connection is back, 4xx ones fixed in
the link) or by domain (``Workspace.failures_by_domain``: a dead or blocking site).

A task chosen shows its full reason and the fetch log's lines about it (``Workspace.fetch_log``)
and, when the site's answer was stored, that answer as plain text (``Workspace.raw_html``).
Everything is read in jobs; an answer for a task or a grouping no longer shown is dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.reasons import task_reason
from gui.task_model import kind_names
from gui.when_shown import WhenShown
from gui.worker import Jobs, Latest
from pipeline.records.errors import ErrorKind
from pipeline.records.task import Task
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of

BY_KIND, BY_DOMAIN = "kind", "domain"
TITLE_WIDTH = 260  # px: most of a title; the reason, the last column, takes the rest
KeyRole = Qt.ItemDataRole.UserRole + 1  # a group's key (an ErrorKind or a host); a task's id


@dataclass(frozen=True)
class Group:
    key: str  # an ErrorKind's value, or a host
    tasks: list[Task]


@dataclass(frozen=True)
class Details:
    """What the detail pane shows of one task, read in a job."""

    task_id: int
    log: list[str]
    stored: bool  # the site's answer is in 00_raw


class FailuresView(QWidget):
    """The failures by kind or by domain; "Retry these" asks the window to retry a group or
    the tasks selected."""

    retry_requested = Signal(list, object)  # task ids, the ErrorKind value they share or None
    render_requested = Signal(list)  # ids of pages that need JavaScript: render their sites
    task_chosen = Signal(int)  # a task double-clicked: show it in the table
    refreshed = Signal()  # the groups are shown as the workspace holds them
    details_shown = Signal(int)  # a task's fetch log is in the detail pane
    response_shown = Signal(int)  # a task's stored response is shown

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        self.mode = BY_KIND
        self._kinds = kind_names()
        self._groups: list[Group] = []
        self._tasks: dict[int, Task] = {}
        self._headings: list[QTreeWidgetItem] = []
        self._reads = Latest(jobs)
        self._collapsed: set[tuple[str, str]] = set()  # (mode, key) of groups a person closed
        self._detail_id: int | None = None
        self._when_shown = WhenShown(self, self.refresh)

        self.by_kind = QRadioButton(self.tr("By kind"))
        self.by_domain = QRadioButton(self.tr("By domain"))
        self.by_kind.setChecked(True)
        switch = QButtonGroup(self)
        switch.addButton(self.by_kind)
        switch.addButton(self.by_domain)
        self.by_kind.toggled.connect(self._switched)
        self.retry_button = QPushButton(self.tr("Retry these"))
        self.retry_button.setEnabled(False)
        self.retry_button.clicked.connect(self.retry_selected)
        self.render_button = QPushButton(self.tr("Render with browser…"))
        self.render_button.setToolTip(self.tr(
            "Have the chosen pages' sites rendered by the system's Chromium from now on"
            " (render: browser in rules.yaml), then try these pages again"))
        self.render_button.setEnabled(False)
        self.render_button.clicked.connect(self.render_selected)
        self.summary = QLabel()

        self.tree = QTreeWidget()
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setUniformRowHeights(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.itemSelectionChanged.connect(self._selection_changed)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.tree.itemCollapsed.connect(lambda item: self._expanded(item, False))
        self.tree.itemExpanded.connect(lambda item: self._expanded(item, True))

        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setPlaceholderText(
            self.tr("Select a task to see its reason and fetch log."))
        self.response_button = QPushButton(self.tr("View stored response"))
        self.response_button.setEnabled(False)
        self.response_button.clicked.connect(self.show_response)
        self.response = QPlainTextEdit()
        self.response.setReadOnly(True)
        self.response.hide()
        monospace = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.details.setFont(monospace)
        self.response.setFont(monospace)

        top = QHBoxLayout()
        top.addWidget(self.by_kind)
        top.addWidget(self.by_domain)
        top.addStretch(1)
        top.addWidget(self.render_button)
        top.addWidget(self.retry_button)
        detail_pane = QWidget()
        detail_layout = QVBoxLayout(detail_pane)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.details, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.response_button)
        buttons.addStretch(1)
        detail_layout.addLayout(buttons)
        detail_layout.addWidget(self.response, 2)
        # side by side: the bottom tabs are wide and short, and may be shorter still
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tree)
        splitter.addWidget(detail_pane)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(splitter, 1)
        self._set_headers()
        self.setEnabled(workspace is not None)

    # -- loading ---------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self._collapsed.clear()
        self.setEnabled(workspace is not None)
        self._when_shown.request()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): the failures read again when the tasks
        changed (a run's end, a retry, a task trashed or restored, another writer's save),
        now if the tab is shown, else when it is (a read walks every task)."""
        if Changed.TASKS in change:
            self._when_shown.request()

    def refresh(self) -> None:
        """Read the failures again, grouped as the switch says."""
        mode, workspace = self.mode, self.workspace
        if workspace is None:
            self._reads.drop()
            self._show([])
            return

        def load() -> list[Group]:
            grouped: Sequence[tuple[str, list[Task]]] = (
                workspace.failures() if mode == BY_KIND else workspace.failures_by_domain())
            return [Group(str(key), tasks) for key, tasks in grouped]

        self._reads.start(load, self._loaded, self._load_failed)

    def _loaded(self, groups: list[Group]) -> None:
        self._show(groups)
        self.refreshed.emit()

    def _load_failed(self, message: str) -> None:
        self.summary.setText(self.tr("Cannot read the failures: %1").replace("%1", message))

    def _switched(self, by_kind: bool) -> None:
        self.mode = BY_KIND if by_kind else BY_DOMAIN
        self._set_headers()
        self.refresh()

    def _set_headers(self) -> None:
        other = self.tr("Domain") if self.mode == BY_KIND else self.tr("Kind")
        self.tree.setHeaderLabels([self.tr("ID"), self.tr("Title"), other, self.tr("Reason")])

    def group_name(self, key: str) -> str:
        """A group's heading: the kind as a short phrase, or the host."""
        if self.mode == BY_KIND:
            try:
                return self._kinds[ErrorKind(key)]
            except ValueError:
                return key
        return key

    def _show(self, groups: list[Group]) -> None:
        """Show the groups, keeping the tasks (or groups) selected and the groups closed."""
        held_tasks = set(self._selected_task_items())
        held_groups = {item.data(0, KeyRole) for item in self.tree.selectedItems()
                       if item.parent() is None}
        self.tree.blockSignals(True)
        self.tree.clear()
        self._groups = groups
        self._tasks = {t.id: t for g in groups for t in g.tasks}
        self._headings = []
        for group in groups:
            heading = QTreeWidgetItem([f"{self.group_name(group.key)} ({len(group.tasks)})"])
            heading.setData(0, KeyRole, group.key)
            font = heading.font(0)
            font.setBold(True)
            heading.setFont(0, font)
            self.tree.addTopLevelItem(heading)
            self._headings.append(heading)
            heading.setFirstColumnSpanned(True)
            for task in group.tasks:
                other = (host_of(task.url) if self.mode == BY_KIND
                         else self._kind_name(task))
                reason = self.reason(task)
                row = QTreeWidgetItem([str(task.id), task.display_title, other, reason])
                row.setData(0, KeyRole, task.id)
                row.setToolTip(1, task.url)
                row.setToolTip(3, reason)
                heading.addChild(row)
                row.setSelected(task.id in held_tasks)
            heading.setExpanded((self.mode, group.key) not in self._collapsed)
            heading.setSelected(group.key in held_groups)
        self.tree.blockSignals(False)
        for column in (0, 2):
            self.tree.resizeColumnToContents(column)
        self.tree.setColumnWidth(1, TITLE_WIDTH)
        total = sum(len(g.tasks) for g in groups)
        self.summary.setText(self.tr("%n failed tasks", "", total) if total
                             else self.tr("No failed tasks."))
        self._detail_id = None  # a task still selected is read again: its reason may be new
        self._selection_changed()

    def reason(self, task: Task) -> str:
        """Why a task failed, in full, in the window's language."""
        return task_reason(task)

    def _kind_name(self, task: Task) -> str:
        kind = task.failure_kind
        return self._kinds[kind] if kind is not None else ""

    def _expanded(self, item: QTreeWidgetItem, expanded: bool) -> None:
        if item.parent() is None:
            key = (self.mode, str(item.data(0, KeyRole)))
            if expanded:
                self._collapsed.discard(key)
            else:
                self._collapsed.add(key)

    # -- choosing and retrying -------------------------------------------------------------------

    def _selected_task_items(self) -> list[int]:
        return [int(item.data(0, KeyRole)) for item in self.tree.selectedItems()
                if item.parent() is not None]

    def chosen_ids(self) -> list[int]:
        """The tasks "Retry these" takes: those selected and every task of a selected group,
        in the order shown."""
        chosen: dict[int, None] = {}
        for heading in self._headings:
            whole = heading.isSelected()
            for row in range(heading.childCount()):
                item = heading.child(row)
                if item is not None and (whole or item.isSelected()):
                    chosen[int(item.data(0, KeyRole))] = None
        return list(chosen)

    def retry_selected(self) -> None:
        ids = self.chosen_ids()
        if not ids:
            return
        kinds = {self._tasks[i].failure_kind for i in ids if i in self._tasks}
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        self.retry_requested.emit(ids, str(kind) if kind is not None else None)

    def needs_javascript_ids(self) -> list[int]:
        """The chosen tasks that failed as needing JavaScript: what rendering would help."""
        return [i for i in self.chosen_ids()
                if i in self._tasks and self._tasks[i].failure_kind is ErrorKind.NEEDS_JS]

    def render_selected(self) -> None:
        ids = self.needs_javascript_ids()
        if ids:
            self.render_requested.emit(ids)

    def _context_menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None:
            return
        if not item.isSelected():
            self.tree.clearSelection()
            item.setSelected(True)
        menu = QMenu(self)
        count = len(self.chosen_ids())
        menu.addAction(self.tr("Retry these (%1)").replace("%1", str(count)), self.retry_selected)
        if self.needs_javascript_ids():
            menu.addAction(self.render_button.text(), self.render_selected)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        if item.parent() is not None:
            self.task_chosen.emit(int(item.data(0, KeyRole)))

    # -- the detail pane -------------------------------------------------------------------------

    def _selection_changed(self) -> None:
        writable = self.workspace is not None and not self.workspace.read_only
        self.retry_button.setEnabled(writable and bool(self.chosen_ids()))
        self.render_button.setEnabled(writable and bool(self.needs_javascript_ids()))
        selected = self.tree.selectedItems()
        current = selected[0] if len(selected) == 1 else None
        if current is not None and current.parent() is not None:
            self._show_task(int(current.data(0, KeyRole)))
        elif current is not None:
            self._show_group(str(current.data(0, KeyRole)))
        else:
            self._clear_details()

    def _clear_details(self) -> None:
        self._detail_id = None
        self.details.clear()
        self.response_button.setEnabled(False)
        self.response.clear()
        self.response.hide()

    def _show_group(self, key: str) -> None:
        """A group chosen: how many tasks failed for each reason, the commonest first."""
        self._clear_details()
        group = next((g for g in self._groups if g.key == key), None)
        if group is None:
            return
        reasons = Counter(self.reason(t) for t in group.tasks)
        lines = [f"{self.group_name(key)} ({len(group.tasks)})", ""]
        lines += [f"{n:>5} × {reason}" for reason, n in reasons.most_common()]
        self.details.setPlainText("\n".join(lines))

    def _show_task(self, task_id: int) -> None:
        if task_id == self._detail_id:
            return
        self._clear_details()
        task, workspace = self._tasks.get(task_id), self.workspace
        if task is None or workspace is None:
            return
        self._detail_id = task_id
        self.details.setPlainText(self._task_text(task, None))

        def read() -> Details:
            return Details(task_id, workspace.fetch_log(task_id),
                           workspace.archive.has_raw(task_id))

        self.jobs.start(read, self._details_read,
                        lambda message: self._details_failed(task_id, message))

    def _task_text(self, task: Task, log: list[str] | None) -> str:
        lines = [f"#{task.id}  {task.display_title}"]
        if task.display_title != task.url:  # no title yet: the link is the heading
            lines.append(task.url)
        lines += [self.tr("Kind: %1").replace("%1", self._kind_name(task)),
                  self.tr("Reason: %1").replace("%1", self.reason(task)), "",
                  self.tr("Fetch log:")]
        if log is None:
            lines.append(self.tr("Reading the fetch log…"))
        elif not log:
            lines.append(self.tr("No lines about this task in the fetch log."))
        else:
            lines += log
        return "\n".join(lines)

    def _details_read(self, details: Details) -> None:
        task = self._tasks.get(details.task_id)
        if details.task_id != self._detail_id or task is None:
            return  # another task is shown meanwhile
        self.details.setPlainText(self._task_text(task, details.log))
        self.response_button.setEnabled(details.stored)
        self.response_button.setToolTip(
            "" if details.stored else self.tr("The site's answer was not stored."))
        self.details_shown.emit(details.task_id)

    def _details_failed(self, task_id: int, message: str) -> None:
        if task_id == self._detail_id:
            self.details.appendPlainText(message)

    def show_response(self) -> None:
        """The stored page, decoded as the clean stage decodes it, as plain text."""
        workspace = self.workspace
        task = self._tasks.get(self._detail_id) if self._detail_id is not None else None
        if task is None or workspace is None:
            return
        task_id = task.id
        self.response.setPlainText(self.tr("Reading the stored response…"))
        self.response.show()
        self.jobs.start(lambda: (task_id, workspace.raw_html(task)), self._response_read,
                        lambda message: self._response_read((task_id, message)))

    def _response_read(self, answer: tuple[int, str]) -> None:
        task_id, text = answer
        if task_id == self._detail_id:
            self.response.setPlainText(text)
            self.response_shown.emit(task_id)
