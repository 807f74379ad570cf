"""The archive the window is on: opening one (asked for, new, recent, or named in Settings),
what the window shows once it is open, following tasks.csv as others save it, and saving the
window's own edits into it.

Apart because it is the window's one tie to the files: everything else reads the archive
through the workspace this opens, and writes only through its use cases. How the file is
watched is ``file_watch``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog

from gui.language import shown_name
from gui.main_window.shell import LEFT_TO_RUN
from gui.main_window.table import WindowTable
from gui.reasons import translate_reason
from gui.settings_dialog import ARCHIVE_KEY, SettingsDialog
from gui.task_model import TaskRows, prepare_rows
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.usecases.changed import Changed
from pipeline.usecases.exporting import WarcExport
from pipeline.usecases.workspace import Workspace, tasks_on_file

RECENT_KEY = "archives/recent"
RECENT_MAX = 8


@dataclass
class Opened:
    """An archive opened in a job: its workspace and its tasks made ready for the table."""

    workspace: Workspace
    rows: TaskRows


def opened(root: Path, settings: Settings) -> Opened:
    """Open an archive and read its tasks once, off the GUI thread (at 100,000 tasks both
    take seconds; the window would freeze through them)."""
    with _collector_held():
        workspace = Workspace.open(root, settings)
        return Opened(workspace, prepare_rows(workspace.tasks()))


@contextmanager
def _collector_held() -> Iterator[None]:
    """Python's cycle collector held while an archive's records are made, and those records
    kept out of its later scans (``gc.freeze``). Reading 100,000 tasks made it scan the
    growing heap again and again, each scan holding the one interpreter lock for up to 0.8 s:
    the window froze though the work was on another thread. The records live as long as the
    archive is open; the next open hands the last one's back to the collector first."""
    gc.unfreeze()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


class WindowArchive(WindowTable):
    """Open, follow and save the archive."""

    def open_archive(self, root: Path) -> None:
        """Open an archive in the background; the table fills when it is ready. Until then the
        window says, in the table's place, that it is reading the archive and about how many
        tasks (counted in a job of its own, at once: reading 100,000 takes seconds)."""
        if self.controller.running:
            return
        if self.workspace is not None:
            self._save_columns()
            self.workspace.close()
        self.workspace = None
        self.opening = root
        self.undo_stack.clear()  # the edits of the archive left are not this one's to undo
        self.file_watch.stop()
        self.model.editor = None
        self.model.set_tasks([])
        self.preview.clear()
        said = self.tr("Opening %1…").replace("%1", str(root))
        self.statusBar().showMessage(said)
        self.opening_hint.setText(said)
        self._show_empty_hint()
        settings = self.settings
        self.jobs.start(lambda: tasks_on_file(root), lambda n: self._counted(root, n))
        self.jobs.start(lambda: opened(root, settings), lambda o: self._opened(root, o),
                        lambda message: self._open_failed(root, message))
        self._update_controls()

    def _opened(self, root: Path, opening: Opened) -> None:
        """An open's answer: handed over if it is still the archive asked for, else closed
        unseen (another was asked for while this one was read)."""
        if self.opening == root:
            self._archive_ready(opening)
        else:
            opening.workspace.close()

    def _open_failed(self, root: Path, message: str) -> None:
        """The archive did not open: the table's place says nothing more of it, and why is
        said as every failure is."""
        if self.opening == root:
            self.opening = None
            self._show_empty_hint()
            self.show_filter_state()
        self._archive_failed(message)

    def _counted(self, root: Path, tasks: int) -> None:
        """About how many tasks the archive being opened lists: said while they are read."""
        if self.opening == root and tasks:
            self.opening_hint.setText(self.tr("Opening %1: reading about %n tasks…", "",
                                              tasks).replace("%1", str(root)))

    def say_if_opening(self) -> bool:
        """While an archive opens, an action that needs its tasks says so in one line (and
        does nothing): True then."""
        if self.opening is None:
            return False
        line = self.tr("%1 is still opening: its tasks are being read. Try again once the"
                       " table shows them.").replace("%1", str(self.opening))
        self.statusBar().showMessage(line)
        self.log.appendPlainText(line)
        return True

    def _archive_ready(self, opening: Opened) -> None:
        """The archive open and its tasks made ready, both off the GUI thread: here they are
        only handed over (nothing walks the tasks again)."""
        workspace = self.workspace = opening.workspace
        self.opening = None
        self.listen_to(workspace)
        self.prefs.setValue(ARCHIVE_KEY, str(workspace.archive.root))
        self.model.set_rows(opening.rows)
        self.build_bar.set_workspace(workspace)
        self._refresh_filters()
        self.setWindowTitle(self.tr("Kuaibu — %1").replace("%1", str(workspace.archive.root)))
        self.statusBar().showMessage(self.tr("Opened %1").replace(
            "%1", str(workspace.archive.root)))
        if self.rules_editor is not None:
            self.rules_editor.close()
            self.rules_editor = None
        for view in (self.search_panel, self.failures, self.trash, self.books, self.duplicates,
                     self.report_view):
            view.set_workspace(workspace)
        if self.harvest_dialog is not None:
            self.harvest_dialog.close()
            self.harvest_dialog = None
        self.tree.set_counts(self.model.node_counts())
        self._remember_archive(workspace.archive.root)
        self._restore_columns(workspace.archive.root)
        left = sum(n for status, n in self.model.status_counts().items()
                   if status in LEFT_TO_RUN)
        if left:
            self.statusBar().showMessage(self.tr(
                "Opened %1; %n tasks wait to be run (%2 takes them up)", "", left).replace(
                "%1", str(workspace.archive.root)).replace(
                "%2", shown_name(self.run_bar.run_button)))
        if workspace.read_only:
            self.setWindowTitle(self.tr("Kuaibu — %1 (read-only)").replace(
                "%1", str(workspace.archive.root)))
            self.statusBar().showMessage(self.tr(
                "Read-only: %1 cannot be written here (a backup, a disc or another user's"
                " folder). Search, previews and books work; adding, running and building are"
                " off.").replace("%1", str(workspace.archive.root)))
        self.file_watch.start()
        self._update_controls()
        self.archive_loaded.emit()

    def _archive_failed(self, message: str) -> None:
        """Why the archive did not open, in one line in the window's language (a task list
        refused as cut short among them: the pipeline's sentence, translated by its pattern)."""
        message = translate_reason(message)
        self.statusBar().showMessage(message)
        self.log.appendPlainText(message)
        self._update_controls()

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

    def ask_export(self) -> None:
        """File → Export as WARC or WACZ…: the file asked for, then ``export``."""
        if self.workspace is None:
            return
        start = Path.home() / f"{self.workspace.archive.name}.warc.gz"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export as WARC or WACZ"),
                                              str(start),
                                              self.tr("WARC (*.warc.gz);;WACZ (*.wacz)"))
        if path:
            self.export(Path(path))

    def export(self, path: Path) -> None:
        """What the archive fetched written to ``path`` in a job: a WACZ package when the name
        ends in .wacz, else WARC; the category the table shows, when one is chosen (as the
        build row binds it). It only reads the archive: a read-only one exports too."""
        workspace = self.workspace
        if workspace is None or self.exporting:
            return
        cat1 = self.category_filter.currentData() or None
        self.exporting = True
        self._update_controls()
        self.statusBar().showMessage(self.tr("Exporting to %1…").replace("%1", str(path)))
        self.jobs.start(lambda: workspace.export_warc(
            path, wacz=path.name.lower().endswith(".wacz"), cat1=cat1),
            self._exported, self._export_failed)

    def _exported(self, result: WarcExport) -> None:
        line = self.tr("Exported %1 (pages %2 · images %3)").replace(
            "%1", str(result.path)).replace("%2", str(result.pages)).replace(
            "%3", str(result.images))
        self._export_done(line, result)

    def _export_failed(self, message: str) -> None:
        self._export_done(self.tr("Export: %1").replace("%1", translate_reason(message)), None)

    def _export_done(self, line: str, result: WarcExport | None) -> None:
        self.log.appendPlainText(line)
        self.statusBar().showMessage(line)
        self.exporting = False
        self._update_controls()
        self.export_finished.emit(result)

    def show_archive_folder(self) -> None:
        if self.archive is not None:
            self.open_url(QUrl.fromLocalFile(str(self.archive.root)))

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

    def _follow_change(self, change: Changed) -> None:
        """The table's part of a change (``archive_changed``): the tasks read again when they
        changed, whoever changed them; the tree and the preview follow the table."""
        if Changed.TASKS in change:
            self.file_watch.follow(changed_here=True)

    def _follow_tasks(self, tasks: list[Task]) -> None:
        """The table shows the tasks as the workspace holds them (after a change made here,
        what another writer saved, what a run left in the file)."""
        self.model.sync(tasks)
        self._refresh_filters()
        self.follow_preview()
        self.refreshed.emit()

    def _watch_failed(self, message: str) -> None:
        """A file broken by a hand edit: said once in the status bar."""
        self.statusBar().showMessage(translate_reason(message))

    def _edited(self, _task_id: int = 0) -> None:
        self._save_timer.start()

    def save_tasks(self) -> None:
        """Merge the window's edits into tasks.csv in the background (a run may be writing
        it too: each writes only its own cells)."""
        if self.workspace is None:
            return
        self.jobs.start(self.workspace.save, lambda _none: self.saved.emit(),
                        self._archive_failed)
