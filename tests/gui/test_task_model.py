"""The task table model: Qt's model checks, edits to the store, and 10,000 tasks without stalls."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from gui.task_filter import TaskFilter
from gui.task_model import (
    COLUMNS,
    NEEDS_REVIEW,
    TaskRole,
    TaskTableModel,
    failed_key,
    needs_review,
    reuse_unchanged,
)
from pipeline.records.errors import ErrorKind
from pipeline.store.tasks import TaskStore
from tests.gui.conftest import OpenWindow
from tests.waiting import PATIENCE_MS


def _store(path: Path, n: int) -> TaskStore:
    store = TaskStore(path)
    for i in range(n):
        task = store.add(f"https://site{i % 37}.example.com/post/{i}", cat1=f"cat{i % 5}")
        if i % 3 == 0:
            store.update(task.id, status="cleaned", chars=1000 + i, confidence=(i % 10) / 10,
                         extracted_title=f"标题 {i}", images_total=3, images_ok=2)
        elif i % 7 == 0:
            store.update(task.id, status="failed", error="HTTP 404")
    return store


def test_model_passes_qt_model_checks(qapp, qtmodeltester, tmp_path: Path) -> None:  # noqa: ANN001
    model = TaskTableModel()
    model.set_tasks(_store(tmp_path / "tasks.csv", 60).tasks())
    qtmodeltester.check(model, force_py=True)
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    proxy.set_status("cleaned")
    proxy.sort(COLUMNS.index("chars"), Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(proxy, force_py=True)


def test_rows_follow_the_store(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    store = _store(tmp_path / "tasks.csv", 10)
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    model.editor = lambda task_id, name, text: store.update(task_id, **{name: text})
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda a, b: changed.append((a.row(), b.column())))
    model.update_task(store.update(4, status="failed", error="timed out"))
    assert changed == [(3, len(COLUMNS) - 1)]
    assert model.index(3, COLUMNS.index("error")).data() == "timed out"
    title = model.index(0, COLUMNS.index("title"))
    assert model.setData(title, "  Expected title ")
    assert store.get(1).title == "Expected title" and title.data() == "Expected title"
    assert not model.setData(model.index(0, COLUMNS.index("status")), "done")
    model.remove_tasks([2, 3, 7])
    store.remove([2, 3, 7])
    assert [t.id for t in model.tasks()] == [t.id for t in store.tasks()]
    model.add_tasks([store.add("https://new.example.com/a")])
    assert model.rowCount() == len(store)


def test_sync_touches_only_the_rows_that_changed(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    store = _store(tmp_path / "tasks.csv", 10)
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    changed: list[int] = []
    model.dataChanged.connect(lambda a, _b: changed.append(a.row()))
    removed: list[int] = []
    model.rowsRemoved.connect(lambda _parent, first, _last: removed.append(first))
    store.update(5, status="localized")
    store.remove([9])
    store.add("https://new.example.com/b")
    model.sync(store.tasks())
    assert changed == [4] and removed == [8]
    assert [t.id for t in model.tasks()] == [t.id for t in store.tasks()]
    assert model.task(5).status == "localized"


def test_a_list_read_anew_keeps_the_records_of_the_rows_it_did_not_change(
        qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """The file read again by another store (every record new): the unchanged ones become the
    table's own (``reuse_unchanged``, run off the GUI thread), the changed one stays new, and
    the sync repaints that row alone."""
    path = tmp_path / "tasks.csv"
    _store(path, 10).save()
    model = TaskTableModel()
    model.set_tasks(TaskStore(path).tasks())
    shown = model.tasks()
    other = TaskStore(path)  # another writer
    other.update(3, title="另一个标题")
    other.save()
    fresh = reuse_unchanged(TaskStore(path).tasks(), shown)
    assert [t is s for t, s in zip(fresh, shown, strict=True)] == [t.id != 3 for t in shown]
    assert fresh[2].title == "另一个标题"
    changed: list[int] = []
    model.dataChanged.connect(lambda a, _b: changed.append(a.row()))
    model.sync(fresh)
    assert changed == [2] and model.task(3).title == "另一个标题"


def test_status_column_flags_tasks_that_need_review(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    model = TaskTableModel()
    model.set_tasks(_store(tmp_path / "tasks.csv", 30).tasks())
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    proxy.set_status(NEEDS_REVIEW)
    flagged = [model.task_at(r) for r in range(model.rowCount()) if needs_review(model.task_at(r))]
    assert 0 < proxy.rowCount() == len(flagged)
    index = proxy.index(0, 0)
    assert "confidence" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.DecorationRole) is not None


def test_each_filter_and_their_sum_show_the_rows_their_words_choose(
        qapp, tmp_path: Path) -> None:  # noqa: ANN001
    """Status (a status, "needs review", one kind of failure), category (either level), the
    tree's node (a category, or a category and subcategory), domain (its sub-domains too),
    each alone and all at once: the rows shown are those the plain words choose."""
    store = _store(tmp_path / "tasks.csv", 120)
    for task in store.tasks():
        if task.id % 4 == 0:
            store.update(task.id, cat2=f"sub{task.id % 3}")
    for i in range(6):
        task = store.add(f"https://news.site3.example.com/{i}", cat1="cat1")
        if i % 2:
            store.update(task.id, status="failed", error_kind=ErrorKind.HTTP_4XX.value,
                         error="HTTP 404")
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    proxy = TaskFilter()
    proxy.setSourceModel(model)
    tasks = model.tasks()
    status_words = {
        "cleaned": lambda t: t.status == "cleaned",
        NEEDS_REVIEW: needs_review,
        failed_key(ErrorKind.HTTP_4XX): lambda t: t.failure_kind is ErrorKind.HTTP_4XX,
    }
    criteria = [
        *[(lambda k=k: proxy.set_status(k), lambda: proxy.set_status(""), test)
          for k, test in status_words.items()],
        (lambda: proxy.set_category("sub1"), lambda: proxy.set_category(""),
         lambda t: "sub1" in (t.cat1, t.cat2)),
        (lambda: proxy.set_category("cat2"), lambda: proxy.set_category(""),
         lambda t: "cat2" in (t.cat1, t.cat2)),
        (lambda: proxy.set_tree_category("cat1"), lambda: proxy.set_tree_category(None),
         lambda t: t.cat1 == "cat1"),
        (lambda: proxy.set_tree_category("cat0", "sub0"),
         lambda: proxy.set_tree_category(None), lambda t: (t.cat1, t.cat2) == ("cat0", "sub0")),
        (lambda: proxy.set_domain("site3.example.com"), lambda: proxy.set_domain(""),
         lambda t: "site3.example.com" in t.url),
    ]

    def shown() -> list[int]:
        return [proxy.index(r, 0).data(TaskRole).id for r in range(proxy.rowCount())]

    for choose, clear, test in criteria:
        choose()
        expected = [t.id for t in tasks if test(t)]
        assert 0 < len(expected) < len(tasks)
        assert shown() == expected
        clear()
    assert proxy.rowCount() == len(tasks)
    proxy.set_status("cleaned")
    proxy.set_tree_category("cat0")
    proxy.set_domain("example.com")
    assert shown() == [t.id for t in tasks if t.status == "cleaned" and t.cat1 == "cat0"]


def test_ten_thousand_tasks_load_filter_sort_and_scroll(qtbot: QtBot, open_window: OpenWindow,
                                                        tmp_path: Path) -> None:
    """Correctness at scale; how fast it is, bench/gui_table.py measures."""
    n = 10_000
    root = tmp_path / "big"
    root.mkdir()
    _store(root / "tasks.csv", n).save()
    window = open_window(root)
    assert window.model.rowCount() == n
    window.show()
    qtbot.waitExposed(window, timeout=PATIENCE_MS)
    window.search.setText("site7.")
    site7 = sum(1 for t in window.model.tasks() if "site7." in t.url)
    qtbot.waitUntil(lambda: window.proxy.rowCount() == site7, timeout=PATIENCE_MS)
    window.search.setText("")
    assert window.proxy.rowCount() == n  # emptied: every row at once
    window.table.sortByColumn(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    titles = [window.proxy.index(r, COLUMNS.index("title")).data().casefold()
              for r in range(window.proxy.rowCount())]
    assert titles == sorted(titles)
    scrollbar = window.table.verticalScrollBar()

    def at_the_end() -> bool:  # the scroll range follows the rows once the view lays out
        scrollbar.setValue(scrollbar.maximum())
        window.table.viewport().repaint()
        return window.table.rowAt(window.table.viewport().height() - 1) >= n - 60

    qtbot.waitUntil(at_the_end, timeout=PATIENCE_MS)
    assert QModelIndex() == window.proxy.parent(window.proxy.index(0, 0))


def test_the_status_filter_chooses_one_kind_of_failure(qtbot: QtBot, open_window: OpenWindow,
                                                       tmp_path: Path) -> None:
    root = tmp_path / "kinds"
    root.mkdir()
    store = _store(root / "tasks.csv", 12)  # tasks 8 (HTTP 404, no kind: unknown) failed
    for task_id, kind in ((2, "network"), (3, "network"), (5, "http-5xx")):
        store.update(task_id, status="failed", error="…", error_kind=kind)
    store.save()
    window = open_window(root)
    box = window.status_filter
    labels = {box.itemData(i): box.itemText(i) for i in range(box.count())}
    assert labels[failed_key(ErrorKind.NETWORK)] == "failed: network"
    assert labels[failed_key(ErrorKind.UNKNOWN)] == "failed: unknown"
    assert failed_key(ErrorKind.HTTP_4XX) not in labels  # only kinds the list holds
    box.setCurrentIndex(box.findData(failed_key(ErrorKind.NETWORK)))
    shown = [window.proxy.index(r, 0).data(TaskRole).id for r in range(window.proxy.rowCount())]
    assert shown == [2, 3]
    assert window.proxy.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == "failed: network"
    box.setCurrentIndex(box.findData("failed"))
    assert window.proxy.rowCount() == 4


def test_a_duplicate_says_which_task_it_repeats(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    store = _store(tmp_path / "tasks.csv", 3)
    store.update(3, status="duplicate", duplicate_of=1)
    model = TaskTableModel()
    model.set_tasks(store.tasks())
    assert model.index(2, COLUMNS.index("kind")).data() == "duplicate of #1"
    assert model.index(2, COLUMNS.index("id")).data() == "3"
