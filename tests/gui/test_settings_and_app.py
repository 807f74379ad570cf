"""Settings persist in QSettings and reach the pipeline; the app opens the remembered archive;
window geometry and splitters come back."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.app import open_window as open_app_window
from gui.language import install_language
from gui.settings_dialog import ARCHIVE_KEY, LANGUAGE_KEY, SettingsDialog, settings_from_prefs
from pipeline.settings import MB, Settings
from tests.gui.conftest import OpenWindow


def test_settings_dialog_saves_what_the_pipeline_reads(qtbot: QtBot, prefs: QSettings,
                                                       tmp_path: Path) -> None:
    dialog = SettingsDialog(prefs, Settings(), tmp_path / "a")
    qtbot.addWidget(dialog)
    dialog.fields["host_delay_ms"].setValue(750)
    dialog.fields["read_timeout"].setValue(33.0)
    dialog.fields["epub_budget_bytes"].setValue(80)
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.archive_edit.setText(str(tmp_path / "b"))
    dialog.cookies_edit.setText(str(tmp_path / "cookies.txt"))
    dialog.accept()
    prefs.sync()
    again = QSettings(prefs.fileName(), QSettings.Format.IniFormat)
    settings = settings_from_prefs(again)
    assert settings.host_delay_ms == 750 and settings.read_timeout == 33.0
    assert settings.epub_budget_bytes == 80 * MB
    assert settings.jpeg_quality == Settings().jpeg_quality  # untouched values keep defaults
    assert settings.cookies_file == str(tmp_path / "cookies.txt")  # the runner loads it
    assert again.value(LANGUAGE_KEY) == "zh_CN"
    assert Path(str(again.value(ARCHIVE_KEY))) == tmp_path / "b"


def test_nonsense_in_the_ini_keeps_the_default(prefs: QSettings) -> None:
    prefs.setValue("settings/host_delay_ms", "soon")
    prefs.setValue("settings/per_host_connections", "0")  # a number no run could work with
    prefs.setValue("settings/retries", "5")
    settings = settings_from_prefs(prefs)
    assert settings.host_delay_ms == Settings().host_delay_ms
    assert settings.per_host_connections == Settings().per_host_connections
    assert settings.retries == 5


def test_splitters_and_geometry_come_back(qtbot: QtBot, open_window: OpenWindow,
                                          prefs: QSettings, tmp_path: Path) -> None:
    window = open_window()
    window.main_splitter.setSizes([420, 860])
    sizes = window.main_splitter.sizes()
    window.close()
    again = open_window(tmp_path / "archive")
    assert again.main_splitter.sizes() == sizes


def test_the_app_opens_the_remembered_archive_in_the_chosen_language(
        qtbot: QtBot, qapp: QApplication, prefs: QSettings, tmp_path: Path) -> None:
    prefs.setValue(ARCHIVE_KEY, str(tmp_path / "remembered"))
    prefs.setValue(LANGUAGE_KEY, "zh_CN")
    window, translators = open_app_window(qapp, prefs)
    qtbot.addWidget(window)
    try:
        with qtbot.waitSignal(window.archive_loaded, timeout=5_000):
            pass
        assert window.archive is not None
        assert window.archive.root == (tmp_path / "remembered").resolve()
        assert (tmp_path / "remembered" / "rules.yaml").exists()
        assert window.run_button.text() != "Run" and translators
    finally:
        install_language(qapp, "en", translators)
