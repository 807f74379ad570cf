"""The paste area and its category fields: where links come in, and the report of what came."""

from __future__ import annotations

import re

from PySide6.QtCore import (
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QSettings,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence, QPalette, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from gui.drops import Drop, bookmarks_export, fill, read_drop
from gui.paste_draft import PasteDraftKeeper
from gui.reasons import translate_failure
from pipeline.intake.links import IntakeReport
from pipeline.web.urls import find_links

TaskIdRole = Qt.ItemDataRole.UserRole + 1
REPORT_ROWS = 6  # the report list's height in rows; more scroll
_LINK_SEPARATORS = re.compile(r"[/?&=#._-]+")


class _BreakableLinks(QStyledItemDelegate):
    """The report's rows wrapped inside links too: a link has no space to wrap at, so its
    last line was cut ("…&from=t…"). A zero-width space after each of a link's separators,
    in what is drawn and measured alone; the item's text stays the report's."""

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.text = _LINK_SEPARATORS.sub("\\g<0>\u200b", option.text)


class PasteArea(QPlainTextEdit):
    """Takes pasted or dropped text, links dragged from a browser and files of links
    (read by ``gui.drops.read_drop``); Ctrl+Enter asks for the links to be added."""

    submitted = Signal()  # Ctrl+Enter / Ctrl+Return
    drop_read = Signal(object)  # Drop: files or links came in; its bookmarks and refusals

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # an action, so Help → Keyboard shortcuts finds it with the window's others
        self.submit_action = QAction(self.tr("Add the pasted links"), self)
        self.submit_action.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.submit_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.submit_action.triggered.connect(self.submitted)
        self.addAction(self.submit_action)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasUrls() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        if not source.hasUrls():
            super().insertFromMimeData(source)
            return
        drop = read_drop(source)
        if drop.text:
            self.insertPlainText(drop.text + "\n")
        self.drop_read.emit(drop)


class IntakePanel(QGroupBox):
    """Paste area, categories (remembered, completed from the task list), Add, the report:
    what was added, each duplicate (click: its task) and each rejected link with its reason;
    the rejected lines stay in the box to be fixed. What the box holds is the open archive's
    draft (``draft``): nothing pasted is lost to a restart or a crash."""

    added = Signal(list)  # ids of the tasks just added (after show_report), never empty
    duplicate_chosen = Signal(int)  # the task a clicked duplicate is a duplicate of

    def __init__(self, prefs: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Add links"))
        self._prefs = prefs
        # each dropped bookmark's folders (outermost first), offered as its categories
        self._filed: dict[str, tuple[str, ...]] = {}
        self._folders: list[str] = []
        self.paste = PasteArea()
        self.paste.setPlaceholderText(self.tr(
            "Paste or drop links here: chat messages, Markdown, a .txt file, a bookmarks export…"))
        self.paste.setToolTip(self.tr("Ctrl+Enter adds the links. What is here is kept until"
                                      " it is added, across restarts."))
        self.draft = PasteDraftKeeper(self.paste, self)
        self.cat1 = QComboBox()
        self.cat2 = QComboBox()
        for box, key in ((self.cat1, "intake/cat1"), (self.cat2, "intake/cat2")):
            box.setEditable(True)
            box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            box.setCurrentText(str(prefs.value(key, "")))
        self.by_folders = QCheckBox()
        self.by_folders.setVisible(False)
        self.add_button = QPushButton(self.tr("Add links"))
        self.add_button.setDefault(True)
        self.report = QLabel()  # the summary line
        self.report.setWordWrap(True)
        self.report.setTextFormat(Qt.TextFormat.PlainText)
        # each line wrapped to the panel's width: a link and its reason read whole, with no
        # sideways scrolling in a narrow panel (issue 28)
        self.report_list = QListWidget()
        self.report_list.setWordWrap(True)
        self.report_list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.report_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.report_list.setItemDelegate(_BreakableLinks(self.report_list))
        self.report_list.setMaximumHeight(
            self.report_list.fontMetrics().height() * (REPORT_ROWS + 1))
        self.report_list.setVisible(False)
        form = QFormLayout(self)
        form.addRow(self.paste)
        form.addRow(self.tr("Category"), self.cat1)
        form.addRow(self.tr("Subcategory"), self.cat2)
        form.addRow(self.by_folders)
        form.addRow(self.add_button)
        form.addRow(self.report)
        form.addRow(self.report_list)

        self.paste.submitted.connect(self.add_button.click)  # disabled: nothing happens
        self.paste.drop_read.connect(self._note_drop)
        self.paste.textChanged.connect(self._forget_bookmarks_when_empty)
        self.report_list.itemClicked.connect(self._choose)
        self.report_list.itemActivated.connect(self._choose)

    # -- what Add sends ---------------------------------------------------------------------

    def categories(self) -> tuple[str, str]:
        """The categories typed, remembered for next time."""
        cat1, cat2 = self.cat1.currentText().strip(), self.cat2.currentText().strip()
        self._prefs.setValue("intake/cat1", cat1)
        self._prefs.setValue("intake/cat2", cat2)
        return cat1, cat2

    def folders_as_categories(self) -> bool:
        """Whether the dropped bookmarks are to be filed by their folders."""
        return bool(self._folders) and self.by_folders.isChecked()

    def text_to_add(self) -> str:
        """The text for ``Workspace.add_links``: the box as it is, or, filing by folders, the
        box's links as a bookmarks export with each dropped bookmark in its folder (a link
        typed or pasted beside them is a loose bookmark: it gets the categories typed)."""
        text = self.paste.toPlainText()
        if not self.folders_as_categories():
            return text
        return bookmarks_export([(link, self._filed.get(link, ())) for link in find_links(text)])

    def set_known_categories(self, categories: list[str]) -> None:
        """The choices both fields complete from, keeping what is typed."""
        for box in (self.cat1, self.cat2):
            text = box.currentText()
            box.blockSignals(True)
            box.clear()
            box.addItems(categories)
            box.setCurrentText(text)
            box.blockSignals(False)

    # -- drops ------------------------------------------------------------------------------

    def take_drop(self, drop: Drop) -> None:
        """A drop on the window: its text at the end of the box, its bookmarks' folders
        offered, what could not be used said in the report."""
        if drop.text:
            cursor = self.paste.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            before = self.paste.toPlainText()
            cursor.insertText(("\n" if before and not before.endswith("\n") else "")
                              + drop.text + "\n")
            self.paste.setTextCursor(cursor)
            self.paste.ensureCursorVisible()
            self.paste.setFocus()
        self._note_drop(drop)

    def _note_drop(self, drop: Drop) -> None:
        if drop.bookmarks:
            for link, path in drop.filed.items():
                self._filed.setdefault(link, path)
            self._folders += [f for f in drop.folders if f not in self._folders]
            self._offer_folders()
        if drop.refused:
            self.report.setText(self.tr("Not used from the drop:"))
            self._fill_report([(line, None) for line in drop.refused])

    def _offer_folders(self) -> None:
        if not self._folders:
            return
        self.by_folders.setText(self.tr("File by the bookmarks' folders (%n folders)", "",
                                        len(self._folders)))
        self.by_folders.setToolTip(
            self.tr("Each bookmark gets its folder as category (the outermost) and subcategory"
                    " (the ones inside it); links outside any folder get the categories above.")
            + "\n\n" + "\n".join(self._folders))
        self.by_folders.setVisible(True)

    def _forget_bookmarks(self) -> None:
        self._filed.clear()
        self._folders.clear()
        self.by_folders.setChecked(False)
        self.by_folders.setVisible(False)

    def _forget_bookmarks_when_empty(self) -> None:
        if self._folders and self.paste.document().isEmpty():
            self._forget_bookmarks()

    # -- the report -------------------------------------------------------------------------

    def show_report(self, report: IntakeReport) -> list[str]:
        """"Added N · duplicates M · rejected K", then each duplicate (click: the task it
        duplicates) and each rejected link with its reason. The box keeps only the lines with
        a rejected link, to be fixed; ``added`` gives the new tasks' ids. Returns the detail
        lines for the log."""
        self.report.setText(fill(self.tr("Added %1 · duplicates %2 · rejected %3"),
                                 str(len(report.added)), str(len(report.duplicates)),
                                 str(len(report.rejected))))
        rows: list[tuple[str, int | None]] = [
            (fill(self.tr("Duplicate of #%1: %2"), str(task_id), link), task_id)
            for link, task_id in report.duplicates]
        rows += [(fill(self.tr("Rejected %1: %2"), link, translate_failure(reason)), None)
                 for link, reason in report.rejected]
        self._fill_report(rows)
        self.paste.setPlainText(rejected_lines(self.paste.toPlainText(),
                                               [link for link, _ in report.rejected]))
        self._forget_bookmarks()
        if report.added:
            self.added.emit([task.id for task in report.added])
        return [text for text, _ in rows]

    def _fill_report(self, rows: list[tuple[str, int | None]]) -> None:
        self.report_list.clear()
        link_color = self.palette().color(QPalette.ColorRole.Link)
        for text, task_id in rows:
            item = QListWidgetItem(text)
            if task_id is None:
                item.setToolTip(text)
            else:
                item.setData(TaskIdRole, task_id)
                item.setForeground(link_color)
                font = item.font()
                font.setUnderline(True)
                item.setFont(font)
                item.setToolTip(text + "\n" + self.tr("Click to select task #%1 in the list")
                                .replace("%1", str(task_id)))
            self.report_list.addItem(item)
        self.report_list.setVisible(bool(rows))

    def _choose(self, item: QListWidgetItem) -> None:
        task_id = item.data(TaskIdRole)
        if task_id is not None:
            self.duplicate_chosen.emit(int(task_id))


def rejected_lines(text: str, rejected: list[str]) -> str:
    """The lines of ``text`` that hold a rejected link, in order (a link found in no line,
    as in markup that spelled it with entities, is given as it was read)."""
    wanted = set(rejected)
    if not wanted:
        return ""
    lines = text.splitlines()
    keep: set[int] = set()
    for n, line in enumerate(lines):
        found = wanted.intersection(find_links(line))
        if found:
            keep.add(n)
            wanted -= found
    for link in sorted(wanted):  # a link that spans lines or was found only in the whole text
        hits = {n for n, line in enumerate(lines) if link in line}
        keep |= hits
        if not hits:
            lines.append(link)
            keep.add(len(lines) - 1)
    return "".join(lines[n] + "\n" for n in sorted(keep))
