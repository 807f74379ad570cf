"""Start the window: QApplication, language, preferences, the last archive."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui.language import install_language, resolve_language
from gui.main_window import MainWindow
from gui.settings_dialog import ARCHIVE_KEY, LANGUAGE_KEY
from pipeline.archive import DEFAULT_ARCHIVE


def main(argv: list[str] | None = None) -> int:
    """Open the window on the last archive (or the default one) and run until it closes."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    app.setOrganizationName("Kuaibu")
    app.setApplicationName("Kuaibu")
    prefs = QSettings()
    translators = install_language(app, resolve_language(str(prefs.value(LANGUAGE_KEY, ""))))
    window = MainWindow(Path(str(prefs.value(ARCHIVE_KEY, DEFAULT_ARCHIVE))), prefs)
    window.show()
    code = app.exec()
    del translators  # kept alive until here: a collected QTranslator stops translating
    return code
