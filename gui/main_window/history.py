"""Undo and Redo for every edit the window makes: a title, categories (a re-file by the
dialog or a drop on the category tree, a category renamed), a remove, tasks moved up or down
the list (its order is a book's), a decision on a pair of near duplicates. One ``QUndoStack``
an open archive (emptied when another opens); Edit → Undo and Redo name the edit they would
take back or make again.

Apart because each edit is made here as a command that records, when it is made, the values
it replaces, and puts back only those, through the same use cases that made it
(``Workspace.edit``, ``remove``/``restore``, ``move``/``put_back``, ``put_decision``): what
another writer changed meanwhile in other fields (a run's status) stays. A task no longer on
the list (removed, or gone from the file) is said in one line, nothing changes, and the
command leaves the stack.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoCommand

from gui.duplicates_view import DuplicatesView, Taken
from gui.main_window.archive import Opened, WindowArchive
from pipeline.records.task import Task
from pipeline.store.duplicates import Decided
from pipeline.usecases.base import NoSuchTask
from pipeline.usecases.editing import Places
from pipeline.usecases.workspace import Workspace

# A task's fields as an edit sets them: task id → field → value.
Fields = dict[int, dict[str, str]]


class FieldsEdit(QUndoCommand):
    """Fields set on tasks; undone, each task gets back its own values of those fields."""

    def __init__(self, window: WindowHistory, text: str, before: Fields, after: Fields) -> None:
        super().__init__(text)
        self.window, self.before, self.after = window, before, after

    def redo(self) -> None:
        if not self.window.put_fields(self.after):
            self.setObsolete(True)

    def undo(self) -> None:
        if not self.window.put_fields(self.before):
            self.setObsolete(True)


class Removal(QUndoCommand):
    """Tasks moved to the trash; undone, those still in the trash come back."""

    during_run = False  # as Remove itself: not while a run holds the list

    def __init__(self, window: WindowHistory, text: str, task_ids: list[int]) -> None:
        super().__init__(text)
        self.window, self.task_ids = window, task_ids

    def redo(self) -> None:
        if not self.window.trash_tasks(self.task_ids):
            self.setObsolete(True)

    def undo(self) -> None:
        if not self.window.untrash_tasks(self.task_ids):
            self.setObsolete(True)


class Arrangement(QUndoCommand):
    """Tasks moved in the list (``Workspace.move``); undone, each goes back before the task it
    stood before (``put_back``), so others' arrangements meanwhile stay."""

    def __init__(self, window: WindowHistory, text: str, task_ids: list[int], place: str,
                 other: int | None) -> None:
        super().__init__(text)
        self.window, self.task_ids, self.place, self.other = window, task_ids, place, other
        self.places: Places | None = None

    def redo(self) -> None:
        self.places = self.window.arrange_tasks(self.task_ids, self.place, self.other)
        if self.places is None:
            self.setObsolete(True)

    def undo(self) -> None:
        if self.places is None or not self.window.put_back_tasks(self.places, self.task_ids):
            self.setObsolete(True)


class DecisionChange(QUndoCommand):
    """A decision on a pair of near duplicates, taken in the Duplicates tab (already stored
    when it reaches the stack); undone, the pair's decision before it is put back."""

    def __init__(self, window: WindowHistory, view: DuplicatesView, taken: Taken) -> None:
        super().__init__(taken.text)
        self.window, self.view, self.taken = window, view, taken
        self._stored = True  # the first redo is the one the tab made

    def redo(self) -> None:
        if self._stored:
            self._stored = False
        else:
            self._put(self.taken.after)

    def undo(self) -> None:
        self._put(self.taken.before)

    def _put(self, decided: Decided | None) -> None:
        pair = [self.taken.first, self.taken.second]
        if self.window.say_gone(pair):
            self.setObsolete(True)
        else:
            self.view.put_decision(self.taken.first, self.taken.second, decided)


def ids_text(task_ids: list[int], shown: int = 5) -> str:
    """"1, #2, #3…": the first few ids, for a line that follows a "#"."""
    return ", #".join(str(i) for i in task_ids[:shown]) + ("…" if len(task_ids) > shown else "")


class WindowHistory(WindowArchive):
    """The undo stack's edits: made through commands, put back through the same use cases."""

    def _archive_ready(self, opening: Opened) -> None:
        # a title or category typed in the table is an edit on the stack (none: read-only)
        self.model.editor = None if opening.workspace.read_only else self._edit_cell
        super()._archive_ready(opening)

    def _edit_cell(self, task_id: int, name: str, text: str) -> None:
        label = self.tr("Edit title") if name == "title" else self.tr("Edit category")
        self.edit_tasks(label, [task_id], {name: text})

    def edit_tasks(self, text: str, task_ids: list[int], changes: dict[str, str]) -> None:
        """Set ``changes`` on tasks as one edit Undo names ``text``; tasks whose fields are
        already so are left out, and an edit that changes nothing is no edit."""
        workspace = self.workspace
        if workspace is None or workspace.read_only:
            return
        before: Fields = {}
        for task_id in task_ids:
            task = workspace.task(task_id)
            old = {name: str(getattr(task, name)) for name in changes}
            if old != changes:
                before[task_id] = old
        if before:
            self.undo_stack.push(FieldsEdit(self, text, before,
                                            {task_id: dict(changes) for task_id in before}))

    def put_fields(self, values: Fields) -> bool:
        """Set each task's fields to its values in ``values``; False (said) when a task is
        no longer on the list."""
        workspace = self.workspace
        if workspace is None or self.say_gone(values):
            return False
        by_values: dict[tuple[tuple[str, str], ...], list[int]] = {}
        for task_id, fields in values.items():
            by_values.setdefault(tuple(sorted(fields.items())), []).append(task_id)
        for pairs, task_ids in by_values.items():  # a renamed category: one call
            workspace.edit(task_ids, **dict(pairs))
        for task_id, changed in values.items():
            self.model.update_fields(task_id, changed)
        self._refresh_filters()
        self._edited()
        return True

    def say_gone(self, task_ids: Iterable[int]) -> bool:
        """Whether any of ``task_ids`` is off the list (in the trash, or gone from the file),
        said in the status bar: the edit to take back or make again is not made."""
        gone = sorted(i for i, task in self._now(task_ids).items()
                      if task is None or task.deleted)
        if gone:
            self.statusBar().showMessage(self.tr(
                "Not done: #%1 is no longer on the list (removed meanwhile)").replace(
                "%1", ids_text(gone)))
        return bool(gone)

    def _now(self, task_ids: Iterable[int]) -> dict[int, Task | None]:
        """Each task as the workspace holds it now; None when it is gone from the file (the
        trash emptied, or another writer took its row out). One lookup a task: an edit of a
        title must not copy a list of 100,000."""
        now: dict[int, Task | None] = {}
        for task_id in task_ids:
            try:
                now[task_id] = self.workspace.task(task_id) if self.workspace else None
            except NoSuchTask:
                now[task_id] = None
        return now

    def remove_tasks(self, task_ids: list[int]) -> None:
        """Move tasks to the trash, after asking with the count (Undo, or the Trash tab,
        brings them back; their files stay until the trash is emptied)."""
        if (self.workspace is None or self.workspace.read_only or self.controller.running
                or not task_ids):
            return
        question = self.tr("Move %n tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab"
                           " brings them back.", "", len(task_ids))
        if self.confirm(question):
            self.undo_stack.push(Removal(self, self.tr("Remove %n tasks", "", len(task_ids)),
                                         list(task_ids)))

    def trash_tasks(self, task_ids: list[int]) -> bool:
        """Move tasks on the list to the trash; False (said) when one is no longer on it."""
        workspace = self.workspace
        if workspace is None or self.say_gone(task_ids):
            return False
        workspace.remove(task_ids)
        self.model.remove_tasks(task_ids)
        self.preview.clear()
        self._refresh_filters()
        self.statusBar().showMessage(self.tr("%n tasks moved to the trash", "", len(task_ids)))
        self.save_tasks()
        self._update_controls()
        return True

    def untrash_tasks(self, task_ids: list[int]) -> bool:
        """Bring back those of these tasks still in the trash (one restored meanwhile from the
        Trash tab is back already); False (said) when one is gone for good."""
        workspace = self.workspace
        if workspace is None:
            return False
        now = self._now(task_ids)
        gone = sorted(i for i, task in now.items() if task is None)
        if gone:
            self.statusBar().showMessage(self.tr(
                "Not done: #%1 is gone for good (the trash was emptied)").replace(
                "%1", ids_text(gone)))
            return False
        restored = workspace.restore([i for i, task in now.items()
                                      if task is not None and task.deleted])
        self.model.add_tasks(restored)
        self._refresh_filters()
        self.save_tasks()
        self.statusBar().showMessage(self.tr("%n tasks restored", "", len(restored)))
        self._update_controls()
        return True

    def move_tasks(self, task_ids: list[int], place: str, other: int | None = None) -> None:
        """Move tasks in the list (``MOVE_PLACES``) as one edit Undo takes back."""
        if self.workspace is None or self.workspace.read_only or not task_ids:
            return
        self.undo_stack.push(Arrangement(self, self.tr("Move %n tasks", "", len(task_ids)),
                                         list(task_ids), place, other))

    def arrange_tasks(self, task_ids: list[int], place: str, other: int | None) -> Places | None:
        """Move tasks in the list and show the rows so; None (said) when one is gone."""
        workspace = self.workspace
        if workspace is None or self.say_gone([*task_ids, *([] if other is None else [other])]):
            return None
        places = workspace.move(task_ids, place, other)
        self._arranged(workspace)
        return places

    def put_back_tasks(self, places: Places, task_ids: list[int]) -> bool:
        """Put moved tasks back where they stood; False (said) when one is gone."""
        workspace = self.workspace
        if workspace is None or self.say_gone(task_ids):
            return False
        workspace.put_back(places)
        self._arranged(workspace)
        return True

    def _arranged(self, workspace: Workspace) -> None:
        """The rows in the list's order now (shown in it: a column's sort gives way, so the
        move is seen), saved with the window's next save."""
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.model.follow_order(workspace.order())
        self._edited()

    def take_decision(self, taken: Taken) -> None:
        """A decision the Duplicates tab stored, onto the stack to be undone."""
        self.undo_stack.push(DecisionChange(self, self.duplicates, taken))
