"""The build row under the task table: which tasks make the book (everything, one book per
category, the category in the filter, the selection), its title, the chapters' order inside a
category (the task list's, by date, by title: ``build --order``), the format (EPUB, PDF,
both, or CHM, as ``build --format``), Build with progress, and Open / Show in folder for what
was bound (Open asks the window for an EPUB, which knows whether the system has a reader for
it; a PDF or CHM goes to the desktop's viewer for it).

``Workspace.build`` runs in a job, as ``python main.py build`` runs it; the bar knows nothing
of the table, so the window hands it the selection and the filter's category when asked. While
it builds, its button is Cancel (Esc too): the build stops at its next article, and what it
was writing is never put in 03_output (``Workspace.build``'s ``should_stop``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from gui.worker import Jobs
from pipeline.records.settings import BOOK_ORDERS
from pipeline.usecases.workspace import Workspace

TITLE_WIDTH = 220  # px: a title of a few words; longer ones scroll in the field


class BuildBar(QWidget):
    """Build EPUB and what it made. ``finished`` carries the BuildResult (None on failure);
    ``said`` lines for the window's log (the near duplicates a build left out)."""

    finished = Signal(object)
    said = Signal(str)
    progressed = Signal(int, int)  # steps done, steps in all (emitted from the job's thread)
    open_requested = Signal(Path)  # the book just bound, to open (the window decides with what)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        self.output_dir: Path | None = None
        self.last: Any = None  # the last BuildResult (the window reaches no pipeline.book)
        self._stop: threading.Event | None = None  # the build in progress's; None: none
        self.scope = QComboBox()
        self.scope.addItem(self.tr("Everything, one book"), "all")
        self.scope.addItem(self.tr("One book per category"), "each")
        self.scope.addItem(self.tr("Category in the filter"), "category")
        self.scope.addItem(self.tr("Selected tasks"), "selected")
        # the book's title, as ``build --title``: the archive's name until a person types one
        self.title = QLineEdit()
        self.title.setToolTip(self.tr("The book's title, its file name too (a category's"
                                      " book: this title and the category)"))
        self.title.setMaximumWidth(TITLE_WIDTH)
        self.order = QComboBox()
        self.order.setToolTip(self.tr("The chapters' order inside each category"))
        names = {"list": self.tr("Task list order"), "published": self.tr("By published date"),
                 "title": self.tr("By title")}
        for order in BOOK_ORDERS:
            self.order.addItem(names[order], order)
        self.format = QComboBox()
        self.format.addItem(self.tr("EPUB"), "epub")
        self.format.addItem(self.tr("PDF"), "pdf")
        self.format.addItem(self.tr("EPUB and PDF"), "both")
        self.format.addItem(self.tr("CHM (Windows Help)"), "chm")
        self.format.setToolTip(self.tr("What to bind: EPUB books, PDFs for print and archiving"
                                       " (PDF/A), both, or a CHM for Windows' own Help viewer"))
        self.button = QPushButton()
        # an action, so Help → Keyboard shortcuts lists it
        self.cancel_key = QAction(self.tr("Cancel the build"), self)
        self.cancel_key.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.cancel_key.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.cancel_key.setEnabled(False)  # only while a build runs
        self.cancel_key.triggered.connect(self.cancel)
        self.addAction(self.cancel_key)
        self._name_button()
        self.status = QLabel()
        self.open_button = QPushButton(self.tr("Open"))
        self.folder_button = QPushButton(self.tr("Show in folder"))
        self.open_button.setEnabled(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.scope)
        row.addWidget(self.title)
        row.addWidget(self.order)
        row.addWidget(self.format)
        row.addWidget(self.button)
        row.addWidget(self.status, 1)
        row.addWidget(self.open_button)
        row.addWidget(self.folder_button)
        self.progressed.connect(self._show_progress)
        self.format.currentIndexChanged.connect(self._name_button)
        self.open_button.clicked.connect(self.open_book)
        self.folder_button.clicked.connect(self.show_folder)

    def _name_button(self) -> None:
        """The button says what it makes, or Cancel while it makes it."""
        if self.building:
            self.button.setText(self.tr("Cancel"))
            return
        self.button.setText({"pdf": self.tr("Build PDF"), "both": self.tr("Build EPUB and PDF"),
                             "chm": self.tr("Build CHM")}
                            .get(self.format.currentData(), self.tr("Build EPUB")))

    @property
    def building(self) -> bool:
        return self._stop is not None

    def cancel(self) -> None:
        """Stop the build in progress at its next article (its job then ends as failed)."""
        if self._stop is not None and not self._stop.is_set():
            self._stop.set()
            self.button.setEnabled(False)  # once: the job's end gives it back
            self.status.setText(self.tr("Cancelling…"))

    def _ended(self) -> None:
        self._stop = None
        self.cancel_key.setEnabled(False)
        self._name_button()
        self.button.setEnabled(True)

    def set_workspace(self, workspace: Workspace) -> None:
        """Another archive: its name is the title until one is typed; its ``book_order``
        setting the order until another is chosen."""
        self.title.clear()
        self.order.setCurrentIndex(self.order.findData(workspace.settings.book_order))
        self.title.setPlaceholderText(workspace.archive.name)
        self.output_dir = workspace.archive.output_dir

    def build(self, workspace: Workspace, selected: Collection[int],
              filter_category: str | None) -> bool:
        """Bind the chosen tasks in a job; False when the choice names nothing to bind or a
        build is in progress."""
        if self.building:
            return False
        scope = self.scope.currentData()
        cat1 = filter_category if scope == "category" else None
        if scope == "category" and cat1 is None:
            self.status.setText(self.tr("Choose a category in the filter first."))
            return False
        ids = set(selected) if scope == "selected" else None
        split_by = "cat1" if scope == "each" else None
        title = self.title.text().strip() or None
        order = self.order.currentData()
        made = self.format.currentData()
        report = self.progressed.emit  # called on the job's thread; Qt queues it here
        stop = self._stop = threading.Event()
        self._name_button()
        self.cancel_key.setEnabled(True)
        self.status.setText(self.tr("Building…"))
        self.jobs.start(lambda: workspace.build(cat1=cat1, split_by=split_by, task_ids=ids,
                                                title=title, progress=report,
                                                order=order, format=made,
                                                should_stop=stop.is_set),
                        self._built, self._failed)
        return True

    def _show_progress(self, done: int, total: int) -> None:
        if self._stop is None or self._stop.is_set():
            return  # "Cancelling…" stays until the build has stopped
        self.status.setText(self.tr("Building… %1/%2").replace("%1", str(done))
                            .replace("%2", str(total)))

    def _built(self, result: Any) -> None:
        self.last = result
        names = ", ".join(Path(p).name for p in [*result.epubs, *result.pdfs, *result.chms])
        status = self.tr("%n articles in %1", "", result.articles).replace("%1", names)
        if result.left_out:
            # the later of each undecided near-duplicate pair (Duplicates tab: Keep both)
            status += self.tr("; %n near duplicates left out (see Duplicates)", "",
                              len(result.left_out))
            for dup, of in result.left_out:
                self.said.emit(self.tr("#%1 left out of the book: it nearly repeats #%2")
                               .replace("%1", str(dup)).replace("%2", str(of)))
        for project in result.chm_projects:
            self.said.emit(self.tr("The CHM project is in %1 but not compiled: install chmcmd"
                                   " (apt-get install fp-utils) and build again")
                           .replace("%1", str(Path(project).parent)))
        self.status.setText(status)
        self._ended()
        self.open_button.setEnabled(bool(result.epubs or result.pdfs or result.chms))
        self.finished.emit(result)

    def _failed(self, message: str) -> None:
        if self._stop is not None and self._stop.is_set():
            message = self.tr("Build cancelled")
        self.status.setText(message)
        self.said.emit(message)
        self._ended()
        self.finished.emit(None)

    def open_book(self) -> None:
        if self.last is not None and self.last.epubs:
            self.open_requested.emit(Path(self.last.epubs[0]))
        elif self.last is not None and (self.last.pdfs or self.last.chms):
            self.open_url(QUrl.fromLocalFile(str([*self.last.pdfs, *self.last.chms][0])))

    def show_folder(self) -> None:
        if self.output_dir is not None:
            self.open_url(QUrl.fromLocalFile(str(self.output_dir)))
