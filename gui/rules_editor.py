"""The rules editor: the form and rules.yaml kept as one, checked as you type, and a live
preview of the chosen task under the rules as they stand, before anything is saved.

The form is the truth: each edit (debounced) is written into its section's lines of the text
(``Workspace.edit_rules_text``, comments kept), and the rules the preview uses are the text's
last valid rules with the form's section as the form says. The preview re-extracts the task's
stored raw page in a job (``Workspace.test_rules``, no network) and says what each rule did
(``Workspace.rule_effects``); a newer edit's answer wins, older ones are dropped.
Invalid means invalid: a field that cannot be used is marked at the field and at its line in
the text, and Save, Apply and Test on this domain wait until it is fixed.
"Test on this domain" re-extracts every stored page of the section's domain with the rules
(``Workspace.try_rules``), worse first; "Apply to domain" asks with that count before saving
and having the window clean those pages again (a task whose new article fails keeps its old
one); "Undo last rules change" puts the previous rules.yaml back and has them cleaned again.
"Pick content" proposes the element holding the extracted article (or names one chosen in the
page's element tree), says on how many of the site's other stored pages its selector finds an
article, and fills Content selector.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import cast

from PySide6.QtCore import QCoreApplication, QRegularExpression, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QCloseEvent,
    QColor,
    QFont,
    QKeyEvent,
    QKeySequence,
    QShowEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui.preview import PreviewPane
from gui.reasons import translate_failure
from gui.worker import Jobs
from pipeline.records.errors import KuaibuError, RulesError
from pipeline.records.task import Task, cap_text
from pipeline.rules.findings import Node, Reason, RuleEffect, RuleKey, Suggestion
from pipeline.rules.model import RULE_SPECS, RULES_CONTEXT, FormWidget, Rules, SiteRules
from pipeline.usecases.library import Preview
from pipeline.usecases.rules import Trial, Undone
from pipeline.usecases.workspace import Workspace
from pipeline.web.urls import host_of

# Typing settles for this long before the text is checked and the preview made again.
DEBOUNCE_MS = 300
ERROR_COLOUR = "#c62828"


@dataclass(frozen=True)
class LivePreview:
    """One round of the live preview: the task under the rules as they stood at ``generation``."""

    generation: int
    preview: Preview  # its article is None when the rules find none
    effects: Sequence[RuleEffect]
    failure: str  # why the rules find no article ("" when they do)


@dataclass(frozen=True)
class TrialRun:
    """The domain's stored pages under one text of the rules."""

    generation: int
    section: str
    text: str
    trials: list[Trial]


@dataclass(frozen=True)
class PickResult:
    """Pick content on one task: its page's element tree and the automatic proposal."""

    generation: int
    task: Task
    nodes: Sequence[Node]
    proposal: Suggestion | None  # None when the automatic extraction finds no article
    failure: str


@dataclass(frozen=True)
class Picked:
    """The selector for an element chosen in the tree."""

    generation: int
    task: Task
    proposal: Suggestion


def _format(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class YamlHighlighter(QSyntaxHighlighter):
    """Sections, keys, list dashes, strings and comments: enough to read rules.yaml at a glance."""

    RULES = (
        (r"^[^\s#][^:#]*:", _format("#1565c0", bold=True)),  # a section (domain or default)
        (r"^\s+[\w-]+\s*:", _format("#00838f")),  # a key
        (r"^\s*-\s", _format("#6a1b9a", bold=True)),  # a list item
        (r"\"[^\"]*\"|'[^']*'", _format("#2e7d32")),  # a quoted string
        (r"(^|\s)#.*$", _format("#9e9e9e", italic=True)),  # a comment, last so it wins
    )

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._rules = [(QRegularExpression(p), f) for p, f in self.RULES]

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self._rules:
            matches = pattern.globalMatch(text)
            while matches.hasNext():
                m = matches.next()
                self.setFormat(m.capturedStart(), m.capturedLength(), fmt)


def _esc(text: str) -> str:
    """Text for a rich-text label (quotes stay quotes: they are not in an attribute)."""
    return html.escape(text, quote=False)


def _red(text: str) -> str:
    return f"<span style='color:{ERROR_COLOUR}'>{text}</span>"


def _code(css: str) -> str:
    return f"<code>{_esc(css)}</code>"


class RulesEditor(QWidget):
    """A window over one archive's rules.yaml; ``task`` is the row selected in the main window."""

    tested = Signal(object)  # the LivePreview shown (each round of the live preview)
    validated = Signal(str)  # "" when the text and the form are valid, else the first problem
    trial_finished = Signal(object)  # TrialRun shown in "This domain"
    trial_progress = Signal(int, int, int)  # generation, pages done, pages in all
    apply_requested = Signal(str)  # a section was saved: clean that domain's pages again
    undone = Signal(object)  # Undone: rules.yaml is back; clean its task_ids again
    saved = Signal()

    def __init__(self, workspace: Workspace, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.workspace = workspace
        self.archive = workspace.archive
        self.setWindowTitle(self.tr("Site rules — %1").replace("%1",
                                                              str(self.archive.rules_path)))
        self._jobs = jobs
        self.task: Task | None = None
        self.rules: Rules | None = None  # the last valid parse of the text
        self._valid_text = ""  # the text it was parsed from
        self.run_going: Callable[[], bool] = lambda: False  # the window says when a run is
        self._filling = False  # the form is being filled from the text, not edited
        self._syncing = False  # the text is being written from the form, not typed
        self._field_errors: dict[str, str] = {}
        self._text_error = ""
        self._unreadable = ""  # why rules.yaml as saved cannot be shown (too large, not UTF-8)
        self._preview_generation = 0
        self._trial_generation = 0
        self._last_trial: TrialRun | None = None
        self._pick_generation = 0
        self.confirm_box: QMessageBox | None = None  # Apply's question, while it is open
        self.confirm_yes: QPushButton | None = None  # its "Clean again" button
        # asked before closing over edits not saved; tests put their own answer here
        self.confirm_discard: Callable[[], bool] = self._ask_to_discard

        self._build_form()
        self._build_text()
        self._build_results()
        splitter = QSplitter()
        splitter.addWidget(self._left)
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
        self.editor.textChanged.connect(self._text_typed)
        self.section.currentTextChanged.connect(self._section_chosen)
        self.trial_progress.connect(self._trial_progressed)
        self.resize(1280, 800)
        self.reload()

    # -- building ----------------------------------------------------------------------------

    def key_help(self) -> dict[str, str]:
        """What each rules.yaml key does, in the interface's language (the form's tooltips and
        the Keys help): each key's help text, its default taken from the setting it
        overrides."""
        return {key: QCoreApplication.translate(RULES_CONTEXT, spec.help)
                .replace("%1", spec.shown_default) for key, spec in RULE_SPECS.items()}

    def _field(self, key: str, widget: QWidget, extra: QWidget | None = None) -> QWidget:
        """A form field with its explanation as tooltip and its error line under it."""
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(1)
        row = QHBoxLayout()
        row.addWidget(widget, 1)
        if extra is not None:
            row.addWidget(extra)
        column.addLayout(row)
        error = QLabel()
        error.setWordWrap(True)
        error.setTextFormat(Qt.TextFormat.RichText)
        error.hide()
        column.addWidget(error)
        self.field_errors[key] = error
        widget.setToolTip(self.key_help()[key])
        return box

    def _build_form(self) -> None:
        self.field_errors: dict[str, QLabel] = {}
        self.section = QComboBox()
        self.section.setEditable(True)
        self.section.setToolTip(self.tr(
            "The section the form edits: a domain (its sub-domains use it too, unless they"
            " have their own) or 'default' for every site"))
        # a field for each key whose spec gives it a widget, in the spec's order; the other
        # keys are edited in the text
        self.fields: dict[str, QWidget] = {key: self._widget(key)
                                           for key, spec in RULE_SPECS.items() if spec.form}
        self._unchecked: dict[str, str | None] = {}  # a box's key's value it does not set
        # the fields the window itself works with, by name (and the tests)
        self.content_selector = cast(QLineEdit, self.fields["content_selector"])
        self.title_selector = cast(QLineEdit, self.fields["title_selector"])
        self.strip_extra = cast(QLineEdit, self.fields["strip_extra"])
        self.min_chars = cast(QSpinBox, self.fields["min_chars"])
        self.encoding = cast(QComboBox, self.fields["encoding"])
        self.cookies = cast(QLineEdit, self.fields["cookies"])
        self.render_box = cast(QCheckBox, self.fields["render"])
        self.render_box.toggled.connect(self._check_browser)
        self.render_note = QLabel()  # what to install, when this machine cannot render
        self.render_note.setWordWrap(True)
        self.render_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pick = QPushButton(self.tr("Pick content"))
        self.pick.setToolTip(self.tr(
            "Propose a content selector for the element that holds the article, or choose the"
            " element in the page's element tree"))
        self.pick.clicked.connect(self.pick_content)

        form = QFormLayout()
        form.addRow(self.tr("Domain"), self.section)
        extras: dict[str, QWidget] = {"content_selector": self.pick, "render": self.render_note}
        for key, widget in self.fields.items():
            label_widget = QLabel(QCoreApplication.translate(RULES_CONTEXT,
                                                             RULE_SPECS[key].label))
            label_widget.setToolTip(self.key_help()[key])
            form.addRow(label_widget, self._field(key, widget, extras.get(key)))
        self._form = form

    def _widget(self, key: str) -> QWidget:
        """The form's widget for ``key``, as its spec says, telling the form when edited."""
        spec = RULE_SPECS[key]
        if spec.form in (FormWidget.LINE, FormWidget.LIST):
            line = QLineEdit()
            line.setPlaceholderText(spec.example)
            line.textChanged.connect(self._form_edited)
            return line
        if spec.form is FormWidget.NUMBER:
            assert spec.low_high is not None and spec.low_high.high is not None
            spin = QSpinBox()
            spin.setRange(0, int(spec.low_high.high))  # 0: not set
            spin.setSingleStep(spec.step)
            spin.setSpecialValueText("—")
            spin.valueChanged.connect(self._form_edited)
            return spin
        if spec.form is FormWidget.CHOICE:
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItems(["", *spec.choices])
            combo.currentTextChanged.connect(self._form_edited)
            return combo
        assert spec.form is FormWidget.CHECK, key
        box = QCheckBox(QCoreApplication.translate(RULES_CONTEXT, spec.box))
        box.toggled.connect(self._form_edited)
        return box

    def _build_text(self) -> None:
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFont("monospace"))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.highlighter = YamlHighlighter(self.editor.document())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result = QLabel()  # what the last action did
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        keys_button = QPushButton(self.tr("Keys…"))
        keys_button.setToolTip(self.tr("What each key of rules.yaml does"))
        keys_button.clicked.connect(self.show_key_help)
        text_header = QHBoxLayout()
        text_header.addWidget(QLabel(f"<b>{_esc(self.archive.rules_path.name)}</b>"))
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

        self._left = QWidget()
        layout = QVBoxLayout(self._left)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._form)
        layout.addLayout(text_header)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.result)
        layout.addLayout(buttons)

    def _build_results(self) -> None:
        self.effects = QLabel()  # what each rule did on the task's page
        self.effects.setWordWrap(True)
        self.effects.setTextFormat(Qt.TextFormat.RichText)
        self.effects.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = PreviewPane()
        task_tab = QWidget()
        layout = QVBoxLayout(task_tab)
        layout.addWidget(self.effects)
        layout.addWidget(self.preview, 1)

        self.trial_bar = QProgressBar()
        self.trial_bar.setFormat("%v / %m")
        self.trial_bar.hide()
        self.trial_summary = QLabel(self.tr(
            "Test on this domain lists each stored page of the domain before and after the"
            " rules, the ones that got worse first."))
        self.trial_summary.setWordWrap(True)
        self.trial_list = QTreeWidget()
        self.trial_list.setRootIsDecorated(False)
        self.trial_list.setAlternatingRowColors(True)
        self.trial_list.setHeaderLabels([self.tr("Task"), self.tr("Before"), self.tr("After"),
                                         self.tr("Change")])
        self.trial_list.headerItem().setToolTip(1, self.tr("Characters (confidence) of the"
                                                           " stored article"))
        self.trial_list.headerItem().setToolTip(2, self.tr("Characters (confidence) under"
                                                           " these rules"))
        for column, width in enumerate((380, 110, 110)):
            self.trial_list.setColumnWidth(column, width)
        self.trial_list.itemActivated.connect(self._trial_chosen)
        domain_tab = QWidget()
        layout = QVBoxLayout(domain_tab)
        layout.addWidget(self.trial_summary)
        layout.addWidget(self.trial_bar)
        layout.addWidget(self.trial_list, 1)

        self.pick_status = QLabel(self.tr(
            "Pick content proposes a selector for the element that holds the article; or choose"
            " the element below. Its selector goes into Content selector."))
        self.pick_status.setWordWrap(True)
        self.pick_status.setTextFormat(Qt.TextFormat.RichText)
        self.pick_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.element_list = QTreeWidget()
        self.element_list.setHeaderLabels([self.tr("Element"), self.tr("Characters"),
                                           self.tr("Text")])
        for column, width in enumerate((260, 80)):
            self.element_list.setColumnWidth(column, width)
        self.element_list.currentItemChanged.connect(self._element_chosen)
        pick_tab = QWidget()
        layout = QVBoxLayout(pick_tab)
        layout.addWidget(self.pick_status)
        layout.addWidget(self.element_list, 1)

        self.results = QTabWidget()
        self.results.addTab(task_tab, self.tr("This task"))
        self.results.addTab(domain_tab, self.tr("This domain"))
        self.pick_tab = pick_tab
        self.results.addTab(pick_tab, self.tr("Pick content"))

    # -- the text ------------------------------------------------------------------------------

    def reload(self) -> None:
        """Show rules.yaml as saved (after opening, an undo)."""
        try:
            text, self._unreadable = self.workspace.rules_text(), ""
        except RulesError as e:  # shown as its reason, and not to be typed over by mistake
            text, self._unreadable = "", self.describe(e)
        self.editor.setReadOnly(bool(self._unreadable))
        self._syncing = True
        self.editor.setPlainText(text)
        self._syncing = False
        self._text_timer.stop()
        self._form_timer.stop()
        self.validate()
        self._fill_form(self.current_section())
        self._update_undo()
        self.refresh_preview()

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        """Fill widgets from the text without it counting as the person's edit."""
        before, self._filling = self._filling, True
        try:
            yield
        finally:
            self._filling = before

    def _text_typed(self) -> None:
        if not self._syncing:
            self.result.clear()
            self._text_timer.start()

    def _text_settled(self) -> None:
        """The person stopped typing in the text: check it, show its values in the form."""
        if self.validate():
            self._fill_form(self.current_section())
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
                line, message = e.line, self.describe(e)
            else:
                self.rules, self._valid_text = rules, text
                self._refresh_sections()
        self._text_error = message
        self._mark_line(line)
        self._show_status()
        return not message

    def describe(self, e: RulesError) -> str:
        """A rules error in the interface's language: line, key, what is wrong."""
        where = self.tr("Line %1").replace("%1", str(e.line)) if e.line else ""
        what = f"{e.key}: {self.problem(e)}" if e.key else self.problem(e)
        return f"{where}: {what}" if where else what

    def problem(self, e: RulesError) -> str:
        """What is wrong, in the interface's language: by its code when it has one (an
        invalid selector, said as the window says it), else the pipeline's English worded
        here (its shapes are pipeline/rules/model.py's and pipeline/rules/yaml_file.py's):
        %1, %2… are the shape's groups."""
        if e.problem is not None:
            return translate_failure(e.problem)
        message = e.message
        shapes = (
            (r"unknown key \(known: (.*)\)", self.tr("unknown key (known: %1)")),
            (r"not valid YAML \((.*)\)", self.tr("not valid YAML (%1)")),
            (r"expected an encoding browsers read \(.*\), not (.*)",
             self.tr("%1 is not an encoding Kuaibu can read (e.g. utf-8, gb18030, big5,"
                     " shift_jis)")),
            (r"expected a whole number from (\d+) to (\d+), not (.*)",
             self.tr("expected a whole number from %1 to %2, not %3")),
            (r"written twice, on lines (\d+) and (\d+) .*",
             self.tr("written twice, on lines %1 and %2 (the later would silently win);"
                     " keep one")),
            (r"the same section as line (\d+) .*",
             self.tr("the same section as line %1 (the later would silently win); keep one")),
            (r"section name: expected default or a site's host name \(.*\), not (.*)",
             self.tr("section name: expected default or a site's host name (example.com),"
                     " not %1")),
            (r"holds the control character (U\+[0-9A-F]+), .*",
             self.tr("holds the control character %1, which a rules file may not")),
            (r"expected text without control characters \((U\+[0-9A-F]+) in (.*)\)",
             self.tr("expected text without control characters (%1 in %2)")),
            (r"expected a header value: .*, not (.*)",
             self.tr("expected a header value: Latin-1 text without spaces at either end"
                     " (percent-encode the rest), not %1")),
            (r"expected a header name of .*, not (.*)",
             self.tr("expected a header name of letters, digits and !#$%&'*+-.^_`|~, not %1")),
            (r"expected a list of at most (\d+) strings, not (\d+)",
             self.tr("expected a list of at most %1 texts, not %2")),
            (r"expected at most (\d+) headers, not (\d+)",
             self.tr("expected at most %1 headers, not %2")),
            (r"expected each header once \((.*) and (.*) are one name\)",
             self.tr("expected each header once (%1 and %2 are one name)")),
            (r"([\d,]+) bytes, more than the (\d+) KB .*",
             self.tr("%1 bytes, more than the %2 KB a rules file may hold")),
            (r"more than (\d+) sections .*",
             self.tr("more than %1 sections (the most a rules file may hold)")),
            (r"not UTF-8 text \(byte (0x[0-9a-f]+)\).*",
             self.tr("not UTF-8 text (byte %1); save it as UTF-8")),
        )
        for shape, worded in shapes:
            if match := re.fullmatch(shape, message, re.S):
                for n, group in enumerate(match.groups(), 1):
                    worded = worded.replace(f"%{n}", group)
                return worded
        expected = {
            "expected a non-empty string": self.tr("expected a non-empty text"),
            "expected a list of strings": self.tr("expected a list of texts"),
            "expected a mapping of header names to strings": self.tr(
                "expected header names, each with its value"),
            "expected a mapping of rules": self.tr("expected keys with their values"),
            "expected a mapping of sections (default: and domains)": self.tr(
                "expected sections (default: and domains)"),
        }
        return expected.get(message, message)

    def _show_status(self) -> None:
        """The first problem in red, or "Valid": never both, and nothing stale."""
        problem = self._text_error or next(iter(self._field_errors.values()), "")
        if problem:
            self.status.setText(_red(f"✗ {_esc(problem)}"))
        else:
            valid = self.tr("Valid")
            self.status.setText(f"<span style='color:#2e7d32'>✓ {valid}</span>")
        usable = not problem
        for button in (self.save_button, self.apply_button, self.domain_button):
            button.setEnabled(usable)
        self.validated.emit(problem)

    def _mark_line(self, line: int | None) -> None:
        if line is None:
            self.editor.setExtraSelections([])
            return
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(QColor("#ffebee"))
        selection.format.setProperty(QTextCharFormat.Property.FullWidthSelection, True)
        block = self.editor.document().findBlockByNumber(line - 1)
        selection.cursor = self.editor.textCursor()
        selection.cursor.setPosition(block.position())
        self.editor.setExtraSelections([selection])

    def _refresh_sections(self) -> None:
        assert self.rules is not None
        names = ["default", *sorted(self.rules.domains)]
        current = self.section.currentText() or "default"
        with self._quiet():
            self.section.clear()
            self.section.addItems(names)
            self.section.setCurrentText(current)

    def _update_undo(self) -> None:
        history = self.workspace.rules_history
        self.undo_button.setEnabled(history.is_dir() and any(history.glob("*.yaml")))

    def show_key_help(self) -> None:
        rows = "".join(f"<tr><td><code>{key}</code></td><td>{_esc(text)}</td></tr>"
                       for key, text in self.key_help().items())
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("rules.yaml keys"),
                          f"<table cellspacing=4>{rows}</table>", QMessageBox.StandardButton.Ok,
                          self)
        box.setTextFormat(Qt.TextFormat.RichText)
        box.open()

    # -- the form ------------------------------------------------------------------------------

    def current_section(self) -> str:
        return self.section.currentText().strip().lower()

    def set_task(self, task: Task | None) -> None:
        """The task the preview shows; a new one brings its domain's section into the form."""
        changed = task is None or self.task is None or task.id != self.task.id
        self.task = task
        if task is not None and changed and self.rules is not None:
            host = host_of(task.url)
            section = self.rules.section_for_host(host)
            with self._quiet():
                self.section.setCurrentText(section)
            self._fill_form(section)
        if self.isVisible():  # a closed editor previews nothing; showing it again does
            self.refresh_preview()

    def _section_chosen(self, section: str) -> None:
        if not self._filling:
            self._fill_form(section.strip().lower())
            self.refresh_preview()

    def _fill_form(self, section: str) -> None:
        """Show a section's values (from the text's last valid rules) in the form."""
        if self.rules is None:
            return
        # a domain's own keys only (not the defaults under them): what its lines say
        site = (self.rules.default if section == "default"
                else replace(SiteRules(), **self.rules.domains.get(section, {})))
        with self._quiet():
            for key, widget in self.fields.items():
                self._show_value(key, widget, getattr(site, key))
        self._check_fields()
        self._show_status()

    def _check_browser(self, checked: bool) -> None:
        """Rendering asked for: say now, beside the box, when this machine cannot render
        (the rule is still valid: another machine with the archive may)."""
        self.render_note.clear()
        if checked:
            self._jobs.start(self.workspace.browser_problem,
                             lambda problem: self.render_note.setText(
                                 self.tr("Not on this machine yet: %1").replace(
                                     "%1", translate_failure(problem))
                                 if problem and self.render_box.isChecked() else ""))

    def _show_value(self, key: str, widget: QWidget, value: object) -> None:
        """Show one key's value (as ``SiteRules`` holds it) in its field."""
        if isinstance(widget, QCheckBox):
            checked = RULE_SPECS[key].choices[0]
            widget.setChecked(value == checked)
            # a value the box does not set ("fetch": never render, though the settings
            # render every site) has no box of its own: unchecked keeps it, not drops it
            self._unchecked[key] = None if value == checked else cast("str | None", value)
        elif isinstance(widget, QSpinBox):
            widget.setValue(cast("int | None", value) or 0)
        elif isinstance(widget, QComboBox):
            widget.setCurrentText(cast("str | None", value) or "")
        elif isinstance(widget, QLineEdit):
            listed = RULE_SPECS[key].form is FormWidget.LIST
            widget.setText(", ".join(cast("tuple[str, ...]", value)) if listed
                           else cast("str | None", value) or "")

    def _list(self, key: str) -> list[str]:
        """A list field's items, as typed between its commas."""
        text = cast(QLineEdit, self.fields[key]).text()
        return [s.strip() for s in text.split(",") if s.strip()]

    def _value(self, key: str, widget: QWidget) -> object | None:
        """One field's value as rules.yaml holds it (None: not set)."""
        if isinstance(widget, QCheckBox):
            return RULE_SPECS[key].choices[0] if widget.isChecked() else self._unchecked.get(key)
        if isinstance(widget, QSpinBox):
            return widget.value() or None
        if isinstance(widget, QComboBox):
            return widget.currentText().strip() or None
        if RULE_SPECS[key].form is FormWidget.LIST:
            return self._list(key) or None
        return cast(QLineEdit, widget).text().strip() or None

    def form_values(self) -> dict[str, object | None]:
        """The form's keys as rules.yaml holds them (None: not set)."""
        return {key: self._value(key, widget) for key, widget in self.fields.items()}

    def _form_edited(self) -> None:
        if not self._filling:
            self.result.clear()
            self._form_timer.start()

    def _form_settled(self) -> None:
        self.write_form()
        self.refresh_preview()

    def _check_fields(self) -> dict[str, str]:
        """Each field checked alone as the file's keys are (``Rules.with_section``); its
        problem shown under it, a fixed one's message taken away."""
        errors: dict[str, str] = {}
        checks: list[tuple[str, object]] = []
        for key, value in self.form_values().items():
            if RULE_SPECS[key].form is FormWidget.LIST:  # one by one, so the message
                checks += [(key, [item]) for item in self._list(key)]  # names the one at fault
            elif value is not None:
                checks.append((key, value))
        for key, value in checks:
            if key in errors:
                continue
            try:
                Rules().with_section("default", {key: value})
            except RulesError as e:
                errors[key] = self.problem(e)
        for key, label in self.field_errors.items():
            label.setText(_red(_esc(errors.get(key, ""))))
            label.setVisible(key in errors)
        self._field_errors = {k: f"{k}: {m}" for k, m in errors.items()}
        return errors

    def write_form(self) -> None:
        """Put the form's values into the section's lines of the text, now (comments and
        other sections are kept); a value that cannot be used is written too, so its line
        is marked as well as its field."""
        self._form_timer.stop()
        self._check_fields()
        section = self.current_section()
        if not section:
            self._show_status()
            return
        current = self.editor.toPlainText()
        text = self.workspace.edit_rules_text(current, section, self.form_values())
        if text is None:
            self._field_errors["section"] = self.tr(
                "Section %1 is written inline; edit it in the text.").replace("%1", section)
            self._show_status()
            return
        if text != current:
            self._replace_text(text)
        self._text_timer.stop()
        self.validate()
        self._show_section(section)

    def _replace_text(self, text: str) -> None:
        """The whole text replaced as one edit (Ctrl+Z in the text takes it back)."""
        cursor = QTextCursor(self.editor.document())
        self._syncing = True
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()
        self._syncing = False

    def _show_section(self, section: str) -> None:
        """Put the cursor on a section's first line and scroll it into view."""
        block = self.editor.document().firstBlock()
        while block.isValid():
            if block.text().strip().strip("'\"").lower().startswith(f"{section}:"):
                cursor = self.editor.textCursor()
                cursor.setPosition(block.position())
                self.editor.setTextCursor(cursor)
                self.editor.centerCursor()
                return
            block = block.next()

    def form_rules(self) -> Rules | None:
        """The rules as the form says: the text's last valid rules with the form's section
        set from its fields (what Save would write); None while a field cannot be used."""
        self._check_fields()
        if self._field_errors:
            return None
        section = self.current_section() or "default"
        text = self.workspace.edit_rules_text(self._valid_text, section, self.form_values())
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
                self._fill_form(self.current_section())
        else:
            self.validate()
        return not (self._text_error or self._field_errors)

    # -- the live preview ------------------------------------------------------------------------

    def _ready_task(self) -> Task | None:
        if self.task is None or not self.archive.has_raw(self.task.id):
            self.effects.setText(self.tr("Select a task whose page has been fetched."))
            return None
        return self.task

    def refresh_preview(self) -> None:
        """Extract the task again from its stored page with the rules as the form says, in a
        job; an answer to an older edit is dropped when it comes."""
        self._preview_generation += 1
        task = self._ready_task()
        if task is None:
            self.preview.clear()
            return
        rules = self.form_rules()
        if rules is None:
            self.effects.setText(_red(_esc(self.tr(
                "The preview waits until the rules are valid."))))
            return
        generation, workspace = self._preview_generation, self.workspace
        note = self.tr("the rules as typed, not saved")

        def work() -> LivePreview:
            effects = workspace.rule_effects(task, rules)
            try:
                article = workspace.test_rules(task, rules)
            except KuaibuError as e:
                shown = workspace.preview(task, None, note)
                return LivePreview(generation, replace(shown, article=None, chapter_html=""),
                                   effects, str(e))
            return LivePreview(generation, workspace.preview(task, article, note), effects, "")

        self._jobs.start(work, self._previewed, self._preview_failed)

    def test_on_task(self) -> None:
        """Take in what is being typed and show the task under it now."""
        self._flush()
        self.refresh_preview()

    def _previewed(self, live: LivePreview) -> None:
        if live.generation != self._preview_generation:
            return  # a newer edit's preview is on its way
        failure = (self.tr("These rules find no article on this page: %1")
                   .replace("%1", live.failure) if live.failure else "")
        self.preview.show_data(live.preview, failure)
        lines = [_red(_esc(failure))] if failure else []
        lines += self.effect_lines(live.effects)
        task = live.preview.task
        rules = self.rules
        section = self.current_section()
        if rules is not None and section not in ("", "default") and (
                rules.section_for(host_of(task.url)) != section):
            lines.append(_esc(self.tr(
                "The form edits %1; this task's page is on %2, which it does not cover.")
                .replace("%1", section).replace("%2", host_of(task.url))))
        if not lines:
            lines.append(_esc(self.tr("No rule of this site has a selector:"
                                             " automatic extraction.")))
        self.effects.setText("<br>".join(lines))
        self.tested.emit(live)

    def _preview_failed(self, message: str) -> None:
        self.effects.setText(_red(_esc(message)))

    def effect_lines(self, effects: Sequence[RuleEffect]) -> list[str]:
        """What each selector did, worded here: the content selector first, then the title,
        then the strip selectors (the form's own each; the rest only when they removed
        something, the others in one line)."""
        lines: dict[RuleKey, list[str]] = {key: [] for key in RuleKey}
        mine = set(self._list("strip_extra"))
        idle: list[str] = []
        for e in effects:
            css, n, chars = _code(e.css), e.matched, f"{e.chars:,}"
            if e.key is RuleKey.CONTENT:
                text = (self.tr("Content selector %1 matched nothing: automatic extraction used")
                        if not n else
                        self.tr("Content selector %1 matched 1 element (%2 characters)")
                        .replace("%2", chars) if n == 1 else
                        self.tr("Content selector %1 matched %2 elements (%3 characters)")
                        .replace("%2", str(n)).replace("%3", chars))
            elif e.key is RuleKey.TITLE:
                text = (self.tr("Title selector %1 matched nothing: the page's headline used")
                        if not n else self.tr("Title selector %1 matched 1 element") if n == 1
                        else self.tr("Title selector %1 matched %2 elements")
                        .replace("%2", str(n)))
            elif not n and e.css not in mine:
                idle.append(css)
                continue
            else:
                text = (self.tr("Strip %1 matched nothing") if not n else
                        self.tr("Strip %1 removed 1 element (%2 characters)")
                        .replace("%2", chars) if n == 1 else
                        self.tr("Strip %1 removed %2 elements (%3 characters)")
                        .replace("%2", str(n)).replace("%3", chars))
            colour = "#8d6e00" if not n else "#2e7d32"
            lines[e.key].append(
                f"<span style='color:{colour}'>{text.replace('%1', css)}</span>")
        if idle:
            lines[RuleKey.STRIP].append("<span style='color:#757575'>" + self.tr(
                "Strip selectors that matched nothing: %1").replace("%1", ", ".join(idle))
                + "</span>")
        return [*lines[RuleKey.CONTENT], *lines[RuleKey.TITLE], *lines[RuleKey.STRIP]]

    # -- this domain -----------------------------------------------------------------------------

    def _trial_domain(self, section: str) -> str | None:
        return None if section == "default" else section

    def _domain_words(self, section: str) -> str:
        return self.tr("every site") if section == "default" else section

    def test_on_domain(self) -> None:
        """Every stored page of the section's domain, re-extracted with the rules as they
        stand (nothing written), in the background."""
        if self._flush():
            self._run_trial(then_apply=False)

    def _run_trial(self, then_apply: bool) -> None:
        section = self.current_section() or "default"
        text, rules = self.editor.toPlainText(), self.rules
        assert rules is not None
        self._trial_generation += 1
        generation, workspace = self._trial_generation, self.workspace
        report = self.trial_progress.emit  # from the job's thread; Qt queues it here

        def stop() -> bool:
            return self._trial_generation != generation

        def work() -> TrialRun:
            trials = workspace.try_rules(
                rules, domain=self._trial_domain(section),
                progress=lambda done, total: report(generation, done, total), stop=stop)
            return TrialRun(generation, section, text, trials)

        self.results.setCurrentIndex(1)
        self.trial_list.clear()
        self.trial_bar.setValue(0)
        self.trial_bar.show()
        self.trial_summary.setText(self.tr("Testing the rules on the stored pages of %1…")
                                   .replace("%1", self._domain_words(section)))
        self._jobs.start(work, lambda run: self._tried(run, then_apply), self._trial_failed)

    def _trial_progressed(self, generation: int, done: int, total: int) -> None:
        if generation == self._trial_generation:
            self.trial_bar.setMaximum(max(total, 1))
            self.trial_bar.setValue(done)

    def _tried(self, run: TrialRun, then_apply: bool) -> None:
        if run.generation != self._trial_generation:
            return
        self.trial_bar.hide()
        self._last_trial = run
        self._show_trials(run)
        self.trial_finished.emit(run)
        if then_apply:
            self._ask_apply(run)

    def _trial_failed(self, message: str) -> None:
        self.trial_bar.hide()
        self.trial_summary.setText(_red(_esc(message)))

    def _show_trials(self, run: TrialRun) -> None:
        trials = run.trials
        self.trial_list.clear()
        if not trials:
            self.trial_summary.setText(self.tr("No stored pages of %1 yet.")
                                       .replace("%1", self._domain_words(run.section)))
            return
        lost = sum(t.lost for t in trials)
        shorter = sum(t.change < 0 and not t.lost for t in trials)
        longer = sum(t.change > 0 for t in trials)
        self.trial_summary.setText(
            self.tr("%1 stored pages of %2: %3 would lose their article, %4 get shorter,"
                    " %5 longer.")
            .replace("%1", str(len(trials))).replace("%2", self._domain_words(run.section))
            .replace("%3", str(lost)).replace("%4", str(shorter)).replace("%5", str(longer)))
        none = self.tr("no article")
        for t in trials:  # worse first, as try_rules orders them
            item = QTreeWidgetItem([
                f"#{t.task.id} {cap_text(t.task.display_title, 80)}",
                self._chars(t.before_chars, t.before_confidence, "—"),
                self._chars(t.after_chars, t.after_confidence, none),
                "" if t.lost else f"{t.change:+,}" if t.change else "0"])
            item.setData(0, Qt.ItemDataRole.UserRole, t.task.id)
            if t.lost:
                item.setToolTip(2, t.error)
                for column in range(4):
                    item.setForeground(column, QBrush(QColor(ERROR_COLOUR)))
            elif t.change < 0:
                item.setForeground(3, QBrush(QColor("#8d6e00")))
            self.trial_list.addTopLevelItem(item)

    @staticmethod
    def _chars(chars: int | None, confidence: float | None, none: str) -> str:
        return none if chars is None else f"{chars:,} ({confidence or 0:.2f})"

    def _trial_chosen(self, item: QTreeWidgetItem, _column: int) -> None:
        """A row of the domain's list: preview that task."""
        task_id = item.data(0, Qt.ItemDataRole.UserRole)
        try:
            task = self.workspace.task(int(task_id))
        except KuaibuError:
            return
        self.set_task(task)
        self.results.setCurrentIndex(0)

    # -- saving, applying, undoing ---------------------------------------------------------------

    def save(self) -> bool:
        """Write rules.yaml (the previous one is kept for Undo); nothing is cleaned again."""
        if not self._flush():
            return False
        try:
            self.workspace.save_rules(self.editor.toPlainText())
        except KuaibuError as e:
            self.result.setText(_red(_esc(str(e))))
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
        section = self.current_section() or "default"
        last = self._last_trial
        if last is not None and (last.section, last.text) == (section,
                                                              self.editor.toPlainText()):
            self._ask_apply(last)
        else:
            self._run_trial(then_apply=True)

    def _ask_apply(self, run: TrialRun) -> None:
        if not run.trials:
            if self.save():
                self.result.setText(self.tr("Saved; no stored pages of %1 to clean again.")
                                    .replace("%1", self._domain_words(run.section)))
            return
        count = str(len(run.trials))
        question = (self.tr("Clean again %1 articles of every site?").replace("%1", count)
                    if run.section == "default" else
                    self.tr("Clean again %1 articles of %2?").replace("%1", count)
                    .replace("%2", run.section))
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Apply to domain"), question,
                          QMessageBox.StandardButton.NoButton, self)
        lost = sum(t.lost for t in run.trials)
        if lost:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setInformativeText(self.tr(
                "%1 of them would lose their article under these rules: those keep the article"
                " they have now, and show why the new rules failed.").replace("%1", str(lost)))
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
            self._last_trial = None  # its "before" is about to change
            self.result.setText(self.tr("Saved; cleaning %1 pages of %2 again…")
                                .replace("%1", str(len(run.trials)))
                                .replace("%2", self._domain_words(run.section)))
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
        self._last_trial = None
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
        self.result.setText(_red(_esc(message)))

    # -- pick content ----------------------------------------------------------------------------

    def pick_content(self) -> None:
        """Load the task's element tree and propose the element holding the extracted
        article (checked on the site's other stored pages), in a job; the proposal fills
        Content selector."""
        task = self._ready_task()
        if task is None:
            self.pick_status.setText(self.tr("Select a task whose page has been fetched."))
            return
        self._pick_generation += 1
        generation, workspace, rules = self._pick_generation, self.workspace, self.rules or Rules()

        def work() -> PickResult:
            nodes = workspace.element_tree(task)
            try:
                return PickResult(generation, task, nodes, workspace.suggest(task, rules), "")
            except KuaibuError as e:  # no article to look for: the tree is still there
                return PickResult(generation, task, nodes, None, str(e))

        self.results.setCurrentWidget(self.pick_tab)
        self.pick_status.setText(self.tr("Looking for the element that holds the article…"))
        self._jobs.start(work, self._picked, self._pick_failed)

    def _picked(self, result: PickResult) -> None:
        if result.generation != self._pick_generation:
            return
        with self._quiet():  # filling the tree is no choice of the person's
            self.element_list.clear()
            items: list[tuple[int, QTreeWidgetItem]] = []  # the open ancestors, by depth
            chosen: QTreeWidgetItem | None = None
            for node in result.nodes:
                while items and items[-1][0] >= node.depth:
                    items.pop()
                name = node.tag + (f"#{node.id}" if node.id else "") + "".join(
                    f".{c}" for c in node.classes)
                item = QTreeWidgetItem([name, f"{node.chars:,}", " ".join(node.preview.split())])
                item.setData(0, Qt.ItemDataRole.UserRole, node.path)
                item.setToolTip(2, node.preview)
                if items:
                    items[-1][1].addChild(item)
                else:
                    self.element_list.addTopLevelItem(item)
                items.append((node.depth, item))
                if result.proposal is not None and node.path == result.proposal.path:
                    chosen = item
            self.element_list.expandAll()
            if chosen is not None:
                self.element_list.setCurrentItem(chosen)
                self.element_list.scrollToItem(chosen)
        if result.proposal is None:
            self.pick_status.setText(_red(_esc(
                self.tr("No article to look for on this page: %1").replace("%1", result.failure))))
            return
        self._propose(result.task, result.proposal)

    def _element_chosen(self, item: QTreeWidgetItem | None, _previous: object) -> None:
        """An element chosen in the tree: its selector, checked on the site's pages."""
        task = self.task
        if self._filling or item is None or task is None:
            return
        path = str(item.data(0, Qt.ItemDataRole.UserRole))
        self._pick_generation += 1
        generation, workspace, rules = self._pick_generation, self.workspace, self.rules or Rules()

        def work() -> Picked:
            return Picked(generation, task, workspace.selector_for_element(task, path, rules))

        self.pick_status.setText(self.tr("Naming the element…"))
        self._jobs.start(work, self._element_named, self._pick_failed)

    def _element_named(self, picked: Picked) -> None:
        if picked.generation == self._pick_generation:
            self._propose(picked.task, picked.proposal)

    def _propose(self, task: Task, proposal: Suggestion) -> None:
        """Say what was proposed and why; a selector goes into the field (the live preview
        then shows it at work)."""
        reason = _esc(self.pick_reason(proposal))
        if proposal.selector is None:
            self.pick_status.setText(_red(_esc(self.tr("No selector to propose."))) + " " + reason)
            return
        host = host_of(task.url)
        pages = (self.tr("It finds an article on %1 of the %2 other archived pages of %3.")
                 .replace("%1", str(proposal.matched_pages))
                 .replace("%2", str(proposal.site_pages)).replace("%3", host)
                 if proposal.site_pages else
                 self.tr("There are no other archived pages of %1 to check it on.")
                 .replace("%1", host))
        self.pick_status.setText(
            self.tr("Proposed content selector: %1").replace("%1", _code(proposal.selector))
            + "<br>" + reason + " " + _esc(pages))
        self.content_selector.setText(proposal.selector)
        self.result.setText(self.tr("Suggested content selector: %1")
                            .replace("%1", proposal.selector))

    def pick_reason(self, proposal: Suggestion) -> str:
        """Why this element (or none), worded here from the proposal's reason code."""
        share = f"{proposal.share:.0%}"
        reasons = {
            Reason.WHOLE: self.tr("Its element holds the whole article."),
            Reason.WIDE: self.tr("Its element holds the whole article, but much of its text is"
                                 " something else (strip rules can remove it)."),
            Reason.SPLIT: self.tr("No single element holds the whole article: this one holds"
                                  " %1 of its text.").replace("%1", share),
            Reason.PART: self.tr("The element holds %1 of the article's text.").replace(
                "%1", share),
            Reason.PICKED: self.tr("The element you picked."),
            Reason.NOT_ON_PAGE: self.tr("The article's text is too short or not on this page."),
            Reason.IN_BODY: self.tr("No element inside the page's body holds much of the"
                                    " article: its paragraphs stand in the body itself."),
            Reason.NO_ELEMENT: self.tr("No element of the page is at this place, or it is never"
                                       " shown."),
            Reason.NO_SELECTOR: self.tr("No selector without positions names just this element."),
        }
        return reasons.get(proposal.reason_code, proposal.reason)

    def _pick_failed(self, message: str) -> None:
        self.pick_status.setText(_red(_esc(message)))

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
        self._preview_generation += 1
        self._trial_generation += 1
        super().closeEvent(event)
