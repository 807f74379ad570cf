"""The task table: which rows are selected and which is current, picking rows out, the
filters' choices, the current row's preview, and how the person left the table in each archive.

Apart because every other part asks the table what it is about (``selected_ids``,
``current_task``) or shows it something (``select_task``, ``_refresh_filters``); the model and
the filter themselves are ``gui.task_model``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QItemSelection, QModelIndex
from PySide6.QtWidgets import QComboBox

from gui.main_window.menus import WindowMenus
from gui.task_model import COLUMNS
from pipeline.records.task import Task
from pipeline.usecases.library import Preview


class WindowTable(WindowMenus):
    """The table's selection, filters and preview."""

    def selected_ids(self) -> list[int]:
        rows = self.table.selectionModel().selectedRows()
        return sorted(self.model.task_at(self.proxy.mapToSource(i).row()).id for i in rows)

    def current_task(self) -> Task | None:
        index = self.table.selectionModel().currentIndex()
        if not index.isValid():
            return None
        return self.model.task_at(self.proxy.mapToSource(index).row())

    def _shown_index(self, task_id: int) -> QModelIndex:
        """The task's first cell in the table; invalid when the task is not shown."""
        row = self.model.row_of(task_id)
        if row is None:
            return QModelIndex()
        return self.proxy.mapFromSource(self.model.index(row, 0))

    def select_task(self, task_id: int) -> None:
        """Make a task the current, only selected row (scrolls to it)."""
        index = self._shown_index(task_id)
        if index.isValid():
            flags = self.table.selectionModel().SelectionFlag
            self.table.selectionModel().setCurrentIndex(index, flags.ClearAndSelect | flags.Rows)
            self.table.scrollTo(index)

    def select_tasks(self, task_ids: list[int]) -> None:
        """Select the rows of these tasks (just added) and scroll to the first."""
        selection = QItemSelection()
        shown = sorted((index for index in map(self._shown_index, set(task_ids))
                        if index.isValid()), key=lambda index: index.row())
        for index in shown:
            selection.select(index, index.siblingAtColumn(len(COLUMNS) - 1))
        if not shown:
            return
        first = shown[0]
        self.table.selectionModel().select(
            selection, self.table.selectionModel().SelectionFlag.ClearAndSelect)
        self.table.scrollTo(first)

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._update_controls()

    def show_task(self, task_id: int) -> None:
        """Select a task's row (from search or the failures view) and show its article."""
        self.select_task(task_id)
        self.bring_tab(self.preview)

    def _row_activated(self, index: Any) -> None:
        """Double-click or Enter on a row: its article, as the book will show it (the title
        is edited with F2)."""
        if COLUMNS[index.column()] not in ("title", "cat1", "cat2"):
            self.bring_tab(self.preview)
            self.show_current()

    def show_current(self) -> None:
        task = self.current_task()
        if self.rules_editor is not None:
            self.rules_editor.set_task(task)
        workspace = self.workspace
        if task is None or workspace is None:
            return
        self.jobs.start(lambda: workspace.preview(task), self._preview_loaded)

    def follow_preview(self) -> None:
        """The preview shown again when its task's row changed (a title edited in the table,
        a run's or another writer's change); left alone otherwise, where the person reads."""
        shown, current = self.preview.shown, self.current_task()
        if (shown is not None and current is not None and current.id == shown.task.id
                and current != shown.task):
            self.show_current()

    def _preview_loaded(self, data: Preview) -> None:
        current = self.current_task()
        if current is not None and current.id == data.task.id:  # not a stale answer
            self.preview.show_data(data)

    def _refresh_filters(self) -> None:
        """Status, category and domain choices, and the category completers."""
        for box, items in (
            (self.status_filter, self.model.status_choices()),
            (self.category_filter, [(c, c) for c in self.model.categories()]),
            (self.domain_filter, [(h, h) for h in self.model.hosts()]),
        ):
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(self.tr("All"), "")
            for text, data in items:
                box.addItem(text, data)
            box.setCurrentIndex(max(0, box.findData(current)))
            box.blockSignals(False)
        self.intake.set_known_categories(self.model.categories())

    def _text_typed(self, text: str) -> None:
        """A key in the filter box: the filter follows once typing pauses (``filter_pause``);
        the box emptied (its ×, Show every task) shows every row at once."""
        if text.strip():
            self.filter_pause.start()
        else:
            self.apply_text_filter()

    def apply_text_filter(self) -> None:
        """The rows filtered by the box's text now (Enter does it without the pause)."""
        self.filter_pause.stop()
        if self.proxy.text() != self.search.text().strip().casefold():
            self.proxy.set_text(self.search.text())

    def show_filter_state(self) -> None:
        """How many tasks the table shows of how many, in the status bar (no count while an
        archive opens: "0 tasks" would be wrong until its tasks are read)."""
        self.filter_state.setVisible(self.opening is None)
        self.filter_state.show_counts(self.proxy.rowCount(), self.model.rowCount())

    def clear_filters(self) -> None:
        """Every task shown: the text, status, category and domain filters and the tree's
        node back to All."""
        self.search.clear()
        for box, _name in self._filter_boxes():
            box.setCurrentIndex(0)
        self.tree.select(None, None)

    def _columns_key(self, root: Path) -> str:
        return f"columns/{root.as_posix()}"

    def _restore_columns(self, root: Path) -> None:
        """Column widths, order and sort, the filters, the tree's node and its open branches
        as the person left them in this archive. Not the text filter: a word typed to find a
        row is a look, not a place to come back to, and a window that reopens on "1 of 105"
        looks as if the archive lost the rest (the count in the status bar says so for
        the filters that are kept)."""
        key = self._columns_key(root)
        state = self.prefs.value(key)
        if isinstance(state, QByteArray):
            self.table.horizontalHeader().restoreState(state)
            self.fit_header_words()
        for box, name in self._filter_boxes():
            found = box.findData(str(self.prefs.value(f"{key}/{name}", "")))
            box.setCurrentIndex(max(0, found))
        node = self.prefs.value(f"{key}/tree")
        if isinstance(node, list) and len(node) == 2:
            self.tree.select(*(str(n) if n != "*" else None for n in node))
        expanded = self.prefs.value(f"{key}/expanded")
        if isinstance(expanded, list):
            self.tree.expand_categories(str(n) for n in expanded)

    def _save_columns(self) -> None:
        if self.archive is None:
            return
        key = self._columns_key(self.archive.root)
        self.prefs.setValue(key, self.table.horizontalHeader().saveState())
        for box, name in self._filter_boxes():
            self.prefs.setValue(f"{key}/{name}", box.currentData() or "")
        self.prefs.setValue(f"{key}/tree", ["*" if n is None else n
                                            for n in self.tree.current_category()])
        # a list QSettings reads back as a list, one item or none too: "*" keeps it a list
        self.prefs.setValue(f"{key}/expanded", ["*", *self.tree.expanded_categories()])

    def _filter_boxes(self) -> tuple[tuple[QComboBox, str], ...]:
        return ((self.status_filter, "status"), (self.category_filter, "category"),
                (self.domain_filter, "domain"))
