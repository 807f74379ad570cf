"""The interface language: English in the source, Simplified Chinese from gui/i18n/*.qm.

The language follows the system locale unless Settings names one; Qt's own strings (dialog
buttons) come from Qt's bundled qtbase translations when they are there.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # shown in their own language, never translated


def resolve_language(preference: str, system: QLocale | None = None) -> str:
    """``preference`` if it is a shipped language, else the one matching the system locale."""
    if preference in LANGUAGES:
        return preference
    name = (system or QLocale.system()).name()
    return "zh_CN" if name.startswith("zh") else "en"


def install_language(app: QCoreApplication, language: str,
                     installed: list[QTranslator] | None = None) -> list[QTranslator]:
    """Install the translators for ``language`` (removing ``installed`` ones); returns them so
    the caller keeps them alive."""
    for old in installed or []:
        app.removeTranslator(old)
    if language == "en":
        return []
    translators = []
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for name, folder in ((f"kuaibu_{language}", str(I18N_DIR)), (f"qtbase_{language}", qt_dir)):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            translators.append(translator)
    return translators
