"""The live preview, the rules editor's "This task" tab: the selected task extracted again
from its stored page under the rules as the form says (``Workspace.test_rules``, in a job, no
network), shown as the book shows it beside the raw text, with what each selector did
(``Workspace.rule_effects``). A newer edit's answer wins: each round has a generation and an
older one's answer is dropped when it comes. Apart because it has that state of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gui.preview import PreviewPane
from gui.rules_editor.form import RulesForm
from gui.rules_editor.rich_text import code, esc, red
from gui.worker import Jobs
from pipeline.records.errors import KuaibuError
from pipeline.records.task import Task
from pipeline.rules.findings import RuleEffect, RuleKey
from pipeline.rules.model import Rules
from pipeline.usecases.library import Preview
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of


@dataclass(frozen=True)
class LivePreview:
    """One round of the live preview: the task under the rules as they stood at ``generation``."""

    generation: int
    preview: Preview  # its article is None when the rules find none
    effects: Sequence[RuleEffect]
    failure: str  # why the rules find no article ("" when they do)


class TaskPreview(QWidget):
    """The task under the rules as typed. It reads the form (the section it edits, its own
    strip selectors) and ``valid_rules`` (the text's last valid rules) when an answer comes,
    to say what the rules did and whether the form's section covers the task."""

    tested = Signal(object)  # the LivePreview shown (each round of the live preview)

    def __init__(self, workspace: Workspace, jobs: Jobs, form: RulesForm,
                 valid_rules: Callable[[], Rules | None]) -> None:
        super().__init__()
        self._workspace = workspace
        self._jobs = jobs
        self._form = form
        self._valid_rules = valid_rules
        self._generation = 0
        self.effects = QLabel()  # what each rule did on the task's page
        self.effects.setWordWrap(True)
        self.effects.setTextFormat(Qt.TextFormat.RichText)
        self.effects.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = PreviewPane()
        layout = QVBoxLayout(self)
        layout.addWidget(self.effects)
        layout.addWidget(self.preview, 1)

    def ready(self, task: Task | None) -> Task | None:
        """``task`` when its page is stored, else None (and the tab says to select one)."""
        if task is None or not self._workspace.archive.has_raw(task.id):
            self.effects.setText(self.tr("Select a task whose page has been fetched."))
            return None
        return task

    def refresh(self, task: Task | None, form_rules: Callable[[], Rules | None]) -> None:
        """Extract ``task`` again from its stored page with ``form_rules()`` (asked only when
        there is a page to extract; None while the rules cannot be used), in a job; an answer
        to an older round is dropped when it comes."""
        self._generation += 1
        ready = self.ready(task)
        if ready is None:
            self.preview.clear()
            return
        rules = form_rules()
        if rules is None:
            self.effects.setText(red(esc(self.tr(
                "The preview waits until the rules are valid."))))
            return
        generation, workspace = self._generation, self._workspace
        note = self.tr("the rules as typed, not saved")

        def work() -> LivePreview:
            effects = workspace.rule_effects(ready, rules)
            try:
                article = workspace.test_rules(ready, rules)
            except KuaibuError as e:
                shown = workspace.preview(ready, None, note)
                return LivePreview(generation, replace(shown, article=None, chapter_html=""),
                                   effects, str(e))
            return LivePreview(generation, workspace.preview(ready, article, note), effects, "")

        self._jobs.start(work, self._previewed, self._failed)

    def stop(self) -> None:
        """Drop the answers still on their way (the editor is closing)."""
        self._generation += 1

    def _previewed(self, live: LivePreview) -> None:
        if live.generation != self._generation:
            return  # a newer edit's preview is on its way
        failure = (self.tr("These rules find no article on this page: %1")
                   .replace("%1", live.failure) if live.failure else "")
        self.preview.show_data(live.preview, failure)
        lines = [red(esc(failure))] if failure else []
        lines += self.effect_lines(live.effects)
        task = live.preview.task
        rules = self._valid_rules()
        section = self._form.current_section()
        if rules is not None and section not in ("", "default") and (
                rules.section_for_host(host_of(task.url)) != section):
            lines.append(esc(self.tr(
                "The form edits %1; this task's page is on %2, which it does not cover.")
                .replace("%1", section).replace("%2", host_of(task.url))))
        if not lines:
            lines.append(esc(self.tr("No rule of this site has a selector:"
                                     " automatic extraction.")))
        self.effects.setText("<br>".join(lines))
        self.tested.emit(live)

    def _failed(self, message: str) -> None:
        self.effects.setText(red(esc(message)))

    def effect_lines(self, effects: Sequence[RuleEffect]) -> list[str]:
        """What each selector did, worded here: the content selector first, then the title,
        then the strip selectors (the form's own each; the rest only when they removed
        something, the others in one line)."""
        lines: dict[RuleKey, list[str]] = {key: [] for key in RuleKey}
        mine = set(self._form.list_items("strip_extra"))
        idle: list[str] = []
        for e in effects:
            css, n, chars = code(e.css), e.matched, f"{e.chars:,}"
            if e.key is RuleKey.CONTENT:
                text = (self.tr("Content selector %1 matched nothing: automatic extraction used")
                        if not n else
                        self.tr("Content selector %1 matched %n elements (%2 characters)", "", n)
                        .replace("%2", chars))
            elif e.key is RuleKey.TITLE:
                text = (self.tr("Title selector %1 matched nothing: the page's headline used")
                        if not n else self.tr("Title selector %1 matched %n elements", "", n))
            elif not n and e.css not in mine:
                idle.append(css)
                continue
            else:
                text = (self.tr("Strip %1 matched nothing") if not n else
                        self.tr("Strip %1 removed %n elements (%2 characters)", "", n)
                        .replace("%2", chars))
            colour = "#8d6e00" if not n else "#2e7d32"
            lines[e.key].append(
                f"<span style='color:{colour}'>{text.replace('%1', css)}</span>")
        if idle:
            lines[RuleKey.STRIP].append("<span style='color:#757575'>" + self.tr(
                "Strip selectors that matched nothing: %1").replace("%1", ", ".join(idle))
                + "</span>")
        return [*lines[RuleKey.CONTENT], *lines[RuleKey.TITLE], *lines[RuleKey.STRIP]]
