"""Arranging the list in the real window (issue 29): the selected rows move up, down, to the
top or bottom (Ctrl+Shift+Up/Down/Home/End, or the selection's menu, or dragged between
rows); the table shows the list's order, tasks.csv's rows follow once saved, Ctrl+Z puts them
back and Ctrl+Shift+Z moves them again. A table sorted by a column gives way to the list's
order; another writer's arrangement (Excel) is followed, and a third click on a sorted column
shows the list's order again."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from gui.task_model import COLUMNS
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow, jobs_done, saved_rows
from tests.gui.test_undo import CTRL, SHIFT, redo, redo_text, shown_window, undo, undo_text
from tests.waiting import PATIENCE_MS


@pytest.fixture
def five_tasks(tmp_path: Path) -> Path:
    root = tmp_path / "five"
    ws = Workspace.open(root, Settings())
    ws.add_links("\n".join(f"https://news.example/{n}" for n in "abcde"))
    ws.save()
    ws.close()
    return root


def shown(window: MainWindow) -> list[int]:
    """The task ids as the table shows them, top to bottom."""
    proxy = window.proxy
    return [window.model.task_at(proxy.mapToSource(proxy.index(row, 0)).row()).id
            for row in range(proxy.rowCount())]


def in_file(root: Path) -> list[int]:
    return list(saved_rows(root / "tasks.csv"))


def arranged(qtbot: QtBot, window: MainWindow, root: Path, order: list[int]) -> None:
    """Wait until the table shows ``order`` and the file has saved it."""
    qtbot.waitUntil(lambda: shown(window) == order and in_file(root) == order,
                    timeout=PATIENCE_MS)


def press(qtbot: QtBot, window: MainWindow, key: Qt.Key) -> None:
    window.table.setFocus()
    qtbot.waitUntil(window.table.hasFocus, timeout=PATIENCE_MS)
    qtbot.keyClick(window.table, key, CTRL | SHIFT)


def test_selected_rows_move_up_and_down_and_undo_puts_them_back(
        qtbot: QtBot, open_window: OpenWindow, five_tasks: Path) -> None:
    window = shown_window(qtbot, open_window, five_tasks)
    assert shown(window) == [1, 2, 3, 4, 5]
    window.select_tasks([3, 4])
    press(qtbot, window, Qt.Key.Key_Up)
    arranged(qtbot, window, five_tasks, [1, 3, 4, 2, 5])
    press(qtbot, window, Qt.Key.Key_Up)  # the selection moved with its rows
    arranged(qtbot, window, five_tasks, [3, 4, 1, 2, 5])
    press(qtbot, window, Qt.Key.Key_Up)  # at the top already: nothing to do
    assert undo_text(window) == "Undo Move 2 tasks"
    press(qtbot, window, Qt.Key.Key_End)
    arranged(qtbot, window, five_tasks, [1, 2, 5, 3, 4])
    undo(qtbot, window)
    arranged(qtbot, window, five_tasks, [3, 4, 1, 2, 5])
    undo(qtbot, window)
    arranged(qtbot, window, five_tasks, [1, 3, 4, 2, 5])
    assert redo_text(window) == "Redo Move 2 tasks"
    redo(qtbot, window)
    arranged(qtbot, window, five_tasks, [3, 4, 1, 2, 5])
    window.select_tasks([1])
    press(qtbot, window, Qt.Key.Key_Down)
    arranged(qtbot, window, five_tasks, [3, 4, 2, 1, 5])
    assert Workspace.open(five_tasks, Settings()).order() == [3, 4, 2, 1, 5]


def test_a_sorted_table_gives_way_to_the_lists_order_and_follows_another_writer(
        qtbot: QtBot, open_window: OpenWindow, five_tasks: Path) -> None:
    window = shown_window(qtbot, open_window, five_tasks)
    window.table.sortByColumn(COLUMNS.index("id"), Qt.SortOrder.DescendingOrder)
    assert shown(window) == [5, 4, 3, 2, 1]
    window.select_tasks([2])
    window.task_actions["move_top"].trigger()  # the selection's menu, as a person clicks it
    arranged(qtbot, window, five_tasks, [2, 1, 3, 4, 5])
    assert window.table.horizontalHeader().sortIndicatorSection() == -1
    # a person drags rows in a spreadsheet and saves (a new file: the same size, perhaps the
    # same mtime tick as the window's save): the table follows the file's new order
    jobs_done(window.jobs)  # the window's save is over (Excel takes no lock to wait on)
    path = five_tasks / "tasks.csv"
    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    by_id = {row[0]: row for row in rows[1:]}
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(
        [rows[0], *(by_id[i] for i in "31524")])
    saved = path.with_name("tasks.csv.excel")  # Excel saves a new file in the old one's place
    saved.write_text(out.getvalue(), encoding="utf-8-sig")
    saved.replace(path)
    qtbot.waitUntil(lambda: shown(window) == [3, 1, 5, 2, 4], timeout=PATIENCE_MS)
    # a column's header clicked sorts by it, up then down; a third click is the list's order
    header = window.table.horizontalHeader()
    at = QPoint(header.sectionViewportPosition(COLUMNS.index("id")) + 5, header.height() // 2)
    seen = []
    for _ in range(3):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
        seen.append(shown(window))
    assert sorted(seen[:2]) == [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]
    assert seen[2] == [3, 1, 5, 2, 4]


def drop_rows(window: MainWindow, task_ids: list[int], pos: QPoint) -> bool:
    """Drag these tasks' rows and drop them at ``pos`` on the table, as a person's mouse
    does; whether the table took the drop."""
    window.select_tasks(task_ids)
    mime = window.proxy.mimeData(window.table.selectionModel().selectedRows())
    copy, left, none = (Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton,
                        Qt.KeyboardModifier.NoModifier)
    viewport = window.table.viewport()
    QApplication.sendEvent(viewport, QDragEnterEvent(pos, copy, mime, left, none))
    QApplication.sendEvent(viewport, QDragMoveEvent(pos, copy, mime, left, none))
    drop = QDropEvent(pos.toPointF(), copy, mime, left, none)
    QApplication.sendEvent(viewport, drop)
    return drop.isAccepted()


def test_rows_dragged_between_rows_are_moved_there(qtbot: QtBot, open_window: OpenWindow,
                                                   five_tasks: Path) -> None:
    window = shown_window(qtbot, open_window, five_tasks)
    table = window.table

    def row_rect(row: int) -> QRect:
        return table.visualRect(window.proxy.index(row, COLUMNS.index("title")))

    assert drop_rows(window, [4, 5], row_rect(0).center() - QPoint(0, 3))  # on 1, upper half
    arranged(qtbot, window, five_tasks, [4, 5, 1, 2, 3])
    assert drop_rows(window, [4], row_rect(3).center() + QPoint(0, 3))  # on 2, lower half
    arranged(qtbot, window, five_tasks, [5, 1, 2, 4, 3])
    below = row_rect(4).bottomLeft() + QPoint(5, 20)
    assert drop_rows(window, [1, 5], below)  # below every row: the bottom
    arranged(qtbot, window, five_tasks, [2, 4, 3, 5, 1])
    assert undo_text(window) == "Undo Move 2 tasks"
    undo(qtbot, window)
    arranged(qtbot, window, five_tasks, [5, 1, 2, 4, 3])
