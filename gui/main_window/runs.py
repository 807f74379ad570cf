"""Run control: starting a run (all, the selection, failures again), cleaning stored pages
again, pausing and stopping, checking archived articles for updates, rendering sites with the
browser, and what the window does while a run reports and after it ends.

Apart because a run lives in a child process (``gui.worker.RunController``) with a life of its
own: the window shows its changes as they come, then reconciles and follows the file, and
brings the run's report forward.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMenu

from gui.category_tree import key_of
from gui.main_window.archive import WindowArchive
from gui.main_window.file_watch import Refreshed, read_tasks
from gui.run_process import run_changes
from gui.update_check import Node, ids_in_node
from pipeline.records.events import Progress
from pipeline.records.task import Status


class WindowRuns(WindowArchive):
    """Runs, re-cleans and checks for updates, in the run's child process."""

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
        self.statusBar().showMessage(self.tr("Cleaning %n pages again…", "", len(task_ids)))
        self._update_controls()
        return True

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

        shown = self.model.tasks()

        def settle() -> Refreshed:
            workspace.reconcile()
            workspace.refresh()
            return read_tasks(workspace, shown)

        def settled(result: Refreshed) -> None:
            self.file_watch.take(result)
            if progress is not None:  # a check for updates has its own summary
                self._report_due = not self.updates.active
                self.report_view.refresh()  # written again; the tab reads it when shown
            self.run_finished.emit(progress)

        def unsettled(error: str) -> None:
            self._archive_failed(error)
            self.run_finished.emit(progress)

        self.jobs.start(settle, settled, unsettled)

    def _report_written(self, path: str) -> None:
        """The report a run wrote: named in the log. Not brought forward: the person may be
        reading an article in the preview; the Report tab reads the new one when shown."""
        if self._report_due:
            self._report_due = False
            self.log.appendPlainText(self.tr("Report: %1").replace("%1", path))

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
        self.statusBar().showMessage(self.tr("Checking %n articles for updates…", "",
                                             len(task_ids)))
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
                "Render the sites of these %n pages with the system's browser from now on"
                " (render: browser in rules.yaml), and try them again?", "", len(task_ids))):
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
