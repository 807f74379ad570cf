"""A book always opens: the system's reader when it has one; else, or when it does not start,
the window's own — contents on the left, the chapter as the book sets it, Previous and Next —
with a line saying what was tried; a damaged book is one line, in the window's language."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QImage, QTextDocument
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from gui.reader.view import BookReader
from pipeline.demo_site.server import DemoSite
from tests.gui.conftest import OpenWindow, add_demo_links, build_everything, run_to_end
from tests.waiting import PATIENCE_MS


def built_book(qtbot: QtBot, window: MainWindow, site: DemoSite) -> tuple[Path, list[int]]:
    """The demo site added, run and bound into one book: its file and its tasks in order."""
    add_demo_links(qtbot, window, site, cat1="Demo")
    run_to_end(qtbot, window)
    result = build_everything(qtbot, window)
    return Path(result.epubs[0]), list(result.task_ids)


def opened_reader(qtbot: QtBot, window: MainWindow) -> BookReader:
    qtbot.waitUntil(lambda: window.reader is not None and window.reader.path is not None,
                    timeout=PATIENCE_MS)
    assert window.reader is not None
    return window.reader


def title_of(window: MainWindow, task_id: int) -> str:
    task = window.model.task(task_id)
    assert task is not None
    return task.display_title


def test_open_with_no_launcher_reads_the_book_in_the_window(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    """Offscreen, Qt has no launcher at all (``openUrl`` says False): the real no-launcher
    case. The system is taken to name a reader, so the launch itself is what fails."""
    assert not QDesktopServices.openUrl(QUrl.fromLocalFile("/nonexistent.epub"))
    window = open_window()
    window.epub_program = lambda: "reader.desktop"
    book, order = built_book(qtbot, window, demo_site)
    window.build_bar.open_button.click()
    reader = opened_reader(qtbot, window)
    assert window.tabs.currentWidget() is reader
    # what was tried, said in the reader and the status bar
    assert reader.note.text() == (f"reader.desktop, the system's reader for EPUB books, did not"
                                  f" start for {book.name}: it is shown here.")
    assert window.statusBar().currentMessage() == reader.note.text()
    # the first chapter's text, past the cover and the index
    first = window.workspace.article(order[0])
    assert first is not None
    assert title_of(window, order[0]) in reader.page.toPlainText()
    assert first.text.split()[0] in reader.page.toPlainText()
    # the contents: the category and each article under it
    entries = [reader.toc.topLevelItem(i).text(0) for i in range(reader.toc.topLevelItemCount())]
    assert "Demo" in entries
    demo = reader.toc.topLevelItem(entries.index("Demo"))
    assert [demo.child(i).text(0) for i in range(demo.childCount())] == [
        title_of(window, i) for i in order]
    # next and previous walk the reading order
    reader.next_button.click()
    assert title_of(window, order[1]) in reader.page.toPlainText()
    reader.previous_button.click()
    assert title_of(window, order[0]) in reader.page.toPlainText()
    while reader.previous_button.isEnabled():
        reader.previous_button.click()
    assert reader.position.text().startswith("1 of ") and reader.next_button.isEnabled()
    # a contents entry opens its chapter
    demo.child(2).setSelected(True)
    reader.toc.itemClicked.emit(demo.child(2), 0)
    assert title_of(window, order[2]) in reader.page.toPlainText()


def test_the_chapter_has_the_books_stylesheet_and_pictures(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    book, order = built_book(qtbot, window, demo_site)
    window.show_in_reader(book)
    reader = opened_reader(qtbot, window)
    base = reader.page.document().baseUrl()
    style = reader.page.loadResource(QTextDocument.ResourceType.StyleSheetResource.value,
                                     base.resolved(QUrl("../style.css")))
    assert b"font-family" in bytes(style)
    for _ in order:  # the first chapter with a picture: it comes from the zip
        html = reader.page.toHtml()
        if found := re.search(r'<img src="([^"]+)"', html):
            picture = reader.page.loadResource(QTextDocument.ResourceType.ImageResource.value,
                                               base.resolved(QUrl(found.group(1))))
            assert isinstance(picture, QImage) and not picture.isNull()
            assert picture.width() <= reader.page.viewport().width()
            break
        reader.next_button.click()
        base = reader.page.document().baseUrl()
    else:
        raise AssertionError("no chapter of the demo book shows a picture")


def test_with_no_reader_registered_the_book_opens_in_the_window(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    handed: list[QUrl] = []
    window.open_url = lambda url: handed.append(url) or True
    window.epub_program = lambda: ""
    book, _order = built_book(qtbot, window, demo_site)
    # the Books tab lists the book once it has read the change (in a job of its own)
    qtbot.waitUntil(lambda: window.books.list.topLevelItemCount() == 1, timeout=PATIENCE_MS)
    window.books.open_selected()
    reader = opened_reader(qtbot, window)
    assert handed == []  # nothing is handed to a desktop with no reader for it
    assert "xdg-mime names none for application/epub+zip" in reader.note.text()
    assert reader.path == book


def test_a_registered_reader_gets_the_book(qtbot: QtBot, open_window: OpenWindow,
                                           demo_site: DemoSite) -> None:
    window = open_window()
    handed: list[QUrl] = []
    window.open_url = lambda url: handed.append(url) or True
    window.epub_program = lambda: "calibre-ebook-viewer.desktop"
    book, _order = built_book(qtbot, window, demo_site)
    window.build_bar.open_button.click()
    qtbot.waitUntil(lambda: bool(handed), timeout=PATIENCE_MS)
    assert handed[0].toLocalFile() == str(book) and window.reader is None
    assert window.statusBar().currentMessage() == (
        f"{book.name} handed to calibre-ebook-viewer.desktop")


def test_a_damaged_book_says_one_line_in_chinese(chinese: None, qtbot: QtBot,  # noqa: F811
                                                 open_window: OpenWindow) -> None:
    window = open_window()
    window.epub_program = lambda: ""
    broken = window.archive.output_dir / "坏的.epub"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    window.open_book(broken)
    reader = opened_reader(qtbot, window)
    text = reader.page.toPlainText()
    assert text.startswith("无法读取电子书 坏的.epub：不是 EPUB 电子书") and "\n" not in text
    assert not reader.next_button.isEnabled() and not reader.previous_button.isEnabled()
    assert reader.previous_button.text() == "‹ 上一章" and reader.next_button.text() == "下一章 ›"
    assert window.tabs.tabText(window.tabs.indexOf(reader)) == "阅读器"
