"""A paste is never lost: the paste area's text is the archive's draft, there again after the
window is closed, or destroyed as a crash would leave it, and cleared of what was added."""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.settings import Settings
from tests.gui.conftest import OpenWindow
from tests.waiting import PATIENCE_MS

PASTED = "看看这篇 https://example.com/news/1.html\nand https://example.com/news/2.html\n"


def draft_file(window: MainWindow) -> Path:
    assert window.archive is not None
    return window.archive.paste_draft_path


def test_a_paste_is_there_after_closing_the_window(qtbot: QtBot,
                                                   open_window: OpenWindow) -> None:
    window = open_window()
    window.intake.paste.setPlainText(PASTED)
    window.close()  # at once: no wait for the draft's half second
    assert open_window().intake.paste.toPlainText() == PASTED


def test_a_paste_is_there_after_a_crash(qtbot: QtBot, prefs: QSettings,
                                        fast_settings: Settings, tmp_path: Path) -> None:
    """Destroyed with no closeEvent, as a kill leaves it: the draft was already on disk."""
    window = MainWindow(tmp_path / "archive", prefs, fast_settings)
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        pass
    window.intake.paste.setPlainText(PASTED)
    window.intake.paste.appendPlainText("typed after")
    typed = window.intake.paste.toPlainText()
    path = draft_file(window)
    qtbot.waitUntil(lambda: path.exists() and "typed after" in path.read_text("utf-8"),
                    timeout=PATIENCE_MS)
    window.jobs.wait(PATIENCE_MS)
    shiboken6.delete(window)
    again = MainWindow(tmp_path / "archive", prefs, fast_settings)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.archive_loaded, timeout=PATIENCE_MS):
        pass
    assert again.intake.paste.toPlainText() == typed
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_adding_keeps_only_what_was_not_added(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    window.intake.paste.setPlainText(PASTED + "ftp://example.com/file\n")
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()
    assert len(window.model.tasks()) == 2
    # at once, not half a second later: the rejected line stays to be fixed, the rest is gone
    assert draft_file(window).read_text("utf-8") == "ftp://example.com/file\n"
    window.intake.paste.clear()
    window.intake.draft.keep_now()
    assert not draft_file(window).exists()
    window.close()
    assert open_window().intake.paste.toPlainText() == ""


def test_each_archive_keeps_its_own_draft(qtbot: QtBot, open_window: OpenWindow,
                                          tmp_path: Path) -> None:
    window = open_window(tmp_path / "one")
    window.intake.paste.setPlainText("https://example.com/one\n")
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        window.open_archive(tmp_path / "two")
    assert window.intake.paste.toPlainText() == ""
    window.intake.paste.setPlainText("https://example.com/two\n")
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        window.open_archive(tmp_path / "one")
    assert window.intake.paste.toPlainText() == "https://example.com/one\n"
    assert (tmp_path / "two" / "paste-draft.txt").read_text("utf-8") == (
        "https://example.com/two\n")
