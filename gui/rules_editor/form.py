"""The rules editor's form: the section it edits and a field for each key whose spec gives it
a widget (``pipeline.rules.model.RULE_SPECS``, in the specs' order), each explained in its tooltip
and its problem shown under it. Apart because it has state of its own (what a box leaves
unset, whether it is being filled from the text) and knows nothing of the text or the
preview: the editor fills it from the text's rules and writes its values into the text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gui.reasons import translate_failure
from gui.rules_editor.filling import Filling
from gui.rules_editor.keys_help import key_help
from gui.rules_editor.messages import problem
from gui.rules_editor.rich_text import esc, red
from gui.worker import Jobs
from pipeline.records.errors import RulesError
from pipeline.rules.model import RULE_SPECS, RULES_CONTEXT, FormWidget, Rules, SiteRules
from pipeline.usecases.workspace import Workspace


class RulesForm(QWidget):
    """The section chooser and the keys' fields; ``beside`` puts a widget of the editor's
    after a key's field (Pick content beside Content selector)."""

    edited = Signal()  # a field changed by the person, not by filling the form from the text
    section_chosen = Signal(str)  # the person chose or typed another section

    def __init__(self, workspace: Workspace, jobs: Jobs, beside: Mapping[str, QWidget],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._workspace = workspace
        self._jobs = jobs
        self._filling = Filling()  # the form is being filled from the text, not edited
        # each field that cannot be used, as "key: problem" (the editor adds "section" when
        # the section cannot be written from the form); emptied by each check
        self.problems: dict[str, str] = {}
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

        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Domain"), self.section)
        extras = {**beside, "render": self.render_note}
        for key, widget in self.fields.items():
            label_widget = QLabel(QCoreApplication.translate(RULES_CONTEXT,
                                                             RULE_SPECS[key].label))
            label_widget.setToolTip(key_help()[key])
            form.addRow(label_widget, self._field(key, widget, extras.get(key)))
        self.section.currentTextChanged.connect(self._section_changed)

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
        widget.setToolTip(key_help()[key])
        return box

    def _widget(self, key: str) -> QWidget:
        """The form's widget for ``key``, as its spec says, telling the form when edited."""
        spec = RULE_SPECS[key]
        if spec.form in (FormWidget.LINE, FormWidget.LIST):
            line = QLineEdit()
            line.setPlaceholderText(spec.example)
            line.textChanged.connect(self._edited)
            return line
        if spec.form is FormWidget.NUMBER:
            assert spec.low_high is not None and spec.low_high.high is not None
            spin = QSpinBox()
            spin.setRange(0, int(spec.low_high.high))  # 0: not set
            spin.setSingleStep(spec.step)
            spin.setSpecialValueText("—")
            spin.valueChanged.connect(self._edited)
            return spin
        if spec.form is FormWidget.CHOICE:
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItems(["", *spec.choices])
            combo.currentTextChanged.connect(self._edited)
            return combo
        assert spec.form is FormWidget.CHECK, key
        box = QCheckBox(QCoreApplication.translate(RULES_CONTEXT, spec.box))
        box.toggled.connect(self._edited)
        return box

    def _edited(self) -> None:
        if not self._filling:
            self.edited.emit()

    def _section_changed(self, section: str) -> None:
        if not self._filling:
            self.section_chosen.emit(section.strip().lower())

    # -- the section ---------------------------------------------------------------------------

    def current_section(self) -> str:
        return self.section.currentText().strip().lower()

    def set_sections(self, names: list[str]) -> None:
        """Offer these sections, the one shown kept ("default" when none is)."""
        current = self.section.currentText() or "default"
        with self._filling():
            self.section.clear()
            self.section.addItems(names)
            self.section.setCurrentText(current)

    def choose_section(self, section: str) -> None:
        """Show ``section`` as the one the form edits (the values are the editor's to fill)."""
        with self._filling():
            self.section.setCurrentText(section)

    # -- the values ----------------------------------------------------------------------------

    def show_values(self, site: SiteRules) -> None:
        """Show a section's values (as ``SiteRules`` holds them) in the fields."""
        with self._filling():
            for key, widget in self.fields.items():
                self._show_value(key, widget, getattr(site, key))

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

    def list_items(self, key: str) -> list[str]:
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
            return self.list_items(key) or None
        return cast(QLineEdit, widget).text().strip() or None

    def values(self) -> dict[str, object | None]:
        """The form's keys as rules.yaml holds them (None: not set)."""
        return {key: self._value(key, widget) for key, widget in self.fields.items()}

    def check(self) -> None:
        """Each field checked alone as the file's keys are (``Rules.with_section``); its
        problem shown under it, a fixed one's message taken away."""
        errors: dict[str, str] = {}
        checks: list[tuple[str, object]] = []
        for key, value in self.values().items():
            if RULE_SPECS[key].form is FormWidget.LIST:
                # one by one, so the message names the one at fault
                checks += [(key, [item]) for item in self.list_items(key)]
            elif value is not None:
                checks.append((key, value))
        for key, value in checks:
            if key in errors:
                continue
            try:
                Rules().with_section("default", {key: value})
            except RulesError as e:
                errors[key] = problem(e)
        for key, label in self.field_errors.items():
            label.setText(red(esc(errors.get(key, ""))))
            label.setVisible(key in errors)
        self.problems = {k: f"{k}: {m}" for k, m in errors.items()}

    def _check_browser(self, checked: bool) -> None:
        """Rendering asked for: say now, beside the box, when this machine cannot render
        (the rule is still valid: another machine with the archive may)."""
        self.render_note.clear()
        if checked:
            self._jobs.start(self._workspace.browser_problem,
                             lambda lacking: self.render_note.setText(
                                 self.tr("Not on this machine yet: %1").replace(
                                     "%1", translate_failure(lacking))
                                 if lacking and self.render_box.isChecked() else ""))
