"""How many tasks the table shows, in the status bar: "105 tasks", or "filtered: 1 of 105 ×"
while a filter (text, status, category, domain, the tree's node) hides some, the × showing
them all again.

Apart because a filter chosen in one place and forgotten (a category restored from the last
session, a tree node clicked long ago) hides rows without a word; this says so wherever the
filter was set.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget


class FilterState(QWidget):
    """The table's count, and whether a filter hides rows; ``cleared`` when × is pressed."""

    cleared = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.clear_button = QToolButton()
        self.clear_button.setText("×")
        self.clear_button.setAutoRaise(True)
        self.clear_button.setToolTip(self.tr("Show every task (clear the filters)"))
        self.clear_button.clicked.connect(self.cleared)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.clear_button)
        self.show_counts(0, 0)

    def show_counts(self, shown: int, total: int) -> None:
        """``shown`` of the ``total`` tasks on the list (the trash left out) are in the table."""
        filtered = shown != total
        self.label.setText(self.tr("filtered: %1 of %2").replace("%1", str(shown))
                           .replace("%2", str(total)) if filtered
                           else self.tr("%n tasks", "", total))
        self.clear_button.setVisible(filtered)
