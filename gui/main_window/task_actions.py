"""What the person does to the selected tasks: change their category (also by renaming or
dropping on a node of the category tree), move them to the trash and back, open the original
or the clean page, copy their links, show their files; and the context menu that offers these.

Apart because these are the table's own edits and looks, each a workspace use case or a
desktop call, none of them a run or a build.
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
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

from gui.main_window.archive import WindowArchive
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



class WindowTaskActions(WindowArchive):
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
            "open_source": bool(tasks), "open_clean": cleaned, "copy_url": bool(tasks),
            "show_folder": stored, "remove": bool(tasks) and not running,
        }
        menu = QMenu(self)
        for group in (("open_source", "open_clean", "show_folder", "copy_url"),
                      ("run", "retry", "reclean", "check_updates"), ("category",), ("remove",)):
            for key in group:
                self.task_actions[key].setEnabled(enabled[key])
                menu.addAction(self.task_actions[key])
            menu.addSeparator()
        return menu

    def set_category(self, task_ids: list[int], cat1: str | None, cat2: str | None) -> None:
        """Set cat1 and/or cat2 (None leaves a field as it is) on several tasks at once."""
        if self.workspace is None or self.workspace.read_only:
            return
        changes = {k: v.strip() for k, v in (("cat1", cat1), ("cat2", cat2)) if v is not None}
        if not changes:
            return
        self.workspace.edit(task_ids, **changes)
        for task_id in task_ids:
            self.model.update_fields(task_id, changes)
        self._refresh_filters()
        self._edited()

    def ask_category(self) -> None:
        ids = self.selected_ids()
        dialog = CategoryDialog(self.model.categories(), self)
        if ids and dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_category(ids, dialog.cat1.text() or None, dialog.cat2.text() or None)

    def rename_category(self, old1: str, old2: str | None, new: str) -> None:
        """A node of the category tree renamed: the category changes in every task of it."""
        tasks = self.model.tasks()
        if old2 is None:
            self.set_category([t.id for t in tasks if t.cat1 == old1], new, None)
        else:
            self.set_category([t.id for t in tasks if t.cat1 == old1 and t.cat2 == old2],
                              None, new)

    def remove_tasks(self, task_ids: list[int]) -> None:
        """Move tasks to the trash, after asking with the count (Undo remove, or the Trash
        tab, brings them back; their files stay until the trash is emptied)."""
        if (self.workspace is None or self.workspace.read_only or self.controller.running
                or not task_ids):
            return
        question = self.tr("Move %n tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab"
                           " brings them back.", "", len(task_ids))
        if not self.confirm(question):
            return
        self.workspace.remove(task_ids)
        self._last_removed = list(task_ids)
        self.model.remove_tasks(task_ids)
        self.preview.clear()
        self._refresh_filters()
        self.statusBar().showMessage(self.tr("%n tasks moved to the trash", "",
                                             len(task_ids)))
        self.save_tasks()
        self._update_controls()

    def undo_remove(self) -> None:
        """Bring back the tasks the last Remove moved to the trash."""
        if self.workspace is None or not self._last_removed:
            return
        restored = self.workspace.restore(self._last_removed)
        self._last_removed = []
        self.model.add_tasks(restored)
        self._refresh_filters()
        self.save_tasks()
        self.statusBar().showMessage(self.tr("%n tasks restored", "", len(restored)))
        self._update_controls()

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
