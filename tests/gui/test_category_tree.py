"""The category tree: counts per node, choosing a node filters the table, dropping rows on a
node and renaming a node ask for edits, a refresh keeps what is open and chosen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QMimeData, QModelIndex, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from gui.category_tree import CategoryTree
from gui.task_filter import TaskFilter
from gui.task_model import (
    TASK_IDS_MIME,
    TaskRole,
    TaskTableModel,
    task_ids_from_mime,
)
from pipeline.records.task import Status, Task
from tests.waiting import PATIENCE_MS


def _tasks() -> list[Task]:
    rows = [  # id, cat1, cat2, status
        (1, "Tech", "Python", Status.PENDING),
        (2, "Tech", "Python", Status.CLEANED),
        (3, "Tech", "", Status.FAILED),
        (4, "Tech", "Rust", Status.DONE),
        (5, "03_Science", "", Status.FETCHED),
        (6, "", "", Status.PENDING),
        (7, "", "", Status.DUPLICATE),
        (8, "", "misc", Status.CLEANED),
        (9, "Python", "Tech", Status.PENDING),  # the combo box's "Tech" matches it, Tech's node not
    ]
    return [Task(i, f"https://example.com/{i}", cat1=c1, cat2=c2, status=s)
            for i, c1, c2, s in rows]


def _tree(qtbot: QtBot, tasks: list[Task]) -> CategoryTree:
    tree = CategoryTree()
    qtbot.addWidget(tree)
    tree.resize(320, 480)
    tree.set_tasks(tasks)
    tree.expandAll()
    tree.show()
    qtbot.waitExposed(tree, timeout=PATIENCE_MS)
    return tree


def _table(tasks: list[Task]) -> tuple[TaskTableModel, TaskFilter]:
    model = TaskTableModel()
    model.set_tasks(tasks)
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    return model, proxy


def _labels(tree: CategoryTree, parent: QModelIndex | None = None) -> list[object]:
    """The tree as nested labels: ["All (9)", ("Tech (4)", ["Python (2)", …]), …]."""
    model = tree.model()
    parent = parent or QModelIndex()
    shown: list[object] = []
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        children = _labels(tree, index)
        shown.append((index.data(), children) if children else index.data())
    return shown


def _shown_ids(proxy: TaskFilter) -> list[int]:
    return [proxy.index(r, 0).data(TaskRole).id for r in range(proxy.rowCount())]


def _click(qtbot: QtBot, tree: CategoryTree, cat1: str | None, cat2: str | None = None) -> None:
    index = tree.node(cat1, cat2)
    assert index.isValid()
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     pos=tree.visualRect(index).center())


def _drag_onto(tree: CategoryTree, index: QModelIndex, mime: QMimeData) -> tuple[bool, bool]:
    """Enter, move over and drop on a node, as a drag from the table does; whether the tree
    offered to take it (the pointer over the node) and whether it took the drop."""
    pos = tree.visualRect(index).center()
    copy, left, none = (Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton,
                        Qt.KeyboardModifier.NoModifier)
    viewport = tree.viewport()
    QApplication.sendEvent(viewport, QDragEnterEvent(pos, copy, mime, left, none))
    move = QDragMoveEvent(pos, copy, mime, left, none)
    QApplication.sendEvent(viewport, move)
    drop = QDropEvent(pos.toPointF(), copy, mime, left, none)
    QApplication.sendEvent(viewport, drop)
    return move.isAccepted(), drop.isAccepted()


def _editor(tree: CategoryTree) -> QLineEdit:
    """The node's open editor (one closed before lingers until deleted later)."""
    shown = [e for e in tree.viewport().findChildren(QLineEdit) if e.isVisible()]
    assert len(shown) == 1
    return shown[0]


def test_each_node_counts_its_tasks_per_status(qtbot: QtBot) -> None:
    tree = _tree(qtbot, _tasks())
    assert _labels(tree) == [
        "All (9)",
        "03_Science (1)",
        ("Python (1)", ["Tech (1)"]),
        ("Tech (4)", ["Python (2)", "Rust (1)"]),
        ("Uncategorized (3)", ["misc (1)"]),
    ]
    tip = tree.node("Tech").data(Qt.ItemDataRole.ToolTipRole)
    assert tip.splitlines() == ["Tech", "Tasks: 4", "pending: 1", "cleaned: 1", "done: 1",
                                "failed: 1"]
    assert tree.node("Tech", "Python").data(Qt.ItemDataRole.ToolTipRole).splitlines()[0] == (
        "Tech / Python")
    all_tip = tree.node(None).data(Qt.ItemDataRole.ToolTipRole)
    assert "duplicate: 1" in all_tip and "pending: 3" in all_tip


@pytest.fixture
def kept() -> Iterator[list[object]]:
    """Holds objects past the test's own fixtures (qtmodeltester lets go of its model first)."""
    held: list[object] = []
    yield held


def test_the_tree_model_passes_qt_model_checks(kept: list[object], qtmodeltester) -> None:  # noqa: ANN001
    tree = CategoryTree()
    kept.append(tree)
    tasks = _tasks()
    tree.set_tasks(tasks)
    qtmodeltester.check(tree.model(), force_py=True)  # and checks every change from here on
    tree.select("Tech", "Python")
    tree.refresh([*tasks[3:], Task(10, "https://example.com/10", cat1="Art", cat2="Film")])
    tree.refresh(tasks[:2])
    tree.set_tasks(tasks)
    assert tree.model().rowCount() == 5


def test_status_names_come_from_the_caller(qtbot: QtBot) -> None:
    tree = CategoryTree(status_name=lambda s: s.upper())
    qtbot.addWidget(tree)
    tree.set_tasks(_tasks())
    assert "FAILED: 1" in tree.node("Tech").data(Qt.ItemDataRole.ToolTipRole)


def test_choosing_a_node_narrows_the_table(qtbot: QtBot) -> None:
    tasks = _tasks()
    tree = _tree(qtbot, tasks)
    _model, proxy = _table(tasks)
    tree.category_chosen.connect(proxy.set_tree_category)
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        _click(qtbot, tree, "Tech", "Python")
    assert chosen.args == ["Tech", "Python"] and _shown_ids(proxy) == [1, 2]
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        _click(qtbot, tree, "Tech")
    assert chosen.args == ["Tech", None] and _shown_ids(proxy) == [1, 2, 3, 4]
    _click(qtbot, tree, "")
    assert tree.current_category() == ("", None) and _shown_ids(proxy) == [6, 7, 8]
    _click(qtbot, tree, "", "misc")
    assert _shown_ids(proxy) == [8]
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        _click(qtbot, tree, None)
    assert chosen.args == [None, None] and _shown_ids(proxy) == list(range(1, 10))
    with qtbot.assertNotEmitted(tree.category_chosen):
        _click(qtbot, tree, None)  # the same node again says nothing


def test_the_tree_and_the_category_box_filter_together(qtbot: QtBot) -> None:
    _model, proxy = _table(_tasks())
    proxy.set_category("Tech")  # the box: cat1 or cat2
    assert _shown_ids(proxy) == [1, 2, 3, 4, 9]
    proxy.set_tree_category("Tech", None)  # the tree: this cat1
    assert _shown_ids(proxy) == [1, 2, 3, 4]
    proxy.set_tree_category("Tech", "Rust")
    assert _shown_ids(proxy) == [4]
    proxy.set_category("")
    proxy.set_tree_category("Python", "Tech")
    assert _shown_ids(proxy) == [9]
    proxy.set_tree_category(None, "Tech")  # no cat1: no tree filter at all
    assert len(_shown_ids(proxy)) == 9


def test_the_table_drags_the_ids_of_its_rows(qapp) -> None:  # noqa: ANN001
    _model, proxy = _table(_tasks())
    proxy.set_tree_category("Tech", None)
    # a view passes every selected cell: two cells of one row, one of another
    mime = proxy.mimeData([proxy.index(2, 0), proxy.index(0, 1), proxy.index(2, 4)])
    assert mime.formats() == [TASK_IDS_MIME]
    assert task_ids_from_mime(mime) == [1, 3]
    assert proxy.index(0, 0).flags() & Qt.ItemFlag.ItemIsDragEnabled
    assert _model.supportedDragActions() == Qt.DropAction.CopyAction
    for junk in (b"", b"{", b'{"a": 1}', b"[1, true]", b'["1"]', b"\xff"):
        other = QMimeData()
        other.setData(TASK_IDS_MIME, junk)
        assert task_ids_from_mime(other) == []


def test_dropping_rows_on_a_node_asks_to_move_them_there(qtbot: QtBot) -> None:
    tasks = _tasks()
    tree = _tree(qtbot, tasks)
    _model, proxy = _table(tasks)
    mime = proxy.mimeData([proxy.index(0, 0), proxy.index(4, 0)])  # tasks 1 and 5
    with qtbot.waitSignal(tree.move_requested, timeout=PATIENCE_MS) as moved:
        assert _drag_onto(tree, tree.node("Tech", "Rust"), mime) == (True, True)
    assert moved.args == [[1, 5], "Tech", "Rust"]
    with qtbot.waitSignal(tree.move_requested, timeout=PATIENCE_MS) as moved:
        assert _drag_onto(tree, tree.node("03_Science"), mime) == (True, True)
    assert moved.args == [[1, 5], "03_Science", ""]  # a cat1 node: directly under it
    with qtbot.waitSignal(tree.move_requested, timeout=PATIENCE_MS) as moved:
        assert _drag_onto(tree, tree.node(""), mime) == (True, True)
    assert moved.args == [[1, 5], "", ""]
    with qtbot.assertNotEmitted(tree.move_requested):
        assert _drag_onto(tree, tree.node(None), mime) == (False, False)  # All: no category
        assert not tree.model().canDropMimeData(mime, Qt.DropAction.CopyAction, -1, -1,
                                                tree.node(None))
        assert not tree.model().dropMimeData(mime, Qt.DropAction.CopyAction, -1, -1,
                                             tree.node(None))
        text = QMimeData()
        text.setText("https://example.com/new")
        assert _drag_onto(tree, tree.node("Tech"), text) == (False, False)


def test_renaming_a_node_asks_to_rename_the_category(qtbot: QtBot) -> None:
    tasks = _tasks()
    tree = _tree(qtbot, tasks)
    tree.select("Tech")
    qtbot.keyClick(tree, Qt.Key.Key_F2)
    editor = _editor(tree)
    assert editor.text() == "Tech"  # the name, not "Tech (4)"
    editor.setText(" Technology ")
    with qtbot.waitSignal(tree.rename_requested, timeout=PATIENCE_MS) as renamed:
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert renamed.args == ["Tech", None, "Technology"]

    at = tree.visualRect(tree.node("Tech", "Python")).center()
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=at)  # a double click is
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=at)  # a click, then this
    editor = _editor(tree)
    assert editor.text() == "Python"
    editor.setText("Py")
    with qtbot.waitSignal(tree.rename_requested, timeout=PATIENCE_MS) as renamed:
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert renamed.args == ["Tech", "Python", "Py"]

    with qtbot.assertNotEmitted(tree.rename_requested):
        assert not tree.model().setData(tree.node("03_Science"), "03_Science")  # unchanged
        assert not tree.model().setData(tree.node("03_Science"), "  ")
        assert not tree.model().setData(tree.node(None), "Everything")
        assert not tree.model().setData(tree.node(""), "Misc")
    for key in ((None, None), ("", None)):
        assert not tree.node(*key).flags() & Qt.ItemFlag.ItemIsEditable


def test_a_renamed_node_stays_chosen_and_open(qtbot: QtBot) -> None:
    tasks = _tasks()
    tree = _tree(qtbot, tasks)
    model, proxy = _table(tasks)
    tree.category_chosen.connect(proxy.set_tree_category)
    tree.collapseAll()
    tree.expand(tree.node("Tech"))
    _click(qtbot, tree, "Tech")
    renamed = [Task(t.id, t.url, cat1="Technology" if t.cat1 == "Tech" else t.cat1,
                    cat2=t.cat2, status=t.status) for t in tasks]

    with qtbot.waitSignal(tree.rename_requested, timeout=PATIENCE_MS) as asked:
        assert tree.model().setData(tree.node("Tech"), "Technology") is False
    assert asked.args == ["Tech", None, "Technology"]
    assert tree.node("Tech").isValid()  # nothing changes until the tasks do
    with qtbot.assertNotEmitted(tree.category_chosen):
        tree.refresh(tasks)  # a run's update comes first: the rename is not applied yet
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        model.set_tasks(renamed)  # the window applied it
        tree.refresh(renamed)
    assert chosen.args == ["Technology", None] and not tree.node("Tech").isValid()
    assert tree.isExpanded(tree.node("Technology"))
    assert _shown_ids(proxy) == [1, 2, 3, 4]

    _click(qtbot, tree, "Technology", "Python")
    tree.model().setData(tree.node("Technology", "Python"), "Py")
    again = [Task(t.id, t.url, cat1=t.cat1, cat2="Py" if t.cat2 == "Python" else t.cat2,
                  status=t.status) for t in renamed]
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        model.set_tasks(again)
        tree.refresh(again)
    assert chosen.args == ["Technology", "Py"] and _shown_ids(proxy) == [1, 2]


def test_refresh_keeps_what_is_open_and_chosen(qtbot: QtBot) -> None:
    tasks = _tasks()
    tree = _tree(qtbot, tasks)
    tree.collapseAll()
    tree.expand(tree.node("Tech"))
    _click(qtbot, tree, "Tech", "Python")
    resets: list[object] = []
    tree.model().modelReset.connect(lambda: resets.append(True))
    python_item = tree.node("Tech", "Python")
    fresh = [*tasks, Task(10, "https://example.com/10", cat1="Art", cat2="Film"),
             Task(11, "https://example.com/11", cat1="Tech", cat2="Python",
                  status=Status.FAILED)]
    with qtbot.assertNotEmitted(tree.category_chosen):
        tree.refresh(fresh)
    assert resets == []
    assert tree.current_category() == ("Tech", "Python")
    assert tree.selectionModel().selectedIndexes() == [tree.node("Tech", "Python")]
    assert tree.node("Tech", "Python") == python_item  # the same node, moved down one row
    assert tree.isExpanded(tree.node("Tech")) and not tree.isExpanded(tree.node("Art"))
    assert tree.node("Tech", "Python").data() == "Python (3)"
    assert [tree.model().index(r, 0).data() for r in range(tree.model().rowCount())] == [
        "All (11)", "03_Science (1)", "Art (1)", "Python (1)", "Tech (5)",
        "Uncategorized (3)"]

    # the chosen node's tasks all moved away: its cat1 is chosen instead, and says so
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        tree.refresh([t for t in fresh if t.cat2 != "Python"])
    assert chosen.args == ["Tech", None] and tree.current_category() == ("Tech", None)
    assert tree.node("Tech").data() == "Tech (2)"

    # another archive: everything afresh, All chosen
    with qtbot.waitSignal(tree.category_chosen, timeout=PATIENCE_MS) as chosen:
        tree.set_tasks([Task(1, "https://example.com/1", cat1="Other")])
    assert chosen.args == [None, None]
    assert _labels(tree) == ["All (1)", "Other (1)"]


def test_the_tree_follows_a_table_model(qtbot: QtBot) -> None:
    tasks = _tasks()
    model, _proxy = _table(tasks)
    tree = CategoryTree()
    qtbot.addWidget(tree)
    tree.follow(model, delay_ms=10)
    assert tree.node(None).data() == "All (9)"
    model.update_fields(3, {"cat1": "Art"})
    model.add_tasks([Task(12, "https://example.com/12", cat1="Art")])
    qtbot.waitUntil(lambda: tree.node("Art").data() == "Art (2)", timeout=PATIENCE_MS)
    assert tree.node("Tech").data() == "Tech (3)"
    model.remove_tasks([12])
    qtbot.waitUntil(lambda: tree.node("Art").data() == "Art (1)", timeout=PATIENCE_MS)
