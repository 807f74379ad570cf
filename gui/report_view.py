"""The run report in the window (issue 17): what the last run got wrong and where to look.

The page is ``04_logs/report.html`` itself, written by ``Workspace.report`` (the same page
``python main.py report`` and the end of every ``run`` write), shown in a text browser: one
report, two faces. It is written again after every run in the window and when the tab asks,
and read again whenever it was written (``Changed.REPORT``), its text given to the browser:
a ``setSource`` with the same URL shows the page it read before. Its links (a suspect
article's clean page, its source, the pages to read through) open with the desktop's
handler, as the other views' links do.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gui.worker import Jobs, Latest
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace


def read_report(workspace: Workspace) -> tuple[Path, str] | None:
    """The last report and its page, None before one is written."""
    path = workspace.last_report()
    return None if path is None else (path, path.read_text(encoding="utf-8"))


class ReportView(QWidget):
    """The last report, a button to write it again and one to open it in the browser."""

    shown = Signal(str)  # the report's path, each time a report is loaded

    def __init__(self, workspace: Workspace | None, jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.jobs = jobs
        self._reads = Latest(jobs)
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        self.path: Path | None = None
        self.summary = QLabel(self.tr("No report yet: one is written after every run."))
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.again_button = QPushButton(self.tr("Write again"))
        self.again_button.setToolTip(self.tr(
            "Write 04_logs/report.html from the task list as it is now"))
        self.browser_button = QPushButton(self.tr("Open in browser"))
        self.page = QTextBrowser()
        self.page.setOpenLinks(False)  # every link leaves the window: clean pages, sources
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.again_button)
        top.addWidget(self.browser_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.page, 1)
        self.again_button.clicked.connect(self.refresh)
        self.browser_button.clicked.connect(self._open_in_browser)
        self.page.anchorClicked.connect(self._follow)
        self._update_buttons()

    def set_workspace(self, workspace: Workspace) -> None:
        """Another archive: its last report, if a run wrote one."""
        self.workspace = workspace
        self.path = None
        self.page.clear()
        self.summary.setText(self.tr("No report yet: one is written after every run."))
        self._update_buttons()
        self.load()

    def follow(self, change: Changed) -> None:
        """The archive changed (``archive_changed``): the report read again if it was
        written again."""
        if Changed.REPORT in change:
            self.load()

    def refresh(self) -> None:
        """Write the report again from the task list as it is (in a job); the page follows
        the change."""
        workspace = self.workspace
        if workspace is None:
            return
        self.again_button.setEnabled(False)
        self.jobs.start(workspace.report, lambda _path: self._update_buttons(), self._failed)

    def load(self) -> None:
        """Read the last report and show it (in a job; the newest read wins)."""
        workspace = self.workspace
        if workspace is not None:
            self._reads.start(lambda: read_report(workspace), self._show, self._failed)

    def _show(self, report: tuple[Path, str] | None) -> None:
        if report is None:
            return
        path, page = report
        self.path = path
        self.page.document().setBaseUrl(QUrl.fromLocalFile(str(path)))
        self.page.setHtml(page)
        self.summary.setText(self.tr("Report of %1: %2").replace(
            "%1", str(self.workspace.archive.root) if self.workspace else "")
            .replace("%2", str(path)))
        self._update_buttons()
        self.shown.emit(str(path))

    def _failed(self, message: str) -> None:
        self.summary.setText(message)
        self._update_buttons()

    def _follow(self, url: QUrl) -> None:
        """A link of the report: relative ones (clean pages) from the report's folder."""
        if url.isRelative() and self.path is not None:
            url = QUrl.fromLocalFile(str(self.path)).resolved(url)
        self.open_url(url)

    def _open_in_browser(self) -> None:
        if self.path is not None:
            self.open_url(QUrl.fromLocalFile(str(self.path)))

    def _update_buttons(self) -> None:
        # writing the report again writes 04_logs: not on a read-only archive
        self.again_button.setEnabled(self.workspace is not None and not self.workspace.read_only)
        self.browser_button.setEnabled(self.path is not None)
