"""The window's own book reader: the book's contents on the left, the chapter on the right as
the book sets it (its stylesheet, as far as Qt's rich text follows CSS; its pictures), Previous
and Next through the reading order.

The book is read through the use cases (``pipeline.usecases.reading``); each chapter, picture
and stylesheet is taken from the zip when Qt asks for it, on the window's thread: Qt asks
for a picture while it lays the page out and takes the answer there and then, and each read is
bounded (``ReadingLimits``). A book that cannot be read shows one line saying why.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt, QUrl, Signal
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.reasons import translate_failure, translate_reason
from pipeline.usecases.reading import (
    BookContents,
    BookUnreadable,
    book_chapter,
    book_contents,
    book_file,
)

SCHEME = "epub"  # a chapter's address: epub:/<its name in the zip>, so its links resolve in it
PLACE_ROLE = Qt.ItemDataRole.UserRole + 1  # a contents entry's (chapter, fragment)


def part_url(part: str) -> QUrl:
    url = QUrl()
    url.setScheme(SCHEME)
    url.setPath("/" + part)
    return url


def said(error: BookUnreadable) -> str:
    """Why the book cannot be read, in the window's language."""
    return translate_failure(error.failure) if error.failure else translate_reason(str(error))


class ChapterView(QTextBrowser):
    """A chapter, its stylesheet and pictures taken from the book as Qt asks for them; a link
    inside the book is ``part_chosen``, one out of it ``link_opened``."""

    part_chosen = Signal(str, str)  # the part's name in the zip, the fragment
    link_opened = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.book: Path | None = None
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._follow)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        name = QUrl(name)
        if self.book is None or name.scheme() != SCHEME:
            return None  # nothing from the network or the disk beside the book
        try:
            data = book_file(self.book, name.path(QUrl.ComponentFormattingOption.FullyDecoded)
                             .lstrip("/"))
        except BookUnreadable:
            return None  # a missing picture is an empty box, as in any reader
        if kind == QTextDocument.ResourceType.ImageResource.value:
            image = QImage.fromData(data)
            width = self.viewport().width() - 2 * int(self.document().documentMargin()) - 8
            if not image.isNull() and width > 0 and image.width() > width:
                return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
            return image
        return QByteArray(data)

    def _follow(self, url: QUrl) -> None:
        if url.scheme() == SCHEME:
            self.part_chosen.emit(url.path(QUrl.ComponentFormattingOption.FullyDecoded)
                                  .lstrip("/"), url.fragment())
        elif url.scheme() in ("http", "https", "mailto"):
            self.link_opened.emit(url)


class BookReader(QWidget):
    """One book at a time: ``open`` it with a line saying why it is read here."""

    link_opened = Signal(QUrl)  # a link out of the book (the window opens it)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.contents: BookContents | None = None
        self.current = -1  # the chapter shown: an index into contents.spine
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.note = QLabel()  # what was tried before the book opened here
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)  # a long file name must not widen the window
        self.note.setStyleSheet("color: palette(mid)")
        self.toc = QTreeWidget()
        self.toc.setHeaderLabels([self.tr("Contents")])
        self.toc.itemActivated.connect(self._entry_chosen)
        self.toc.itemClicked.connect(self._entry_chosen)
        self.page = ChapterView()
        self.page.part_chosen.connect(self.show_part)
        self.page.link_opened.connect(self.link_opened)
        self.previous_button = QPushButton(self.tr("‹ Previous"))
        self.next_button = QPushButton(self.tr("Next ›"))
        self.previous_button.clicked.connect(lambda: self.show_chapter(self.current - 1))
        self.next_button.clicked.connect(lambda: self.show_chapter(self.current + 1))
        self.position = QLabel()
        self.splitter = QSplitter()
        self.splitter.addWidget(self.toc)
        self.splitter.addWidget(self.page)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([220, 700])
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addWidget(self.note, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.previous_button)
        bottom.addStretch(1)
        bottom.addWidget(self.position)
        bottom.addStretch(1)
        bottom.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(bottom)
        self._update_controls()

    def open(self, path: Path, note: str = "") -> bool:
        """Show the book at ``path`` where its text begins; ``note``: why it is read here.
        False (and the one line why, in place of the chapter) when it cannot be read."""
        self.path, self.contents, self.current = path, None, -1
        self.page.book = path
        self.note.setText(note)
        self.note.setToolTip(note)
        self.title.setText(path.name)
        self.toc.clear()
        try:
            self.contents = book_contents(path)
        except BookUnreadable as e:
            self._say(said(e))
            return False
        if self.contents.title:
            self.title.setText(self.contents.title)
        self._fill_toc(self.contents)
        self.show_chapter(self.contents.start)
        return True

    def show_chapter(self, index: int, fragment: str = "") -> None:
        """Chapter ``index`` of the reading order (out of range: nothing happens), at
        ``fragment`` when given."""
        contents = self.contents
        if contents is None or self.path is None or not 0 <= index < len(contents.spine):
            return
        part = contents.spine[index]
        if index != self.current:
            try:
                text = book_chapter(self.path, part)
            except BookUnreadable as e:
                self.current = index
                self._say(said(e))
                return
            self.current = index
            self.page.document().setBaseUrl(part_url(part))
            self.page.setHtml(text)
            self._mark_entry()
        if fragment:
            self.page.scrollToAnchor(fragment)
        else:
            self.page.verticalScrollBar().setValue(0)
        self._update_controls()

    def show_part(self, part: str, fragment: str = "") -> None:
        """The chapter a link names (its zip name); a file outside the reading order is not
        a chapter of this book and is left alone."""
        if self.contents is not None and part in self.contents.spine:
            self.show_chapter(self.contents.spine.index(part), fragment)

    def _say(self, line: str) -> None:
        self.page.setHtml(f"<p style='color:#c62828'>{html.escape(line)}</p>")
        self._update_controls()

    def _fill_toc(self, contents: BookContents) -> None:
        parents: list[QTreeWidgetItem] = []
        for entry in contents.toc:
            del parents[entry.depth:]
            parent = parents[-1] if parents else None
            item = (QTreeWidgetItem(parent) if parent is not None
                    else QTreeWidgetItem(self.toc))
            item.setText(0, entry.title)
            item.setToolTip(0, entry.title)
            item.setData(0, PLACE_ROLE, (entry.chapter, entry.fragment))
            parents.append(item)
        self.toc.expandAll()

    def _entry_chosen(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        place = item.data(0, PLACE_ROLE)
        if place is not None:
            self.show_chapter(*place)

    def _mark_entry(self) -> None:
        """The first contents entry of the chapter shown, selected (without following it)."""
        found = self.toc.findItems("*", Qt.MatchFlag.MatchWildcard | Qt.MatchFlag.MatchRecursive)
        item = next((i for i in found if i.data(0, PLACE_ROLE)[0] == self.current), None)
        self.toc.blockSignals(True)
        self.toc.setCurrentItem(item) if item is not None else self.toc.clearSelection()
        self.toc.blockSignals(False)

    def _update_controls(self) -> None:
        count = len(self.contents.spine) if self.contents is not None else 0
        self.previous_button.setEnabled(self.current > 0)
        self.next_button.setEnabled(0 <= self.current < count - 1)
        self.position.setText(self.tr("%1 of %2").replace("%1", str(self.current + 1))
                              .replace("%2", str(count)) if count else "")
