"""The rules editor: the form and rules.yaml kept as one, checked as you type, and a live
preview of the chosen task under the rules as they stand, before anything is saved.

The form is the truth: each edit (debounced) is written into its section's lines of the text
(``Workspace.edit_rules_text``, comments kept), and the rules the preview uses are the text's
last valid rules with the form's section as the form says. Invalid means invalid: a field that
cannot be used is marked at the field and at its line in the text, and Save, Apply and Test on
this domain wait until it is fixed. "Apply to domain" asks with the count of the domain's
stored pages before saving and having the window clean those pages again (a task whose new
article fails keeps its old one); "Undo last rules change" puts the previous rules.yaml back
and has them cleaned again.

This module holds the window that composes the parts and keeps the form and the text as one,
and the actions on rules.yaml (save, apply, undo); each other concern has a module of its own
beside it: ``form``, ``text_edit``, ``task_preview`` (the live preview), ``domain_trial`` (Test
on this domain), ``pick_content``, ``keys_help`` and ``messages``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gui.rules_editor.domain_trial import DomainTrial, TrialRun
from gui.rules_editor.form import RulesForm
from gui.rules_editor.keys_help import show_key_help
from gui.rules_editor.messages import describe
from gui.rules_editor.pick_content import ContentPicker
from gui.rules_editor.rich_text import esc, red
from gui.rules_editor.task_preview import TaskPreview
from gui.rules_editor.text_edit import RulesTextEdit
from gui.worker import Jobs
from pipeline.records.errors import KuaibuError, RulesError
from pipeline.records.task import Task, cap_text
from pipeline.rules.model import Rules, SiteRules
from pipeline.usecases.rules import Undone
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of

# Typing settles for this long before the text is checked and the preview made again.
DEBOUNCE_MS = 300


class RulesEditor(QWidget):
    """A window over one archive's rules.yaml; ``task`` is the row selected in the main window."""

    validated = Signal(str)  # "" when the text and the form are valid, else the first problem
    apply_requested = Signal(str)  # a section was saved: clean that domain's pages again
    undone = Signal(object)  # Undone: rules.yaml is back; clean its task_ids again
    saved = Signal()

    def __init__(self, workspace: Workspace, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.workspace = workspace
        archive = workspace.archive
        self.setWindowTitle(self.tr("Site rules — %1").replace("%1", str(archive.rules_path)))
        self._jobs = jobs
        self.task: Task | None = None
        self.rules: Rules | None = None  # the last valid parse of the text
        self._valid_text = ""  # the text it was parsed from
        self.run_going: Callable[[], bool] = lambda: False  # the window says when a run is
        self._text_error = ""
        self._unreadable = ""  # why rules.yaml as saved cannot be shown (too large, not UTF-8)
        self.confirm_box: QMessageBox | None = None  # Apply's question, while it is open
        self.confirm_yes: QPushButton | None = None  # its "Clean again" button
        # asked before closing over edits not saved; tests put their own answer here
        self.confirm_discard: Callable[[], bool] = self._ask_to_discard

        self.picker = ContentPicker(workspace, jobs, lambda: self.task,
                                    lambda: self.rules or Rules())
        self.form = RulesForm(workspace, jobs, {"content_selector": self.picker.button})
        self.task_preview = TaskPreview(workspace, jobs, self.form, lambda: self.rules)
        self.trial = DomainTrial(workspace, jobs)
        self.editor = RulesTextEdit()
        self.results = QTabWidget()
        self.results.addTab(self.task_preview, self.tr("This task"))
        self.results.addTab(self.trial, self.tr("This domain"))
        self.results.addTab(self.picker, self.tr("Pick content"))
        splitter = QSplitter()
        splitter.addWidget(self._build_left(archive.rules_path.name))
        splitter.addWidget(self.results)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self._form_timer = QTimer(self)
        self._form_timer.setSingleShot(True)
        self._form_timer.setInterval(DEBOUNCE_MS)
        self._form_timer.timeout.connect(self._form_settled)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(DEBOUNCE_MS)
        self._text_timer.timeout.connect(self._text_settled)
        self.editor.typed.connect(self._text_typed)
        self.form.edited.connect(self._form_edited)
        self.form.section_chosen.connect(self._section_chosen)
        self.picker.button.clicked.connect(self.pick_content)
        self.picker.proposed.connect(self._proposed)
        self.trial.task_chosen.connect(self._trial_chosen)
        self.resize(1280, 800)
        self.reload()

    def _build_left(self, file_name: str) -> QWidget:
        """The form over the text, its status and the actions on rules.yaml."""
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result = QLabel()  # what the last action did
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        keys_button = QPushButton(self.tr("Keys…"))
        keys_button.setToolTip(self.tr("What each key of rules.yaml does"))
        keys_button.clicked.connect(lambda: show_key_help(self))
        text_header = QHBoxLayout()
        text_header.addWidget(QLabel(f"<b>{esc(file_name)}</b>"))
        text_header.addStretch(1)
        text_header.addWidget(keys_button)

        self.domain_button = QPushButton(self.tr("Test on this domain"))
        self.domain_button.setToolTip(self.tr(
            "Extract every stored page of the section's domain again with these rules, nothing"
            " saved, and list them before and after"))
        self.domain_button.clicked.connect(self.test_on_domain)
        self.apply_button = QPushButton(self.tr("Apply to domain"))
        self.apply_button.setToolTip(self.tr(
            "Save, then clean every stored page of the section's domain again (asks first)"))
        self.apply_button.clicked.connect(self.apply_to_domain)
        self.undo_button = QPushButton(self.tr("Undo last rules change"))
        self.undo_button.setToolTip(self.tr(
            "Put rules.yaml back as it was before the last save, and clean the pages it"
            " changed again (edits not saved here are dropped)"))
        self.undo_button.clicked.connect(self.undo_last_change)
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.clicked.connect(self.save)
        buttons = QHBoxLayout()
        for b in (self.domain_button, self.apply_button, self.undo_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)

        left = QWidget()
        layout = QVBoxLayout(left)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.form)
        layout.addLayout(text_header)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.result)
        layout.addLayout(buttons)
        return left

    # -- the text ------------------------------------------------------------------------------

    def reload(self) -> None:
        """Show rules.yaml as saved (after opening, an undo)."""
        try:
            text, self._unreadable = self.workspace.rules_text(), ""
        except RulesError as e:  # shown as its reason, and not to be typed over by mistake
            text, self._unreadable = "", describe(e)
        self.editor.setReadOnly(bool(self._unreadable))
        self.editor.show_text(text)
        self._text_timer.stop()
        self._form_timer.stop()
        self.validate()
        self._fill_form(self.form.current_section())
        self._update_undo()
        self.refresh_preview()

    def _text_typed(self) -> None:
        self.result.clear()
        self._text_timer.start()

    def _text_settled(self) -> None:
        """The person stopped typing in the text: check it, show its values in the form."""
        if self.validate():
            self._fill_form(self.form.current_section())
        self.refresh_preview()

    def validate(self) -> bool:
        """Check the text as it stands and the form's fields; show the line and message of
        the first problem, or "Valid" when there is none. Save, Apply and Test on this domain
        are enabled only then."""
        text = self.editor.toPlainText()
        line: int | None = None
        message = self._unreadable
        if not message:
            try:
                rules = self.workspace.check_rules(text)
            except RulesError as e:
                line, message = e.line, describe(e)
            else:
                self.rules, self._valid_text = rules, text
                self.form.set_sections(["default", *sorted(rules.domains)])
        self._text_error = message
        self.editor.mark_line(line)
        self._show_status()
        return not message

    def _show_status(self) -> None:
        """The first problem in red, or "Valid": never both, and nothing stale."""
        problem = self._text_error or next(iter(self.form.problems.values()), "")
        if problem:
            self.status.setText(red(f"✗ {esc(problem)}"))
        else:
            valid = self.tr("Valid")
            self.status.setText(f"<span style='color:#2e7d32'>✓ {valid}</span>")
        usable = not problem
        for button in (self.save_button, self.apply_button, self.domain_button):
            button.setEnabled(usable)
        self.validated.emit(problem)

    def _update_undo(self) -> None:
        self.undo_button.setEnabled(bool(self.workspace.saved_rules()))

    # -- the form ------------------------------------------------------------------------------

    def set_task(self, task: Task | None) -> None:
        """The task the preview shows; a new one brings its domain's section into the form."""
        changed = task is None or self.task is None or task.id != self.task.id
        self.task = task
        if task is not None and changed and self.rules is not None:
            host = host_of(task.url)
            section = self.rules.section_for_host(host)
            self.form.choose_section(section)
            self._fill_form(section)
        if self.isVisible():  # a closed editor previews nothing; showing it again does
            self.refresh_preview()

    def _section_chosen(self, section: str) -> None:
        self._fill_form(section)
        self.refresh_preview()

    def _fill_form(self, section: str) -> None:
        """Show a section's values (from the text's last valid rules) in the form."""
        if self.rules is None:
            return
        # a domain's own keys only (not the defaults under them): what its lines say
        site = (self.rules.default if section == "default"
                else replace(SiteRules(), **self.rules.domains.get(section, {})))
        self.form.show_values(site)
        self.form.check()
        self._show_status()

    def _form_edited(self) -> None:
        self.result.clear()
        self._form_timer.start()

    def _form_settled(self) -> None:
        self.write_form()
        self.refresh_preview()

    def write_form(self) -> None:
        """Put the form's values into the section's lines of the text, now (comments and
        other sections are kept); a value that cannot be used is written too, so its line
        is marked as well as its field."""
        self._form_timer.stop()
        self.form.check()
        section = self.form.current_section()
        if not section:
            self._show_status()
            return
        current = self.editor.toPlainText()
        text = self.workspace.edit_rules_text(current, section, self.form.values())
        if text is None:
            self.form.problems["section"] = self.tr(
                "Section %1 is written inline; edit it in the text.").replace("%1", section)
            self._show_status()
            return
        if text != current:
            self.editor.replace_text(text)
        self._text_timer.stop()
        self.validate()
        self.editor.show_section(section)

    def form_rules(self) -> Rules | None:
        """The rules as the form says: the text's last valid rules with the form's section
        set from its fields (what Save would write); None while a field cannot be used."""
        self.form.check()
        if self.form.problems:
            return None
        section = self.form.current_section() or "default"
        text = self.workspace.edit_rules_text(self._valid_text, section, self.form.values())
        if text is None:  # the section is written inline: the form cannot change it
            return self.rules
        try:
            return self.workspace.check_rules(text)
        except RulesError:
            return None

    def _flush(self) -> bool:
        """Edits still settling are taken in now (a button pressed right after typing acts on
        what was typed); True when the text and the form are valid."""
        if self._form_timer.isActive():
            self.write_form()
        elif self._text_timer.isActive():
            self._text_timer.stop()
            if self.validate():
                self._fill_form(self.form.current_section())
        else:
            self.validate()
        return not (self._text_error or self.form.problems)

    # -- the preview, the domain, pick content -------------------------------------------------

    def refresh_preview(self) -> None:
        """The task under the rules as the form says, made again (``TaskPreview``)."""
        self.task_preview.refresh(self.task, self.form_rules)

    def test_on_task(self) -> None:
        """Take in what is being typed and show the task under it now."""
        self._flush()
        self.refresh_preview()

    def test_on_domain(self) -> None:
        """Every stored page of the section's domain, re-extracted with the rules as they
        stand (nothing written), in the background."""
        if self._flush():
            self._run_trial(then_apply=False)

    def _run_trial(self, then_apply: bool) -> None:
        assert self.rules is not None
        self.results.setCurrentWidget(self.trial)
        self.trial.run(self.form.current_section() or "default", self.editor.toPlainText(),
                       self.rules, self._ask_apply if then_apply else None)

    def _trial_chosen(self, task: Task) -> None:
        """A row of the domain's list: preview that task."""
        self.set_task(task)
        self.results.setCurrentWidget(self.task_preview)

    def pick_content(self) -> None:
        """Propose the element holding the task's article for Content selector
        (``ContentPicker``)."""
        task = self.task_preview.ready(self.task)
        if task is not None:
            self.results.setCurrentWidget(self.picker)
        self.picker.pick(task)

    def _proposed(self, selector: str) -> None:
        """A selector from Pick content: into the field (the live preview then shows it at
        work)."""
        self.form.content_selector.setText(selector)
        self.result.setText(self.tr("Suggested content selector: %1").replace("%1", selector))

    # -- saving, applying, undoing ---------------------------------------------------------------

    def save(self) -> bool:
        """Write rules.yaml (the previous one is kept for Undo); nothing is cleaned again."""
        if not self._flush():
            return False
        try:
            self.workspace.save_rules(self.editor.toPlainText())
        except KuaibuError as e:
            self.result.setText(red(esc(str(e))))
            return False
        self._update_undo()
        self.result.setText(self.tr("Saved. Pages are cleaned with these rules when they are"
                                    " run, or now with Apply to domain."))
        self.saved.emit()
        return True

    def apply_to_domain(self) -> None:
        """Test the rules on the section's domain (unless just done with this very text),
        then ask with the count before saving and having those pages cleaned again."""
        if not self._flush():
            return
        if self.run_going():
            self.result.setText(self.tr("A run is going; apply the rules once it has ended."))
            return
        section = self.form.current_section() or "default"
        last = self.trial.last
        if last is not None and (last.section, last.text) == (section,
                                                              self.editor.toPlainText()):
            self._ask_apply(last)
        else:
            self._run_trial(then_apply=True)

    def _ask_apply(self, run: TrialRun) -> None:
        if not run.trials:
            if self.save():
                self.result.setText(self.tr("Saved; no stored pages of %1 to clean again.")
                                    .replace("%1", self.trial.domain_words(run.section)))
            return
        count = len(run.trials)
        question = (self.tr("Clean again %n articles of every site?", "", count)
                    if run.section == "default" else
                    self.tr("Clean again %n articles of %1?", "", count)
                    .replace("%1", run.section))
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Apply to domain"), question,
                          QMessageBox.StandardButton.NoButton, self)
        lost = [t for t in run.trials if t.lost]
        shrunk = [t for t in run.trials if t.shrunk]
        warnings = []
        if lost:
            warnings.append(self.tr(
                "%1 of them would lose their article under these rules: those keep the article"
                " they have now, and show why the new rules failed.").replace("%1", str(len(lost))))
        if shrunk:
            warnings.append(self.tr(
                "%1 of them would lose more than a third of their text.")
                .replace("%1", str(len(shrunk))))
        if warnings:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setInformativeText(" ".join(warnings))
            box.setDetailedText("\n".join(
                f"#{t.task.id} {cap_text(t.task.display_title, 80)}: "
                + (self.tr("no article") if t.lost else
                   f"{t.before_chars:,} → {t.after_chars:,}")
                for t in lost + shrunk))
        yes = box.addButton(self.tr("Clean again"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(yes)
        self.confirm_box, self.confirm_yes = box, yes
        box.finished.connect(lambda _result: self._answered(run, box.clickedButton() is yes))
        box.open()

    def _answered(self, run: TrialRun, yes: bool) -> None:
        self.confirm_box = None
        if not yes:
            self.result.setText(self.tr("Nothing was saved or cleaned."))
            return
        if self.editor.toPlainText() != run.text:  # typed on while the question was open
            self.result.setText(self.tr("The rules changed while you were asked; apply again."))
            return
        if self.save():
            self.trial.last = None  # its "before" is about to change
            self.result.setText(self.tr("Saved; cleaning %n pages of %1 again…", "",
                                        len(run.trials))
                                .replace("%1", self.trial.domain_words(run.section)))
            self.apply_requested.emit(run.section)

    def undo_last_change(self) -> None:
        """Put rules.yaml back as it was before the last save; the window then cleans the
        pages of the sections that changed again."""
        if self.run_going():
            self.result.setText(self.tr("A run is going; undo once it has ended."))
            return
        self.undo_button.setEnabled(False)
        self._jobs.start(self.workspace.undo_rules, self._undone, self._undo_failed)

    def _undone(self, undone: Undone | None) -> None:
        self.trial.last = None
        self.reload()
        if undone is None:
            self.result.setText(self.tr("Nothing to undo: no earlier rules are kept."))
            return
        sections = ", ".join(undone.sections) or self.tr("none")
        self.result.setText(self.tr("rules.yaml is back as it was before the last save"
                                    " (sections changed: %1); cleaning %2 pages again.")
                            .replace("%1", sections).replace("%2", str(len(undone.task_ids))))
        self.undone.emit(undone)

    def _undo_failed(self, message: str) -> None:
        self._update_undo()
        self.result.setText(red(esc(message)))

    # -- showing and closing ---------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_preview()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc and Ctrl+W (the platform's Close) close the editor, as in any tool window.
        Handled here rather than by a QShortcut: the keys reach it from whichever field has
        the focus (none of them takes these keys), and an offscreen test can send them."""
        if event.key() == Qt.Key.Key_Escape or event.matches(QKeySequence.StandardKey.Close):
            self.close()
            return
        super().keyPressEvent(event)

    def unsaved(self) -> bool:
        """Whether the text (with a form edit still settling taken in) differs from
        rules.yaml as saved."""
        if self._form_timer.isActive():
            self.write_form()
        if self._unreadable:
            return False  # nothing could be typed
        try:
            saved = self.workspace.rules_text()
        except RulesError:  # made unreadable since: what is typed is all there is
            return True
        return self.editor.toPlainText() != saved

    def discard_question(self) -> str:
        return self.tr("The rules you changed are not saved. Close and drop the changes?")

    def _ask_to_discard(self) -> bool:
        answer = QMessageBox.question(
            self, self.tr("Close the rules"), self.discard_question(),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        """Asks first over unsaved edits. Answers still on their way are dropped; a domain
        test in flight stops."""
        if self.unsaved() and not self.confirm_discard():
            event.ignore()
            return
        self._form_timer.stop()
        self._text_timer.stop()
        self.task_preview.stop()
        self.trial.stop()
        super().closeEvent(event)
