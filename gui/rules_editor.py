"""The rules editor: rules.yaml with highlighting, validation as you type, a form for the
common keys, and a preview of a rule on a stored page before anything is saved.

"Test on this task" re-extracts the stored raw page with the rules as typed
(``Workspace.test_rules``, no network) in a job;
"Apply to domain" saves the file and asks the window to re-clean that domain's pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRegularExpression, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gui.rules_text import FlowSectionError, set_section_keys
from gui.worker import Jobs
from pipeline.errors import RulesError
from pipeline.rules import Rules, parse_rules
from pipeline.tasks import Task
from pipeline.urls import host_of
from pipeline.workspace import Preview, Workspace

ENCODINGS = ("", "utf-8", "gb18030", "big5", "shift_jis", "euc-kr")


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


@dataclass
class PickResult:
    selector: str | None


class RulesEditor(QWidget):
    """A window over one archive's rules.yaml; ``task`` is the row selected in the main window."""

    tested = Signal(object)  # PreviewData of the test, shown in the main preview
    apply_requested = Signal(str)  # a section was saved: re-clean that domain
    saved = Signal()
    validated = Signal(str)  # "" when valid, else the message shown

    def __init__(self, workspace: Workspace, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.workspace = workspace
        self.archive = workspace.archive
        self.setWindowTitle(self.tr("Site rules — %1").replace("%1",
                                                              str(self.archive.rules_path)))
        self._jobs = jobs
        self.task: Task | None = None
        self.rules: Rules | None = None  # the last valid parse of the text

        self.section = QComboBox()
        self.section.setEditable(True)
        self.section.setToolTip(self.tr("A domain (covers its sub-domains) or 'default'"))
        self.content_selector = QLineEdit()
        self.content_selector.setPlaceholderText("article .post-content")
        self.strip_extra = QLineEdit()
        self.strip_extra.setPlaceholderText(".reward-box, .copyright-tip")
        self.cookies = QLineEdit()
        self.cookies.setPlaceholderText("name=value; name2=value2")
        self.encoding = QComboBox()
        self.encoding.setEditable(True)
        self.encoding.addItems(ENCODINGS)
        write_form = QPushButton(self.tr("Write to YAML"))
        write_form.clicked.connect(self.write_form)
        self.pick = QPushButton(self.tr("Pick content"))
        self.pick.setToolTip(self.tr("Suggest a content selector from the extractor's choice"))
        self.pick.clicked.connect(self.pick_content)
        form = QFormLayout()
        form.addRow(self.tr("Domain"), self.section)
        form.addRow(self.tr("Content selector"), self.content_selector)
        form.addRow(self.tr("Also remove"), self.strip_extra)
        form.addRow(self.tr("Cookies"), self.cookies)
        form.addRow(self.tr("Encoding"), self.encoding)
        form_buttons = QHBoxLayout()
        form_buttons.addWidget(self.pick)
        form_buttons.addStretch(1)
        form_buttons.addWidget(write_form)
        form.addRow(form_buttons)

        self.editor = QPlainTextEdit()
        self.editor.setFont(QFont("monospace"))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.highlighter = YamlHighlighter(self.editor.document())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result = QLabel()
        self.result.setWordWrap(True)

        self.test_button = QPushButton(self.tr("Test on this task"))
        self.test_button.clicked.connect(self.test_on_task)
        self.apply_button = QPushButton(self.tr("Apply to domain"))
        self.apply_button.clicked.connect(self.apply_to_domain)
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.clicked.connect(self.save)
        buttons = QHBoxLayout()
        for b in (self.test_button, self.apply_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.result)
        layout.addLayout(buttons)

        self._validate_timer = QTimer(self)
        self._validate_timer.setSingleShot(True)
        self._validate_timer.setInterval(150)
        self._validate_timer.timeout.connect(self.validate)
        self.editor.textChanged.connect(self._validate_timer.start)
        self.section.currentTextChanged.connect(self._fill_form)
        self.resize(760, 680)
        self.reload()

    # -- text and validation -------------------------------------------------------------------

    def reload(self) -> None:
        path = self.archive.rules_path
        self.editor.setPlainText(path.read_text(encoding="utf-8") if path.exists() else "")
        self.validate()

    def validate(self) -> bool:
        """Parse the text as it stands; show the line and message of the first problem."""
        try:
            self.rules = parse_rules(self.editor.toPlainText(), self.archive.rules_path.name)
        except RulesError as e:
            where = self.tr("Line %1").replace("%1", str(e.line)) if e.line else ""
            what = f"{e.key}: {e.message}" if e.key else e.message
            message = f"{where}: {what}" if where else what
            self.status.setText(f"<span style='color:#c62828'>✗ {message}</span>")
            self._mark_line(e.line)
            self._set_valid(False)
            self.validated.emit(message)
            return False
        valid = self.tr("Valid")
        self.status.setText(f"<span style='color:#2e7d32'>✓ {valid}</span>")
        self._mark_line(None)
        self._set_valid(True)
        self._refresh_sections()
        self.validated.emit("")
        return True

    def _set_valid(self, valid: bool) -> None:
        for button in (self.test_button, self.apply_button, self.save_button):
            button.setEnabled(valid)

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
        current = self.section.currentText()
        self.section.blockSignals(True)
        self.section.clear()
        self.section.addItems(names)
        self.section.setCurrentText(current)
        self.section.blockSignals(False)

    # -- the form ------------------------------------------------------------------------------

    def set_task(self, task: Task | None) -> None:
        """The task "Test on this task" uses; its domain's section becomes the form's."""
        self.task = task
        self.test_button.setToolTip(task.display_title if task else self.tr("Select a task"))
        if task is not None and self.rules is not None:
            host = host_of(task.url)
            section = self.rules.section_for(host) or host.removeprefix("www.")
            self.section.setCurrentText(section)
            self._fill_form(section)

    def _fill_form(self, section: str) -> None:
        if self.rules is None:
            return
        name = section.strip().lower()
        values = dict(self.rules.domains.get(name, {}))
        if name == "default":
            d = self.rules.default
            values = {"content_selector": d.content_selector, "strip_extra": d.strip_extra,
                      "cookies": d.cookies, "encoding": d.encoding}
        self.content_selector.setText(values.get("content_selector") or "")
        self.strip_extra.setText(", ".join(values.get("strip_extra") or ()))
        self.cookies.setText(values.get("cookies") or "")
        self.encoding.setCurrentText(values.get("encoding") or "")

    def form_values(self) -> dict[str, object | None]:
        strip = [s.strip() for s in self.strip_extra.text().split(",") if s.strip()]
        return {
            "content_selector": self.content_selector.text().strip() or None,
            "strip_extra": strip or None,
            "cookies": self.cookies.text().strip() or None,
            "encoding": self.encoding.currentText().strip() or None,
        }

    def write_form(self) -> None:
        """Put the form's values into the section's lines (comments elsewhere are kept)."""
        section = self.section.currentText().strip().lower()
        if not section:
            return
        try:
            text = set_section_keys(self.editor.toPlainText(), section, self.form_values())
        except FlowSectionError:
            self.status.setText(self.tr("Section %1 is written inline; edit it in the text.")
                                .replace("%1", section))
            return
        self.editor.setPlainText(text)
        self._validate_timer.stop()
        self.validate()
        self._show_section(section)

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

    # -- actions ---------------------------------------------------------------------------------

    def _ready_task(self) -> Task | None:
        if self.task is None or not self.archive.has_raw(self.task.id):
            self.result.setText(self.tr("Select a task whose page has been fetched."))
            return None
        return self.task

    def test_on_task(self) -> None:
        """Re-clean the selected task from its stored raw page with the rules as typed."""
        task = self._ready_task()
        if task is None or not self.validate():
            return
        rules, workspace = self.rules, self.workspace
        assert rules is not None
        note = self.tr("test of the rules as typed, not saved")
        self.result.setText(self.tr("Testing…"))

        def work() -> Preview:
            return workspace.preview(task, workspace.test_rules(task, rules), note)

        self._jobs.start(work, self._tested, self._test_failed)

    def _tested(self, data: Preview) -> None:
        article = data.article
        assert article is not None
        self.result.setText(self.tr("Test: “%1”, %2 characters, confidence %3")
                            .replace("%1", article.title).replace("%2", f"{article.chars:,}")
                            .replace("%3", f"{article.confidence:.2f}"))
        self.tested.emit(data)

    def _test_failed(self, message: str) -> None:
        self.result.setText(f"<span style='color:#c62828'>{message}</span>")

    def pick_content(self) -> None:
        """Suggest a content selector: the page element holding what the extractor chose."""
        task = self._ready_task()
        if task is None:
            return
        workspace, rules = self.workspace, self.rules or Rules()

        def work() -> PickResult:
            return PickResult(workspace.suggest_selector(task, rules))

        self._jobs.start(work, self._picked, self._test_failed)

    def _picked(self, result: PickResult) -> None:
        if result.selector is None:
            self.result.setText(self.tr("No single element holds the article; write a"
                                        " selector by hand."))
            return
        self.content_selector.setText(result.selector)
        self.result.setText(self.tr("Suggested content selector: %1 (Write to YAML to keep it)")
                            .replace("%1", result.selector))

    def save(self) -> bool:
        if not self.validate():
            return False
        self.workspace.save_rules(self.editor.toPlainText())
        self.saved.emit()
        return True

    def apply_to_domain(self) -> None:
        """Save, then have every stored page of the section's domain cleaned again."""
        section = self.section.currentText().strip().lower()
        if section and self.save():
            self.apply_requested.emit(section)
