"""Cancel a build in the real window (issue 29): while it builds the build button is Cancel
(Esc too); the build stops at its next article, the window says "Build cancelled" in its
language, 03_output holds no book, temp file or staging folder, nothing is marked done, and
the button builds again."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.task import Status
from tests.gui.conftest import OpenWindow, saved_rows
from tests.gui.test_undo import activated
from tests.pipeline.book.test_build_cancel import many_articles, output_files
from tests.waiting import PATIENCE_MS

ARTICLES = 150  # some seconds of binding: a cancel lands well before the end


def started(qtbot: QtBot, window: MainWindow) -> list[tuple[int, int]]:
    """Press Build and wait until the build has bound its first article; its steps."""
    steps: list[tuple[int, int]] = []
    window.build_bar.progressed.connect(lambda done, total: steps.append((done, total)))
    window.build_bar.button.click()
    qtbot.waitUntil(lambda: bool(steps), timeout=PATIENCE_MS)
    return steps


def left_as_it_was(window: MainWindow, before: list[str]) -> None:
    assert window.archive is not None
    assert output_files(window.archive.root) == before
    rows = saved_rows(window.archive.tasks_path)
    assert {row["status"] for row in rows.values()} == {Status.LOCALIZED}


@pytest.fixture
def big_archive(tmp_path: Path) -> Path:
    return many_articles(tmp_path / "many", ARTICLES)


def test_the_build_button_cancels_a_build_midway(qtbot: QtBot, open_window: OpenWindow,
                                                  big_archive: Path) -> None:
    window = open_window(big_archive)
    bar = window.build_bar
    before = output_files(big_archive)
    assert bar.button.text() == "Build EPUB"
    steps = started(qtbot, window)
    assert bar.button.text() == "Cancel" and bar.button.isEnabled()
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        bar.button.click()
    assert blocker.args[0] is None
    assert steps[-1][0] < steps[-1][1]  # stopped before the end
    assert bar.status.text() == "Build cancelled"
    assert "Build cancelled" in window.log.toPlainText()
    left_as_it_was(window, before)
    assert bar.button.text() == "Build EPUB" and bar.button.isEnabled()


def test_esc_cancels_a_build_and_the_window_says_so_in_chinese(
        qtbot: QtBot, chinese: None, open_window: OpenWindow, big_archive: Path) -> None:
    window = activated(qtbot, open_window(big_archive))
    bar = window.build_bar
    before = output_files(big_archive)
    started(qtbot, window)
    assert bar.button.text() == "取消"
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert blocker.args[0] is None
    assert bar.status.text() == "已取消生成"
    left_as_it_was(window, before)
    assert bar.button.text() == "生成 EPUB"
