"""The window on an archive whose tasks.csv was emptied: the refusal is one line in the
window's language, the file is left as it is, and nothing is shown as if the list were empty."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.language import install_language
from gui.main_window.window import MainWindow
from pipeline.store.archive import Archive
from tests.waiting import PATIENCE_MS


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "zh_CN")
    yield
    install_language(qapp, "en", installed)


def emptied_archive(root: Path) -> Path:
    """Three fetched pages in 00_raw, and a tasks.csv someone emptied."""
    archive = Archive.open(root)
    for i in (1, 2, 3):
        archive.store_raw(i, b"<html></html>", json.dumps({"url": f"https://a.example/{i}"}))
    archive.tasks_path.write_bytes(b"")
    return archive.tasks_path


def refusal(qtbot: QtBot, root: Path, prefs: QSettings) -> tuple[MainWindow, str]:
    window = MainWindow(root, prefs)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: "recover" in window.statusBar().currentMessage(), timeout=PATIENCE_MS)
    return window, window.statusBar().currentMessage()


def test_the_refusal_is_one_line_and_nothing_is_written(qtbot: QtBot, prefs: QSettings,
                                                        tmp_path: Path) -> None:
    path = emptied_archive(tmp_path / "archive")
    window, line = refusal(qtbot, tmp_path / "archive", prefs)
    assert line == (f"{path} lacks 3 of the 3 archived tasks: opening it would lose them. Run"
                    " 'python main.py recover' to rebuild the list from the archive (nothing"
                    " was changed)")
    assert window.workspace is None and window.model.rowCount() == 0
    assert window.log.toPlainText().splitlines() == [line]
    assert path.read_bytes() == b""


def test_the_refusal_in_chinese(chinese: None, qtbot: QtBot, prefs: QSettings,
                                tmp_path: Path) -> None:
    path = emptied_archive(tmp_path / "archive")
    _, line = refusal(qtbot, tmp_path / "archive", prefs)
    assert line == (f"{path} 缺少归档中 3 个任务里的 3 个：打开它会丢失这些任务。请运行"
                    " 'python main.py recover' 从归档重建任务列表（未做任何更改）")


def test_a_list_emptied_while_the_window_shows_it(qtbot: QtBot, prefs: QSettings,
                                                 tmp_path: Path) -> None:
    """The window keeps its rows and says why it does not follow the file; after recover it
    follows it again."""
    from pipeline.usecases.workspace import Workspace

    root = tmp_path / "archive"
    path = emptied_archive(root)
    path.write_text("id,url\r\n" + "".join(f"{i},https://a.example/{i}\r\n" for i in (1, 2, 3)),
                    encoding="utf-8")
    window = MainWindow(root, prefs)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        pass
    assert window.model.rowCount() == 3
    path.write_bytes(b"")
    qtbot.waitUntil(lambda: "recover" in window.statusBar().currentMessage(), timeout=PATIENCE_MS)
    assert window.model.rowCount() == 3 and path.read_bytes() == b""
    Workspace.recover(root)
    with qtbot.waitSignal(window.refreshed, timeout=PATIENCE_MS):
        pass
    assert window.model.rowCount() == 3
