"""Settings: archive folder, politeness, timeouts, images, EPUB budget, interface language.

Values live in QSettings under ``settings/<name>`` (names of ``pipeline.records.settings.Settings``
fields), so the window builds its ``Settings`` from them and defaults stay in one place. Which
fields appear here, their labels and ranges are declared with the fields themselves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings
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
from pipeline.records.settings import LABEL_CONTEXT, SPECS, TUNABLE, Settings, Spec

LANGUAGE_KEY = "ui/language"
ARCHIVE_KEY = "archive"
COOKIES_KEY = "settings/cookies_file"
RENDER_KEY = "settings/render"
DECIMALS = 1  # seconds are shown to a tenth


def settings_from_prefs(prefs: QSettings, base: Settings | None = None) -> Settings:
    """``base`` (default: the built-in defaults) with the values a person saved."""
    settings = base or Settings()
    for name in TUNABLE:
        raw = prefs.value(f"settings/{name}")
        if raw is None:
            continue
        try:  # read as --set reads text, so both take a value the same way
            settings = settings.with_text_overrides([f"{name}={raw}"])
        except ValueError:
            continue  # a hand-edited ini with nonsense (or 0 connections) in it: keep the default
    render = str(prefs.value(RENDER_KEY, "") or "")
    if render in SPECS["render"].choices:
        settings = settings.with_overrides(render=render)
    cookies = str(prefs.value(COOKIES_KEY, "") or "").strip()
    return settings.with_overrides(cookies_file=cookies or None) if cookies else settings


def spin_box(spec: Spec, default: float, value: float) -> QSpinBox | QDoubleSpinBox:
    """A spin box over the setting's declared range, in the unit a person reads (MB, not
    bytes); whole numbers when the default is one."""
    assert spec.low is not None and spec.high is not None  # Spec refuses a label without both
    if isinstance(default, float):
        step = 10.0 ** -DECIMALS
        real = QDoubleSpinBox()
        real.setDecimals(DECIMALS)
        real.setRange(spec.low + step if spec.above else spec.low, spec.high)
        real.setValue(value)
        return real
    whole = QSpinBox()
    lowest = spec.low + 1 if spec.above else spec.low
    whole.setRange(math.ceil(lowest / spec.scale), math.floor(spec.high / spec.scale))
    whole.setValue(int(value) // spec.scale)
    return whole


class SettingsDialog(QDialog):
    def __init__(self, prefs: QSettings, settings: Settings, archive_root: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._prefs = prefs
        self._settings = settings
        form = QFormLayout(self)
        self.archive_edit = self._path_row(form, self.tr("Archive folder"), str(archive_root),
                                           self._choose_archive)
        self.cookies_edit = self._path_row(form, self.tr("Cookies file"),
                                           settings.cookies_file or "", self._choose_cookies)
        self.cookies_edit.setPlaceholderText(self.tr("cookies.txt exported from a browser"))
        self.fields: dict[str, QSpinBox | QDoubleSpinBox] = {}
        defaults = Settings()
        for name, spec in TUNABLE.items():
            box = spin_box(spec, getattr(defaults, name), getattr(settings, name))
            self.fields[name] = box
            form.addRow(QCoreApplication.translate(LABEL_CONTEXT, spec.label), box)
        # which pages the system's Chromium renders (issue 19); a site's rule decides first
        self.render_choice = choice = QComboBox()
        choice.addItem(self.tr("Only sites whose rules say render: browser"), "per-site")
        choice.addItem(self.tr("Every site, but those whose rules say render: fetch"), "browser")
        self.render_choice.setToolTip(self.tr(
            "Rendering opens pages in the system's Chromium so that what their scripts build is"
            " archived; it needs pip install -e '.[browser]' and the chromium package"))
        self.render_choice.setCurrentIndex(max(0, self.render_choice.findData(settings.render)))
        form.addRow(self.tr("Render with browser"), self.render_choice)
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
            scale = 1 if isinstance(box, QDoubleSpinBox) else TUNABLE[name].scale
            changes[name] = box.value() * scale
        changes["cookies_file"] = self.cookies_edit.text().strip() or None
        changes["render"] = self.render_choice.currentData()
        return self._settings.with_overrides(**changes)

    def accept(self) -> None:
        chosen = self.chosen_settings()
        for name in self.fields:
            self._prefs.setValue(f"settings/{name}", getattr(chosen, name))
        self._prefs.setValue(COOKIES_KEY, chosen.cookies_file or "")
        self._prefs.setValue(RENDER_KEY, chosen.render)
        self._prefs.setValue(LANGUAGE_KEY, self.language.currentData())
        self._prefs.setValue(ARCHIVE_KEY, str(self.archive_root()))
        super().accept()
