"""The window at the sizes people have (issue 28 §7): at 1024×700 and 1280×800, in English and
Chinese, with tasks and a run's counts shown, no label, button, box or column header is cut;
the table has most of the height and the bottom tabs fold away, as they were left."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QHeaderView,
    QLabel,
    QStyle,
    QStyleOptionComboBox,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.demo_site.server import DemoSite
from pipeline.records.events import Progress
from tests.gui.conftest import OpenWindow, add_demo_links, run_to_end
from tests.waiting import PATIENCE_MS

SIZES = ((1024, 700), (1280, 800))
# a long run's counts, the widest the run bar usually shows
BUSY = Progress(total=12_000, elapsed=800.0, finished=9_876, failed=1_234, fetched=10_987,
                cleaned=9_876, localized=8_765)


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def cut_words(window: QWidget) -> list[str]:
    """Every visible label, button, box, tab and column header of ``window`` whose words do
    not fit the room it has (Qt elides or clips them), or that a parent clips."""
    cut: list[str] = []
    for w in window.findChildren(QWidget):
        if not w.isVisible():
            continue
        fm = w.fontMetrics()
        whole = w.visibleRegion().boundingRect() == w.rect()
        if isinstance(w, QLabel) and w.text():
            if not whole:
                cut.append(f"label {w.text()!r} clipped by its parent")
            elif w.wordWrap():
                if w.heightForWidth(w.width()) > w.height():
                    cut.append(f"label {w.text()!r}: {w.height()} px high of"
                               f" {w.heightForWidth(w.width())}")
            elif w.sizeHint().width() > w.width():
                cut.append(f"label {w.text()!r}: {w.width()} px of {w.sizeHint().width()}")
        elif isinstance(w, QAbstractButton) and w.text():
            text = _plain(w.text())
            if not whole or w.sizeHint().width() > w.width():  # the hint is its text's room
                cut.append(f"button {text!r}: {w.width()} px of {w.sizeHint().width()}")
        elif isinstance(w, QComboBox) and w.currentText():
            option = QStyleOptionComboBox()
            w.initStyleOption(option)
            field = w.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                             QStyle.SubControl.SC_ComboBoxEditField, w)
            if not whole or fm.horizontalAdvance(w.currentText()) > field.width():
                cut.append(f"box {w.currentText()!r}: {field.width()} px")
        elif isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal:
            margin = w.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin)
            mark = (w.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize) + margin
                    if w.isSortIndicatorShown() else 0)
            model = w.model()
            for section in range(w.count()):
                if w.isSectionHidden(section):
                    continue
                text = str(model.headerData(section, Qt.Orientation.Horizontal))
                need = fm.horizontalAdvance(text) + 2 * margin + mark
                if need > w.sectionSize(section):
                    cut.append(f"header {text!r}: {w.sectionSize(section)} px of {need}")
        elif isinstance(w, QTabBar):
            for tab in range(w.count()):
                if not w.rect().contains(w.tabRect(tab)):
                    cut.append(f"tab {w.tabText(tab)!r} out of its bar")
    return cut


@pytest.fixture
def ran(qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> Iterator[MainWindow]:
    """A window on an archive whose demo links have run (tasks of every kind, a failure),
    showing a long run's counts."""
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    window.run_bar.display(BUSY)
    window.select_task(window.model.task_at(0).id)
    window.show()
    qtbot.waitExposed(window, timeout=PATIENCE_MS)
    yield window


def _fits(qtbot: QtBot, window: MainWindow) -> None:
    for width, height in SIZES:
        window.resize(width, height)
        qtbot.waitUntil(lambda: window.table.width() < window.width(), timeout=PATIENCE_MS)
        assert (window.width(), window.height()) == (width, height), (
            f"the window cannot be {width}×{height}: it needs"
            f" {window.minimumSizeHint().width()}×{window.minimumSizeHint().height()}")
        assert cut_words(window) == [], f"at {width}×{height}"


def test_nothing_is_cut_in_english(qtbot: QtBot, ran: MainWindow) -> None:
    _fits(qtbot, ran)


def test_nothing_is_cut_in_chinese(chinese: None, qtbot: QtBot,  # noqa: F811
                                   ran: MainWindow) -> None:
    _fits(qtbot, ran)


def test_the_table_has_most_of_the_height_and_the_tabs_fold_away(
        qtbot: QtBot, open_window: OpenWindow, prefs: QSettings) -> None:
    window = open_window()
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window, timeout=PATIENCE_MS)
    table, tabs = window.right_splitter.sizes()
    assert table >= 0.6 * (table + tabs) and tabs > 0
    assert window.bottom_tabs_action.isChecked()
    assert not window.bottom_tabs_action.shortcut().isEmpty()

    window.bottom_tabs_action.trigger()  # View → Bottom tabs: folded
    assert window.right_splitter.sizes()[1] == 0 and window.tabs.height() == 0
    assert not window.bottom_tabs_action.isChecked()
    window.close()

    again = open_window()  # as the person left it
    again.resize(1024, 700)
    again.show()
    qtbot.waitExposed(again, timeout=PATIENCE_MS)
    assert again.right_splitter.sizes()[1] == 0 and not again.bottom_tabs_action.isChecked()
    again.show_search()  # Ctrl+F opens them on the Search tab
    assert again.right_splitter.sizes()[1] > 0 and again.tabs.height() > 0
    assert again.tabs.currentWidget() is again.search_panel
    assert again.bottom_tabs_action.isChecked()
    again.bottom_tabs_action.trigger()
    again.bottom_tabs_action.trigger()  # opened again at the height it had
    assert again.right_splitter.sizes()[1] > 0


def test_help_lists_every_shortcut_from_the_actions(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    window.shortcuts_action.trigger()
    dialog = window.shortcuts_dialog
    try:
        listed = [(dialog.list.topLevelItem(i).text(0), dialog.list.topLevelItem(i).text(1))
                  for i in range(dialog.list.topLevelItemCount())]
        native = QKeySequence.SequenceFormat.NativeText
        defined = {(_plain(a.text()), k.toString(native)) for a in window.findChildren(QAction)
                   for k in a.shortcuts() if a.text()}
        assert len(defined) >= 10
        for name, keys in defined:  # every one, whatever menu or widget holds it
            assert any(n == name and keys in k.split(", ") for n, k in listed), (name, keys)
        assert ("Run", "Ctrl+R") in listed
        assert any(n == "Add the pasted links" and "Ctrl+Return" in k for n, k in listed)
    finally:
        dialog.close()
    # a shortcut added later is listed without anyone writing it down
    extra = QAction("Something new", window)
    extra.setShortcut(QKeySequence("Ctrl+Shift+9"))
    window.addAction(extra)
    window.shortcuts_action.trigger()
    try:
        rows = window.shortcuts_dialog.list.findItems("Something new", Qt.MatchFlag.MatchExactly)
        assert rows and rows[0].text(1) == QKeySequence("Ctrl+Shift+9").toString(
            QKeySequence.SequenceFormat.NativeText)
    finally:
        window.shortcuts_dialog.close()
    assert window.about_action.text()  # Help → About is there too
    # a bare QShortcut would not be listed: the window's shortcuts are actions
    assert window.findChildren(QShortcut) == []


def test_the_shortcuts_read_in_chinese(chinese: None, open_window: OpenWindow) -> None:  # noqa: F811
    window = open_window()
    window.shortcuts_action.trigger()
    dialog = window.shortcuts_dialog
    try:
        names = [dialog.list.topLevelItem(i).text(0)
                 for i in range(dialog.list.topLevelItemCount())]
        keys = [dialog.list.topLevelItem(i).text(1)
                for i in range(dialog.list.topLevelItemCount())]
        assert dialog.windowTitle() != "Keyboard shortcuts"
        assert "运行" in names and not any("&" in n or "(" in n for n in names)
        assert all(len(k.split(", ")) == len(set(k.split(", "))) for k in keys)
    finally:
        dialog.close()


def test_ctrl_return_in_the_paste_box_adds(qtbot: QtBot, open_window: OpenWindow,
                                           demo_site: DemoSite) -> None:
    window = open_window()
    window.show()
    qtbot.waitExposed(window, timeout=PATIENCE_MS)
    window.activateWindow()
    window.intake.paste.setPlainText(demo_site.paste_text())
    window.intake.paste.setFocus()
    qtbot.waitUntil(window.intake.paste.hasFocus, timeout=PATIENCE_MS)
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        qtbot.keyClick(window.intake.paste, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier)


def test_columns_saved_narrower_than_their_header_are_widened(qtbot: QtBot,
                                                               open_window: OpenWindow) -> None:
    """Widths a window saved before (the old default cut "Characters") come back wide enough
    for the header's words."""
    from gui.task_model import COLUMNS

    window = open_window()
    chars = COLUMNS.index("chars")
    window.table.setColumnWidth(chars, 40)
    window.close()
    again = open_window()
    again.show()
    qtbot.waitExposed(again, timeout=PATIENCE_MS)
    header = again.table.horizontalHeader()
    assert header.sectionSize(chars) >= header.sectionSizeHint(chars) > 40
    assert [c for c in cut_words(again.table) if c.startswith("header")] == []
