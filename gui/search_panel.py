"""Full-text search of the archive's articles (``Workspace.search``): a field and the hits,
best first, each with its title and a snippet whose matches are highlighted.

The search runs in a job, started a moment after the person stops typing; each search has a
generation, and an answer for an older one than the field now asks is dropped. The results
are one list model painted by a delegate (rich text per row), not a widget per hit.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from gui.when_shown import WhenShown
from gui.worker import Jobs, Latest
from pipeline.records.bounds import SEARCH_QUERY_CHARS
from pipeline.store.search import MARK, Hit
from pipeline.usecases.base import NoSuchTask
from pipeline.usecases.workspace import Workspace

DEBOUNCE_MS = 250  # after the last keystroke: a search per word typed, not per character
LIMIT = 50
# the matches: dark text on yellow, readable on any theme's background and in a selected row
MATCH_STYLE = "background-color:#ffe082; color:#000000; font-weight:bold"

_MARKED = re.compile(f"{re.escape(MARK[0])}([^{re.escape(MARK[0] + MARK[1])}]+)"
                     f"{re.escape(MARK[1])}")

HitRole = Qt.ItemDataRole.UserRole + 1  # the Hit
HtmlRole = Qt.ItemDataRole.UserRole + 2  # the row as rich text
Index = QModelIndex | QPersistentModelIndex


def snippet_html(snippet: str, query: str) -> str:
    """A snippet as escaped HTML with its marked matches highlighted. The markers are plain
    brackets, which an article's own text may hold too ("[1]"): a bracketed piece counts as
    a match only when the query holds it."""
    wanted = query.casefold()
    out, last = [], 0
    for m in _MARKED.finditer(snippet):
        if m.group(1).casefold() not in wanted:
            continue
        out.append(html.escape(snippet[last:m.start()]))
        out.append(f'<span style="{MATCH_STYLE}">{html.escape(m.group(1))}</span>')
        last = m.end()
    out.append(html.escape(snippet[last:]))
    return "".join(out)


def snippet_text(snippet: str, query: str) -> str:
    """The snippet as plain text, markers taken out (for the accessible text and copying)."""
    wanted = query.casefold()
    return _MARKED.sub(lambda m: m.group(1) if m.group(1).casefold() in wanted else m.group(0),
                       snippet)


@dataclass(frozen=True)
class Found:
    """One hit as the list shows it: the task's title as the table shows it."""

    hit: Hit
    title: str


class SearchResults(QAbstractListModel):
    """The hits of one search, in the order the index ranked them."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._found: list[Found] = []
        self._query = ""

    def set_results(self, query: str, found: list[Found]) -> None:
        self.beginResetModel()
        self._query, self._found = query, list(found)
        self.endResetModel()

    def clear(self) -> None:
        self.set_results("", [])

    @property
    def query(self) -> str:
        """The query these hits answer."""
        return self._query

    def task_id(self, row: int) -> int:
        return self._found[row].hit.task_id

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._found)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._found):
            return None
        found = self._found[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{found.title}\n{snippet_text(found.hit.snippet, self._query)}"
        if role == HtmlRole:
            return (f"<b>{html.escape(found.title)}</b><br>"
                    f"{snippet_html(found.hit.snippet, self._query)}")
        if role == HitRole:
            return found.hit
        if role == Qt.ItemDataRole.ToolTipRole:
            return found.title
        return None


class HitDelegate(QStyledItemDelegate):
    """Paints a row's rich text (``HtmlRole``) over the style's item background, wrapped to
    the view's width."""

    MARGIN = 4

    def _document(self, option: QStyleOptionViewItem, index: Index, width: int) -> QTextDocument:
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setHtml(str(index.data(HtmlRole) or ""))
        document.setTextWidth(max(width - 2 * self.MARGIN, 50))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        rect = item.rect
        document = self._document(item, index, rect.width())
        item.text = ""
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        palette = QPalette(item.palette)
        palette.setColor(QPalette.ColorRole.Text, item.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = palette  # a copy comes back from the getter: set it whole
        painter.save()
        painter.translate(rect.left() + self.MARGIN, rect.top() + self.MARGIN)
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        view = self.parent()
        width = (view.viewport().width() if isinstance(view, QListView)
                 else option.rect.width())
        document = self._document(option, index, width)
        return QSize(width, int(document.size().height()) + 2 * self.MARGIN)


class SearchPanel(QWidget):
    """Search the archive's articles; Enter or a double-click on a hit chooses its task."""

    task_chosen = Signal(int)  # the task id of an activated hit
    searched = Signal(str, int)  # a query and how many hits are shown for it

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        self.limit = LIMIT
        self._searches = Latest(jobs)
        # an archive opened searches when the tab can be seen (the query asked of the new one)
        self._when_shown = WhenShown(self, self.search_now)

        self.field = QLineEdit()
        self.field.setMaxLength(SEARCH_QUERY_CHARS)  # the longest query a search takes
        self.field.setPlaceholderText(self.tr("Search the articles…"))
        self.field.setClearButtonEnabled(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.model = SearchResults(self)
        self.results = QListView()
        self.results.setModel(self.model)
        self.results.setItemDelegate(HitDelegate(self.results))
        self.results.setWordWrap(True)
        self.results.setResizeMode(QListView.ResizeMode.Adjust)
        self.results.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.results.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.field)
        layout.addWidget(self.status)
        layout.addWidget(self.results, 1)

        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(DEBOUNCE_MS)
        self.debounce.timeout.connect(self.search_now)
        self.field.textChanged.connect(self._typed)
        self.field.returnPressed.connect(self._entered)
        # activated: Enter on a row, or a double-click (a single click where the style says so)
        self.results.activated.connect(self._activated)
        self.setEnabled(workspace is not None)

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Another archive: its answers only (one still coming for the old one is dropped,
        and the old one's shown no more); the query asked of it when the tab is shown."""
        self.workspace = workspace
        self.setEnabled(workspace is not None)
        self._searches.drop()
        self.model.clear()
        self.status.clear()
        self._when_shown.request()

    def focus_search(self) -> None:
        """Ctrl+F: the field, its text selected for typing over."""
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def _typed(self, _text: str) -> None:
        self.debounce.start()

    def _entered(self) -> None:
        """Enter in the field: search at once; pressed again on the same answer, go to it."""
        if (self.debounce.isActive() or self.model.rowCount() == 0
                or self.model.query != self.field.text().strip()):
            self.search_now()
        else:
            self.results.setFocus(Qt.FocusReason.OtherFocusReason)
            if not self.results.currentIndex().isValid():
                self.results.setCurrentIndex(self.model.index(0))

    def search_now(self) -> None:
        """Search for what the field holds now (the debounce's end, Enter)."""
        self.debounce.stop()
        query, workspace = self.field.text().strip(), self.workspace
        if not query or workspace is None:
            self._searches.drop()
            self.model.clear()
            self.status.clear()
            return
        limit = self.limit

        def search() -> tuple[str, list[Found]]:
            found = []
            for hit in workspace.search(query, limit):
                try:
                    title = workspace.task(hit.task_id).display_title
                except NoSuchTask:  # gone from the list since the index answered
                    continue
                found.append(Found(hit, title))
            return query, found

        self.status.setText(self.tr("Searching…"))
        self._searches.start(search, self._found, self._failed)  # the newest question wins

    def _found(self, answer: tuple[str, list[Found]]) -> None:
        query, found = answer
        self.model.set_results(query, found)
        if found:
            self.status.setText(self.tr("%n articles found", "", len(found)))
            self.results.setCurrentIndex(self.model.index(0))
        else:
            self.status.setText(self.tr("No article holds “%1”.").replace("%1", query))
        self.searched.emit(query, len(found))

    def _failed(self, message: str) -> None:
        self.model.clear()
        self.status.setText(self.tr("Search failed: %1").replace("%1", message))

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.task_chosen.emit(self.model.task_id(index.row()))

