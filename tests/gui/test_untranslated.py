"""Issue 28 §9: nothing the Chinese window shows is English.

The window is opened in Chinese on an archive with tasks, a failed one, a report, a book and
one in the trash; each tab is opened, and each dialog reachable without the network, and every
text a person reads there is collected — labels, buttons, menus and their actions, tab titles,
headers, tooltips, placeholders, window titles, list items of choices, the report page — and a
text with Latin words and no Chinese fails, unless what is left of it is in ``ALLOWED``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QFileDialog,
    QFileSystemModel,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QTableView,
    QTabWidget,
    QTextEdit,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gui.main_window.task_actions import CategoryDialog
from gui.main_window.window import MainWindow
from gui.settings_dialog import SettingsDialog
from pipeline.demo_site.server import DemoSite
from pipeline.records.settings import Settings
from pipeline.rules.model import RULE_SPECS
from tests.gui.conftest import OpenWindow, add_demo_links, build_everything, look_at, run_to_end
from tests.waiting import PATIENCE_MS

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# What may stay Latin in a Chinese window, and why:
NOT_WORDS = re.compile(
    r"https?://\S+"  # addresses a person pasted or a page has
    r"|(?:[\w.-]+/)*[\w-]+\.(?:html|json|yaml|csv|log|txt|epub|css|ini)\b"  # file names
    r"|/[\w./-]+"  # paths
    r"|<[^>]+>|&\w+;"  # markup of rich text
    r"|%\d")  # a placeholder filled with a number or a name
ALLOWED = {
    "Kuaibu",  # the app's name
    "EPUB", "CSS", "HTML", "HTTP", "URL", "ID", "PDF", "JPEG", "YAML", "JavaScript",  # formats,
    "Chromium", "Playwright", "Cookie",  # protocols and programs: their own names
    "Ctrl", "Enter", "Shift", "Del", "Delete", "Esc",  # key names as the keyboard says them
    "English",  # the language choice, in its own language
    "xx", "px", "ms", "MB", "KB",  # units ("HTTP 4xx", "1600 px")
}
# what a person types into the rules file, shown as typed: the keys' examples and choices
# (CSS selectors, encodings, header syntax) and the section for every site, "default"
AS_TYPED = {"default", *(spec.example for spec in RULE_SPECS.values()),
            *(choice for spec in RULE_SPECS.values() for choice in spec.choices)}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_in(text: str) -> list[str]:
    """The Latin words of a text that has no Chinese, beyond what may stay Latin."""
    if CJK.search(text) or text in AS_TYPED:
        return []
    return [w for w in LATIN_WORD.findall(NOT_WORDS.sub(" ", text)) if w not in ALLOWED]


def texts_of(top: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text a person reads in ``top`` and its children."""
    for widget in [top, *top.findChildren(QWidget)]:
        name = f"{type(top).__name__}/{type(widget).__name__}:{widget.objectName()}"
        yield name + " title", widget.windowTitle() if widget.isWindow() else ""
        yield name + " tooltip", widget.toolTip()
        if isinstance(widget, (QLabel, QAbstractButton)):
            yield name, widget.text()
        if isinstance(widget, QLineEdit):
            yield name + " placeholder", widget.placeholderText()
        if isinstance(widget, (QPlainTextEdit, QTextEdit)):
            yield name + " placeholder", widget.placeholderText()
        if isinstance(widget, QGroupBox):
            yield name, widget.title()
        if isinstance(widget, QComboBox):
            for i in range(widget.count()):
                yield name + " item", widget.itemText(i)
        if isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                yield name + " tab", widget.tabText(i)
                yield name + " tab tooltip", widget.tabToolTip(i)
        if isinstance(widget, (QTableView, QTreeView)) and widget.model() is not None:
            model = widget.model()
            header = widget.header() if isinstance(widget, QTreeView) else (
                widget.horizontalHeader())
            for column in range(header.count()):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    said = model.headerData(column, Qt.Orientation.Horizontal, role)
                    yield name + " header", said if isinstance(said, str) else ""
            if not isinstance(model, QFileSystemModel):  # files' names, sizes and MIME types
                # (the system's database, in the system's language) are the disk's, not words
                yield from ((name + " cell", text) for text in cells(model, QModelIndex()))
        for action in widget.actions():
            yield from actions_of(action, name)


def cells(model: QAbstractItemModel, parent: QModelIndex, rows: int = 60) -> Iterator[str]:
    """The texts of a view's rows (and their children), the first ``rows`` of each level."""
    for row in range(min(model.rowCount(parent), rows)):
        for column in range(model.columnCount(parent)):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                said = index.data(role)
                if isinstance(said, str):
                    yield said
        yield from cells(model, model.index(row, 0, parent), rows)


def actions_of(action: QAction, where: str) -> Iterator[tuple[str, str]]:
    yield f"{where} action", action.text()
    yield f"{where} action tooltip", action.toolTip() if action.toolTip() != action.text(
        ).replace("&", "") else ""
    menu = action.menu()
    if isinstance(menu, QMenu):
        yield f"{where} menu", menu.title()
        for inner in menu.actions():
            yield from actions_of(inner, f"{where}/{menu.title()}")


def untranslated(*tops: QWidget, data: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """What the windows ``tops`` say in English; ``data`` are texts of the archive itself
    (articles' titles), which are in their own language."""
    found = []
    for top in tops:
        for where, text in texts_of(top):
            if any(d in text for d in data):
                continue
            if text and (words := english_in(text)):
                found.append(f"{where}: {text!r} ({' '.join(words)})")
    return sorted(set(found))


def report_lines(window: MainWindow, titles: set[str]) -> list[str]:
    """The report page's lines that are English (an article's own title left aside)."""
    lines = window.report_view.page.toPlainText().splitlines()
    return [line for line in lines if english_in(re.sub(r"#\d+ ", "", line))
            and not any(t in line for t in titles)]


def _chinese_window(qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite,
                    tmp_path: Path) -> tuple[MainWindow, set[str]]:
    """The window on an archive with tasks, a failure, a report, a book and a task in the
    trash; and the articles' titles (the archive's own words, in their own language)."""
    window = open_window(tmp_path / "书库")  # the archive's name shows (the book's title)
    add_demo_links(qtbot, window, demo_site)
    with qtbot.waitSignal(window.report_view.written, timeout=PATIENCE_MS):
        run_to_end(qtbot, window)
    assert any(t.status == "failed" for t in window.model.tasks())
    build_everything(qtbot, window)
    titles = {t.display_title for t in window.model.tasks()}
    done = [t.id for t in window.model.tasks() if t.status != "failed"]
    window.remove_tasks(done[-1:])
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == done[-1:], timeout=PATIENCE_MS)
    return window, titles


def test_nothing_the_chinese_window_shows_is_english(
        chinese: None, qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite,
        tmp_path: Path) -> None:
    window, titles = _chinese_window(qtbot, open_window, demo_site, tmp_path)
    failed = next(t for t in window.model.tasks() if t.status == "failed")
    window.select_task(failed.id)
    window.context_menu()
    seen: list[str] = []
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        window.jobs.wait(PATIENCE_MS)  # a view fills itself when shown, in a job
        QApplication.processEvents()
        seen += untranslated(window, data=titles)
        seen += [f"status bar: {said}" for said in [window.statusBar().currentMessage()]
                 if english_in(said)]
    seen += report_lines(window, titles)
    window.show_rules_editor()
    assert window.rules_editor is not None
    window.show_harvest()
    assert window.harvest_dialog is not None
    dialogs: list[QWidget] = [window.rules_editor, window.harvest_dialog,
                              SettingsDialog(window.prefs, Settings(), window.archive.root
                                             if window.archive else None),
                              CategoryDialog([], window)]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
    seen += untranslated(*dialogs, window.context_menu(), data=titles)
    assert seen == [], "\n".join(seen)
    read = {text for top in (window, *dialogs) for _, text in texts_of(top) if CJK.search(text)}
    assert len(read) > 200, "the walk reads what the window shows"
    page = window.report_view.page.toPlainText()
    assert "运行报告" in page and "重试失败" in page, page


def test_qts_own_dialogs_speak_chinese(chinese: None, qtbot: QtBot, tmp_path: Path) -> None:
    """Qt's file dialog and standard buttons, from qtbase_zh_CN.qm and Kuaibu's gaps."""
    folder = tmp_path / "书库"
    (folder / "文章").mkdir(parents=True)
    (folder / "笔记.txt").write_text("", encoding="utf-8")
    files = QFileDialog(None, "x", str(folder))
    files.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(files)
    files.show()
    view = files.findChild(QTreeView, "treeView")
    qtbot.waitUntil(lambda: view.model().rowCount(view.rootIndex()) == 2, timeout=PATIENCE_MS)
    labels = {label.objectName(): label.text() for label in files.findChildren(QLabel)}
    assert labels["lookInLabel"] == "查找范围(&L)：", labels
    assert labels["fileTypeLabel"] == "文件类型(&T)：", labels
    assert untranslated(files) == []
    model = view.model()
    assert isinstance(model, QFileSystemModel)
    assert model.index(str(folder / "文章")).siblingAtColumn(2).data() == "文件夹"
    box = QMessageBox(QMessageBox.Icon.Question, "?", "?",
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    qtbot.addWidget(box)
    assert [b.text() for b in box.buttons()] == ["是(&Y)", "否(&N)"]
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    assert buttons.buttons()[0].text() == "取消"
    QTimer.singleShot(0, box.close)  # never left open
