"""The trash: tasks a person removed, off the list with their files kept (``Workspace.trash``),
until they are restored (``Workspace.restore``) or the trash is emptied for good
(``Workspace.empty_trash``, after a question that says how many go). Reads and writes run in
jobs; after its own restore or emptying the view reads the trash again, and the window follows
the change the workspace says it made (``archive_changed``), as after any other.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDateTime, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.when_shown import WhenShown
from gui.worker import Jobs, Latest
from pipeline.records.task import Task
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace

IdRole = Qt.ItemDataRole.UserRole + 1
TITLE_WIDTH = 260  # px


def local_time(stamp: str) -> str:
    """An ISO time from tasks.csv (UTC) as the person's local minute; as it is when unreadable."""
    moment = QDateTime.fromString(stamp, Qt.DateFormat.ISODate)
    return moment.toLocalTime().toString("yyyy-MM-dd HH:mm") if moment.isValid() else stamp


class TrashView(QWidget):
    """The trashed tasks, newest first, with Restore (the selected) and Empty trash."""

    restored = Signal(list)  # task ids back on the list (saved)
    emptied = Signal(int)  # how many tasks went for good
    refreshed = Signal()  # the list shows the trash as the workspace holds it

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        # asked before emptying, with the count; tests put their own answer here
        self.confirm: Callable[[int], bool] = self._ask_to_empty
        self._reads = Latest(jobs)
        self._busy = False
        self._ids: list[int] = []
        self._when_shown = WhenShown(self, self.refresh)

        self.summary = QLabel()
        self.list = QTreeWidget()
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setHeaderLabels([self.tr("Title"), self.tr("URL"), self.tr("Deleted")])
        self.list.setColumnWidth(0, TITLE_WIDTH)
        self.list.setColumnWidth(1, TITLE_WIDTH)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.restore_button = QPushButton(self.tr("Restore"))
        self.restore_button.clicked.connect(self.restore_selected)
        self.empty_button = QPushButton(self.tr("Empty trash"))
        self.empty_button.clicked.connect(self.empty)

        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(self.restore_button)
        buttons.addWidget(self.empty_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._update_buttons()
        self.setEnabled(workspace is not None)

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self.setEnabled(workspace is not None)
        self._when_shown.request()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): the trash read again when the tasks
        changed (a remove in the table, its Undo, another face's save), now if the tab is
        shown, else when it is (a read walks every task)."""
        if Changed.TASKS in change:
            self._when_shown.request()

    def refresh(self) -> None:
        """Read the trash again."""
        workspace = self.workspace
        if workspace is None:
            self._reads.drop()
            self._show([])
            return
        self._reads.start(workspace.trash, self._loaded, self.summary.setText)

    def _loaded(self, tasks: list[Task]) -> None:
        self._show(tasks)
        self.refreshed.emit()

    def _show(self, tasks: list[Task]) -> None:
        held = set(self.selected_ids())
        self.list.blockSignals(True)
        self.list.clear()
        tasks = sorted(tasks, key=lambda t: (t.deleted_at, t.id), reverse=True)
        self._ids = [t.id for t in tasks]
        for task in tasks:
            item = QTreeWidgetItem([task.display_title, task.url, local_time(task.deleted_at)])
            item.setData(0, IdRole, task.id)
            item.setToolTip(0, task.display_title)
            item.setToolTip(1, task.url)
            item.setToolTip(2, task.deleted_at)
            self.list.addTopLevelItem(item)
            item.setSelected(task.id in held)
        self.list.blockSignals(False)
        self.summary.setText(self.tr("%n tasks in the trash", "", len(tasks))
                             if tasks else self.tr("The trash is empty."))
        self._update_buttons()

    def selected_ids(self) -> list[int]:
        return [int(item.data(0, IdRole)) for item in self.list.selectedItems()]

    def trashed_ids(self) -> list[int]:
        """The tasks listed, newest in the trash first."""
        return list(self._ids)

    def _update_buttons(self) -> None:
        free = not self._busy and self.workspace is not None and not self.workspace.read_only
        self.restore_button.setEnabled(free and bool(self.list.selectedItems()))
        self.empty_button.setEnabled(free and bool(self._ids))

    # -- acting ----------------------------------------------------------------------------------

    def restore_selected(self) -> None:
        """Put the selected tasks back on the list, as they were, and save."""
        ids, workspace = self.selected_ids(), self.workspace
        if not ids or workspace is None or self._busy:
            return

        def restore() -> list[int]:
            workspace.restore(ids)
            workspace.save()
            return ids

        self._start(restore, self._restored)

    def empty(self) -> None:
        """Remove every trashed task for good, once the person said yes to the count."""
        count, workspace = len(self._ids), self.workspace
        if not count or workspace is None or self._busy or not self.confirm(count):
            return
        self._start(workspace.empty_trash, self._emptied)

    def _start(self, work: Callable[[], object], done: Callable[[object], None]) -> None:
        self._busy = True
        self._update_buttons()
        self._reads.drop()  # a list read before this change is out of date
        self.jobs.start(work, done, self._action_failed)

    def _action_failed(self, message: str) -> None:
        self._busy = False
        self.summary.setText(message)
        self._update_buttons()

    def _restored(self, ids: object) -> None:
        self._busy = False
        assert isinstance(ids, list)
        self.restored.emit(ids)
        self.refresh()

    def _emptied(self, count: object) -> None:
        self._busy = False
        assert isinstance(count, int)
        self.emptied.emit(count)
        self.refresh()

    def _ask_to_empty(self, count: int) -> bool:
        answer = QMessageBox.question(
            self, self.tr("Empty trash"),
            self.tr("Delete the %n tasks in the trash for good, with their stored pages and "
                    "articles? This cannot be undone.", "", count),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes
