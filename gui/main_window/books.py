"""Books: Build EPUB (the build row is ``gui.build_bar``), what follows a build, and opening
the newest book that binds a task.

Apart because a build is a job of its own — not a run — that marks what it bound ``done``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl

from gui.main_window.archive import WindowArchive


class WindowBooks(WindowArchive):
    """Build books and open them."""

    def build(self) -> bool:
        """Bind the chosen tasks into EPUB books in the background (see ``BuildBar``)."""
        workspace = self.workspace
        if workspace is None or workspace.read_only or self.controller.running:
            return False
        return self.build_bar.build(workspace, self.selected_ids(),
                                    self.category_filter.currentData() or None)

    def _built(self, result: Any) -> None:
        self.build_finished.emit(result)  # the books and the tasks bound follow the change

    def open_in_book(self, task_id: int) -> None:
        """The newest book that binds the task; the status bar says when none does yet."""
        workspace = self.workspace
        if workspace is None:
            return

        def find() -> Path | None:
            books = sorted((b for b in workspace.books() if task_id in b.task_ids),
                           key=lambda b: b.built_at)
            return books[-1].files[0] if books else None

        def found(path: Path | None) -> None:
            if path is None:
                self.statusBar().showMessage(self.tr("#%1 is in no book yet: Build EPUB binds"
                                                     " it").replace("%1", str(task_id)))
            else:
                self.open_url(QUrl.fromLocalFile(str(path)))

        self.jobs.start(find, found, self._archive_failed)
