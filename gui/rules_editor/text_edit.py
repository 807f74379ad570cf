"""rules.yaml as the editor shows it: a plain-text field, highlighted, whose problem line is
marked, which the form rewrites as one undoable edit and scrolls to a section. Apart because
it holds state of its own (whether a change is the person's typing or the editor's own
writing) and nothing of what the rules mean."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from gui.rules_editor.highlighter import YamlHighlighter


class RulesTextEdit(QPlainTextEdit):
    """The text of rules.yaml; ``typed`` is the person's typing, never the editor's writing."""

    typed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setFont(QFont("monospace"))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.highlighter = YamlHighlighter(self.document())
        self._syncing = False  # the text is being written by the editor, not typed
        self.textChanged.connect(self._changed)

    def _changed(self) -> None:
        if not self._syncing:
            self.typed.emit()

    def show_text(self, text: str) -> None:
        """Show ``text`` as it is (rules.yaml as saved), not as the person's typing."""
        self._syncing = True
        self.setPlainText(text)
        self._syncing = False

    def replace_text(self, text: str) -> None:
        """The whole text replaced as one edit (Ctrl+Z in the text takes it back)."""
        cursor = QTextCursor(self.document())
        self._syncing = True
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()
        self._syncing = False

    def mark_line(self, line: int | None) -> None:
        """Mark a problem's line (1-based), or none."""
        if line is None:
            self.setExtraSelections([])
            return
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(QColor("#ffebee"))
        selection.format.setProperty(QTextCharFormat.Property.FullWidthSelection, True)
        block = self.document().findBlockByNumber(line - 1)
        selection.cursor = self.textCursor()
        selection.cursor.setPosition(block.position())
        self.setExtraSelections([selection])

    def show_section(self, section: str) -> None:
        """Put the cursor on a section's first line and scroll it into view."""
        block = self.document().firstBlock()
        while block.isValid():
            if block.text().strip().strip("'\"").lower().startswith(f"{section}:"):
                cursor = self.textCursor()
                cursor.setPosition(block.position())
                self.setTextCursor(cursor)
                self.centerCursor()
                return
            block = block.next()
