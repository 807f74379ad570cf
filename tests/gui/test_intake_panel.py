"""The intake panel on a real workspace: the report (duplicates clickable, rejections with
their reasons), the rejected lines kept, Ctrl+Enter, drops and filing bookmarks by folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QTableView, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gui.drops import DropTarget, read_drop
from gui.intake_panel import IntakePanel, rejected_lines
from pipeline.usecases.workspace import Workspace
from tests.gui.test_drops import BOOKMARKS, files_mime, send_drop
from tests.waiting import PATIENCE_MS


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Workspace]:
    ws = Workspace.open(tmp_path / "archive")
    ws.add_links("https://a.example/old")  # task #1
    yield ws
    ws.close()


@pytest.fixture
def panel(qtbot: QtBot, prefs: QSettings, workspace: Workspace) -> IntakePanel:
    """A panel wired to the workspace as the window wires it (synchronously here)."""
    panel = IntakePanel(prefs)
    qtbot.addWidget(panel)
    panel.resize(500, 600)
    panel.show()

    def add() -> None:
        cat1, cat2 = panel.categories()
        panel.show_report(workspace.add_links(panel.text_to_add(), cat1, cat2,
                                              panel.folders_as_categories()))

    panel.add_button.clicked.connect(add)
    return panel


PASTED = """看看这个 https://a.example/old 已经有了
新的 https://a.example/new ，不错
写信 mailto:editor@example.com 问问
ftp://files.example/list.txt
https://b.example/post?id=3&utm_source=x
"""


def test_the_report_lists_duplicates_and_rejections(qtbot: QtBot, panel: IntakePanel) -> None:
    panel.paste.setPlainText(PASTED)
    with qtbot.waitSignal(panel.added, timeout=PATIENCE_MS) as added:
        panel.add_button.click()
    assert added.args == [[2, 3]]
    assert panel.report.text() == "Added 2 · duplicates 1 · rejected 2"
    rows = [panel.report_list.item(n).text() for n in range(panel.report_list.count())]
    assert rows == [
        "Duplicate of #1: https://a.example/old",
        # the reasons as the window says them (gui.reasons), not the pipeline's English
        "Rejected mailto:editor@example.com: a mailto link: only http and https are archived",
        "Rejected ftp://files.example/list.txt: a ftp link: only http and https are archived",
    ]
    assert panel.report_list.isVisible()
    # the box keeps the lines of the rejected links, as they were, to be fixed
    assert panel.paste.toPlainText() == "写信 mailto:editor@example.com 问问\n" \
                                        "ftp://files.example/list.txt\n"


def test_clicking_a_duplicate_chooses_its_task(qtbot: QtBot, panel: IntakePanel) -> None:
    panel.paste.setPlainText(PASTED)
    panel.add_button.click()
    duplicate, rejected = panel.report_list.item(0), panel.report_list.item(1)
    viewport = panel.report_list.viewport()
    with qtbot.waitSignal(panel.duplicate_chosen, timeout=PATIENCE_MS) as chosen:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton,
                         pos=panel.report_list.visualItemRect(duplicate).center())
    assert chosen.args == [1]
    with qtbot.assertNotEmitted(panel.duplicate_chosen):
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton,
                         pos=panel.report_list.visualItemRect(rejected).center())


def test_a_clean_paste_empties_the_box_and_adds_nothing_twice(qtbot: QtBot,
                                                              panel: IntakePanel) -> None:
    panel.paste.setPlainText("https://a.example/new\n")
    panel.add_button.click()
    assert panel.paste.toPlainText() == ""
    panel.paste.setPlainText("https://a.example/new\n")
    with qtbot.assertNotEmitted(panel.added):
        panel.add_button.click()
    assert panel.report.text() == "Added 0 · duplicates 1 · rejected 0"


def test_rejected_lines_keep_each_line_once_in_order() -> None:
    text = "a mailto:x@y.example b\nok https://a.example/1\nftp://f.example/ mailto:x@y.example\n"
    assert rejected_lines(text, ["mailto:x@y.example", "ftp://f.example/", "mailto:x@y.example"]
                          ) == "a mailto:x@y.example b\nftp://f.example/ mailto:x@y.example\n"
    assert rejected_lines(text, []) == ""
    # markup: the line with the link, spelled with entities
    assert rejected_lines('<p>x</p>\n<a href="ftp://f.example/?a=1&amp;b=2">x</a>',
                          ["ftp://f.example/?a=1&b=2"]
                          ) == '<a href="ftp://f.example/?a=1&amp;b=2">x</a>\n'
    # a link no line spells (a tag across lines) is given as it was read
    assert rejected_lines('<a\nhref="ftp://f.example/?a=1&amp;b=2">x</a>',
                          ["ftp://f.example/?a=1&b=2"]) == "ftp://f.example/?a=1&b=2\n"


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Enter])
def test_ctrl_enter_adds(qtbot: QtBot, panel: IntakePanel, workspace: Workspace,
                         key: Qt.Key) -> None:
    panel.paste.setFocus()
    qtbot.keyClicks(panel.paste, "https://a.example/typed")
    qtbot.keyClick(panel.paste, Qt.Key.Key_Return)  # a plain Enter is a new line
    assert panel.paste.toPlainText() == "https://a.example/typed\n"
    assert len(workspace.tasks()) == 1
    with qtbot.waitSignal(panel.added, timeout=PATIENCE_MS) as added:
        qtbot.keyClick(panel.paste, key, Qt.KeyboardModifier.ControlModifier)
    assert added.args == [[2]] and workspace.task(2).url == "https://a.example/typed"
    panel.add_button.setEnabled(False)  # no archive, or adding already
    panel.paste.setPlainText("https://a.example/later")
    qtbot.keyClick(panel.paste, key, Qt.KeyboardModifier.ControlModifier)
    assert len(workspace.tasks()) == 2


def test_filing_a_dropped_bookmarks_export_by_its_folders(qtbot: QtBot, panel: IntakePanel,
                                                          workspace: Workspace,
                                                          tmp_path: Path) -> None:
    export = tmp_path / "bookmarks.html"
    export.write_text(BOOKMARKS, encoding="utf-8")
    assert not panel.by_folders.isVisible()
    panel.paste.setPlainText("也收 https://e.example/typed")
    panel.take_drop(read_drop(files_mime(export)))
    assert panel.by_folders.isVisible() and not panel.by_folders.isChecked()
    assert panel.by_folders.text() == "File by the bookmarks' folders (3 folders)"
    assert "书签栏 / 技术" in panel.by_folders.toolTip()
    text = panel.paste.toPlainText()
    assert "<DL>" not in text and "https://c.example/4" in text  # links, not markup
    assert not panel.folders_as_categories()
    panel.paste.setPlainText(text.replace("https://b.example/3\n", ""))  # one taken out
    panel.by_folders.setChecked(True)
    assert panel.folders_as_categories()
    panel.cat1.setCurrentText("Typed")
    with qtbot.waitSignal(panel.added, timeout=PATIENCE_MS):
        panel.add_button.click()
    filed = {t.url: (t.cat1, t.cat2) for t in workspace.tasks()}
    assert filed == {
        "https://a.example/old": ("", ""),
        "https://a.example/1": ("书签栏", "技术"),
        "https://a.example/2?x=1&y=2": ("书签栏", "技术"),
        "https://c.example/4": ("News", ""),
        "https://d.example/5": ("Typed", ""),  # a loose bookmark: the categories typed
        "https://e.example/typed": ("Typed", ""),  # typed beside them: the same
    }
    # the offer goes with the bookmarks it was for
    assert not panel.by_folders.isVisible() and not panel.folders_as_categories()


def test_bookmarks_unfiled_get_the_typed_categories(qtbot: QtBot, panel: IntakePanel,
                                                    workspace: Workspace, tmp_path: Path) -> None:
    export = tmp_path / "bookmarks.html"
    export.write_text(BOOKMARKS, encoding="utf-8")
    panel.take_drop(read_drop(files_mime(export)))
    panel.cat1.setCurrentText("Later")
    panel.add_button.click()
    assert {t.cat1 for t in workspace.tasks() if t.id > 1} == {"Later"}
    assert len(workspace.tasks()) == 6


def test_emptying_the_box_takes_back_the_offer(panel: IntakePanel, tmp_path: Path) -> None:
    export = tmp_path / "bookmarks.html"
    export.write_text(BOOKMARKS, encoding="utf-8")
    panel.take_drop(read_drop(files_mime(export)))
    panel.by_folders.setChecked(True)
    panel.paste.clear()
    assert not panel.by_folders.isVisible() and not panel.folders_as_categories()


def test_a_drop_on_the_paste_box_is_read_and_refusals_reported(qtbot: QtBot,
                                                               panel: IntakePanel,
                                                               tmp_path: Path) -> None:
    shortcut = tmp_path / "article.url"
    shortcut.write_text("[InternetShortcut]\nURL=https://a.example/from-shortcut\n",
                        encoding="utf-8")
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    export = tmp_path / "bookmarks.htm"
    export.write_text(BOOKMARKS, encoding="utf-8")
    event = send_drop(panel.paste.viewport(), files_mime(shortcut, photo, export))
    assert event.isAccepted()
    text = panel.paste.toPlainText()
    assert "https://a.example/from-shortcut" in text and "https://d.example/5" in text
    assert "PNG" not in text and "photo" not in text
    assert panel.report.text() == "Not used from the drop:"
    assert [panel.report_list.item(n).text() for n in range(panel.report_list.count())] == [
        "photo.png: not a list of links"]
    assert panel.by_folders.isVisible()


def test_browser_links_dropped_on_the_window_are_added(qtbot: QtBot, panel: IntakePanel,
                                                       workspace: Workspace) -> None:
    window = QWidget()  # the main window's part: the table, one drop target for the window
    table = QTableView()
    QVBoxLayout(window).addWidget(table)
    qtbot.addWidget(window)
    window.show()
    target = DropTarget(window)
    target.watch(window)
    target.watch(table)
    target.dropped.connect(panel.take_drop)
    panel.paste.setPlainText("https://a.example/typed")  # already there: the drop goes after
    send_drop(table.viewport(), files_mime("https://a.example/dragged/1",
                                           "https://b.example/dragged/2"))
    assert panel.paste.toPlainText() == ("https://a.example/typed\nhttps://a.example/dragged/1\n"
                                         "https://b.example/dragged/2\n")
    with qtbot.waitSignal(panel.added, timeout=PATIENCE_MS) as added:
        panel.add_button.click()
    assert added.args == [[2, 3, 4]]
    assert [t.url for t in workspace.tasks()][1:] == [
        "https://a.example/typed", "https://a.example/dragged/1", "https://b.example/dragged/2"]


def test_the_report_wraps_long_links_whole_in_a_narrow_panel(
        qtbot: QtBot, panel: IntakePanel, workspace: Workspace) -> None:
    """A narrow panel (the window's left column) shows each report row whole, a link with no
    space in it too: no sideways scrolling, and every stretch of a row's text between two
    places it may wrap (as drawn) fits the list's width, so no line end is cut."""
    from PySide6.QtCore import QTextBoundaryFinder
    from PySide6.QtWidgets import QStyleOptionViewItem

    long_link = ("https://a.example/articles/covered-bridge-repair.html"
                 "?utm_source=wechat&spm=1.2&from=timeline&isappinstalled=0")
    workspace.add_links(long_link)
    panel.resize(260, 600)
    panel.paste.setPlainText(long_link + "\nmailto:editor@example.com")
    panel.add_button.click()
    listing = panel.report_list
    assert not listing.horizontalScrollBar().isVisible()
    room = listing.viewport().width() - 8  # the row's margins
    for n in range(listing.count()):
        option = QStyleOptionViewItem()
        listing.itemDelegate().initStyleOption(option, listing.indexFromItem(listing.item(n)))
        drawn = option.text
        finder = QTextBoundaryFinder(QTextBoundaryFinder.BoundaryType.Line, drawn)
        start = 0
        while (end := finder.toNextBoundary()) != -1:
            stretch = drawn[start:end].strip()
            assert listing.fontMetrics().horizontalAdvance(stretch) <= room, stretch
            start = end
