"""The paste area's text kept as the open archive's draft (``Workspace.paste_draft``), so links
pasted and not yet added survive a restart, a crash or a kill.

Written on the window's thread, half a second after the text stops changing and at once when
links are added, another archive opens or the window closes: the file is a few KB (written
whole, temp then rename), and writes that never overlap need no ordering between them — a
newer text written by a job could otherwise land before an older one.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit

from pipeline.records.errors import KuaibuError
from pipeline.usecases.workspace import Workspace

DRAFT_DELAY_MS = 500  # after the last change: a paste is one change, typing is many


class PasteDraftKeeper(QObject):
    """Keeps ``box``'s text as the draft of the archive it follows; ``failed`` says why a
    draft could not be read or kept (one line, the pipeline's)."""

    failed = Signal(str)

    def __init__(self, box: QPlainTextEdit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._box = box
        self._workspace: Workspace | None = None  # whose draft the box holds
        self._showing = False  # the box is being filled with a draft, not edited
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DRAFT_DELAY_MS)
        self._timer.timeout.connect(self.keep_now)
        box.textChanged.connect(self._changed)

    def follow(self, workspace: Workspace) -> None:
        """``workspace``'s archive is open: the archive left keeps its draft, the box shows
        this one's. Text typed while no archive was open stays, after the draft."""
        self.keep_now()
        left, self._workspace = self._workspace, None
        try:
            draft = workspace.paste_draft()
        except (KuaibuError, OSError) as e:  # left as it is: no draft is written over it
            self.failed.emit(str(e))
            return
        typed = self._box.toPlainText() if left is None else ""
        if draft and typed.strip():
            draft = draft.rstrip("\n") + "\n" + typed
        if draft or left is not None:
            self._showing = True
            self._box.setPlainText(draft)
            self._showing = False
        self._workspace = workspace
        if typed.strip():
            self.keep_now()

    def keep_now(self) -> None:
        """Write the box's text as the draft now (an empty box removes it)."""
        self._timer.stop()
        workspace = self._workspace
        if workspace is None or workspace.read_only:
            return
        try:
            workspace.keep_paste_draft(self._box.toPlainText())
        except (KuaibuError, OSError) as e:
            self.failed.emit(str(e))

    def _changed(self) -> None:
        if not self._showing and self._workspace is not None:
            self._timer.start()
