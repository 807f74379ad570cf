"""The site rules editor as the window opens it, and what follows a rules change: the stored
pages it covers cleaned again (after Apply to domain, or after Undo last rules change).

Apart because the editor itself is ``gui.rules_editor``; this is only its tie to the window's
run control.
"""

from __future__ import annotations

from gui.main_window.runs import WindowRuns
from gui.rules_editor.window import RulesEditor
from pipeline.usecases.rules import Undone


class WindowRules(WindowRuns):
    """Open the rules editor; clean again what a saved or undone change covers."""

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
