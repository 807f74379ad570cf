"""Colours for rules.yaml in the editor's text: a syntax highlighter has nothing to do with
the rules themselves, so it stands alone."""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument


def _format(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class YamlHighlighter(QSyntaxHighlighter):
    """Sections, keys, list dashes, strings and comments: enough to read rules.yaml at a glance."""

    RULES = (
        (r"^[^\s#][^:#]*:", _format("#1565c0", bold=True)),  # a section (domain or default)
        (r"^\s+[\w-]+\s*:", _format("#00838f")),  # a key
        (r"^\s*-\s", _format("#6a1b9a", bold=True)),  # a list item
        (r"\"[^\"]*\"|'[^']*'", _format("#2e7d32")),  # a quoted string
        (r"(^|\s)#.*$", _format("#9e9e9e", italic=True)),  # a comment, last so it wins
    )

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._rules = [(QRegularExpression(p), f) for p, f in self.RULES]

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self._rules:
            matches = pattern.globalMatch(text)
            while matches.hasNext():
                m = matches.next()
                self.setFormat(m.capturedStart(), m.capturedLength(), fmt)
