"""File → Export as WARC or WACZ… (issue 31): the file asked for written in the background,
said in the log; a failure one line in the window's language."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot
from warcio.archiveiterator import ArchiveIterator

from tests.gui.conftest import OpenWindow
from tests.small_archive import ARTICLES, make_small_archive
from tests.waiting import PATIENCE_MS


def test_export_from_the_file_menu(qtbot: QtBot, open_window: OpenWindow, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(make_small_archive(tmp_path / "archive"))
    out = tmp_path / "out.warc.gz"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *args, **kwargs: (str(out), "")))
    assert window.export_action.isEnabled()
    with qtbot.waitSignal(window.export_finished, timeout=PATIENCE_MS) as blocker:
        window.export_action.trigger()
    result = blocker.args[0]
    assert result is not None and result.path == out and result.pages == len(ARTICLES)
    with open(out, "rb") as f:
        targets = {r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(f)
                   if r.rec_type == "response"}
    assert targets == {url for url, _, _ in ARTICLES}
    assert str(out) in window.log.toPlainText()
    assert window.export_action.isEnabled()

    wacz = tmp_path / "out.wacz"  # the name's ending chooses the package
    with qtbot.waitSignal(window.export_finished, timeout=PATIENCE_MS):
        window.export(wacz)
    assert "indexes/index.cdxj" in zipfile.ZipFile(wacz).namelist()


def test_an_export_that_cannot_be_written_is_one_line_in_chinese(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, chinese: None) -> None:
    window = open_window(make_small_archive(tmp_path / "archive"))
    with qtbot.waitSignal(window.export_finished, timeout=PATIENCE_MS) as blocker:
        window.export(tmp_path / "missing" / "out.warc.gz")
    assert blocker.args[0] is None
    line = window.statusBar().currentMessage()
    assert "missing" in line and "no folder" not in line and "导出" in line, line
    assert not (tmp_path / "missing").exists()
