"""The window's frame: its widgets and where they sit, the signals others listen to, the hooks
tests swap, and the state its parts share.

Apart from what the window does with them, as a Designer ``.ui`` file would be: a newcomer
looking for a widget finds it here, and the modules beside this one (menus, table, archive,
runs, task actions, intake, rules, books) each add one concern's methods on top of it. Every
part reads this state, so it is made once, here, before any part runs.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.books_view import BooksView
from gui.build_bar import BuildBar
from gui.category_tree import CategoryTree
from gui.duplicates_view import DuplicatesView
from gui.failures_view import FailuresView
from gui.filter_state import FilterState
from gui.harvest_dialog import HarvestDialog
from gui.intake_panel import IntakePanel
from gui.language import shown_name
from gui.main_window.file_watch import FileWatch
from gui.preview import PreviewPane
from gui.report_view import ReportView
from gui.rules_editor.window import RulesEditor
from gui.run_bar import RunBar
from gui.search_panel import SearchPanel
from gui.settings_dialog import settings_from_prefs
from gui.task_filter import TaskFilter
from gui.task_model import COLUMNS, TaskTableModel
from gui.trash_view import TrashView
from gui.update_check import UpdateCheck
from gui.worker import Jobs, RunController
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.archive import Archive
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace

# Tasks a run would take up: what is left when a run was stopped or the window closed.
LEFT_TO_RUN = (Status.PENDING, Status.RUNNING, Status.FETCHED, Status.CLEANED)
# How the table and the bottom tabs share the height at first (issue 28: the tabs took half)
TABLE_SHARE = (7, 3)
# The text filter is applied once typing pauses this long: a key typed into a filled box is a
# pass over every row, so a word typed fast is one pass, not one a key.
FILTER_PAUSE_MS = 200


class WindowShell(QMainWindow):
    """The widgets, signals, hooks and shared state every part of ``MainWindow`` builds on."""

    archive_loaded = Signal()
    intake_done = Signal(object)  # IntakeReport
    import_progress = Signal(object)  # ImportProgress, from the import's thread
    import_finished = Signal(object)  # ImportSummary, or None when the import failed
    run_finished = Signal(object)  # Progress, or None when the run failed to start/finish
    build_finished = Signal(object)  # BuildResult, or None when the build failed
    export_finished = Signal(object)  # WarcExport, or None when the export failed
    saved = Signal()
    refreshed = Signal()  # the table shows the tasks as the workspace holds them
    # What changed in the open archive (``Changed``): the one source every view refreshes
    # from, whichever action or writer made the change (see ``_heard`` and docs/gui.md)
    archive_changed = Signal(object)
    _heard = Signal(object, object)  # (workspace, Changed), from the thread the use case ran on
    importing = False  # an import of saved pages is working (one at a time)
    exporting = False  # an export as WARC or WACZ is working (one at a time)

    def tr(self, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        """A part's message, looked up under each class of the window as PySide6 does, but
        for a count too: PySide6 keeps the first answer that differs from the source, and a
        count's untranslated answer ("2 tasks" for "%n tasks") always does, so it would stop
        at ``MainWindow`` before the part that says the message."""
        if n < 0:
            return super().tr(source, disambiguation)
        untranslated = source.replace("%n", str(n))
        for cls in type(self).__mro__:
            said = QCoreApplication.translate(cls.__name__, source, disambiguation, n)
            if said != untranslated:
                return said
        return untranslated

    def __init__(self, prefs: QSettings, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.settings = settings or settings_from_prefs(prefs)
        self.workspace: Workspace | None = None
        self.opening: Path | None = None  # the archive being opened, until it is or it fails
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        # a yes/no question to the person (tests answer it themselves)
        self.confirm: Callable[[str], bool] = self._ask
        # a problem the person must act on (title, message); tests listen themselves
        self.tell: Callable[[str, str], None] = self._warn
        self.undo_stack = QUndoStack(self)  # the open archive's edits (gui.main_window.history)
        self._demo_site: Any = None  # the bundled sample site, while "Try the demo site" serves
        self.jobs = Jobs(self)
        self.controller = RunController(self)
        self.updates = UpdateCheck(self.jobs, self)
        self.updates.confirm = lambda question: self.confirm(question)
        self.rules_editor: RulesEditor | None = None
        self.harvest_dialog: HarvestDialog | None = None
        self._tabs_height = 0  # the bottom tabs' height before they were collapsed
        self._report_due = False  # the next report written is named in the log (after a run)
        self._save_timer = QTimer(self)  # the window's edits, saved half a second after the last
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(500)
        self.filter_pause = QTimer(self)  # the text filter, applied once typing pauses
        self.filter_pause.setSingleShot(True)
        self.filter_pause.setInterval(FILTER_PAUSE_MS)
        # the changes heard since the views were last told: told once the event loop turns,
        # so one action that changes several things (or a burst of them) is one refresh
        self._news = Changed(0)
        self._news_timer = QTimer(self)
        self._news_timer.setSingleShot(True)
        self._news_timer.setInterval(0)
        self._news_timer.timeout.connect(self._tell_views)
        self._heard.connect(self._take_news)  # queued to this thread when heard on another
        self.file_watch = FileWatch(self.jobs, lambda: self.workspace,
                                    lambda: self.controller.running,
                                    lambda: self.model.tasks(), self)
        self._build_ui()

    # -- building the window -------------------------------------------------------------------

    def _build_ui(self) -> None:
        self.setWindowTitle(self.tr("Kuaibu"))
        self.intake = IntakePanel(self.prefs)

        self.run_bar = RunBar()

        # filters
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Filter by text…"))
        self.search.setClearButtonEnabled(True)
        self.status_filter = QComboBox()
        self.category_filter = QComboBox()
        self.domain_filter = QComboBox()
        filter_row = QHBoxLayout()
        filter_row.addWidget(self.search, 2)
        for label, box in ((self.tr("Status"), self.status_filter),
                           (self.tr("Category"), self.category_filter),
                           (self.tr("Domain"), self.domain_filter)):
            filter_row.addWidget(QLabel(label))
            filter_row.addWidget(box, 1)

        # the table
        self.model = TaskTableModel(self)
        self.proxy = TaskFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        # the list's order (a book's) until a click; a third click on a column goes back to it
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setSortIndicatorClearable(True)
        self.table.setSortingEnabled(True)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree = CategoryTree(status_name=self.model.status_name)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in (("status", 100), ("id", 50), ("title", 300), ("kind", 150),
                              ("error", 180), ("domain", 130), ("cat1", 100), ("cat2", 90),
                              ("date", 85), ("chars", 70), ("images", 55)):
            self.table.setColumnWidth(COLUMNS.index(column), width)
        self.fit_header_words()

        # what to do with the selected rows (the actions in its menu: gui.main_window.menus)
        # a push button: its size counts the menu's arrow (a tool button's drew over the text)
        self.selection_button = QPushButton(self.tr("Selected"))
        filter_row.addWidget(self.selection_button)

        # build
        self.build_bar = BuildBar(self.jobs)
        self.build_bar.open_url = lambda url: self.open_url(url)

        # bottom: preview and log
        self.preview = PreviewPane()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.search_panel = SearchPanel(None, self.jobs)
        self.failures = FailuresView(None, self.jobs)
        self.trash = TrashView(None, self.jobs)
        self.duplicates = DuplicatesView(None, self.jobs)
        self.duplicates.open_url = lambda url: self.open_url(url)
        self.books = BooksView(None, self.jobs)
        self.report_view = ReportView(None, self.jobs)
        self.report_view.open_url = lambda url: self.open_url(url)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.preview, self.tr("Preview"))
        self.tabs.addTab(self.search_panel, self.tr("Search"))
        self.tabs.addTab(self.failures, self.tr("Failures"))
        self.tabs.addTab(self.report_view, self.tr("Report"))
        self.tabs.addTab(self.duplicates, self.tr("Duplicates"))
        self.tabs.addTab(self.books, self.tr("Books"))
        self.tabs.addTab(self.trash, self.tr("Trash"))
        self.tabs.addTab(self.log, self.tr("Log"))

        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addWidget(self.run_bar)
        table_layout.addLayout(filter_row)
        table_layout.addWidget(self.table, 1)
        # what an empty archive says, in the table's place
        self.empty_hint = QWidget()
        hint_layout = QVBoxLayout(self.empty_hint)
        hint_text = QLabel(self.tr(
            "<b>No tasks yet.</b><br>Paste links on the left and press %1 (Ctrl+Enter), drop"
            " a bookmarks export anywhere on the window, or try the bundled demo site.")
            .replace("%1", html.escape(shown_name(self.intake.add_button))))
        hint_text.setWordWrap(True)
        hint_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.demo_button = QPushButton(self.tr("Try the demo site"))
        hint_layout.addStretch(1)
        hint_layout.addWidget(hint_text)
        hint_layout.addWidget(self.demo_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addStretch(1)
        table_layout.addWidget(self.empty_hint, 1)
        # what an archive being opened says, in the table's place, until its tasks are read
        self.opening_hint = QLabel()
        self.opening_hint.setWordWrap(True)
        self.opening_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.opening_hint.setVisible(False)
        table_layout.addWidget(self.opening_hint, 1)
        table_layout.addWidget(self.build_bar)
        # the table over the bottom tabs: the table most of the height, the tabs collapsible
        # (dragged to the edge, or View → Bottom tabs); the split is kept across restarts
        self.right_splitter = QSplitter(Qt.Orientation.Vertical)
        self.right_splitter.addWidget(table_box)
        self.right_splitter.addWidget(self.tabs)
        self.right_splitter.setCollapsible(0, False)
        self.right_splitter.setCollapsible(1, True)
        for pane, share in enumerate(TABLE_SHARE):
            self.right_splitter.setStretchFactor(pane, share)
        self.left_splitter = QSplitter(Qt.Orientation.Vertical)
        self.left_splitter.addWidget(self.tree)
        self.left_splitter.addWidget(self.intake)
        self.left_splitter.setStretchFactor(0, 1)
        self.main_splitter = QSplitter()
        self.main_splitter.addWidget(self.left_splitter)
        self.main_splitter.addWidget(self.right_splitter)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([300, 1000])
        self.setCentralWidget(self.main_splitter)
        self.filter_state = FilterState()
        self.statusBar().addPermanentWidget(self.filter_state)

    # -- what every part reads -------------------------------------------------------------------

    @property
    def archive(self) -> Archive | None:
        return self.workspace.archive if self.workspace is not None else None

    @property
    def writable(self) -> bool:
        """An archive is open and may be written (not a read-only one)."""
        return self.workspace is not None and not self.workspace.read_only

    def listen_to(self, workspace: Workspace) -> None:
        """Hear what ``workspace``'s use cases change, whoever called them and on whichever
        thread (the window's jobs, a view's own, the file watch taking in another writer's
        save), and tell the views through ``archive_changed``."""
        workspace.listen(lambda change: self._heard.emit(workspace, change))

    def _take_news(self, workspace: Workspace, change: Changed) -> None:
        if workspace is self.workspace:  # not an archive the window has left meanwhile
            self._news |= change
            self._news_timer.start()

    def _tell_views(self) -> None:
        news, self._news = self._news, Changed(0)
        if news:
            self.archive_changed.emit(news)

    def fit_header_words(self) -> None:
        """Widen each column narrower than its header's words (and the sort mark) in this
        language: "Characters" read "haracters" at the old default width, and the widths
        a window saved before are restored as they were."""
        header = self.table.horizontalHeader()
        for section in range(header.count()):
            if header.sectionSize(section) < header.sectionSizeHint(section):
                header.resizeSection(section, header.sectionSizeHint(section))

    def _show_empty_hint(self) -> None:
        """The table, or in its place what an archive being opened or an empty one says."""
        opening = self.opening is not None
        empty = not opening and self.workspace is not None and self.model.rowCount() == 0
        self.opening_hint.setVisible(opening)
        self.empty_hint.setVisible(empty)
        self.table.setVisible(not empty and not opening)

    def _ask(self, question: str) -> bool:
        """Yes or No, No the default: most questions the window asks come before something
        that cannot be taken back (drop edits, stop a run, remove), so Esc and a stray Enter
        leave everything as it is."""
        answer = QMessageBox.question(
            self, self.tr("Kuaibu"), question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _warn(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)
