"""The preview pane: the article as the book will show it, beside the raw page's text.

The workspace renders the chapter with the book's own template and whitelist
(``Workspace.preview``, in a job); the pane only displays the ``Preview`` it is given, so
selecting rows never waits on the disk.
"""

from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gui.reasons import task_reason
from pipeline.records.article import Method
from pipeline.usecases.library import Preview

# Qt's rich text reads HTML; an XML declaration before it would show as text.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>\s*")


class PreviewPane(QWidget):
    """The reader: the selected article as the book shows it, with the way to its original
    and to the book it is bound in."""

    open_original = Signal(int)  # task id
    open_in_book = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel(self.tr("Select a task to see its article."))
        self.header.setWordWrap(True)
        self.original_button = QPushButton(self.tr("Open original"))
        self.book_button = QPushButton(self.tr("Open in book"))
        for button, signal in ((self.original_button, self.open_original),
                               (self.book_button, self.open_in_book)):
            button.setEnabled(False)
            button.clicked.connect(lambda _c=False, signal=signal: self._emit_for_shown(signal))
        self.book = QTextBrowser()
        self.book.setOpenLinks(False)  # links in articles are not for the preview to follow
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setPlaceholderText(self.tr("The raw page's text appears here once fetched."))
        book_box, raw_box = QWidget(), QWidget()
        raw_title = self.tr("Raw page text (what was cut is struck through)")
        for box, title, view in ((book_box, self.tr("As in the book"), self.book),
                                 (raw_box, raw_title, self.raw)):
            layout = QVBoxLayout(box)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(QLabel(f"<b>{title}</b>"))
            layout.addWidget(view)
        self.splitter = QSplitter()
        self.splitter.addWidget(book_box)
        self.splitter.addWidget(raw_box)
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.original_button)
        top.addWidget(self.book_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        self.shown: Preview | None = None

    def _emit_for_shown(self, signal: Any) -> None:
        if self.shown is not None:
            signal.emit(self.shown.task.id)

    def method_note(self, method: Method) -> str | None:
        """Why a text needs review: which retry of the extractor found it (none for the strict
        pass or a site's rules)."""
        notes = {
            Method.UNLIKELY_KEPT: self.tr("found on a retry that kept sidebars and widgets"),
            Method.CLASS_WEIGHTS_OFF: self.tr("found on a retry that ignored class names"),
            Method.CONDITIONAL_OFF: self.tr("found on a retry that kept every block"),
            Method.BASELINE: self.tr("no block stood out: every prose line of the page"),
            Method.WHOLE_PAGE: self.tr("the page's few words, all it holds"),
        }
        return notes.get(method)

    def show_data(self, data: Preview, failure: str = "") -> None:
        """Show a preview; ``failure``: why the rules being tried find no article (said in
        place of the chapter)."""
        self.shown = data
        task, article = data.task, data.article
        self.original_button.setEnabled(True)
        self.book_button.setEnabled(article is not None)
        parts = [f"#{task.id}", html.escape(task.display_title)]
        if article is not None:
            parts.append(self.tr("%n characters, confidence %1", "", article.chars)
                         .replace("%1", f"{article.confidence:.2f}"))
            if note := self.method_note(article.method):
                parts.append(html.escape(note))
        if data.note:
            parts.append(f"<i>{html.escape(data.note)}</i>")
        self.header.setText(" — ".join(parts))
        if failure:
            self.book.setHtml(f"<p style='color:#c62828'>{html.escape(failure)}</p>")
        elif data.chapter_html:
            self.book.document().setDefaultStyleSheet(data.stylesheet)
            self.book.document().setBaseUrl(QUrl.fromLocalFile(f"{data.base}/"))
            self.book.setHtml(_XML_DECLARATION.sub("", data.chapter_html))
        elif task.error:
            shown = task_reason(task)
            self.book.setHtml(f"<p style='color:#c62828'>{html.escape(shown)}</p>")
        else:
            not_yet = self.tr("Not cleaned yet.")
            self.book.setHtml(f"<p><i>{html.escape(not_yet)}</i></p>")
        self.show_raw(data)

    def show_raw(self, data: Preview) -> None:
        """The raw page's text, what the article kept plain and what it cut greyed and struck
        through (``Preview.raw_parts``); all plain when there is no article to compare."""
        if not data.raw_parts:
            self.raw.setPlainText(data.raw_text)
            return
        self.raw.clear()
        kept = QTextCharFormat()
        cut = QTextCharFormat()
        cut.setFontStrikeOut(True)
        cut.setForeground(self.palette().color(QPalette.ColorGroup.Disabled,
                                               QPalette.ColorRole.Text))
        cursor = QTextCursor(self.raw.document())
        for text, was_kept in data.raw_parts:
            cursor.insertText(text, kept if was_kept else cut)
        self.raw.moveCursor(QTextCursor.MoveOperation.Start)

    def clear(self) -> None:
        self.shown = None
        self.original_button.setEnabled(False)
        self.book_button.setEnabled(False)
        self.header.setText(self.tr("Select a task to see its article."))
        self.book.clear()
        self.raw.clear()
