"""Adding links: the paste area's Add, the harvest dialog's Add checked, and the bundled demo
site that fills the paste area; and importing saved pages (File → Import…, or dropped).

Apart because each ends the same way — the new rows in the table, the report in the log —
and none touches the window's run.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from gui.harvest_dialog import HarvestDialog
from gui.language import shown_name
from gui.main_window.archive import WindowArchive
from gui.reasons import task_reason, translate_reason, translate_refusal
from pipeline.intake.links import IntakeReport
from pipeline.usecases.importing import ImportProgress, ImportSummary


class WindowIntake(WindowArchive):
    """Links into tasks: pasted, harvested, or the demo site's; saved pages imported."""

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

    # -- importing saved pages ---------------------------------------------------------------

    def ask_import_files(self) -> None:
        """File → Import saved pages…: the files chosen, imported."""
        files, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Import saved pages"), str(Path.home()),
            self.tr("Saved pages and web archives (*.html *.htm *.mhtml *.mht *.warc"
                    " *.warc.gz *.wacz);;All files (*)"))
        self.import_saved([Path(f) for f in files])

    def ask_import_folder(self) -> None:
        """File → Import a folder of saved pages…: the folder walked, its pages imported."""
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Import a folder of saved pages"), str(Path.home()))
        if folder:
            self.import_saved([Path(folder)])

    def import_saved(self, paths: list[Path]) -> None:
        """Import saved pages (files and folders) in a job, filed under the paste area's
        categories; what happened said in the log, one line for each file not imported."""
        workspace = self.workspace
        if paths and self.say_if_opening():
            return
        if not paths or workspace is None or workspace.read_only or self.importing:
            return
        cat1, cat2 = self.intake.categories()
        self.importing = True
        self._update_controls()
        self.statusBar().showMessage(self.tr("Importing saved pages…"))
        self.jobs.start(lambda: workspace.import_pages(paths, cat1, cat2,
                                                       progress=self.import_progress.emit),
                        self._imported, self._import_failed)

    def _show_import_progress(self, progress: ImportProgress) -> None:
        if self.importing:
            self.statusBar().showMessage(
                self.tr("Importing saved pages… %1/%2 files, %n pages read", "", progress.pages)
                .replace("%1", str(progress.files_done)).replace("%2", str(progress.files)))

    def _imported(self, summary: ImportSummary) -> None:
        lines = [self.tr("Import: imported %1 · no article %2 · duplicates %3 · not imported %4")
                 .replace("%1", str(len(summary.imported)))
                 .replace("%2", str(len(summary.failed)))
                 .replace("%3", str(len(summary.duplicates)))
                 .replace("%4", str(len(summary.refused)))]
        lines += [self.tr("Back from the trash as #%1: %2").replace("%1", str(task_id))
                  .replace("%2", summary.origins[task_id])
                  for task_id in sorted(summary.restored)]
        lines += [self.tr("No article in %1: %2").replace("%1", summary.origins[task.id])
                  .replace("%2", task_reason(task)) for task in summary.failed]
        lines += [self.tr("Already in the list as #%1: %2").replace("%1", str(existing))
                  .replace("%2", origin) for origin, existing in summary.duplicates]
        lines += [self.tr("Not imported: %1: %2").replace("%1", refused.origin)
                  .replace("%2", translate_refusal(refused)) for refused in summary.refused]
        for line in lines:
            self.log.appendPlainText(line)
        self.statusBar().showMessage(lines[0])
        self.importing = False
        self._update_controls()
        if summary.origins and self.workspace is not None:
            self._follow_tasks(self.workspace.tasks())  # the new rows, to select
            self.select_tasks([task.id for task in summary.imported])
        self.import_finished.emit(summary)

    def _import_failed(self, message: str) -> None:
        line = self.tr("Import: %1").replace("%1", translate_reason(message))
        self.log.appendPlainText(line)
        self.statusBar().showMessage(line)
        self.importing = False
        self._update_controls()
        self.import_finished.emit(None)
