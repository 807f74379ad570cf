"""Importing saved pages from the window (issue 31): File → Import… and dropping files and
folders on the window, the summary in the log with one line for each file not imported, in
the window's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.task import Status
from tests.gui.conftest import OpenWindow
from tests.gui.test_drops import files_mime, send_drop
from tests.pipeline.test_importing import save_complete, site  # noqa: F401 - a fixture
from tests.pipeline.test_warc_import import crawl_of_stories
from tests.sites.images import ImageServer
from tests.waiting import PATIENCE_MS


def bad_files(folder: Path) -> None:
    (folder / "notes.txt").write_text("not a page", encoding="utf-8")
    (folder / "broken.mht").write_bytes(
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"A\"\r\n\r\n"
        b"--B\r\nContent-Type: text/html\r\n\r\n<html></html>\r\n--B--\r\n")


def imported_by_drop(qtbot: QtBot, window: MainWindow, *paths: Path) -> object:
    with qtbot.waitSignal(window.import_finished, timeout=PATIENCE_MS) as blocker:
        send_drop(window.table.viewport(), files_mime(*paths))
    return blocker.args[0]


def test_a_dropped_folder_is_imported_and_what_was_not_is_said(
        qtbot: QtBot, open_window: OpenWindow, site: ImageServer, tmp_path: Path) -> None:  # noqa: F811
    folder = tmp_path / "saved"
    save_complete(site, folder)
    bad_files(folder)
    window = open_window()
    window.intake.cat1.setCurrentText("旧网页")
    before = len(site.hits)
    summary = imported_by_drop(qtbot, window, folder)
    assert summary is not None and len(site.hits) == before
    [task] = window.workspace.tasks() if window.workspace else []
    assert (task.status, task.cat1, task.images_ok) == (Status.LOCALIZED, "旧网页", 2)
    assert window.model.rowCount() == 1
    log = window.log.toPlainText().splitlines()
    assert "Import: imported 1 · no article 0 · duplicates 0 · not imported 2" in log
    assert (f"Not imported: {folder / 'broken.mht'}: a broken MHTML file: its MIME parts do"
            " not parse (StartBoundaryNotFound)") in log
    assert (f"Not imported: {folder / 'notes.txt'}: not a saved page or web archive Kuaibu"
            " reads (.txt)") in log
    assert window.intake.paste.toPlainText() == ""  # nothing of it pasted as links
    # the same page dropped again is a duplicate of its task
    imported_by_drop(qtbot, window, folder / "story.html")
    assert f"Already in the list as #{task.id}: {folder / 'story.html'}" in (
        window.log.toPlainText().splitlines())


def test_the_window_says_it_in_chinese(qtbot: QtBot, open_window: OpenWindow,
                                       site: ImageServer, tmp_path: Path,  # noqa: F811
                                       chinese: None) -> None:
    folder = tmp_path / "saved"
    save_complete(site, folder)
    bad_files(folder)
    window = open_window()
    imported_by_drop(qtbot, window, folder)
    log = window.log.toPlainText()
    assert "导入：" in log and "未导入：" in log
    assert "not a saved page" not in log and "MIME parts" not in log


def test_file_import_takes_the_files_chosen(qtbot: QtBot, open_window: OpenWindow,
                                            site: ImageServer, tmp_path: Path,  # noqa: F811
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    page = save_complete(site, tmp_path / "saved")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *args, **kwargs: ([str(page)], "")))
    window = open_window()
    assert window.import_action.isEnabled()
    with qtbot.waitSignal(window.import_finished, timeout=PATIENCE_MS) as blocker:
        window.import_action.trigger()
    [task] = blocker.args[0].imported
    assert task.url == site.url("/news/story.html")
    assert window.table.selectionModel().hasSelection()


def test_the_status_bar_counts_the_pages_of_one_web_archive(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    """A dropped WARC is one file: the status bar says each of its pages as it is read."""
    crawl = crawl_of_stories(tmp_path / "crawl.warc.gz", 3)
    window = open_window()
    shown: list[str] = []
    window.statusBar().messageChanged.connect(shown.append)
    summary = imported_by_drop(qtbot, window, crawl)
    assert summary is not None
    assert [m for m in shown if m.startswith("Importing saved pages… 0/1 files")] == [
        f"Importing saved pages… 0/1 files, {n} {'page' if n == 1 else 'pages'} read"
        for n in (1, 2, 3)]


def test_a_page_in_the_trash_dropped_again_comes_back_imported(
        qtbot: QtBot, open_window: OpenWindow, site: ImageServer, tmp_path: Path) -> None:  # noqa: F811
    page = save_complete(site, tmp_path / "saved")
    window = open_window()
    imported_by_drop(qtbot, window, page)
    assert window.workspace is not None
    [task] = window.workspace.tasks()
    window.workspace.remove([task.id])
    summary = imported_by_drop(qtbot, window, page)
    assert [t.id for t in summary.imported] == [task.id]  # type: ignore[attr-defined]
    log = window.log.toPlainText().splitlines()
    assert "Import: imported 1 · no article 0 · duplicates 0 · not imported 0" in log[-2:]
    assert f"Back from the trash as #{task.id}: {page}" in log
