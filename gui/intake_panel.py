"""The paste area and its category fields: where links come in, and the report of what came."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSettings, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from pipeline.errors import KuaibuError
from pipeline.intake import IntakeReport, read_text_source

TEXT_SUFFIXES = (".txt", ".html", ".htm", ".md", ".csv", ".url")


class PasteArea(QPlainTextEdit):
    """Takes pasted or dropped text, links dragged from a browser, .txt files and bookmark
    exports (their links are found by intake like any other text)."""

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return source.hasUrls() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        if not source.hasUrls():
            super().insertFromMimeData(source)
            return
        parts = []
        for url in source.urls():
            if url.isLocalFile():
                if url.toLocalFile().lower().endswith(TEXT_SUFFIXES):
                    try:
                        parts.append(read_text_source(url.toLocalFile()))
                    except KuaibuError as e:
                        parts.append(f"# {e}")
            else:
                parts.append(url.toString())
        self.insertPlainText("\n".join(parts) + "\n")


class IntakePanel(QGroupBox):
    """Paste area, categories (remembered, completed from the task list), Add, the report."""

    def __init__(self, prefs: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Add links"))
        self._prefs = prefs
        self.paste = PasteArea()
        self.paste.setPlaceholderText(self.tr(
            "Paste or drop links here: chat messages, Markdown, a .txt file, a bookmarks export…"))
        self.cat1 = QComboBox()
        self.cat2 = QComboBox()
        for box, key in ((self.cat1, "intake/cat1"), (self.cat2, "intake/cat2")):
            box.setEditable(True)
            box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            box.setCurrentText(str(prefs.value(key, "")))
        self.add_button = QPushButton(self.tr("Add links"))
        self.add_button.setDefault(True)
        self.report = QLabel()
        self.report.setWordWrap(True)
        self.report.setTextFormat(Qt.TextFormat.PlainText)
        form = QFormLayout(self)
        form.addRow(self.paste)
        form.addRow(self.tr("Category"), self.cat1)
        form.addRow(self.tr("Subcategory"), self.cat2)
        form.addRow(self.add_button)
        form.addRow(self.report)

    def categories(self) -> tuple[str, str]:
        """The categories typed, remembered for next time."""
        cat1, cat2 = self.cat1.currentText().strip(), self.cat2.currentText().strip()
        self._prefs.setValue("intake/cat1", cat1)
        self._prefs.setValue("intake/cat2", cat2)
        return cat1, cat2

    def set_known_categories(self, categories: list[str]) -> None:
        """The choices both fields complete from, keeping what is typed."""
        for box in (self.cat1, self.cat2):
            text = box.currentText()
            box.blockSignals(True)
            box.clear()
            box.addItems(categories)
            box.setCurrentText(text)
            box.blockSignals(False)

    def show_report(self, report: IntakeReport) -> list[str]:
        """"Added N, duplicates M, rejected K", with each duplicate and rejection (and its
        reason) on hover; returns those detail lines for the log."""
        self.report.setText(self.tr("Added %1, duplicates %2, rejected %3")
                            .replace("%1", str(len(report.added)))
                            .replace("%2", str(len(report.duplicates)))
                            .replace("%3", str(len(report.rejected))))
        details = [self.tr("Duplicate of #%1: %2").replace("%1", str(i)).replace("%2", link)
                   for link, i in report.duplicates]
        details += [self.tr("Rejected %1: %2").replace("%1", link).replace("%2", reason)
                    for link, reason in report.rejected]
        self.report.setToolTip("\n".join(details))
        if report.added:
            self.paste.clear()
        return details
