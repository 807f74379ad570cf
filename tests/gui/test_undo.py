"""Undo and Redo in the real window: each edit a person makes (a title typed in the table,
categories from the dialog, rows dropped on the category tree, a category renamed, a remove, a
decision on near duplicates), then Ctrl+Z, leaves tasks.csv (read again from disk), the
decisions file and the table as they were, Ctrl+Shift+Z makes the edit again, and Edit → Undo
names it. What another writer changed meanwhile stays; a task removed meanwhile is said in one
line and nothing changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu
from pytestqt.qtbot import QtBot

from gui.main_window.task_actions import CategoryDialog
from gui.main_window.window import MainWindow
from gui.task_model import COLUMNS
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.duplicates import read_decisions
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow, look_at, saved_rows
from tests.gui.test_category_tree import _drag_onto, _editor
from tests.gui.test_duplicates_view import archive, decide, shown_tab  # noqa: F401
from tests.sites.faults import FaultServer
from tests.waiting import PATIENCE, PATIENCE_MS, RUN_PATIENCE_MS

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def tasks_archive(tmp_path: Path) -> Path:
    """Three pending tasks in two categories, one with a title; no run needed."""
    root = tmp_path / "tasks-archive"
    ws = Workspace.open(root, Settings())
    ws.add_links("https://news.example/a\nhttps://news.example/b", "新闻", "国内")
    ws.add_links("https://blog.example/c", "Blog")
    ws.edit([1], title="廊桥修缮笔记")
    ws.save()
    ws.close()
    return root


def on_disk(root: Path) -> dict[int, dict[str, str]]:
    """tasks.csv as saved, without the time of the last change (an undo is a change too) and
    with whether a task is in the trash rather than since when (a redone remove is now)."""
    return {i: {k: ("trashed" if v else "") if k == "deleted_at" else v
                for k, v in row.items() if k != "updated_at"}
            for i, row in saved_rows(root / "tasks.csv").items()}


def in_table(window: MainWindow) -> list[Any]:
    return sorted((replace(t, updated_at="") for t in window.model.tasks()), key=lambda t: t.id)


def state(window: MainWindow) -> tuple[object, object]:
    assert window.archive is not None
    return on_disk(window.archive.root), in_table(window)


def activated(qtbot: QtBot, window: MainWindow) -> MainWindow:
    """The window active, as the one a person types into (its shortcuts need it; offscreen,
    no window is made active again when a dialog closes)."""
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=PATIENCE_MS)
    return window


def shown_window(qtbot: QtBot, open_window: OpenWindow, root: Path) -> MainWindow:
    return activated(qtbot, open_window(root))


def undo(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(activated(qtbot, window), Qt.Key.Key_Z, CTRL)


def redo(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(activated(qtbot, window), Qt.Key.Key_Z, CTRL | SHIFT)


def edit_menu_action(window: MainWindow, key: QKeySequence.StandardKey) -> QAction:
    """The Edit menu's action that ``key`` (Undo, Redo) triggers, as a person finds it."""
    edit = window.menuBar().actions()[1].menu()  # File, Edit, …
    assert isinstance(edit, QMenu) and edit.title() in ("&Edit", "编辑(&E)")
    [action] = [a for a in edit.actions() if QKeySequence(key) in a.shortcuts()]
    return action


def undo_text(window: MainWindow) -> str:
    return edit_menu_action(window, QKeySequence.StandardKey.Undo).text()


def redo_text(window: MainWindow) -> str:
    return edit_menu_action(window, QKeySequence.StandardKey.Redo).text()


def type_title(qtbot: QtBot, window: MainWindow, task_id: int, title: str) -> None:
    """Type a title into a task's cell: F2, the text, Enter."""
    window.select_task(task_id)
    row = window.table.currentIndex().row()
    window.table.setCurrentIndex(window.proxy.index(row, COLUMNS.index("title")))
    qtbot.keyClick(window.table, Qt.Key.Key_F2)
    [editor] = [e for e in window.table.findChildren(QLineEdit) if e.isVisible()]
    editor.setText(title)
    with qtbot.waitSignal(window.model.edited, timeout=PATIENCE_MS):  # the delegate commits
        qtbot.keyClick(editor, Qt.Key.Key_Return)                     # once the loop turns


def drop_on(window: MainWindow, task_ids: list[int], cat1: str) -> None:
    """Drag the rows of these tasks onto a first-level node of the category tree."""
    window.select_tasks(task_ids)
    mime = window.proxy.mimeData(window.table.selectionModel().selectedRows())
    assert _drag_onto(window.tree, window.tree.node(cat1), mime) == (True, True)


def settles_at(qtbot: QtBot, window: MainWindow, wanted: tuple[object, object]) -> None:
    """Wait until the file (saved half a second after an edit) and the table are ``wanted``."""
    qtbot.waitUntil(lambda: state(window) == wanted, timeout=PATIENCE_MS)


def undone_and_redone(qtbot: QtBot, window: MainWindow, before: tuple[object, object],
                      name: str) -> tuple[object, object]:
    """After an edit named ``name``: Ctrl+Z puts everything back, Ctrl+Shift+Z makes the edit
    again; what the edit made."""
    assert undo_text(window) == f"Undo {name}"
    qtbot.waitUntil(lambda: (now := state(window))[0] != before[0] and now[1] != before[1],
                    timeout=PATIENCE_MS)  # in the table at once, in the file once saved
    after = state(window)
    undo(qtbot, window)
    settles_at(qtbot, window, before)
    assert redo_text(window) == f"Redo {name}"
    redo(qtbot, window)
    settles_at(qtbot, window, after)
    assert undo_text(window) == f"Undo {name}"
    return after


def test_a_title_typed_in_the_table(qtbot: QtBot, open_window: OpenWindow,
                                    tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    before = state(window)
    assert undo_text(window) == "Undo"
    assert not edit_menu_action(window, QKeySequence.StandardKey.Undo).isEnabled()
    type_title(qtbot, window, 2, "山中茶园")
    after = undone_and_redone(qtbot, window, before, "Edit title")
    assert after[0][2]["title"] == "山中茶园"  # type: ignore[index]


def test_categories_from_the_dialog(qtbot: QtBot, open_window: OpenWindow,
                                    tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    before = state(window)
    window.select_tasks([1, 3])

    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, CategoryDialog)
        dialog.cat1.setText("稍后读")
        dialog.accept()

    QTimer.singleShot(0, fill)
    window.task_actions["category"].trigger()
    after = undone_and_redone(qtbot, window, before, "Change category")
    assert [after[0][i]["cat1"] for i in (1, 2, 3)] == ["稍后读", "新闻", "稍后读"]  # type: ignore[index]
    assert after[0][1]["cat2"] == "国内"  # type: ignore[index]  # left as it was


def test_rows_dropped_on_the_category_tree(qtbot: QtBot, open_window: OpenWindow,
                                           tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    before = state(window)
    drop_on(window, [1, 2], "Blog")
    after = undone_and_redone(qtbot, window, before, "Move to category")
    assert [(after[0][i]["cat1"], after[0][i]["cat2"]) for i in (1, 2)] == [  # type: ignore[index]
        ("Blog", ""), ("Blog", "")]


def test_a_category_renamed_in_the_tree(qtbot: QtBot, open_window: OpenWindow,
                                        tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    before = state(window)
    window.tree.select("新闻")
    qtbot.keyClick(window.tree, Qt.Key.Key_F2)
    _editor(window.tree).setText("要闻")
    with qtbot.waitSignal(window.tree.rename_requested, timeout=PATIENCE_MS):
        qtbot.keyClick(_editor(window.tree), Qt.Key.Key_Return)
    after = undone_and_redone(qtbot, window, before, "Rename category")
    assert [after[0][i]["cat1"] for i in (1, 2, 3)] == ["要闻", "要闻", "Blog"]  # type: ignore[index]
    qtbot.waitUntil(lambda: window.tree.node("要闻").isValid()
                    and not window.tree.node("新闻").isValid(), timeout=PATIENCE_MS)
    undo(qtbot, window)
    qtbot.waitUntil(lambda: window.tree.node("新闻").isValid(), timeout=PATIENCE_MS)


def test_a_remove(qtbot: QtBot, open_window: OpenWindow, tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    before = state(window)
    window.select_tasks([1, 2])
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)  # asked; the fixture says yes
    assert [t.id for t in window.model.tasks()] == [3]
    after = undone_and_redone(qtbot, window, before, "Remove 2 tasks")
    assert after[0][1]["deleted_at"] == after[0][2]["deleted_at"] == "trashed"  # type: ignore[index]
    undo(qtbot, window)
    settles_at(qtbot, window, before)
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [], timeout=PATIENCE_MS)


def test_a_decision_on_near_duplicates(qtbot: QtBot, open_window: OpenWindow,
                                       archive: Path) -> None:  # noqa: F811
    window = shown_window(qtbot, open_window, archive)
    view = shown_tab(qtbot, window)
    assert view.select_pair(1, 2)
    decisions = lambda: read_decisions(archive / "duplicates.csv")  # noqa: E731
    before = state(window), decisions()
    decide(qtbot, view, "Second is a duplicate of first", "#2 duplicates #1")
    qtbot.waitUntil(lambda: (t := window.model.task(2)) is not None
                    and t.status == Status.DUPLICATE, timeout=PATIENCE_MS)
    marked = state(window), decisions()
    assert undo_text(window) == "Undo Mark as duplicate"
    undo(qtbot, window)
    qtbot.waitUntil(lambda: (state(window), decisions()) == before, timeout=PATIENCE_MS)
    qtbot.waitUntil(lambda: view.list.topLevelItem(0) is not None
                    and view.list.topLevelItem(0).text(4) == "undecided", timeout=PATIENCE_MS)
    redo(qtbot, window)
    qtbot.waitUntil(lambda: (state(window), decisions()) == marked, timeout=PATIENCE_MS)
    decide(qtbot, view, "Keep both", "keep both")
    assert undo_text(window) == "Undo Keep both"
    undo(qtbot, window)  # back to the decision before it, as it was made
    qtbot.waitUntil(lambda: (state(window), decisions()) == marked, timeout=PATIENCE_MS)


def test_undo_puts_back_only_what_the_edit_changed(qtbot: QtBot, open_window: OpenWindow,
                                                   tasks_archive: Path) -> None:
    """A run (here another writer) set a status meanwhile: Undo takes the title back and
    leaves the status; a task removed meanwhile is said and nothing changes."""
    window = shown_window(qtbot, open_window, tasks_archive)
    type_title(qtbot, window, 2, "山中茶园")
    drop_on(window, [3], "新闻")
    qtbot.waitUntil(lambda: on_disk(tasks_archive)[3]["cat1"] == "新闻", timeout=PATIENCE_MS)
    other = Workspace.open(tasks_archive, Settings())
    other.store.update(2, status=Status.FAILED, error="boom")
    other.remove([3])
    other.save()
    other.close()
    qtbot.waitUntil(lambda: window.model.task(3) is None, timeout=PATIENCE_MS)
    on_file = on_disk(tasks_archive)

    undo(qtbot, window)  # the drop of #3, in the trash now: said, nothing changed
    assert "#3 is no longer on the list" in window.statusBar().currentMessage()
    assert on_disk(tasks_archive) == on_file and window.model.task(3) is None
    assert undo_text(window) == "Undo Edit title"  # the refused edit left the stack
    undo(qtbot, window)
    qtbot.waitUntil(lambda: on_disk(tasks_archive)[2]["title"] == "", timeout=PATIENCE_MS)
    task = window.model.task(2)
    assert task is not None and (task.title, task.status) == ("", Status.FAILED)
    assert on_disk(tasks_archive)[2]["status"] == Status.FAILED


def test_a_remove_after_the_trash_was_emptied(qtbot: QtBot, open_window: OpenWindow,
                                             tasks_archive: Path) -> None:
    """The Trash tab emptied after a remove: Undo says the tasks are gone for good, and
    nothing else changes; the edit before it is undone by the next Ctrl+Z."""
    window = shown_window(qtbot, open_window, tasks_archive)
    type_title(qtbot, window, 3, "随笔")
    window.remove_tasks([1])
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [1], timeout=PATIENCE_MS)
    window.trash.confirm = lambda count: True
    with qtbot.waitSignal(window.trash.emptied, timeout=PATIENCE_MS):
        window.trash.empty_button.click()
    qtbot.waitUntil(lambda: 1 not in on_disk(tasks_archive), timeout=PATIENCE_MS)
    emptied = state(window)
    undo(qtbot, window)
    assert "#1 is gone for good" in window.statusBar().currentMessage()
    assert state(window) == emptied and undo_text(window) == "Undo Edit title"
    undo(qtbot, window)
    qtbot.waitUntil(lambda: on_disk(tasks_archive)[3]["title"] == "", timeout=PATIENCE_MS)


def test_a_remove_waits_for_the_run_to_be_undone(
        qtbot: QtBot, open_window: OpenWindow, fast_settings: Settings, tmp_path: Path) -> None:
    """While a run holds the list, Remove is off and so is the Undo of a remove; an edit
    made meanwhile is undone as ever."""
    root = tmp_path / "run-archive"
    with FaultServer() as server:
        server.hold_after = 0  # the run's requests wait until the test lets them answer
        ws = Workspace.open(root, Settings())
        ws.add_links(f"{server.url('/held.html')}\n{server.url('/removed.html')}")
        ws.close()
        slow = fast_settings.with_overrides(read_timeout=3 * PATIENCE, page_deadline=3 * PATIENCE)
        window = activated(qtbot, open_window(root, slow))
        window.remove_tasks([2])
        undo_action = edit_menu_action(window, QKeySequence.StandardKey.Undo)
        assert undo_action.isEnabled()
        try:
            window.run_bar.run_button.click()
            qtbot.waitUntil(lambda: window.controller.running and server.open_now > 0,
                            timeout=PATIENCE_MS)
            assert not undo_action.isEnabled() and undo_text(window) == "Undo Remove 1 task"
            undo(qtbot, window)
            assert window.model.task(2) is None
            type_title(qtbot, window, 1, "等一等")
            assert undo_action.isEnabled()
            undo(qtbot, window)
            task = window.model.task(1)
            assert task is not None and task.title == "" and not undo_action.isEnabled()
        finally:
            with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
                server.release()
    assert undo_action.isEnabled()
    undo(qtbot, window)
    assert window.model.task(2) is not None


def test_another_archive_starts_with_nothing_to_undo(
        qtbot: QtBot, open_window: OpenWindow, tasks_archive: Path, tmp_path: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    type_title(qtbot, window, 2, "山中茶园")
    assert undo_text(window) == "Undo Edit title"
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        window.open_archive(tmp_path / "another")
    assert undo_text(window) == "Undo"
    assert not edit_menu_action(window, QKeySequence.StandardKey.Undo).isEnabled()


def test_the_edit_is_named_in_chinese(chinese: None, qtbot: QtBot,  # noqa: F811
                                      open_window: OpenWindow, tasks_archive: Path) -> None:
    window = shown_window(qtbot, open_window, tasks_archive)
    assert undo_text(window) == "撤销"
    drop_on(window, [3], "新闻")
    assert undo_text(window) == "撤销 移到分类"
    undo(qtbot, window)
    assert redo_text(window) == "重做 移到分类"
