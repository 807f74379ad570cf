"""What the person does to the selected tasks: change their category (also by renaming or
dropping on a node of the category tree; each an edit on the undo stack, ``history``), move
them up or down the list (the order a book binds), open
the original or the clean page, copy their links, show their files; and the context menu that
offers these and Remove.

Apart because these are the table's own edits and looks, each a workspace use case or a
desktop call, none of them a run or a build.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QMenu,
    QWidget,
)

from gui.main_window.history import WindowHistory
from gui.main_window.menus import MOVES
from gui.main_window.shell import LEFT_TO_RUN
from pipeline.records.task import Status


class CategoryDialog(QDialog):
    """Change the categories of the selected tasks (an empty field leaves it as it is)."""

    def __init__(self, categories: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Change category"))
        form = QFormLayout(self)
        self.cat1, self.cat2 = QLineEdit(), QLineEdit()
        for edit in (self.cat1, self.cat2):
            edit.setCompleter(QCompleter(categories, edit))
        form.addRow(self.tr("Category"), self.cat1)
        form.addRow(self.tr("Subcategory"), self.cat2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)



class WindowTaskActions(WindowHistory):
    """The selection's edits and looks."""

    def context_menu(self) -> QMenu:
        """The selection's actions, each enabled only where it does something for these
        rows, in groups."""
        tasks = [t for i in self.selected_ids() if (t := self.model.task(i)) is not None]
        running = self.controller.running
        stored = self.archive is not None and any(self.archive.has_raw(t.id) for t in tasks)
        cleaned = self.archive is not None and any(self.archive.has_clean(t.id) for t in tasks)
        runnable = any(t.status in LEFT_TO_RUN for t in tasks)
        failed = any(t.status == Status.FAILED for t in tasks)
        enabled = {
            "run": runnable and not running, "retry": failed and not running,
            "reclean": stored and not running, "check_updates": stored and not running,
            "category": bool(tasks),
            **dict.fromkeys(MOVES, bool(tasks) and self.writable),
            "open_source": bool(tasks), "open_clean": cleaned, "copy_url": bool(tasks),
            "show_folder": stored, "remove": bool(tasks) and not running,
        }
        menu = QMenu(self)
        for group in (("open_source", "open_clean", "show_folder", "copy_url"),
                      ("run", "retry", "reclean", "check_updates"), ("category", *MOVES),
                      ("remove",)):
            for key in group:
                self.task_actions[key].setEnabled(enabled[key])
                menu.addAction(self.task_actions[key])
            menu.addSeparator()
        return menu

    def set_category(self, task_ids: list[int], cat1: str | None, cat2: str | None,
                     text: str) -> None:
        """Set cat1 and/or cat2 (None leaves a field as it is) on several tasks at once, as
        one edit Undo names ``text``."""
        changes = {k: v.strip() for k, v in (("cat1", cat1), ("cat2", cat2)) if v is not None}
        if changes:
            self.edit_tasks(text, task_ids, changes)

    def ask_category(self) -> None:
        ids = self.selected_ids()
        dialog = CategoryDialog(self.model.categories(), self)
        if ids and dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_category(ids, dialog.cat1.text() or None, dialog.cat2.text() or None,
                              self.tr("Change category"))

    def move_to_category(self, task_ids: list[int], cat1: str, cat2: str) -> None:
        """Rows dropped on a node of the category tree: filed under it."""
        self.set_category(task_ids, cat1, cat2, self.tr("Move to category"))

    def rename_category(self, old1: str, old2: str | None, new: str) -> None:
        """A node of the category tree renamed: the category changes in every task of it."""
        tasks = self.model.tasks()
        text = self.tr("Rename category")
        if old2 is None:
            self.set_category([t.id for t in tasks if t.cat1 == old1], new, None, text)
        else:
            self.set_category([t.id for t in tasks if t.cat1 == old1 and t.cat2 == old2],
                              None, new, text)

    def move_selected(self, key: str) -> None:
        """The selected rows, in the order shown, one row up or down past the row shown
        beside them (a filter hides the rest: they are passed over), or to the top or bottom
        of the list; the table shows the list's order after."""
        if key in ("move_top", "move_bottom"):
            self.move_tasks(self._shown_ids(self.selected_rows()), key.removeprefix("move_"))
            return
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # "up" in the list's order
        rows = self.selected_rows()
        if not rows:
            return
        beside = rows[0] - 1 if key == "move_up" else rows[-1] + 1
        if not 0 <= beside < self.proxy.rowCount():
            return  # at the top (bottom) already
        [other] = self._shown_ids([beside])
        self.move_tasks(self._shown_ids(rows), "before" if key == "move_up" else "after",
                        other)

    def move_dropped(self, task_ids: list[int], row: int, after: bool) -> None:
        """Rows dropped on the table (``RowDrops``): moved, in the list's order, before or
        after the row they fell on, or to the bottom when below every row."""
        if self.workspace is None:
            return
        place = {task_id: at for at, task_id in enumerate(self.workspace.order())}
        moving = sorted(task_ids, key=lambda i: place.get(i, len(place)))
        if row < 0:
            self.move_tasks(moving, "bottom")
            return
        [other] = self._shown_ids([row])
        if other not in moving:
            self.move_tasks(moving, "after" if after else "before", other)

    def selected_rows(self) -> list[int]:
        """The selected rows' numbers as the table shows them, top to bottom."""
        return sorted(i.row() for i in self.table.selectionModel().selectedRows())

    def _shown_ids(self, rows: list[int]) -> list[int]:
        return [self.model.task_at(self.proxy.mapToSource(self.proxy.index(row, 0)).row()).id
                for row in rows]

    def open_original(self, task_id: int) -> None:
        task = self.model.task(task_id)
        if task is not None:
            self.open_url(QUrl(task.url))

    def open_source_urls(self) -> None:
        for task_id in self.selected_ids()[:20]:  # a slip of the mouse must not open 10,000 tabs
            task = self.model.task(task_id)
            if task is not None:
                self.open_url(QUrl(task.url))

    def open_clean_pages(self) -> None:
        if self.archive is None:
            return
        for task_id in self.selected_ids()[:20]:
            if self.archive.has_clean(task_id):
                self.open_url(QUrl.fromLocalFile(str(self.archive.clean_html(task_id))))

    def copy_urls(self) -> None:
        urls = [t.url for i in self.selected_ids() if (t := self.model.task(i)) is not None]
        QGuiApplication.clipboard().setText("\n".join(urls))

    def show_task_files(self) -> None:
        """The folder of the first selected task's clean page (or raw page before cleaning)."""
        if self.archive is None or not (ids := self.selected_ids()):
            return
        folder = (self.archive.clean_dir if self.archive.has_clean(ids[0])
                  else self.archive.raw_dir)
        self.open_url(QUrl.fromLocalFile(str(folder)))
