"""The interface language: English in the source, Simplified Chinese from gui/i18n/*.qm.

The language follows the system locale unless Settings names one. Each language has its own
compiled translation: Chinese every message, English only the plural forms (``tr(…, n)``
writes "%n tasks" in the source; ``kuaibu_en.qm`` says "1 task"). Qt's own strings (file
dialogs, dialog buttons) come from the ``qtbase_<language>.qm`` that the PySide6 wheel ships.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # shown in their own language, never translated

# Qt's own strings its shipped qtbase_zh_CN.qm lacks (Qt 6.11): the file dialog's labels,
# asked for with a mnemonic now ("&Look in:", where the .qm has "Look in:"), and the file types
# its list shows, asked for in a context the .qm does not have. Kuaibu's translation carries
# them, in Qt's contexts, until Qt's catches up.
QT_GAPS = (QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
           QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
           QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Drive"),
           QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Folder"),
           QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "File"),
           QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "%1 File"))


def resolve_language(preference: str, system: QLocale | None = None) -> str:
    """``preference`` if it is a shipped language, else the one matching the system locale."""
    if preference in LANGUAGES:
        return preference
    name = (system or QLocale.system()).name()
    return "zh_CN" if name.startswith("zh") else "en"


def install_language(app: QCoreApplication, language: str,
                     installed: list[QTranslator] | None = None) -> list[QTranslator]:
    """Install the translators for ``language`` (removing ``installed`` ones); returns them so
    the caller keeps them alive. Kuaibu's own is installed last, so it is asked first (Qt asks
    the newest translator first) and fills Qt's gaps (``QT_GAPS``)."""
    remove_language(app, installed or [])
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    sources = [(f"kuaibu_{language}", str(I18N_DIR))]
    if language != "en":
        sources.insert(0, (f"qtbase_{language}", qt_dir))
    translators = []
    for name, folder in sources:
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            translators.append(translator)
    return translators


def remove_language(app: QCoreApplication, installed: list[QTranslator]) -> None:
    """Take ``installed`` translators away again (what was under them speaks again)."""
    for old in installed:
        app.removeTranslator(old)


def shown_name(control: QAbstractButton | QAction) -> str:
    """The words a button or action shows, its mnemonic dropped ("&Settings…", "设置(&S)…"):
    what a sentence that tells a person to press it names, so the two never drift apart (nor
    the two languages)."""
    text = re.sub(r"\(&[^&]\)", "", control.text().replace("&&", "\0"))
    return text.replace("&", "").replace("\0", "&")
