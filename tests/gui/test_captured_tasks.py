"""Pages saved from the browser (issue 33) reach the window: at its next open, and while it
is open, as they arrive (the capture host is another writer of tasks.csv, which the window
follows)."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow
from tests.pipeline.browser.test_capture_host import framed, host, page
from tests.waiting import PATIENCE_MS


def test_captured_tasks_show_at_open_and_as_they_arrive(qtbot: QtBot, open_window: OpenWindow,
                                                        tmp_path: Path) -> None:
    root = tmp_path / "archive"
    Workspace.open(root).close()
    _, before = host(root, framed(page("https://example.org/saved-before")))
    assert before["ok"], before
    window = open_window(root)
    assert window.model.task(before["task"]) is not None  # at the next open
    _, during = host(root, framed(page("https://example.org/saved-while-open")))
    assert during["ok"], during
    qtbot.waitUntil(lambda: (task := window.model.task(during["task"])) is not None
                    and task.status == Status.LOCALIZED, timeout=PATIENCE_MS)
    _, link = host(root, framed({"kind": "link", "url": "https://example.org/later",
                                 "found_on": "https://example.org/saved-while-open",
                                 "category": "Later"}))
    qtbot.waitUntil(lambda: window.model.task(link["task"]) is not None, timeout=PATIENCE_MS)
