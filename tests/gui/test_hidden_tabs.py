"""Issue 30: a bottom tab reads the archive only when it can be seen. Hidden, it marks itself
stale on a change and reads when next shown, showing every change made meanwhile; shown, it
follows each change at once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow, jobs_done, look_at
from tests.waiting import PATIENCE_MS


def trashed_archive(root: Path) -> Path:
    """Three tasks, the second in the trash."""
    ws = Workspace.open(root, Settings())
    ws.add_links("https://news.example/a\nhttps://news.example/b\nhttps://news.example/c")
    ws.remove([2])
    ws.save()
    ws.close()
    return root


def test_a_hidden_tab_reads_when_shown_and_shows_the_change_made_meanwhile(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window(trashed_archive(tmp_path / "archive"))
    window.show()
    assert window.tabs.currentWidget() is not window.trash
    jobs_done(window.jobs)
    assert window.trash.trashed_ids() == []  # hidden since the archive opened: not read

    window.remove_tasks([3])  # a change while the tab is hidden
    qtbot.waitUntil(lambda: window.model.task(3) is None, timeout=PATIENCE_MS)
    jobs_done(window.jobs)
    assert window.trash.trashed_ids() == []  # still not read

    with qtbot.waitSignal(window.trash.refreshed, timeout=PATIENCE_MS):
        look_at(window, window.trash)
    assert sorted(window.trash.trashed_ids()) == [2, 3]  # the change made while hidden

    window.remove_tasks([1])  # shown: followed at once
    qtbot.waitUntil(lambda: sorted(window.trash.trashed_ids()) == [1, 2, 3],
                    timeout=PATIENCE_MS)


def test_the_report_and_a_search_are_read_when_their_tab_is_shown(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    """An archive opened with a query in the Search field and a report written: neither tab
    reads it while hidden; each does when shown."""
    other = trashed_archive(tmp_path / "other")
    ws = Workspace.open(other, Settings())
    written = ws.report()
    ws.close()
    window = open_window(trashed_archive(tmp_path / "first"))
    searches: list[tuple[str, int]] = []
    window.search_panel.searched.connect(lambda query, n: searches.append((query, n)))
    with qtbot.waitSignal(window.search_panel.searched, timeout=PATIENCE_MS):
        look_at(window, window.search_panel)
        window.search_panel.field.setText("bridge")
        window.search_panel.search_now()
    look_at(window, window.preview)  # both tabs hidden from here
    searches.clear()

    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        window.open_archive(other)
    jobs_done(window.jobs)
    QApplication.processEvents()  # any answer a job gave is delivered
    assert window.report_view.path is None and searches == []  # hidden: neither read
    assert window.search_panel.model.rowCount() == 0  # the last archive's hits gone

    with qtbot.waitSignal(window.report_view.shown, timeout=PATIENCE_MS):
        look_at(window, window.report_view)
    assert window.report_view.path == written
    with qtbot.waitSignal(window.search_panel.searched, timeout=PATIENCE_MS):
        look_at(window, window.search_panel)
    assert searches == [("bridge", 0)]  # the query asked of the archive now open
