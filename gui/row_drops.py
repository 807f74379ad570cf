"""Rows of the task table dragged and dropped between its rows: the list arranged by hand.

Apart from ``gui.drops`` (what comes from outside: links and files for intake) because these
are the table's own rows, carried as their task ids (``TASK_IDS_MIME``, the type a drag onto
the category tree carries too); the window moves them with ``Workspace.move``.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QTableView

from gui.task_model import task_ids_from_mime


class RowDrops(QObject):
    """Takes drops of the table's rows on its viewport and says where they fell:
    ``dropped(task ids, row, after)``: on the upper half of ``row`` (as the table shows it)
    they go before it, on the lower half after it; below every row, ``row`` is -1."""

    dropped = Signal(list, int, bool)

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.table = table
        table.viewport().setAcceptDrops(True)
        table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDropEvent)  # QDragEnterEvent and QDragMoveEvent are ones
        task_ids = task_ids_from_mime(event.mimeData())
        if not task_ids:
            return False  # links or files: intake's (gui.drops)
        event.acceptProposedAction()
        if isinstance(event, QDragEnterEvent | QDragMoveEvent):
            return True
        pos = event.position().toPoint()
        index = self.table.indexAt(pos)
        if not index.isValid():
            self.dropped.emit(task_ids, -1, True)
        else:
            rect = self.table.visualRect(index)
            self.dropped.emit(task_ids, index.row(), pos.y() > rect.center().y())
        return True
