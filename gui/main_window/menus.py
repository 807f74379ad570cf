"""The window's commands: the menu bar, the toolbar and the actions on the selected rows, and
which of them (and of the window's buttons) can act at each moment.

Apart so that the whole list of what a person can ask of the window, with its shortcuts, reads
in one place. The actions are made here and wired to the parts that carry them out in
``gui.main_window.window``; the context menu that offers the selection's actions row by row is
in ``task_actions``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from gui.main_window.shell import TABLE_SHARE, WindowShell
from gui.shortcuts_dialog import ShortcutsDialog, window_shortcuts

# The selection's moves in the list (its order is a book's), as ``Workspace.move`` places.
MOVES = ("move_up", "move_down", "move_top", "move_bottom")


def _acts_now(command: QUndoCommand | None, running: bool) -> bool:
    """Undo or Redo can act: there is an edit to take back or make again, and a run does not
    hold the list it would change (a removal's, as Remove itself)."""
    return command is not None and (not running or getattr(command, "during_run", True))


class WindowMenus(WindowShell):
    """The menus and toolbar over the shell's widgets, and ``_update_controls``."""

    def _build_menus(self) -> None:
        # actions on the selection
        self.task_actions: dict[str, QAction] = {}
        for key, text, shortcut in (
            ("run", self.tr("Run selected"), None),
            ("reclean", self.tr("Clean again"), None),
            ("check_updates", self.tr("Check for updates…"), None),
            ("retry", self.tr("Retry"), None),
            ("category", self.tr("Change category…"), None),
            ("move_up", self.tr("Move up"), QKeySequence("Ctrl+Shift+Up")),
            ("move_down", self.tr("Move down"), QKeySequence("Ctrl+Shift+Down")),
            ("move_top", self.tr("Move to top"), QKeySequence("Ctrl+Shift+Home")),
            ("move_bottom", self.tr("Move to bottom"), QKeySequence("Ctrl+Shift+End")),
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
        self.selection_menu = QMenu(self)
        self.selection_menu.addActions(list(self.task_actions.values()))
        self.selection_button.setMenu(self.selection_menu)

        menu = self.menuBar().addMenu(self.tr("&File"))
        self.open_archive_action = menu.addAction(self.tr("&Open archive…"),
                                                  QKeySequence.StandardKey.Open)
        self.new_archive_action = menu.addAction(self.tr("&New archive…"),
                                                 QKeySequence.StandardKey.New)
        self.recent_menu = menu.addMenu(self.tr("&Recent archives"))
        menu.addSeparator()
        self.import_action = menu.addAction(self.tr("&Import saved pages…"),
                                            QKeySequence("Ctrl+I"))
        self.import_folder_action = menu.addAction(self.tr("Import a &folder of saved pages…"))
        self.export_action = menu.addAction(self.tr("&Export as WARC or WACZ…"))
        menu.addSeparator()
        self.settings_action = menu.addAction(self.tr("&Settings…"))
        self.archive_folder_action = menu.addAction(self.tr("Show archive folder"))
        menu.addSeparator()
        self.quit_action = menu.addAction(self.tr("&Quit"), QKeySequence.StandardKey.Quit)
        edit = self.menuBar().addMenu(self.tr("&Edit"))
        # their text names the edit ("Undo Rename category"), kept so by the stack
        self.undo_action = self.undo_stack.createUndoAction(self, self.tr("Undo"))
        self.undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_stack.createRedoAction(self, self.tr("Redo"))
        self.redo_action.setShortcuts(QKeySequence.StandardKey.Redo)
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        for signal in (self.undo_stack.canUndoChanged, self.undo_stack.canRedoChanged):
            signal.connect(self._update_controls)  # after the stack's own: a run's rule on top
        self.find_action = edit.addAction(self.tr("&Find in articles…"),
                                          QKeySequence.StandardKey.Find)
        tasks = self.menuBar().addMenu(self.tr("&Tasks"))
        self.run_action = tasks.addAction(self.tr("&Run"), QKeySequence("Ctrl+R"))
        self.build_action = tasks.addAction(self.tr("&Build EPUB"), QKeySequence("Ctrl+B"))
        self.check_updates_action = tasks.addAction(self.tr("Check for updates…"))
        self.harvest_action = tasks.addAction(self.tr("&Harvest a list page…"),
                                              QKeySequence("Ctrl+L"))
        tools = self.menuBar().addMenu(self.tr("&Tools"))
        self.rules_action = tools.addAction(self.tr("Site &rules…"))
        view = self.menuBar().addMenu(self.tr("&View"))
        self.bottom_tabs_action = view.addAction(self.tr("&Bottom tabs"), QKeySequence("Ctrl+J"))
        self.bottom_tabs_action.setCheckable(True)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self.shortcuts_action = help_menu.addAction(self.tr("&Keyboard shortcuts"),
                                                    QKeySequence.StandardKey.HelpContents)
        self.about_action = help_menu.addAction(self.tr("&About Kuaibu"))
        toolbar = self.addToolBar(self.tr("Main"))
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        for action in (self.run_action, self.build_action, self.find_action, self.rules_action):
            toolbar.addAction(action)
        self.statusBar()
        self.resize(1280, 820)

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
                not running or reads or key == "category" or key in MOVES))
        self.selection_button.setEnabled(bool(selected))
        stack = self.undo_stack
        self.undo_action.setEnabled(_acts_now(stack.command(stack.index() - 1), running))
        self.redo_action.setEnabled(_acts_now(stack.command(stack.index()), running))
        self.run_action.setEnabled(writable and not running)
        self.build_action.setEnabled(writable and not running)
        self.check_updates_action.setEnabled(writable and not running)
        self.harvest_action.setEnabled(writable)
        for action in (self.import_action, self.import_folder_action):
            action.setEnabled(writable and not running and not self.importing)
        self.export_action.setEnabled(loaded and not self.exporting)  # it only reads
        self.rules_action.setEnabled(writable)

    # -- the bottom tabs, folded away or shown ----------------------------------------------------

    def bring_tab(self, page: QWidget) -> None:
        """Show a bottom tab, opening the tabs when they were folded away."""
        self.tabs.setCurrentWidget(page)
        if not self.bottom_tabs_shown():
            self.show_bottom_tabs(True)

    def bottom_tabs_shown(self) -> bool:
        return self.right_splitter.sizes()[1] > 0

    def show_bottom_tabs(self, shown: bool) -> None:
        """Open the bottom tabs at the height they had (or their first share), or fold them
        away so the table has the whole height; View → Bottom tabs says which."""
        sizes = self.right_splitter.sizes()
        total = sum(sizes)
        if shown and sizes[1] == 0:
            height = self._tabs_height or total * TABLE_SHARE[1] // sum(TABLE_SHARE)
            self.right_splitter.setSizes([max(total - height, 0), height])
        elif not shown and sizes[1] > 0:
            self._tabs_height = sizes[1]
            self.right_splitter.setSizes([total, 0])
        self.follow_bottom_tabs()

    def follow_bottom_tabs(self) -> None:
        """View → Bottom tabs checked while the tabs show (dragged shut or opened alike)."""
        self.bottom_tabs_action.setChecked(self.bottom_tabs_shown())

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts, beside the window (not modal: a person tries them)."""
        self.shortcuts_dialog = ShortcutsDialog(window_shortcuts(self), self)
        self.shortcuts_dialog.show()

    def show_search(self) -> None:
        self.bring_tab(self.search_panel)
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
