"""The table with many tasks (issue 30): the archive read off the GUI thread and painted, the
text filter applied once typing pauses and finding what it found before, every column sorting
right, and the filter following the rows as they change. Behaviour only; how fast it is,
bench/gui_table.py measures."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QPersistentModelIndex, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from gui.task_filter import TaskFilter
from gui.task_model import COLUMNS, TaskTableModel
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow
from tests.waiting import PATIENCE_MS


def _archive(root: Path, n: int) -> Path:
    """``n`` tasks on 37 hosts and 5 categories; every third cleaned with a title, every
    seventh else failed, a few with a subcategory."""
    root.mkdir()
    store = TaskStore(root / "tasks.csv")
    for i in range(n):
        task = store.add(f"https://site{i % 37}.example.com/post/{i}", cat1=f"cat{i % 5}",
                         cat2="Deep Dive" if i % 11 == 0 else "")
        if i % 3 == 0:
            store.update(task.id, status="cleaned", chars=1000 + (i * 7919) % 5000,
                         confidence=(i % 10) / 10, extracted_title=f"标题 Tea {i}",
                         images_total=i % 4, images_ok=i % 3)
        elif i % 7 == 0:
            store.update(task.id, status="failed", error=f"HTTP {400 + i % 5} Gone")
    store.save()
    return root


def _shown_ids(window: MainWindow) -> list[int]:
    return [window.model.task_at(window.proxy.mapToSource(window.proxy.index(r, 0)).row()).id
            for r in range(window.proxy.rowCount())]


def _matching(window: MainWindow, text: str) -> list[int]:
    """What the text filter has always found: the word in the title shown, the link, either
    category or the error, whatever the case."""
    word = text.casefold()
    return [t.id for t in window.model.tasks()
            if any(word in f.casefold() for f in (t.display_title, t.url, t.cat1, t.cat2,
                                                   t.error))]


def test_the_text_filter_applies_once_typing_pauses_and_finds_what_it_found(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window(_archive(tmp_path / "big", 400))
    total = window.model.rowCount()
    for text in ("tea 3", "SITE7.", "deep dive", "http 402", "cat4", "标题"):
        window.search.clear()
        assert window.proxy.rowCount() == total  # emptied: every row at once
        if text.isascii():
            QTest.keyClicks(window.search, text)
        else:
            window.search.insert(text)  # as an input method commits it
        assert window.proxy.rowCount() == total  # typed, not yet applied: the pause
        expected = _matching(window, text)
        assert 0 < len(expected) < total, text
        qtbot.waitUntil(lambda e=expected: sorted(_shown_ids(window)) == sorted(e),
                        timeout=PATIENCE_MS)
    window.search.clear()
    QTest.keyClicks(window.search, "cat2")
    QTest.keyClick(window.search, Qt.Key.Key_Return)  # Enter: at once
    assert sorted(_shown_ids(window)) == sorted(_matching(window, "cat2"))


def test_keys_typed_fast_filter_once(qtbot: QtBot, open_window: OpenWindow,
                                     tmp_path: Path) -> None:
    window = open_window(_archive(tmp_path / "big", 300))
    passes: list[str] = []
    window.proxy.layoutChanged.connect(lambda *_: passes.append(window.proxy.text()))
    QTest.keyClicks(window.search, "site7.")
    expected = _matching(window, "site7.")
    qtbot.waitUntil(lambda: sorted(_shown_ids(window)) == sorted(expected)
                    and not window.filter_pause.isActive(), timeout=PATIENCE_MS)
    assert passes == ["site7."]


def _sort_value(column: str, text: str) -> object:
    """A cell's text as its column orders it (numbers as numbers, an empty cell first)."""
    if column in ("id", "chars"):
        return int(text.replace(",", "")) if text else -1
    if column == "images":
        return int(text.split("/")[1]) if text else -1
    return text.casefold()


def test_every_column_sorts_its_rows_both_ways_under_a_filter(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window(_archive(tmp_path / "big", 300))
    window.search.setText("site1")  # site1, site10…site19: a filter stays through the sorts
    window.apply_text_filter()
    shown = sorted(_shown_ids(window))
    assert 0 < len(shown) < window.model.rowCount()
    for at, column in enumerate(COLUMNS):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            window.table.sortByColumn(at, order)
            values = [_sort_value(column, window.proxy.index(r, at).data() or "")
                      for r in range(window.proxy.rowCount())]
            expected = sorted(values, reverse=order == Qt.SortOrder.DescendingOrder)
            assert values == expected, (column, order)
            assert sorted(_shown_ids(window)) == shown
    window.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the list's order again
    assert _shown_ids(window) == shown


class _Painted(QObject):
    """Whether a widget painted while its table had rows."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window
        self.rows_painted = False
        window.table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.window.proxy.rowCount() > 0:
            self.rows_painted = True
        return False


def test_a_big_archive_is_read_off_the_gui_thread_painted_and_the_window_keeps_beating(
        qtbot: QtBot, prefs: QSettings, fast_settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = _archive(tmp_path / "big", 3000)
    readers: list[bool] = []  # per read of the task list: on the GUI thread?
    tasks = Workspace.tasks

    def read(workspace: Workspace) -> list[Task]:
        readers.append(threading.current_thread() is threading.main_thread())
        return tasks(workspace)

    monkeypatch.setattr(Workspace, "tasks", read)
    beats: list[int] = []
    heartbeat = QTimer()
    heartbeat.setInterval(1)
    heartbeat.timeout.connect(lambda: beats.append(1))
    heartbeat.start()
    window = MainWindow(root, prefs, fast_settings)
    qtbot.addWidget(window)
    painted = _Painted(window)
    window.show()
    opened_at = len(beats)
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        pass
    assert len(beats) > opened_at  # the window beat while the archive was read
    qtbot.waitUntil(lambda: painted.rows_painted, timeout=PATIENCE_MS)
    heartbeat.stop()
    assert window.model.rowCount() == 3000 and window.table.rowAt(0) == 0
    assert readers and not any(readers)  # every read of the list off the GUI thread
    assert window.tree.model().rowCount() == 1 + 5  # All and the five categories, counted
    assert window.category_filter.count() == 1 + 5 + 1  # All, cat0…cat4, Deep Dive
    assert window.domain_filter.count() == 1 + 37


def test_the_filter_follows_rows_that_change_come_and_go(qapp, qtmodeltester,  # noqa: ANN001
                                                         tmp_path: Path) -> None:
    store = TaskStore(_archive(tmp_path / "big", 60) / "tasks.csv")
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    proxy.set_text("tea")
    qtmodeltester.check(proxy, force_py=True)  # and every change from here on

    def shown() -> list[int]:
        return sorted(model.task_at(proxy.mapToSource(proxy.index(r, 0)).row()).id
                      for r in range(proxy.rowCount()))

    def expected() -> list[int]:
        return sorted(t.id for t in model.tasks() if "tea" in t.display_title.casefold())

    assert shown() == expected() and 2 in [t.id for t in model.tasks()] and 2 not in shown()
    model.update_fields(2, {"title": "Green TEA"})  # comes in
    assert 2 in shown() and shown() == expected()
    model.update_fields(1, {"extracted_title": "", "title": "Coffee"})  # goes out
    assert 1 not in shown() and shown() == expected()
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.DescendingOrder)
    model.add_tasks([Task(id=100, url="https://new.example.com/tea"),
                     Task(id=101, url="https://new.example.com/coffee")])
    assert 100 in shown() and 101 not in shown() and shown() == expected()
    model.remove_tasks([100, 4, 7])
    assert shown() == expected()
    proxy.set_text("")
    assert proxy.rowCount() == model.rowCount()


def _sorted(tmp_path: Path) -> tuple[TaskStore, TaskTableModel, TaskFilter]:
    store = TaskStore(_archive(tmp_path / "big", 60) / "tasks.csv")
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    return store, model, proxy


def _shown_tasks(model: TaskTableModel, proxy: TaskFilter) -> list[int]:
    return [model.task_at(proxy.mapToSource(proxy.index(r, 0)).row()).id
            for r in range(proxy.rowCount())]


def test_a_column_sorted_again_sorts_rows_that_changed_come_and_go_by_their_keys_now(
        qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """A column's keys and order are kept between sorts: a task that changed, came or went
    since is sorted by what it holds now, and the model's rows stay in the list's order."""
    store, model, proxy = _sorted(tmp_path)
    for column in ("status", "chars", "domain", "title", "error"):
        at = COLUMNS.index(column)
        proxy.sort(at, Qt.SortOrder.AscendingOrder)
        model.update_fields(5, {"status": "failed", "chars": 999_999, "error": "zzz last",
                                "url": "https://zzz.example.org/5", "title": "Zzz"})
        model.add_tasks([Task(id=100, url="https://aaa.example.net/", title="Aaa",
                              status="cleaned", chars=0, error="aaa first")])
        model.remove_tasks([7])
        for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
            proxy.sort(at, order)
            ids = _shown_tasks(model, proxy)
            assert 7 not in ids and 100 in ids and len(ids) == model.rowCount()
            values = [_sort_value(column, proxy.index(r, at).data() or "")
                      for r in range(proxy.rowCount())]
            assert values == sorted(values, reverse=order == Qt.SortOrder.DescendingOrder), (
                column, order)
        model.update_fields(5, {"status": "pending", "chars": None, "error": "",
                                "url": "https://site5.example.com/post/5", "title": ""})
        proxy.sort(at, Qt.SortOrder.AscendingOrder)  # changed since: sorted again
        values = [_sort_value(column, proxy.index(r, at).data() or "")
                  for r in range(proxy.rowCount())]
        assert values == sorted(values), column
        model.remove_tasks([100])
        model.add_tasks([t for t in store.tasks() if t.id == 7])
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    listed = [t.id for t in reversed(store.tasks())]
    model.follow_order(listed)  # the list rearranged: the model's rows follow it
    assert [t.id for t in model.tasks()] == listed
    titles = [proxy.index(r, COLUMNS.index("title")).data().casefold()
              for r in range(proxy.rowCount())]
    assert titles == sorted(titles)  # still shown by title
    proxy.sort(-1)
    assert _shown_tasks(model, proxy) == listed


def test_rows_stay_where_they_are_shown_until_a_column_sorts_them_again(
        qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """A run changing rows, or a filter chosen, does not move the rows shown under a person's
    eyes: a row whose key changed stays in its place until the column is sorted again."""
    _store, model, proxy = _sorted(tmp_path)
    proxy.set_status("cleaned")
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    before = _shown_tasks(model, proxy)
    last = before[-1]
    model.update_fields(last, {"title": "0 Tea now first"})
    model.update_fields(before[1], {"status": "failed"})  # leaves the filter
    kept = before[:1] + before[2:]
    proxy.set_text("tea")  # every title shown holds it, this one too
    assert _shown_tasks(model, proxy) == kept
    proxy.set_text("")
    assert _shown_tasks(model, proxy) == kept
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)  # the same column again
    assert _shown_tasks(model, proxy) == [last] + kept[:-1]
    proxy.set_status("failed")  # a task comes that the filter hides, then is shown
    model.add_tasks([Task(id=100, url="https://new.example.com/", title="00 first")])
    proxy.set_status("")
    assert _shown_tasks(model, proxy)[-1] == 100  # after the rows sorted, until sorted again
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    assert _shown_tasks(model, proxy)[:2] == [last, 100]  # "0 Tea…", "00 first"


def test_the_rows_the_view_holds_follow_a_sort_few_or_many(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """The current row and the selection (persistent indexes) stay on their tasks through a
    sort, filtered or not, whether a few are held or many."""
    _store, model, proxy = _sorted(tmp_path)
    held = [QPersistentModelIndex(proxy.index(row, 2)) for row in (3, 10, 20)]
    for many in (False, True):
        if many:
            held += [QPersistentModelIndex(proxy.index(row, row % 3)) for row in range(40)]
        before = [(model.task_at(proxy.mapToSource(i).row()).id, i.column()) for i in held]
        for column in ("title", "chars", "status", "id"):
            for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
                proxy.sort(COLUMNS.index(column), order)
                assert [(model.task_at(proxy.mapToSource(i).row()).id, i.column())
                        for i in held] == before
        assert all(proxy.mapFromSource(proxy.mapToSource(proxy.index(r, 0))).row() == r
                   for r in range(proxy.rowCount()))
    proxy.set_text("site1")  # the rows held that it hides are let go; the rest follow
    kept = [(i, (model.task_at(proxy.mapToSource(i).row()).id, i.column()))
            for i in held if i.isValid()]
    assert kept and len(kept) < len(held)
    proxy.sort(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    assert [(model.task_at(proxy.mapToSource(i).row()).id, i.column()) for i, _ in kept] == [
        was for _, was in kept]
