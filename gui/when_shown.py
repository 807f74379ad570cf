"""A bottom tab's read done when the tab can be seen: at once when it is shown, else marked
stale and done when it is next shown.

At 100,000 tasks the Failures, Trash and Books tabs each walk the whole archive, the Report
reads a run's record and Search asks the index again; all of them reading on every change
(and at once when an archive opens) competed with the GUI thread for the interpreter lock
while the table painted. A hidden tab shows nothing, so its read waits until it is shown, and
then it shows the archive as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class WhenShown(QObject):
    """``request()`` reads now if ``view`` is visible, else on its next Show event."""

    def __init__(self, view: QWidget, read: Callable[[], None]) -> None:
        super().__init__(view)
        self._view = view
        self._read = read
        self.stale = False  # something changed while hidden: read when next shown
        view.installEventFilter(self)

    def request(self) -> None:
        if self._view.isVisible():
            self.stale = False
            self._read()
        else:
            self.stale = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self.stale:
            self.stale = False
            self._read()
        return False
