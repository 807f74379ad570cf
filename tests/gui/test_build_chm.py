"""The build row's CHM choice (issue 29): it binds a CHM that Open hands to the desktop's
viewer; without chmcmd the window's log says where the project is and what to install, in
the window's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from tests.gui.conftest import OpenWindow
from tests.small_archive import make_small_archive
from tests.waiting import PATIENCE_MS


def build_chm(qtbot: QtBot, window: MainWindow) -> tuple[Any, list[str]]:
    """Choose CHM in the build row, bind everything; the result and the lines for the log."""
    bar = window.build_bar
    said: list[str] = []
    bar.said.connect(said.append)
    bar.scope.setCurrentIndex(bar.scope.findData("all"))
    bar.format.setCurrentIndex(bar.format.findData("chm"))
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        bar.button.click()
    return blocker.args[0], said


def test_the_chm_choice_binds_a_chm_and_open_shows_it(qtbot: QtBot, open_window: OpenWindow,
                                                      tmp_path: Path) -> None:
    window = open_window(make_small_archive(tmp_path / "archive"))
    bar = window.build_bar
    opened: list[QUrl] = []
    bar.open_url = lambda url: opened.append(url) or True
    bar.format.setCurrentIndex(bar.format.findData("chm"))
    assert bar.button.text() == "Build CHM" and bar.format.currentText() == "CHM (Windows Help)"
    result, said = build_chm(qtbot, window)
    assert result is not None and result.epubs == [] and result.pdfs == [] and not said
    [chm] = result.chms
    assert chm == tmp_path / "archive" / "03_output" / "archive.chm"
    assert chm.read_bytes().startswith(b"ITSF") and chm.name in bar.status.text()
    bar.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(chm)]


def test_without_chmcmd_the_log_says_where_the_project_is_and_what_to_install_in_chinese(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, chinese: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_small_archive(tmp_path / "archive")
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    window = open_window(root)
    assert window.build_bar.format.itemText(
        window.build_bar.format.findData("chm")) == "CHM（Windows 帮助）"
    result, said = build_chm(qtbot, window)
    project = root / "03_output" / "archive-chm-project"
    assert result is not None and result.chms == []
    assert result.chm_projects == [project / "book.hhp"]
    assert said == [f"CHM 工程已写到 {project}，但未编译：请安装 chmcmd（apt-get install fp-utils）"
                    "后重新生成"]
    assert (project / "book.hhc").is_file()
