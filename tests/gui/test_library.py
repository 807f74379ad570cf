"""The window as a library a person lives in: open archives, safe removes, honest menus and
runs, a category tree, search, books that say when they are out of date."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from gui.task_model import COLUMNS
from pipeline.demo_site.server import DemoSite
from tests.gui.conftest import OpenWindow, add_demo_links, look_at, run_to_end
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS


def _row_of(window: object, task_id: int) -> int:
    proxy = window.proxy  # type: ignore[attr-defined]
    model = window.model  # type: ignore[attr-defined]
    return next(r for r in range(proxy.rowCount())
                if model.task_at(proxy.mapToSource(proxy.index(r, 0)).row()).id == task_id)


def test_remove_asks_with_the_count_and_undo_brings_the_tasks_back(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    total = window.model.rowCount()
    asked: list[str] = []
    window.confirm = lambda question: asked.append(question) or False
    window.remove_tasks([1, 2])
    assert "Move 2 tasks to the trash?" in asked[0] and window.model.rowCount() == total
    window.confirm = lambda question: True
    window.remove_tasks([1, 2])
    assert window.model.rowCount() == total - 2 and window.undo_action.isEnabled()
    assert window.undo_action.text() == "Undo Remove 2 tasks"
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: len(window.trash.trashed_ids()) == 2, timeout=PATIENCE_MS)
    window.undo_action.trigger()
    assert window.model.rowCount() == total and window.model.task(1) is not None
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [], timeout=PATIENCE_MS)


def test_the_menu_follows_the_rows_and_the_id_and_why_columns_say_it(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    window.select_task(1)
    window.context_menu()
    actions = window.task_actions
    assert not actions["reclean"].isEnabled() and not actions["retry"].isEnabled()
    assert actions["run"].isEnabled() and actions["copy_url"].isEnabled()
    run_to_end(qtbot, window)
    failed = next(t for t in window.model.tasks() if t.status == "failed")
    window.select_task(failed.id)
    window.context_menu()
    assert actions["retry"].isEnabled() and not actions["run"].isEnabled()
    row = _row_of(window, failed.id)
    assert window.proxy.index(row, COLUMNS.index("id")).data() == str(failed.id)
    assert window.proxy.index(row, COLUMNS.index("kind")).data()  # its kind, in words


def test_a_missing_folder_is_made_only_after_asking_and_archives_are_remembered(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window()
    # an empty archive says what to do, in the table's place
    assert window.empty_hint.isVisibleTo(window) and not window.table.isVisibleTo(window)
    window.confirm = lambda question: False
    assert not window.open_archive_asking(tmp_path / "elsewhere")
    assert not (tmp_path / "elsewhere").exists()
    window.confirm = lambda question: True
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        assert window.open_archive_asking(tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "rules.yaml").exists()
    recent = [a.text() for a in window.recent_menu.actions()]
    assert recent[0] == str((tmp_path / "elsewhere").resolve())
    assert str((tmp_path / "archive").resolve()) in recent


def test_the_demo_button_fills_the_paste_area(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    window.try_demo_site()
    assert "http://127.0.0.1:" in window.intake.paste.toPlainText()
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()
    assert window.model.rowCount() > 5 and window.table.isVisibleTo(window)


def test_pause_says_paused_and_the_tree_filters_the_table(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="Reading")
    window.model.setData(window.model.index(0, COLUMNS.index("cat1")), "Other")
    qtbot.waitUntil(lambda: window.tree.node("Other", None).isValid(), timeout=PATIENCE_MS)
    window.tree.select("Other", None)
    assert window.proxy.rowCount() == 1
    window.tree.select(None, None)
    assert window.proxy.rowCount() == window.model.rowCount()
    window.start_run()
    window.toggle_pause()
    assert window.statusBar().currentMessage() == "Paused"
    window.toggle_pause()
    assert window.statusBar().currentMessage() == "Running…"
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
        pass


def test_columns_are_remembered_per_archive(qtbot: QtBot, open_window: OpenWindow,
                                            prefs: QSettings) -> None:
    window = open_window()
    column = COLUMNS.index("title")
    window.table.setColumnWidth(column, 433)
    window.close()
    again = open_window()
    assert again.table.columnWidth(column) == 433


def test_books_are_listed_and_say_when_they_are_out_of_date(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    with qtbot.waitSignals([window.build_finished, window.books.refreshed],
                           timeout=PATIENCE_MS):
        window.build()
    assert window.books.list.topLevelItemCount() == 1
    assert window.books.list.topLevelItem(0).text(3) == "up to date"
    cleaned = next(t.id for t in window.model.tasks() if t.status in ("localized", "done"))
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
        window.reclean([cleaned])
    with qtbot.waitSignal(window.books.refreshed, timeout=PATIENCE_MS):
        window.books.refresh()
    assert window.books.list.topLevelItem(0).text(3) == "out of date: 1 cleaned again since"


def test_the_reader_opens_the_original_and_the_tasks_chapter_in_the_book(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    """The original in the browser; the article in the book at its own chapter, in the
    window's reader (a system reader cannot be told which chapter), even with one installed."""
    from PySide6.QtCore import QUrl

    window = open_window()
    opened: list[QUrl] = []
    window.open_url = lambda url: opened.append(url) or True
    window.epub_program = lambda: "reader.desktop"  # a desktop with a reader for EPUB
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    task = next(t for t in window.model.tasks() if t.status == "localized")
    window.select_task(task.id)
    qtbot.waitUntil(lambda: window.preview.shown is not None
                    and window.preview.shown.task.id == task.id, timeout=PATIENCE_MS)
    window.preview.book_button.click()
    qtbot.waitUntil(lambda: "in no book yet" in window.statusBar().currentMessage(),
                    timeout=PATIENCE_MS)
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS):
        window.build()
    window.preview.original_button.click()
    window.preview.book_button.click()
    qtbot.waitUntil(lambda: window.reader is not None and window.reader.current >= 0,
                    timeout=PATIENCE_MS)
    reader = window.reader
    assert reader is not None and reader.contents is not None
    assert reader.contents.spine[reader.current].endswith(f"/a{task.id}.xhtml")
    assert window.tabs.currentWidget() is reader
    assert [url.toString() for url in opened] == [task.url]  # the book not handed elsewhere


def test_filters_and_the_tree_node_are_remembered_per_archive_and_the_filter_is_seen(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="Reading")
    window.status_filter.setCurrentIndex(window.status_filter.findData("pending"))
    window.search.setText("blog")
    qtbot.waitUntil(lambda: window.tree.select("Reading", None), timeout=PATIENCE_MS)
    window.close()
    again = open_window()
    assert again.status_filter.currentData() == "pending"
    assert again.tree.current_category() == ("Reading", None)
    # issue 28: a word typed to find a row is not brought back; the choices that are say so
    assert again.search.text() == ""
    assert again.proxy.rowCount() == again.model.rowCount()
    again.status_filter.setCurrentIndex(again.status_filter.findData("failed"))
    state = again.filter_state
    total = again.model.rowCount()
    assert state.label.text() == f"filtered: 0 of {total}" and not state.clear_button.isHidden()
    state.clear_button.click()
    assert again.status_filter.currentData() == "" and again.proxy.rowCount() == total
    assert state.label.text() == f"{total} tasks" and state.clear_button.isHidden()


def test_the_trees_open_branches_are_remembered_per_archive(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="Reading")
    assert window.workspace is not None
    ids = [t.id for t in window.model.tasks()]
    window.workspace.edit(ids[:2], cat2="Bridges")
    window.workspace.edit(ids[2:4], cat1="Later", cat2="Tea")
    window.file_watch.follow(changed_here=True)
    qtbot.waitUntil(lambda: window.tree.node("Later", "Tea").isValid(), timeout=PATIENCE_MS)
    window.tree.expand_categories(["Reading"])
    assert window.tree.expanded_categories() == ["Reading"]
    window.close()
    again = open_window()
    qtbot.waitUntil(lambda: again.tree.node("Later", "Tea").isValid(), timeout=PATIENCE_MS)
    assert again.tree.expanded_categories() == ["Reading"]
