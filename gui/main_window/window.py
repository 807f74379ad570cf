"""``MainWindow``: the parts of this package put together, each signal wired to the part
that answers it, and the window's own life — made, restored as the person left it, closed.

Apart so that the wiring reads in one place: which button, menu action, view or child process
signal leads to which part's method.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QWidget

from gui.drops import DropTarget
from gui.language import shown_name
from gui.main_window.books import WindowBooks
from gui.main_window.intake import WindowIntake
from gui.main_window.menus import MOVES
from gui.main_window.rules import WindowRules
from gui.main_window.shell import TABLE_SHARE
from gui.main_window.task_actions import WindowTaskActions
from gui.report_view import Places
from gui.row_drops import RowDrops
from pipeline.records.settings import Settings


class MainWindow(WindowTaskActions, WindowIntake, WindowBooks, WindowRules):
    """One archive at a time. ``prefs`` and ``settings`` are injectable (tests use their own)."""

    def __init__(self, archive_root: Path, prefs: QSettings, settings: Settings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(prefs, settings, parent)
        self._build_menus()
        self._connect()
        self._restore_window()
        self.open_archive(archive_root)

    def _connect(self) -> None:
        self._save_timer.timeout.connect(self.save_tasks)
        self.file_watch.read.connect(self._follow_tasks)
        self.file_watch.failed.connect(self._watch_failed)
        self.open_archive_action.triggered.connect(self.ask_open_archive)
        self.new_archive_action.triggered.connect(self.ask_new_archive)
        self.settings_action.triggered.connect(self.show_settings)
        self.archive_folder_action.triggered.connect(self.show_archive_folder)
        self.quit_action.triggered.connect(self.close)
        self.find_action.triggered.connect(self.show_search)
        self.run_action.triggered.connect(lambda: self.start_run())
        self.build_action.triggered.connect(self.build)
        self.check_updates_action.triggered.connect(lambda: self.check_updates())
        self.harvest_action.triggered.connect(self.show_harvest)
        self.import_action.triggered.connect(self.ask_import_files)
        self.import_folder_action.triggered.connect(self.ask_import_folder)
        self.export_action.triggered.connect(self.ask_export)
        self.import_progress.connect(self._show_import_progress)
        self.rules_action.triggered.connect(self.show_rules_editor)
        self.about_action.triggered.connect(self.show_about)
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        self.bottom_tabs_action.triggered.connect(self.show_bottom_tabs)
        self.right_splitter.splitterMoved.connect(lambda *_: self.follow_bottom_tabs())
        self.intake.add_button.clicked.connect(self.add_pasted)
        # Ctrl+Enter while the archive opens (Add is off until then) says why nothing happens
        self.intake.paste.submitted.connect(self.say_if_opening)
        self.report_view.places = Places(  # the report's advice names these, as labelled
            settings=shown_name(self.settings_action), rules=shown_name(self.rules_action),
            retry=shown_name(self.run_bar.retry_button),
            failures=self.tabs.tabText(self.tabs.indexOf(self.failures)),
            render=shown_name(self.failures.render_button))
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
        self.search.textChanged.connect(self._text_typed)
        self.search.returnPressed.connect(self.apply_text_filter)
        self.filter_pause.timeout.connect(self.apply_text_filter)
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
        self.tree.move_requested.connect(self.move_to_category)
        self.tree.rename_requested.connect(self.rename_category)
        self.tree.follow(self.model)
        self.search_panel.task_chosen.connect(self.show_task)
        self.failures.task_chosen.connect(self.show_task)
        self.failures.retry_requested.connect(
            lambda ids, _kind: self.start_run(ids, retry_failed=True))
        self.failures.render_requested.connect(self.render_sites)
        # one source of change: each view refreshes the parts it shows from what changed
        self.archive_changed.connect(self._follow_change)  # the table, the tree, the preview
        for view in (self.failures, self.trash, self.books, self.duplicates, self.report_view):
            self.archive_changed.connect(view.follow)
        self.report_view.written.connect(self._report_written)
        self.duplicates.decision_taken.connect(self.take_decision)
        self.filter_state.cleared.connect(self.clear_filters)
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
        for key in MOVES:
            self.task_actions[key].triggered.connect(
                lambda _checked=False, key=key: self.move_selected(key))
        self.task_actions["open_source"].triggered.connect(self.open_source_urls)
        self.task_actions["open_clean"].triggered.connect(self.open_clean_pages)
        self.task_actions["copy_url"].triggered.connect(self.copy_urls)
        self.task_actions["show_folder"].triggered.connect(self.show_task_files)
        self.build_bar.button.clicked.connect(  # Cancel while it builds
            lambda: self.build_bar.cancel() if self.build_bar.building else self.build())
        self.build_bar.said.connect(self.log.appendPlainText)
        self.build_bar.finished.connect(self._built)
        self.build_bar.open_requested.connect(self.open_book)
        self.books.open_requested.connect(self.open_book)
        self.demo_button.clicked.connect(self.try_demo_site)
        self.preview.open_original.connect(self.open_original)
        self.intake.added.connect(self.select_tasks)
        self.archive_loaded.connect(self.follow_paste_draft)
        self.intake.draft.failed.connect(self._paste_draft_failed)
        self.intake.duplicate_chosen.connect(self.select_task)
        self.drops = DropTarget(self)  # drops anywhere on the window go to intake
        self.drops.watch(self)
        self.drops.watch(self.table)
        self.drops.dropped.connect(self.intake.take_drop)
        self.drops.dropped.connect(lambda drop: self.import_saved(drop.saved))
        self.row_drops = RowDrops(self.table)  # rows dropped between rows: arranged there
        self.row_drops.dropped.connect(self.move_dropped)
        self.preview.open_in_book.connect(self.open_in_book)
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.modelReset):
            signal.connect(self._show_empty_hint)
            signal.connect(self.show_filter_state)
        # the filter's own changes (the proxy drops rows as the source is about to: counted
        # again once the source has, above)
        for signal in (self.proxy.rowsInserted, self.proxy.rowsRemoved, self.proxy.modelReset,
                       self.proxy.layoutChanged):
            signal.connect(self.show_filter_state)
        self._update_controls()

    def _restore_window(self) -> None:
        for key, restore in (("window/geometry", self.restoreGeometry),
                             ("window/state", self.restoreState),
                             ("window/main_splitter", self.main_splitter.restoreState),
                             ("window/right_splitter", self.right_splitter.restoreState),
                             ("window/preview_splitter", self.preview.splitter.restoreState)):
            value = self.prefs.value(key)
            if isinstance(value, QByteArray):
                restore(value)
        # the table's share of the height is set once the window has its height (first show)
        self._share_due = not isinstance(self.prefs.value("window/right_splitter"), QByteArray)
        self.follow_bottom_tabs()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._share_due:
            self._share_due = False
            total = sum(self.right_splitter.sizes())
            self.right_splitter.setSizes([total * share // sum(TABLE_SHARE)
                                          for share in TABLE_SHARE])
            self.follow_bottom_tabs()

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
        self.intake.draft.keep_now()  # what was pasted and not added is there next time
        self.controller.stop()
        self._save_timer.stop()
        self.file_watch.stop()
        self.controller.wait()
        self.build_bar.cancel()  # a build stops at its next article, its book left unwritten
        self.jobs.close()  # the jobs in flight end; none starts after (their owner is going)
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
