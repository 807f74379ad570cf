"""Start the window: QApplication, language, preferences, the last archive."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QTranslator
from PySide6.QtWidgets import QApplication

from gui.language import install_language, resolve_language
from gui.main_window.window import MainWindow
from gui.settings_dialog import ARCHIVE_KEY, LANGUAGE_KEY
from pipeline.store.archive import DEFAULT_ARCHIVE


def open_window(app: QApplication, prefs: QSettings,
                archive: Path | None = None) -> tuple[MainWindow, list[QTranslator]]:
    """The window on ``archive`` (``--archive``), else the last one (or the default), in the
    chosen language; the translators are returned because a collected QTranslator stops
    translating."""
    translators = install_language(app, resolve_language(str(prefs.value(LANGUAGE_KEY, ""))))
    root = archive or Path(str(prefs.value(ARCHIVE_KEY, DEFAULT_ARCHIVE)))
    return MainWindow(root, prefs), translators


def main(argv: list[str] | None = None, archive: Path | None = None) -> int:
    """Run the window until it closes."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    assert isinstance(app, QApplication)
    app.setOrganizationName("Kuaibu")
    app.setApplicationName("Kuaibu")
    window, _translators = open_window(app, QSettings(), archive)
    window.show()
    return app.exec()
