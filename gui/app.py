"""Start the window: QApplication, language, preferences, the last archive."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer, QTranslator
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from gui.language import install_language, resolve_language
from gui.main_window.window import MainWindow
from gui.settings_dialog import ARCHIVE_KEY, LANGUAGE_KEY
from pipeline.desktop.entry import APP_ICONS
from pipeline.store.archive import DEFAULT_ARCHIVE


def open_window(app: QApplication, prefs: QSettings,
                archive: Path | None = None) -> tuple[MainWindow, list[QTranslator]]:
    """The window on ``archive`` (``--archive``), else the last one (or the default), in the
    chosen language; the translators are returned because a collected QTranslator stops
    translating."""
    translators = install_language(app, resolve_language(str(prefs.value(LANGUAGE_KEY, ""))))
    root = archive or Path(str(prefs.value(ARCHIVE_KEY, DEFAULT_ARCHIVE)))
    return MainWindow(root, prefs), translators


def main(argv: list[str] | None = None, archive: Path | None = None,
         quit_when_shown: bool = False) -> int:
    """Run the window until it closes (``quit_when_shown``: until it has been shown, its
    title printed, which is how an install is checked without a person)."""
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv)
    assert isinstance(app, QApplication)
    app.setOrganizationName("Kuaibu")
    app.setApplicationName("Kuaibu")
    icon = QIcon()
    for path in APP_ICONS:
        icon.addFile(str(path))
    app.setWindowIcon(icon)
    window, _translators = open_window(app, QSettings(), archive)
    window.show()
    if quit_when_shown:
        def shown() -> None:
            if sys.stdout is not None:  # a GUI program on Windows has none
                print(f"shown: {window.windowTitle()}", flush=True)
            window.close()
            app.quit()

        QTimer.singleShot(0, shown)
    return app.exec()


def launch() -> None:
    """The installed ``kuaibu-gui``: the window, on ``--archive DIR`` or the last archive
    (``kuaibu`` is the command line). Qt's own options (``-platform``…) pass through."""
    parser = argparse.ArgumentParser(prog="kuaibu-gui", description="Kuaibu 快捕's window")
    parser.add_argument("--archive", metavar="DIR", help="open this archive folder")
    parser.add_argument("--quit-when-shown", action="store_true",
                        help="open the window, print its title and quit: checks an install")
    args, qt_args = parser.parse_known_args()
    sys.exit(main([sys.argv[0], *qt_args], Path(args.archive) if args.archive else None,
                  quit_when_shown=args.quit_when_shown))
