"""The main window: paste links, watch the batch, review articles, fix rules, build books.

The window is a face over ``pipeline.usecases.workspace``: every action is a workspace use
case, run in ``Jobs`` (opening, adding, saving, previews, builds) or in the ``RunController``
(the run, in a child process); the window only reacts to their signals. It keeps no list of its
own to write back: its edits go to the workspace, which merges them into tasks.csv, and it
follows the file when another writer (a terminal's run, a person in Excel) changes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QItemSelection,
    QSettings,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gui.books_view import BooksView
from gui.build_bar import BuildBar
from gui.category_tree import CategoryTree, key_of
from gui.drops import DropTarget
from gui.duplicates_view import DuplicatesView
from gui.failures_view import FailuresView
from gui.harvest_dialog import HarvestDialog
from gui.intake_panel import IntakePanel
from gui.preview import PreviewPane
from gui.reasons import translate_reason
from gui.report_view import ReportView
from gui.rules_editor.window import RulesEditor
from gui.run_bar import RunBar
from gui.run_process import run_changes
from gui.search_panel import SearchPanel
from gui.settings_dialog import ARCHIVE_KEY, SettingsDialog, settings_from_prefs
from gui.task_model import COLUMNS, TaskFilter, TaskTableModel
from gui.trash_view import TrashView
from gui.update_check import Node, UpdateCheck, ids_in_node
from gui.worker import Jobs, RunController
from pipeline.intake.links import IntakeReport
from pipeline.records.errors import RulesError
from pipeline.records.events import Progress
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.rules.model import Rules
from pipeline.store.archive import Archive
from pipeline.usecases.workspace import Preview, Undone, Workspace

# How often the window looks whether another writer changed tasks.csv (a stat call).
WATCH_MS = 1000
RECENT_KEY = "archives/recent"
RECENT_MAX = 8
# Tasks a run would take up: what is left when a run was stopped or the window closed.
_LEFT = (Status.PENDING, Status.RUNNING, Status.FETCHED, Status.CLEANED)


@dataclass
class Refreshed:
    tasks: list[Task] | None  # None: the file is as the window last saw it


class CategoryDialog(QDialog):
    """Change the categories of the selected tasks (an empty field leaves it as it is)."""

    def __init__(self, categories: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Change category"))
        form = QFormLayout(self)
        self.cat1, self.cat2 = QLineEdit(), QLineEdit()
        for edit in (self.cat1, self.cat2):
            edit.setCompleter(QCompleter(categories, edit))
        form.addRow(self.tr("Category"), self.cat1)
        form.addRow(self.tr("Subcategory"), self.cat2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MainWindow(QMainWindow):
    """One archive at a time. ``prefs`` and ``settings`` are injectable (tests use their own)."""

    archive_loaded = Signal()
    intake_done = Signal(object)  # IntakeReport
    run_finished = Signal(object)  # Progress, or None when the run failed to start/finish
    build_finished = Signal(object)  # BuildResult, or None when the build failed
    saved = Signal()
    refreshed = Signal()  # the table follows what another writer saved

    def __init__(self, archive_root: Path, prefs: QSettings, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.settings = settings or settings_from_prefs(prefs)
        self.workspace: Workspace | None = None
        self.open_url: Callable[[QUrl], Any] = QDesktopServices.openUrl  # tests swap it
        # a yes/no question to the person (tests answer it themselves)
        self.confirm: Callable[[str], bool] = self._ask
        # a problem the person must act on (title, message); tests listen themselves
        self.tell: Callable[[str, str], None] = self._warn
        self._last_removed: list[int] = []
        self._demo_site: Any = None  # the bundled sample site, while "Try the demo site" serves
        self.jobs = Jobs(self)
        self.controller = RunController(self)
        self.updates = UpdateCheck(self.jobs, self)
        self.updates.confirm = lambda question: self.confirm(question)
        self.rules_editor: RulesEditor | None = None
        self.harvest_dialog: HarvestDialog | None = None
        self._raise_report = False  # the next report shown comes forward (after a run)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(500)
        self._save_timer.timeout.connect(self.save_tasks)
        self._watch_timer = QTimer(self)
        self._watch_timer.setInterval(WATCH_MS)
        self._watch_timer.timeout.connect(self.follow_file)
        self._refreshing = False  # a look at the file is in flight
        self._refresh_again = False  # and the window changed tasks meanwhile
        self._build_ui()
        self._connect()
        self._restore_window()
        self.open_archive(archive_root)

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
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # id order until a click
        self.table.setSortingEnabled(True)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree = CategoryTree(status_name=self.model.status_name)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in (("status", 100), ("id", 50), ("title", 300), ("kind", 110),
                              ("error", 180), ("domain", 130), ("cat1", 100), ("cat2", 90),
                              ("date", 85), ("chars", 70), ("images", 55)):
            self.table.setColumnWidth(COLUMNS.index(column), width)

        # actions on the selection
        self.task_actions: dict[str, QAction] = {}
        for key, text, shortcut in (
            ("run", self.tr("Run selected"), None),
            ("reclean", self.tr("Clean again"), None),
            ("check_updates", self.tr("Check for updates…"), None),
            ("retry", self.tr("Retry"), None),
            ("category", self.tr("Change category…"), None),
            ("open_source", self.tr("Open original"), None),
            ("open_clean", self.tr("Open clean page"), None),
            ("copy_url", self.tr("Copy URL"), QKeySequence.StandardKey.Copy),
            ("show_folder", self.tr("Show in folder"), None),
            ("remove", self.tr("Remove…"), QKeySequence.StandardKey.Delete),
        ):
            action = QAction(text, self)
            if shortcut is not None:
                action.setShortcut(shortcut)
                action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
                self.table.addAction(action)
            self.task_actions[key] = action
        self.selection_button = QToolButton()
        self.selection_button.setText(self.tr("Selected"))
        self.selection_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.selection_menu = QMenu(self)
        self.selection_menu.addActions(list(self.task_actions.values()))
        self.selection_button.setMenu(self.selection_menu)
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
            "<b>No tasks yet.</b><br>Paste links on the left and press Add (Ctrl+Enter), drop"
            " a bookmarks export anywhere on the window, or try the bundled demo site."))
        hint_text.setWordWrap(True)
        hint_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.demo_button = QPushButton(self.tr("Try the demo site"))
        hint_layout.addStretch(1)
        hint_layout.addWidget(hint_text)
        hint_layout.addWidget(self.demo_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addStretch(1)
        table_layout.addWidget(self.empty_hint, 1)
        table_layout.addWidget(self.build_bar)
        self.right_splitter = QSplitter(Qt.Orientation.Vertical)
        self.right_splitter.addWidget(table_box)
        self.right_splitter.addWidget(self.tabs)
        self.right_splitter.setStretchFactor(0, 3)
        self.right_splitter.setStretchFactor(1, 2)
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

        menu = self.menuBar().addMenu(self.tr("&File"))
        menu.addAction(self.tr("&Open archive…"), QKeySequence.StandardKey.Open,
                       self.ask_open_archive)
        menu.addAction(self.tr("&New archive…"), QKeySequence.StandardKey.New,
                       self.ask_new_archive)
        self.recent_menu = menu.addMenu(self.tr("&Recent archives"))
        menu.addSeparator()
        self.settings_action = menu.addAction(self.tr("&Settings…"), self.show_settings)
        menu.addAction(self.tr("Show archive folder"), self.show_archive_folder)
        menu.addSeparator()
        menu.addAction(self.tr("&Quit"), QKeySequence.StandardKey.Quit, self.close)
        edit = self.menuBar().addMenu(self.tr("&Edit"))
        self.undo_remove_action = edit.addAction(self.tr("&Undo remove"),
                                                 QKeySequence.StandardKey.Undo,
                                                 self.undo_remove)
        self.find_action = edit.addAction(self.tr("&Find in articles…"),
                                          QKeySequence.StandardKey.Find, self.show_search)
        tasks = self.menuBar().addMenu(self.tr("&Tasks"))
        self.run_action = tasks.addAction(self.tr("&Run"), QKeySequence("Ctrl+R"),
                                          lambda: self.start_run())
        self.build_action = tasks.addAction(self.tr("&Build EPUB"), QKeySequence("Ctrl+B"),
                                            self.build)
        self.check_updates_action = tasks.addAction(self.tr("Check for updates…"),
                                                    lambda: self.check_updates())
        self.harvest_action = tasks.addAction(self.tr("&Harvest a list page…"),
                                              QKeySequence("Ctrl+L"), self.show_harvest)
        tools = self.menuBar().addMenu(self.tr("&Tools"))
        self.rules_action = tools.addAction(self.tr("Site &rules…"), self.show_rules_editor)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(self.tr("&About Kuaibu"), self.show_about)
        toolbar = self.addToolBar(self.tr("Main"))
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        for action in (self.run_action, self.build_action, self.find_action, self.rules_action):
            toolbar.addAction(action)
        self.statusBar()
        self.resize(1280, 820)

    def _connect(self) -> None:
        self.intake.add_button.clicked.connect(self.add_pasted)
        self.run_bar.run_button.clicked.connect(lambda: self.start_run())
        self.run_bar.retry_button.clicked.connect(lambda: self.start_run(retry_failed=True))
        self.run_bar.pause_button.clicked.connect(self.toggle_pause)
        self.run_bar.stop_button.clicked.connect(self.controller.stop)
        self.run_bar.counts_text = lambda p: (self.updates.counts_text(p) if self.updates.active
                                              else self.run_bar.stage_text(p))
        self.controller.tasks_changed.connect(self._tasks_changed)
        self.controller.log_lines.connect(self.log.appendPlainText)
        self.controller.progress.connect(self.run_bar.arrived)
        self.controller.finished.connect(self._run_done)
        self.controller.failed.connect(self._run_failed)
        self.model.edited.connect(self._edited)
        self.search.textChanged.connect(self.proxy.set_text)
        self.status_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_status(self.status_filter.currentData() or ""))
        self.category_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_category(self.category_filter.currentData() or ""))
        self.domain_filter.currentIndexChanged.connect(
            lambda: self.proxy.set_domain(self.domain_filter.currentData() or ""))
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self.show_current())
        self.table.customContextMenuRequested.connect(
            lambda pos: self.context_menu().exec(self.table.viewport().mapToGlobal(pos)))
        self.table.doubleClicked.connect(self._row_activated)
        self.tree.category_chosen.connect(self.proxy.set_tree_category)
        self.tree.move_requested.connect(lambda ids, c1, c2: self.set_category(ids, c1, c2))
        self.tree.rename_requested.connect(self.rename_category)
        self.tree.follow(self.model)
        self.search_panel.task_chosen.connect(self.show_task)
        self.failures.task_chosen.connect(self.show_task)
        self.failures.retry_requested.connect(
            lambda ids, _kind: self.start_run(ids, retry_failed=True))
        self.failures.render_requested.connect(self.render_sites)
        self.trash.restored.connect(lambda _ids: self.follow_file(changed_here=True))
        self.trash.emptied.connect(lambda _n: self.follow_file(changed_here=True))
        self.duplicates.decided.connect(lambda _ids: self.follow_file(changed_here=True))
        self.refreshed.connect(self.duplicates.refresh_if_shown)
        self.report_view.shown.connect(self._report_shown)
        self.task_actions["check_updates"].triggered.connect(lambda: self.check_updates())
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._tree_menu)
        self.updates.start_requested.connect(self._start_refresh)
        self.updates.said.connect(self.statusBar().showMessage)
        self.updates.summarized.connect(self._updates_checked)
        self.run_finished.connect(lambda p: self.updates.run_ended(self.workspace, p))
        self.task_actions["run"].triggered.connect(lambda: self.start_run(self.selected_ids()))
        self.task_actions["retry"].triggered.connect(
            lambda: self.start_run(self.selected_ids(), retry_failed=True))
        self.task_actions["reclean"].triggered.connect(lambda: self.reclean(self.selected_ids()))
        self.task_actions["remove"].triggered.connect(
            lambda: self.remove_tasks(self.selected_ids()))
        self.task_actions["category"].triggered.connect(self.ask_category)
        self.task_actions["open_source"].triggered.connect(self.open_source_urls)
        self.task_actions["open_clean"].triggered.connect(self.open_clean_pages)
        self.task_actions["copy_url"].triggered.connect(self.copy_urls)
        self.task_actions["show_folder"].triggered.connect(self.show_task_files)
        self.build_bar.button.clicked.connect(self.build)
        self.build_bar.said.connect(self.log.appendPlainText)
        self.build_bar.finished.connect(self._built)
        self.demo_button.clicked.connect(self.try_demo_site)
        self.preview.open_original.connect(self.open_original)
        self.intake.added.connect(self.select_tasks)
        self.intake.duplicate_chosen.connect(self.select_task)
        self.drops = DropTarget(self)  # drops anywhere on the window go to intake
        self.drops.watch(self)
        self.drops.watch(self.table)
        self.drops.dropped.connect(self.intake.take_drop)
        self.preview.open_in_book.connect(self.open_in_book)
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset):
            signal.connect(self._show_empty_hint)
        self._update_controls()

    # -- archive -------------------------------------------------------------------------------

    @property
    def archive(self) -> Archive | None:
        return self.workspace.archive if self.workspace is not None else None

    def open_archive(self, root: Path) -> None:
        """Open an archive in the background; the table fills when it is ready."""
        if self.controller.running:
            return
        if self.workspace is not None:
            self._save_columns()
            self.workspace.close()
        self.workspace = None
        self._watch_timer.stop()
        self.model.editor = None
        self.model.set_tasks([])
        self.preview.clear()
        self.statusBar().showMessage(self.tr("Opening %1…").replace("%1", str(root)))
        settings = self.settings
        self.jobs.start(lambda: Workspace.open(root, settings), self._archive_ready,
                        self._archive_failed)
        self._update_controls()

    def _archive_ready(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.prefs.setValue(ARCHIVE_KEY, str(workspace.archive.root))
        self.model.set_tasks(workspace.tasks())
        self.model.editor = lambda task_id, name, text: workspace.edit([task_id], **{name: text})
        self.build_bar.set_workspace(workspace)
        self._refresh_filters()
        self.setWindowTitle(self.tr("Kuaibu — %1").replace("%1", str(workspace.archive.root)))
        self.statusBar().showMessage(self.tr("%1 tasks in %2").replace(
            "%1", str(self.model.rowCount())).replace("%2", str(workspace.archive.root)))
        if self.rules_editor is not None:
            self.rules_editor.close()
            self.rules_editor = None
        for view in (self.search_panel, self.failures, self.trash, self.books, self.duplicates,
                     self.report_view):
            view.set_workspace(workspace)
        if self.harvest_dialog is not None:
            self.harvest_dialog.close()
            self.harvest_dialog = None
        self.failures.refresh()
        self.trash.refresh()
        self.tree.set_tasks(workspace.tasks())
        self._remember_archive(workspace.archive.root)
        self._restore_columns(workspace.archive.root)
        left = sum(t.status in _LEFT for t in workspace.tasks())
        if left:
            self.statusBar().showMessage(self.tr("%1 tasks in %2; %3 wait to be run (Run takes"
                                                 " them up)").replace("%1", str(
                                                     self.model.rowCount())).replace(
                "%2", str(workspace.archive.root)).replace("%3", str(left)))
        if workspace.read_only:
            self.model.editor = None
            self.setWindowTitle(self.tr("Kuaibu — %1 (read-only)").replace(
                "%1", str(workspace.archive.root)))
            self.statusBar().showMessage(self.tr(
                "Read-only: %1 cannot be written here (a backup, a disc or another user's"
                " folder). Search, previews and books work; adding, running and building are"
                " off.").replace("%1", str(workspace.archive.root)))
        self._watch_timer.start()
        self._update_controls()
        self.archive_loaded.emit()

    def _columns_key(self, root: Path) -> str:
        return f"columns/{root.as_posix()}"

    def _restore_columns(self, root: Path) -> None:
        """Column widths, order and sort, the filters, the tree's node and its open branches
        as the person left them in this archive."""
        key = self._columns_key(root)
        state = self.prefs.value(key)
        if isinstance(state, QByteArray):
            self.table.horizontalHeader().restoreState(state)
        for box, name in self._filter_boxes():
            found = box.findData(str(self.prefs.value(f"{key}/{name}", "")))
            box.setCurrentIndex(max(0, found))
        self.search.setText(str(self.prefs.value(f"{key}/text", "")))
        node = self.prefs.value(f"{key}/tree")
        if isinstance(node, list) and len(node) == 2:
            self.tree.select(*(str(n) if n != "*" else None for n in node))
        expanded = self.prefs.value(f"{key}/expanded")
        if isinstance(expanded, list):
            self.tree.expand_categories(str(n) for n in expanded)

    def _save_columns(self) -> None:
        if self.archive is None:
            return
        key = self._columns_key(self.archive.root)
        self.prefs.setValue(key, self.table.horizontalHeader().saveState())
        for box, name in self._filter_boxes():
            self.prefs.setValue(f"{key}/{name}", box.currentData() or "")
        self.prefs.setValue(f"{key}/text", self.search.text())
        self.prefs.setValue(f"{key}/tree", ["*" if n is None else n
                                            for n in self.tree.current_category()])
        # a list QSettings reads back as a list, one item or none too: "*" keeps it a list
        self.prefs.setValue(f"{key}/expanded", ["*", *self.tree.expanded_categories()])

    def _filter_boxes(self) -> tuple[tuple[QComboBox, str], ...]:
        return ((self.status_filter, "status"), (self.category_filter, "category"),
                (self.domain_filter, "domain"))

    def follow_file(self, changed_here: bool = False) -> None:
        """Show what other writers saved: a terminal's run, ``add`` or ``build``, a person's
        edit in Excel. The window's own run reports as it goes and is followed when it ends;
        ``changed_here``: the window's workspace itself changed tasks (a build's done marks)."""
        workspace = self.workspace
        if workspace is None or self.controller.running:
            return
        if self._refreshing:  # one at a time; a change made here is looked at right after
            self._refresh_again = self._refresh_again or changed_here
            return
        self._refreshing = True

        def refresh() -> Refreshed:
            changed = workspace.refresh() or changed_here
            return Refreshed(workspace.tasks() if changed else None)

        self.jobs.start(refresh, self._refreshed, self._refresh_failed)

    def _refreshed(self, result: Refreshed) -> None:
        self._refreshing = False
        if result.tasks is not None and self.workspace is not None:
            self.model.sync(result.tasks)
            self._refresh_filters()
            self.refreshed.emit()
        if self._refresh_again:
            self._refresh_again = False
            self.follow_file(changed_here=True)

    def _refresh_failed(self, message: str) -> None:
        """A file broken by a hand edit: said once in the status bar; nothing is written over
        it, and the window follows it again once it is fixed (or recovered)."""
        self._refreshing = False
        self.statusBar().showMessage(translate_reason(message))

    def _archive_failed(self, message: str) -> None:
        """Why the archive did not open, in one line in the window's language (a task list
        refused as cut short among them: the pipeline's sentence, translated by its pattern)."""
        message = translate_reason(message)
        self.statusBar().showMessage(message)
        self.log.appendPlainText(message)
        self._update_controls()

    def _refresh_filters(self) -> None:
        """Status, category and domain choices, and the category completers."""
        for box, items in (
            (self.status_filter, self.model.status_choices()),
            (self.category_filter, [(c, c) for c in self.model.categories()]),
            (self.domain_filter, [(h, h) for h in self.model.hosts()]),
        ):
            current = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(self.tr("All"), "")
            for text, data in items:
                box.addItem(text, data)
            box.setCurrentIndex(max(0, box.findData(current)))
            box.blockSignals(False)
        self.intake.set_known_categories(self.model.categories())

    def rules(self) -> Rules:
        """The archive's rules as saved; a broken file is reported and the defaults used."""
        assert self.workspace is not None
        try:
            return self.workspace.rules()
        except RulesError as e:
            self.log.appendPlainText(str(e))
            return Rules()

    # -- intake ----------------------------------------------------------------------------------

    def add_pasted(self) -> None:
        """Add the links in the paste area as pending tasks (saved at once, in a job); show
        what happened to each."""
        workspace = self.workspace
        if workspace is None or workspace.read_only:
            return
        cat1, cat2 = self.intake.categories()
        text, by_folders = self.intake.text_to_add(), self.intake.folders_as_categories()
        self.intake.add_button.setEnabled(False)
        self.jobs.start(lambda: workspace.add_links(text, cat1, cat2, by_folders),
                        self._links_added, self._add_failed)

    def _links_added(self, report: IntakeReport) -> None:
        self.model.add_tasks(report.added)
        for line in self.intake.show_report(report):
            self.log.appendPlainText(line)
        if report.added:
            self._refresh_filters()
        self._update_controls()
        self.intake_done.emit(report)

    def show_harvest(self) -> None:
        """The harvest dialog: a list page's article links, previewed, the checked added."""
        workspace = self.workspace
        if workspace is None or workspace.read_only:
            return
        if self.harvest_dialog is None:
            self.harvest_dialog = HarvestDialog(workspace, self.jobs, self.intake.categories(),
                                                self)
            self.harvest_dialog.added.connect(self._harvested)
        self.harvest_dialog.show()
        self.harvest_dialog.raise_()
        self.harvest_dialog.activateWindow()

    def _harvested(self, report: IntakeReport) -> None:
        """Links a harvest added: in the table and the log (the paste area is not touched)."""
        self.model.add_tasks(report.added)
        self.log.appendPlainText(self.tr("Harvest: added %1 · duplicates %2 · rejected %3")
                                 .replace("%1", str(len(report.added)))
                                 .replace("%2", str(len(report.duplicates)))
                                 .replace("%3", str(len(report.rejected))))
        if report.added:
            self._refresh_filters()
            self.select_tasks([task.id for task in report.added])
        self._update_controls()
        self.intake_done.emit(report)

    def _add_failed(self, message: str) -> None:
        self._archive_failed(message)
        self.intake_done.emit(None)

    # -- the run -------------------------------------------------------------------------------

    def start_run(self, task_ids: list[int] | None = None, retry_failed: bool = False) -> bool:
        """Fetch and clean the runnable tasks (or the given ones) in the run's process."""
        if self.archive is None or not self.writable or self.controller.running:
            return False
        self.run_bar.starting()
        self.controller.run(self.archive, self.settings, task_ids, retry_failed)
        self.statusBar().showMessage(self.tr("Running…"))
        self._update_controls()
        return True

    def reclean(self, task_ids: list[int]) -> bool:
        """Clean stored pages again with the saved rules (after a change): no network."""
        if self.archive is None or not self.writable or self.controller.running or not task_ids:
            return False
        self.controller.reclean(self.archive, self.settings, task_ids)
        self.statusBar().showMessage(self.tr("Cleaning %1 pages again…")
                                     .replace("%1", str(len(task_ids))))
        self._update_controls()
        return True

    def check_updates(self, node: Node | None = None) -> None:
        """Ask the sites again for archived articles (gui.update_check): those of a tree
        node when given, else the selected rows, else the tree's chosen node (All: every one)."""
        if self.workspace is None or self.workspace.read_only or self.controller.running:
            return
        ids = None if node is not None else self.selected_ids() or None
        if ids is None:
            ids = ids_in_node(self.model.tasks(), node or self.tree.current_category())
        self.updates.choose(self.workspace, ids)

    def _start_refresh(self, task_ids: list[int]) -> None:
        if self.archive is None or self.controller.running:
            return
        self.run_bar.starting()
        self.updates.begin()
        self.controller.refresh(self.archive, self.settings, task_ids)
        self.statusBar().showMessage(self.tr("Checking %1 articles for updates…")
                                     .replace("%1", str(len(task_ids))))
        self._update_controls()

    def _updates_checked(self, summary: str) -> None:
        self.statusBar().showMessage(summary.partition("\n")[0])
        self.log.appendPlainText(summary)

    def _tree_menu(self, pos: Any) -> None:
        """The category tree's menu: check the node under the pointer for updates."""
        node = key_of(self.tree.indexAt(pos))
        if node is None:
            return
        menu = QMenu(self)
        action = menu.addAction(self.tr("Check for updates…"), lambda: self.check_updates(node))
        action.setEnabled(self.workspace is not None and not self.controller.running)
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def render_sites(self, task_ids: list[int]) -> None:
        """Pages that need JavaScript: their sites rendered with the browser from now on,
        then these pages tried again. Without a browser here, say what to install."""
        workspace = self.workspace
        if workspace is None or self.controller.running or not task_ids:
            return
        if not self.confirm(self.tr(
                "Render the sites of these %1 pages with the system's browser from now on"
                " (render: browser in rules.yaml), and try them again?")
                .replace("%1", str(len(task_ids)))):
            return

        def rendered(sections: list[str]) -> None:
            self.log.appendPlainText(self.tr("Rendered with the browser from now on: %1")
                                     .replace("%1", ", ".join(sections)))
            self.start_run(task_ids, retry_failed=True)

        def refused(message: str) -> None:
            self.statusBar().showMessage(message)
            self.log.appendPlainText(message)
            self.tell(self.tr("Cannot render here"), message)

        self.jobs.start(lambda: workspace.render_sites(task_ids), rendered, refused)

    def toggle_pause(self) -> None:
        if self.controller.paused:
            self.controller.resume()
            self.statusBar().showMessage(self.tr("Running…"))
        else:
            self.controller.pause()
            self.statusBar().showMessage(self.tr("Paused"))
        self._update_controls()

    def _tasks_changed(self, changes: list[dict[str, Any]]) -> None:
        """The run's changes, shown as they come (the run's process writes them to the file)."""
        shown = self.preview.shown
        for change in changes:
            task = self.model.update_fields(change["id"], run_changes(change))
            if (task is not None and shown is not None and task.id == shown.task.id
                    and task.status != Status.RUNNING):
                self.show_current()

    def _run_done(self, p: Progress) -> None:
        self._after_run(self.run_bar.ended(p), p)

    def _run_failed(self, message: str) -> None:
        self.run_bar.ended(None)
        self._after_run(message, None)

    def _after_run(self, message: str, progress: Progress | None) -> None:
        """Say the run is over, then show the list as the run left it in the file (a run that
        died is reconciled first: its "running" tasks go back to what their outputs show)."""
        self.statusBar().showMessage(message)
        self.log.appendPlainText(message)
        self._update_controls()
        workspace = self.workspace
        if workspace is None:
            self.run_finished.emit(progress)
            return

        def settle() -> Refreshed:
            workspace.reconcile()
            workspace.refresh()
            return Refreshed(workspace.tasks())

        def settled(result: Refreshed) -> None:
            self._refreshed(result)
            self.show_current()
            if progress is not None:  # a check for updates has its own summary
                self._raise_report = not self.updates.active
                self.report_view.refresh()
            self.run_finished.emit(progress)

        def unsettled(error: str) -> None:
            self._archive_failed(error)
            self.run_finished.emit(progress)

        self.jobs.start(settle, settled, unsettled)

    def _report_shown(self, path: str) -> None:
        """The report a run wrote: named in the log, and brought forward after a run."""
        if self._raise_report:
            self._raise_report = False
            self.log.appendPlainText(self.tr("Report: %1").replace("%1", path))
            self.tabs.setCurrentWidget(self.report_view)

    # -- selection actions ----------------------------------------------------------------------

    def selected_ids(self) -> list[int]:
        rows = self.table.selectionModel().selectedRows()
        return sorted(self.model.task_at(self.proxy.mapToSource(i).row()).id for i in rows)

    def current_task(self) -> Task | None:
        index = self.table.selectionModel().currentIndex()
        if not index.isValid():
            return None
        return self.model.task_at(self.proxy.mapToSource(index).row())

    def select_task(self, task_id: int) -> None:
        """Make a task the current, only selected row (scrolls to it)."""
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if self.model.task_at(self.proxy.mapToSource(index).row()).id == task_id:
                flags = self.table.selectionModel().SelectionFlag
                self.table.selectionModel().setCurrentIndex(
                    index, flags.ClearAndSelect | flags.Rows)
                self.table.scrollTo(index)
                return

    def select_tasks(self, task_ids: list[int]) -> None:
        """Select the rows of these tasks (just added) and scroll to the first."""
        wanted = set(task_ids)
        selection = QItemSelection()
        first = None
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if self.model.task_at(self.proxy.mapToSource(index).row()).id in wanted:
                selection.select(index, self.proxy.index(row, len(COLUMNS) - 1))
                first = first or index
        if first is None:
            return
        self.table.selectionModel().select(
            selection, self.table.selectionModel().SelectionFlag.ClearAndSelect)
        self.table.scrollTo(first)

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._update_controls()

    def remove_tasks(self, task_ids: list[int]) -> None:
        """Move tasks to the trash, after asking with the count (Undo remove, or the Trash
        tab, brings them back; their files stay until the trash is emptied)."""
        if (self.workspace is None or self.workspace.read_only or self.controller.running
                or not task_ids):
            return
        question = self.tr("Move %1 tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab"
                           " brings them back.").replace("%1", str(len(task_ids)))
        if not self.confirm(question):
            return
        self.workspace.remove(task_ids)
        self._last_removed = list(task_ids)
        self.model.remove_tasks(task_ids)
        self.preview.clear()
        self._refresh_filters()
        self.statusBar().showMessage(self.tr("%1 tasks moved to the trash").replace(
            "%1", str(len(task_ids))))
        self.save_tasks()
        self.trash.refresh()
        self._update_controls()

    def undo_remove(self) -> None:
        """Bring back the tasks the last Remove moved to the trash."""
        if self.workspace is None or not self._last_removed:
            return
        restored = self.workspace.restore(self._last_removed)
        self._last_removed = []
        self.model.add_tasks(restored)
        self._refresh_filters()
        self.save_tasks()
        self.trash.refresh()
        self.statusBar().showMessage(self.tr("%1 tasks restored").replace(
            "%1", str(len(restored))))
        self._update_controls()

    def rename_category(self, old1: str, old2: str | None, new: str) -> None:
        """A node of the category tree renamed: the category changes in every task of it."""
        tasks = self.model.tasks()
        if old2 is None:
            self.set_category([t.id for t in tasks if t.cat1 == old1], new, None)
        else:
            self.set_category([t.id for t in tasks if t.cat1 == old1 and t.cat2 == old2],
                              None, new)

    def show_task(self, task_id: int) -> None:
        """Select a task's row (from search or the failures view) and show its article."""
        self.select_task(task_id)
        self.tabs.setCurrentWidget(self.preview)

    def _row_activated(self, index: Any) -> None:
        """Double-click or Enter on a row: its article, as the book will show it (the title
        is edited with F2)."""
        if COLUMNS[index.column()] not in ("title", "cat1", "cat2"):
            self.tabs.setCurrentWidget(self.preview)
            self.show_current()

    def open_original(self, task_id: int) -> None:
        task = self.model.task(task_id)
        if task is not None:
            self.open_url(QUrl(task.url))

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

    def copy_urls(self) -> None:
        urls = [t.url for i in self.selected_ids() if (t := self.model.task(i)) is not None]
        QGuiApplication.clipboard().setText("\n".join(urls))

    def show_task_files(self) -> None:
        """The folder of the first selected task's clean page (or raw page before cleaning)."""
        if self.archive is None or not (ids := self.selected_ids()):
            return
        folder = (self.archive.clean_dir if self.archive.has_clean(ids[0])
                  else self.archive.raw_dir)
        self.open_url(QUrl.fromLocalFile(str(folder)))

    def context_menu(self) -> QMenu:
        """The selection's actions, each enabled only where it does something for these
        rows, in groups."""
        tasks = [t for i in self.selected_ids() if (t := self.model.task(i)) is not None]
        running = self.controller.running
        stored = self.archive is not None and any(self.archive.has_raw(t.id) for t in tasks)
        cleaned = self.archive is not None and any(self.archive.has_clean(t.id) for t in tasks)
        runnable = any(t.status in _LEFT for t in tasks)
        failed = any(t.status == Status.FAILED for t in tasks)
        enabled = {
            "run": runnable and not running, "retry": failed and not running,
            "reclean": stored and not running, "check_updates": stored and not running,
            "category": bool(tasks),
            "open_source": bool(tasks), "open_clean": cleaned, "copy_url": bool(tasks),
            "show_folder": stored, "remove": bool(tasks) and not running,
        }
        menu = QMenu(self)
        for group in (("open_source", "open_clean", "show_folder", "copy_url"),
                      ("run", "retry", "reclean", "check_updates"), ("category",), ("remove",)):
            for key in group:
                self.task_actions[key].setEnabled(enabled[key])
                menu.addAction(self.task_actions[key])
            menu.addSeparator()
        return menu

    def _show_empty_hint(self) -> None:
        empty = self.workspace is not None and self.model.rowCount() == 0
        self.empty_hint.setVisible(empty)
        self.table.setVisible(not empty)

    def try_demo_site(self) -> None:
        """Serve the bundled sample site on 127.0.0.1 (until the window closes) and put its
        links in the paste area, filed under a demo category: Add, then Run."""
        from pipeline.usecases.demo import DEMO_CATEGORY, serve_demo_site

        if self._demo_site is None:
            self._demo_site = serve_demo_site()
        self.intake.paste.setPlainText(self._demo_site.paste_text())
        self.intake.cat1.setCurrentText(DEMO_CATEGORY)
        self.statusBar().showMessage(self.tr("The demo site serves at %1: press Add, then Run")
                                     .replace("%1", self._demo_site.base_url))

    def show_search(self) -> None:
        self.tabs.setCurrentWidget(self.search_panel)
        self.search_panel.focus_search()

    def show_about(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("kuaibu")
        except PackageNotFoundError:
            number = "?"
        where = str(self.archive.root) if self.archive is not None else "–"
        QMessageBox.about(self, self.tr("About Kuaibu"), self.tr(
            "<b>Kuaibu 快捕</b> %1<br>Web articles captured for offline reading and bound into"
            " EPUB.<br><br>Archive: %2").replace("%1", number).replace("%2", where))

    def _ask(self, question: str) -> bool:
        answer = QMessageBox.question(self, self.tr("Kuaibu"), question)
        return answer == QMessageBox.StandardButton.Yes

    def _warn(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)

    # -- archives ----------------------------------------------------------------------------

    def ask_open_archive(self) -> None:
        start = str(self.archive.root) if self.archive is not None else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open archive"), start)
        if folder:
            self.open_archive_asking(Path(folder))

    def ask_new_archive(self) -> None:
        start = str(self.archive.root.parent) if self.archive is not None else str(Path.home())
        folder, _ = QFileDialog.getSaveFileName(self, self.tr("New archive"), start)
        if folder:
            self.open_archive_asking(Path(folder))

    def open_archive_asking(self, root: Path) -> bool:
        """Open an archive; a folder that does not exist is made only after asking."""
        if not root.exists() and not self.confirm(self.tr(
                "%1 does not exist. Make a new archive there?").replace("%1", str(root))):
            return False
        self.open_archive(root)
        return True

    def recent_archives(self) -> list[str]:
        value = self.prefs.value(RECENT_KEY, [])
        return [str(v) for v in (value if isinstance(value, list) else [value]) if v]

    def _remember_archive(self, root: Path) -> None:
        recent = [str(root)] + [r for r in self.recent_archives() if r != str(root)]
        self.prefs.setValue(RECENT_KEY, recent[:RECENT_MAX])
        self.recent_menu.clear()
        for path in recent[:RECENT_MAX]:
            action = self.recent_menu.addAction(path)
            action.setData(path)
            action.triggered.connect(self._open_recent)

    def _open_recent(self) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self.open_archive_asking(Path(str(action.data())))

    def set_category(self, task_ids: list[int], cat1: str | None, cat2: str | None) -> None:
        """Set cat1 and/or cat2 (None leaves a field as it is) on several tasks at once."""
        if self.workspace is None or self.workspace.read_only:
            return
        changes = {k: v.strip() for k, v in (("cat1", cat1), ("cat2", cat2)) if v is not None}
        if not changes:
            return
        self.workspace.edit(task_ids, **changes)
        for task_id in task_ids:
            self.model.update_fields(task_id, changes)
        self._refresh_filters()
        self._edited()

    def ask_category(self) -> None:
        ids = self.selected_ids()
        dialog = CategoryDialog(self.model.categories(), self)
        if ids and dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_category(ids, dialog.cat1.text() or None, dialog.cat2.text() or None)

    def open_source_urls(self) -> None:
        for task_id in self.selected_ids()[:20]:  # a slip of the mouse must not open 10,000 tabs
            task = self.model.task(task_id)
            if task is not None:
                self.open_url(QUrl(task.url))

    def open_clean_pages(self) -> None:
        if self.archive is None:
            return
        for task_id in self.selected_ids()[:20]:
            if self.archive.has_clean(task_id):
                self.open_url(QUrl.fromLocalFile(str(self.archive.clean_html(task_id))))

    def show_archive_folder(self) -> None:
        if self.archive is not None:
            self.open_url(QUrl.fromLocalFile(str(self.archive.root)))

    # -- preview ---------------------------------------------------------------------------------

    def show_current(self) -> None:
        task = self.current_task()
        if self.rules_editor is not None:
            self.rules_editor.set_task(task)
        workspace = self.workspace
        if task is None or workspace is None:
            return
        self.jobs.start(lambda: workspace.preview(task), self._preview_loaded)

    def _preview_loaded(self, data: Preview) -> None:
        current = self.current_task()
        if current is not None and current.id == data.task.id:  # not a stale answer
            self.preview.show_data(data)

    # -- edits and saving ------------------------------------------------------------------------

    def _edited(self, _task_id: int = 0) -> None:
        self._save_timer.start()

    def save_tasks(self) -> None:
        """Merge the window's edits into tasks.csv in the background (a run may be writing
        it too: each writes only its own cells)."""
        if self.workspace is None:
            return
        self.jobs.start(self.workspace.save, lambda _none: self.saved.emit(),
                        self._archive_failed)

    # -- rules editor, settings ------------------------------------------------------------------

    def show_rules_editor(self) -> None:
        if self.workspace is None or self.workspace.read_only:
            return
        if self.rules_editor is None:
            self.rules_editor = RulesEditor(self.workspace, self.jobs, self)
            self.rules_editor.run_going = lambda: self.controller.running
            editor = self.rules_editor
            editor.confirm_discard = lambda: self.confirm(editor.discard_question())
            self.rules_editor.apply_requested.connect(self.apply_rules_to_domain)
            self.rules_editor.undone.connect(self._rules_undone)
        self.rules_editor.set_task(self.current_task())
        self.rules_editor.show()
        self.rules_editor.raise_()

    def apply_rules_to_domain(self, section: str) -> None:
        """Clean again every stored page the saved section covers ("default": every page)."""
        if self.workspace is None:
            return
        ids = self.workspace.reclean_ids(domain=None if section == "default" else section)
        if not ids:
            self.statusBar().showMessage(self.tr("No stored pages of %1 yet.").replace(
                "%1", section))
            return
        self._reclean_after_rules(ids)

    def _rules_undone(self, undone: Undone) -> None:
        """rules.yaml is back as it was: clean again the pages of the sections it changed."""
        if undone.task_ids:
            self._reclean_after_rules(undone.task_ids)

    def _reclean_after_rules(self, ids: list[int]) -> None:
        if not self.reclean(ids):  # a run started meanwhile: the pages wait for a Clean again
            self.statusBar().showMessage(self.tr(
                "A run is going; select the tasks and Clean again once it has ended."))

    def show_settings(self) -> None:
        root = self.archive.root if self.archive is not None else Path()
        dialog = SettingsDialog(self.prefs, self.settings, root, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.settings = dialog.chosen_settings()
        if self.workspace is not None:
            self.workspace.settings = self.settings
        if dialog.archive_root() != root:
            self.open_archive(dialog.archive_root())

    # -- building books ------------------------------------------------------------------------

    def build(self) -> bool:
        """Bind the chosen tasks into EPUB books in the background (see ``BuildBar``)."""
        workspace = self.workspace
        if workspace is None or workspace.read_only or self.controller.running:
            return False
        return self.build_bar.build(workspace, self.selected_ids(),
                                    self.category_filter.currentData() or None)

    def _built(self, result: Any) -> None:
        if result is not None:
            self.books.refresh()
            self.follow_file(changed_here=True)  # the bound tasks are done now
        self.build_finished.emit(result)

    # -- state -----------------------------------------------------------------------------------

    @property
    def writable(self) -> bool:
        """An archive is open and may be written (not a read-only one)."""
        return self.workspace is not None and not self.workspace.read_only

    def _update_controls(self) -> None:
        """Each control enabled when it can act: loaded, not during a run when it would
        disturb it, and, when it writes, not on a read-only archive."""
        loaded = self.workspace is not None
        writable = self.writable
        running = self.controller.running
        selected = loaded and self.table.selectionModel().hasSelection()
        self.run_bar.set_state(writable, running, self.controller.paused)
        self.intake.add_button.setEnabled(writable)
        self.demo_button.setEnabled(writable)
        self.build_bar.button.setEnabled(writable and not running)
        for key, action in self.task_actions.items():
            reads = key.startswith("open") or key in ("copy_url", "show_folder")
            action.setEnabled(bool(selected) and (reads or writable) and (
                not running or reads or key == "category"))
        self.selection_button.setEnabled(bool(selected))
        self.undo_remove_action.setEnabled(bool(self._last_removed) and not running)
        self.run_action.setEnabled(writable and not running)
        self.build_action.setEnabled(writable and not running)
        self.check_updates_action.setEnabled(writable and not running)
        self.harvest_action.setEnabled(writable)
        self.rules_action.setEnabled(writable)

    def _restore_window(self) -> None:
        for key, restore in (("window/geometry", self.restoreGeometry),
                             ("window/state", self.restoreState),
                             ("window/main_splitter", self.main_splitter.restoreState),
                             ("window/right_splitter", self.right_splitter.restoreState),
                             ("window/preview_splitter", self.preview.splitter.restoreState)):
            value = self.prefs.value(key)
            if isinstance(value, QByteArray):
                restore(value)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask before stopping a run; stop it cleanly (within a second, nothing half-written),
        then save everything."""
        if self.controller.running and not self.confirm(self.tr(
                "A run is going. Stop it and close? What is left runs next time.")):
            event.ignore()
            return
        if self.rules_editor is not None and not self.rules_editor.close():
            event.ignore()  # the person kept the rules they have not saved
            return
        self.controller.stop()
        self._save_timer.stop()
        self._watch_timer.stop()
        self.controller.wait()
        self.jobs.wait()
        if self.workspace is not None:
            self.workspace.close()  # only the window's own unsaved edits, merged
        self._save_columns()
        self.prefs.setValue("window/geometry", self.saveGeometry())
        self.prefs.setValue("window/state", self.saveState())
        self.prefs.setValue("window/main_splitter", self.main_splitter.saveState())
        self.prefs.setValue("window/right_splitter", self.right_splitter.saveState())
        self.prefs.setValue("window/preview_splitter", self.preview.splitter.saveState())
        self.prefs.sync()
        if self.rules_editor is not None:
            self.rules_editor.close()
        if self._demo_site is not None:
            self._demo_site.close()
        super().closeEvent(event)
