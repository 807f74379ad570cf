"""Settings: archive folder, politeness, timeouts, images, EPUB budget, interface language.

Values live in QSettings under ``settings/<name>`` (names of ``pipeline.settings.Settings``
fields), so the window builds its ``Settings`` with ``with_overrides`` and defaults stay in
one place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from gui.language import LANGUAGES
from pipeline.settings import MB, Settings

# The fields a person tunes here: name → (kind, minimum, maximum, scale); the rest keep defaults.
EDITABLE: dict[str, tuple[type, float, float, int]] = {
    "per_host_connections": (int, 1, 16, 1),
    "global_connections": (int, 1, 64, 1),
    "host_delay_ms": (int, 0, 60_000, 1),
    "connect_timeout": (float, 1, 120, 1),
    "read_timeout": (float, 1, 600, 1),
    "retries": (int, 0, 10, 1),
    "image_max_edge": (int, 200, 10_000, 1),
    "jpeg_quality": (int, 30, 100, 1),
    "epub_budget_bytes": (int, 1, 2000, MB),  # shown in MB
}
LANGUAGE_KEY = "ui/language"
ARCHIVE_KEY = "archive"
COOKIES_KEY = "settings/cookies_file"


def settings_from_prefs(prefs: QSettings, base: Settings | None = None) -> Settings:
    """``base`` (default: the built-in defaults) with the values a person saved."""
    settings = base or Settings()
    for name, (kind, _low, _high, _scale) in EDITABLE.items():
        raw = prefs.value(f"settings/{name}")
        if raw is None:
            continue
        try:
            settings = settings.with_overrides(**{name: kind(raw)})
        except (TypeError, ValueError):
            continue  # a hand-edited ini with nonsense (or 0 connections) in it: keep the default
    cookies = str(prefs.value(COOKIES_KEY, "") or "").strip()
    return settings.with_overrides(cookies_file=cookies or None) if cookies else settings


class SettingsDialog(QDialog):
    def __init__(self, prefs: QSettings, settings: Settings, archive_root: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._prefs = prefs
        self._settings = settings
        labels = {
            "per_host_connections": self.tr("Connections per site"),
            "global_connections": self.tr("Connections in all"),
            "host_delay_ms": self.tr("Delay between requests to a site (ms)"),
            "connect_timeout": self.tr("Connect timeout (s)"),
            "read_timeout": self.tr("Read timeout (s)"),
            "retries": self.tr("Retries"),
            "image_max_edge": self.tr("Largest image edge (px)"),
            "jpeg_quality": self.tr("JPEG quality"),
            "epub_budget_bytes": self.tr("EPUB size budget (MB)"),
        }
        form = QFormLayout(self)
        self.archive_edit = self._path_row(form, self.tr("Archive folder"), str(archive_root),
                                           self._choose_archive)
        self.cookies_edit = self._path_row(form, self.tr("Cookies file"),
                                           settings.cookies_file or "", self._choose_cookies)
        self.cookies_edit.setPlaceholderText(self.tr("cookies.txt exported from a browser"))
        self.fields: dict[str, QSpinBox | QDoubleSpinBox] = {}
        for name, (kind, low, high, scale) in EDITABLE.items():
            box: QSpinBox | QDoubleSpinBox
            if kind is float:
                box = QDoubleSpinBox()
                box.setDecimals(1)
                box.setRange(low, high)
                box.setValue(float(getattr(settings, name)))
            else:
                box = QSpinBox()
                box.setRange(int(low), int(high))
                box.setValue(int(getattr(settings, name)) // scale)
            self.fields[name] = box
            form.addRow(labels[name], box)
        self.language = QComboBox()
        self.language.addItem(self.tr("System default"), "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        current = str(prefs.value(LANGUAGE_KEY, ""))
        self.language.setCurrentIndex(max(0, self.language.findData(current)))
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", QLabel(self.tr("A new language applies from the next start.")))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _path_row(self, form: QFormLayout, label: str, text: str,
                  choose: Callable[[], None]) -> QLineEdit:
        """A path field with a Choose… button beside it."""
        edit = QLineEdit(text)
        button = QPushButton(self.tr("Choose…"))
        button.clicked.connect(choose)
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(button)
        form.addRow(label, row)
        return edit

    def _choose_archive(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Archive folder"),
                                                  self.archive_edit.text())
        if folder:
            self.archive_edit.setText(folder)

    def _choose_cookies(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Cookies file"),
                                              self.cookies_edit.text(),
                                              self.tr("Cookies (*.txt);;All files (*)"))
        if path:
            self.cookies_edit.setText(path)

    def archive_root(self) -> Path:
        return Path(self.archive_edit.text().strip()).expanduser()

    def chosen_settings(self) -> Settings:
        changes: dict[str, object] = {}
        for name, box in self.fields.items():
            kind, _low, _high, scale = EDITABLE[name]
            changes[name] = kind(box.value()) * scale if kind is int else float(box.value())
        changes["cookies_file"] = self.cookies_edit.text().strip() or None
        return self._settings.with_overrides(**changes)

    def accept(self) -> None:
        chosen = self.chosen_settings()
        for name in self.fields:
            self._prefs.setValue(f"settings/{name}", getattr(chosen, name))
        self._prefs.setValue(COOKIES_KEY, chosen.cookies_file or "")
        self._prefs.setValue(LANGUAGE_KEY, self.language.currentData())
        self._prefs.setValue(ARCHIVE_KEY, str(self.archive_root()))
        super().accept()
