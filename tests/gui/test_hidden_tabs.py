"""Issue 30: a bottom tab reads the archive only when it can be seen. Hidden, it marks itself
stale on a change and reads when next shown, showing every change made meanwhile; shown, it
follows each change at once."""

from __future__ import annotations

from pathlib import Path

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
