"""The books an archive's builds made: each openable, and flagged when it is out of date."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.when_shown import WhenShown
from gui.worker import Jobs
from pipeline.usecases.books import Book
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace


class BooksView(QWidget):
    """``Workspace.books()`` as a list: file, articles, when built, up to date or why not."""

    refreshed = Signal()
    open_requested = Signal(Path)  # a book to open (the window decides with what)

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._workspace = workspace
        self._jobs = jobs
        self.books: list[Book] = []
        self._when_shown = WhenShown(self, self.refresh)
        self.list = QTreeWidget()
        self.list.setRootIsDecorated(False)
        self.list.setHeaderLabels([self.tr("Book"), self.tr("Articles"), self.tr("Built"),
                                   self.tr("State")])
        self.list.itemActivated.connect(lambda item, _col: self.open_item(item))
        self.status = QLabel()
        self.open_button = QPushButton(self.tr("Open"))
        self.open_button.clicked.connect(self.open_selected)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        self.setEnabled(workspace is not None)

    def set_workspace(self, workspace: Workspace | None) -> None:
        self._workspace = workspace
        self.setEnabled(workspace is not None)
        self._when_shown.request()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): a book bound is read at once; a change
        to the tasks (which may put a book out of date) now if the tab is shown, else when
        it is — reading the books compares their articles, not a thing to do per edit."""
        if Changed.BOOKS in change:
            self.refresh()
        elif Changed.TASKS in change:
            self._when_shown.request()

    def refresh(self) -> None:
        workspace = self._workspace
        if workspace is None:
            self._show([])
            return
        self._jobs.start(workspace.books, self._show)

    def state(self, book: Book) -> str:
        """"up to date", or what changed since the book was bound, in the window's words."""
        if not book.out_of_date:
            return self.tr("up to date")
        if not book.built_at:
            return self.tr("out of date: built before books were dated")
        said = [text.replace("%1", str(n)) for n, text in (
            (book.added, self.tr("%1 added")), (book.gone, self.tr("%1 gone")),
            (book.cleaned_again, self.tr("%1 cleaned again")),
            (book.retitled, self.tr("%1 retitled"))) if n]
        return self.tr("out of date: %1 since").replace("%1", ", ".join(said))

    def _show(self, books: list[Book]) -> None:
        self.books = books
        self.list.clear()
        stale = 0
        for book in books:
            for path in book.files:
                item = QTreeWidgetItem([path.name, str(book.articles), book.built_at[:16],
                                        self.state(book)])
                item.setData(0, 256, str(path))
                if book.out_of_date:
                    item.setForeground(3, QBrush(QColor("#c62828")))
                self.list.addTopLevelItem(item)
            stale += book.out_of_date
        for column in range(4):
            self.list.resizeColumnToContents(column)
        self.status.setText(self.tr("%n books, %1 out of date", "", len(books)).replace(
            "%1", str(stale)) if books
            else self.tr("No books yet: Build EPUB binds them."))
        self.open_button.setEnabled(bool(books))
        self.refreshed.emit()

    def open_item(self, item: QTreeWidgetItem | None) -> None:
        if item is not None:
            self.open_requested.emit(Path(item.data(0, 256)))

    def open_selected(self) -> None:
        self.open_item(self.list.currentItem() or self.list.topLevelItem(0))
