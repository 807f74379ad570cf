"""Adding links: the paste area's Add, the harvest dialog's Add checked, and the bundled demo
site that fills the paste area.

Apart because each ends the same way — the new rows in the table, the report in the log,
``intake_done`` — and none touches a run.
"""

from __future__ import annotations

from gui.harvest_dialog import HarvestDialog
from gui.language import shown_name
from gui.main_window.archive import WindowArchive
from gui.reasons import translate_reason
from pipeline.intake.links import IntakeReport


class WindowIntake(WindowArchive):
    """Links into tasks: pasted, harvested, or the demo site's."""

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
        self.intake.draft.keep_now()  # the links added are out of the draft at once
        if report.added:
            self._refresh_filters()
        self._update_controls()
        self.intake_done.emit(report)

    def follow_paste_draft(self) -> None:
        """The archive just opened: the paste area shows its draft (the one left keeps its)."""
        if self.workspace is not None:
            self.intake.draft.follow(self.workspace)

    def _paste_draft_failed(self, message: str) -> None:
        self.statusBar().showMessage(self.tr("The paste area's draft: %1").replace(
            "%1", translate_reason(message)))

    def _add_failed(self, message: str) -> None:
        self._archive_failed(message)
        self.intake_done.emit(None)

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

    def try_demo_site(self) -> None:
        """Serve the bundled sample site on 127.0.0.1 (until the window closes) and put its
        links in the paste area, filed under a demo category: Add, then Run."""
        from pipeline.usecases.demo import DEMO_CATEGORY, serve_demo_site

        if self._demo_site is None:
            self._demo_site = serve_demo_site()
        self.intake.paste.setPlainText(self._demo_site.paste_text())
        self.intake.cat1.setCurrentText(DEMO_CATEGORY)
        self.statusBar().showMessage(self.tr("The demo site serves at %1: press %2, then %3")
                                     .replace("%1", self._demo_site.base_url)
                                     .replace("%2", shown_name(self.intake.add_button))
                                     .replace("%3", shown_name(self.run_bar.run_button)))
