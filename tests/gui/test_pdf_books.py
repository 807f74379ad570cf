"""The Books tab lists the PDFs a build made beside the EPUBs (issue 29)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from tests.gui.conftest import OpenWindow
from tests.small_archive import make_small_archive
from tests.waiting import PATIENCE_MS


def _rows(window: object) -> list[tuple[str, str]]:
    view = window.books.list  # type: ignore[attr-defined]
    return sorted((view.topLevelItem(r).text(0), view.topLevelItem(r).text(3))
                  for r in range(view.topLevelItemCount()))


def test_the_books_tab_lists_a_pdf_and_the_system_opens_it(qtbot: QtBot, open_window: OpenWindow,
                                                tmp_path: Path) -> None:
    window = open_window(make_small_archive(tmp_path / "archive"))
    bar = window.build_bar
    bar.format.setCurrentIndex(bar.format.findData("pdf"))
    # the tab can list the book before the build has ended (its record is written first):
    # the next build waits for the end, as a person's click would find the button busy
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS):
        assert window.build()
    qtbot.waitUntil(lambda: _rows(window) != [], timeout=PATIENCE_MS)
    [(name, state)] = _rows(window)
    assert name.endswith(".pdf") and state == "up to date"
    bar.format.setCurrentIndex(bar.format.findData("epub"))
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS):
        assert window.build()
    qtbot.waitUntil(lambda: len(_rows(window)) == 2, timeout=PATIENCE_MS)
    assert [(Path(n).suffix, s) for n, s in _rows(window)] == [
        (".epub", "up to date"), (".pdf", "up to date")]
    asked: list[QUrl] = []
    window.open_url = lambda url: asked.append(url) or len(asked) == 1  # opens once
    view = window.books.list
    view.setCurrentItem(next(view.topLevelItem(r) for r in range(view.topLevelItemCount())
                             if view.topLevelItem(r).text(0).endswith(".pdf")))
    for said in ("handed to the system's reader", "The system could not open"):
        window.books.open_selected()
        assert said in window.statusBar().currentMessage()
    assert [Path(url.toLocalFile()).suffix for url in asked] == [".pdf", ".pdf"]
    assert Path(asked[0].toLocalFile()).is_file() and window.reader is None
