"""Drops read for intake: text, a browser's links, files by their kind, the rest refused; the
window-wide drop target."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QTableView, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gui.drops import Drop, DropTarget, bookmarks_export, fill, read_drop, shortcut_url
from pipeline.web.urls import bookmark_folders
from tests.waiting import PATIENCE_MS

# as Chrome and Firefox write them: <DT>s never closed, the toolbar a folder of its own
BOOKMARKS = """<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file. -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" PERSONAL_TOOLBAR_FOLDER="true">书签栏</H3>
    <DL><p>
        <DT><H3 ADD_DATE="1700000000">技术</H3>
        <DL><p>
            <DT><A HREF="https://a.example/1" ADD_DATE="1700000000">One</A>
            <DT><A HREF="https://a.example/2?x=1&amp;y=2">Two</A>
        </DL><p>
        <DT><A HREF="https://b.example/3">Three</A>
    </DL><p>
    <DT><H3>News</H3>
    <DL><p>
        <DT><A HREF="https://c.example/4">Four</A>
    </DL><p>
    <DT><A HREF="https://d.example/5">Loose</A>
</DL><p>
"""
FILED = {"https://a.example/1": ("书签栏", "技术"),
         "https://a.example/2?x=1&y=2": ("书签栏", "技术"),
         "https://b.example/3": ("书签栏",), "https://c.example/4": ("News",),
         "https://d.example/5": ()}


def files_mime(*paths: Path | str) -> QMimeData:
    """What a file manager or browser drags: local files by path, links as they are."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) if isinstance(p, Path) else QUrl(p) for p in paths])
    return mime


def test_plain_text_is_taken_as_it_is() -> None:
    mime = QMimeData()
    mime.setText("看这篇 https://a.example/post/1 ，很好")
    assert read_drop(mime) == Drop(text="看这篇 https://a.example/post/1 ，很好")


def test_browser_links_are_taken_and_text_beside_them_ignored() -> None:
    mime = files_mime("https://a.example/post/1", "https://b.example/文章?id=2")
    mime.setText("Post one")  # a browser adds the link's title as text
    drop = read_drop(mime)
    assert drop.text.splitlines() == ["https://a.example/post/1", "https://b.example/文章?id=2"]
    assert drop.refused == [] and not drop.bookmarks


def test_text_files_are_read_as_utf8_or_gb18030(tmp_path: Path) -> None:
    chinese = tmp_path / "链接.txt"
    chinese.write_text("读这个 https://a.example/1\n", encoding="gb18030")
    notes = tmp_path / "notes.md"
    notes.write_text("\ufeff- [two](https://a.example/2)\n", encoding="utf-8")
    drop = read_drop(files_mime(chinese, notes))
    assert drop.text == "读这个 https://a.example/1\n\n- [two](https://a.example/2)\n"
    assert drop.refused == []


def test_a_url_shortcut_gives_its_link(tmp_path: Path) -> None:
    shortcut = tmp_path / "An article.url"
    shortcut.write_bytes(b"[DEFAULT]\r\nBASEURL=https://wrong.example/\r\n[InternetShortcut]\r\n"
                         b"URL=https://a.example/post/7\r\nIDList=\r\nIconIndex=0\r\n")
    drop = read_drop(files_mime(shortcut))
    assert drop.text == "https://a.example/post/7" and drop.refused == []
    assert shortcut_url("[InternetShortcut]\nIconIndex=0\n") == ""
    empty = tmp_path / "empty.url"
    empty.write_text("[InternetShortcut]\nIconIndex=0\n", encoding="utf-8")
    assert read_drop(files_mime(empty)).refused == [
        "empty.url: an Internet Shortcut without a URL= line"]


def test_other_files_are_refused_with_a_message(tmp_path: Path) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    book = tmp_path / "book.epub"
    book.write_bytes(b"PK\x03\x04")
    folder = tmp_path / "links.txt.d"
    folder.mkdir()
    links = tmp_path / "links.txt"
    links.write_text("https://a.example/1\n", encoding="utf-8")
    drop = read_drop(files_mime(photo, book, folder, tmp_path / "gone.txt", links))
    assert drop.text == "https://a.example/1\n"  # what could be used still is
    assert drop.refused[:2] == ["photo.png: not a list of links", "book.epub: not a list of links"]
    assert drop.refused[2].startswith("gone.txt: cannot be read (") and len(drop.refused) == 3
    assert drop.saved == [folder]  # a folder is imported: it holds saved pages


def test_saved_pages_are_to_import_and_other_pages_give_their_links(tmp_path: Path) -> None:
    """A page a browser saved (its mark, or its resources folder beside it), SingleFile's and
    MHTML are imported; a page of links stays a page of links."""
    marked = tmp_path / "marked.html"
    marked.write_text("<!-- saved from url=(0021)https://a.example/1 -->\n<html></html>",
                      encoding="utf-8")
    beside = tmp_path / "beside.htm"
    beside.write_text("<html><body><p>saved</p></body></html>", encoding="utf-8")
    (tmp_path / "beside_files").mkdir()
    single = tmp_path / "single.html"
    single.write_text("<html><!--\n Page saved with SingleFile \n url: https://a.example/2 \n"
                      "--><head></head></html>", encoding="utf-8")
    mhtml = tmp_path / "snap.mhtml"
    mhtml.write_bytes(b"MIME-Version: 1.0\r\n")
    links = tmp_path / "links.html"
    links.write_text('<html><body><a href="https://a.example/3">3</a></body></html>',
                     encoding="utf-8")
    drop = read_drop(files_mime(marked, beside, single, mhtml, links))
    assert drop.saved == [marked, beside, single, mhtml]
    assert drop.text == "https://a.example/3" and drop.refused == []


def test_files_without_links_are_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>no links here</p></body></html>", encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("just words\n", encoding="utf-8")
    drop = read_drop(files_mime(page, notes))
    assert drop.text == ""
    assert drop.refused == ["page.html: no links in it", "notes.txt: no links in it"]


def test_a_web_page_gives_its_links_not_its_markup(tmp_path: Path) -> None:
    page = tmp_path / "reading.htm"
    page.write_text('<html><body><p>See <a href="https://a.example/1">one</a> and'
                    ' https://a.example/2.</p></body></html>', encoding="utf-8")
    drop = read_drop(files_mime(page))
    assert drop.text == "https://a.example/1\nhttps://a.example/2"
    assert not drop.bookmarks and drop.folders == []


def test_a_bookmarks_export_is_read_as_bookmarks_with_its_folders(tmp_path: Path) -> None:
    export = tmp_path / "bookmarks_2024.html"
    export.write_text(BOOKMARKS, encoding="utf-8")
    drop = read_drop(files_mime(export, "https://e.example/6"))
    assert drop.bookmarks
    assert drop.text.splitlines() == [*FILED, "https://e.example/6"]  # links, not markup
    assert drop.filed == FILED
    assert drop.folders == ["书签栏 / 技术", "书签栏", "News"]
    assert drop.refused == []


def test_a_made_export_files_as_its_folders_say() -> None:
    links = [("https://a.example/1?a=1&b=<2>", ("Tech & Co", "Py")), ("https://a.example/2", ()),
             ("https://a.example/3", ("Tech & Co",)), ("https://a.example/4", ("新闻",))]
    assert bookmark_folders(bookmarks_export(links)) == dict(links)
    assert bookmark_folders(bookmarks_export([])) == {}


def test_fill_replaces_each_placeholder_once() -> None:
    assert fill("%1: cannot be read (%2)", "100%2.txt", "denied") == "100%2.txt: cannot be read" \
        " (denied)"
    assert fill("Rejected %1: %2", "https://a.example/%2F%1", "why") == (
        "Rejected https://a.example/%2F%1: why")


def send_drop(target: QWidget, mime: QMimeData) -> QDropEvent:
    """A drag entering ``target`` and dropped in its middle, as Qt delivers them."""
    pos = QPoint(target.width() // 2, target.height() // 2)
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(target, drop)
    return drop


def test_the_drop_target_takes_drops_anywhere_it_watches(qtbot: QtBot, tmp_path: Path) -> None:
    window = QWidget()
    table = QTableView()
    QVBoxLayout(window).addWidget(table)
    qtbot.addWidget(window)
    window.resize(400, 300)
    window.show()
    target = DropTarget(window)
    target.watch(window)
    target.watch(table)
    assert window.acceptDrops() and table.viewport().acceptDrops()
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG")
    mime = files_mime("https://a.example/1", photo)
    with qtbot.waitSignal(target.dropped, timeout=PATIENCE_MS) as blocker:
        event = send_drop(table.viewport(), mime)  # a table's drops arrive at its viewport
    assert event.isAccepted()
    assert blocker.args == [Drop(text="https://a.example/1",
                                 refused=["photo.png: not a list of links"])]
    with qtbot.waitSignal(target.dropped, timeout=PATIENCE_MS) as blocker:
        send_drop(window, files_mime("https://a.example/2"))
    assert blocker.args[0].text == "https://a.example/2"
