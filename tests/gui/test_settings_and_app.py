"""Settings persist in QSettings and reach the pipeline; the app opens the remembered archive;
window geometry and splitters come back."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QFormLayout, QLabel
from pytestqt.qtbot import QtBot

from gui.app import open_window as open_app_window
from gui.language import remove_language
from gui.settings_dialog import ARCHIVE_KEY, LANGUAGE_KEY, SettingsDialog, settings_from_prefs
from pipeline.records.settings import MB, TUNABLE, Settings
from tests.gui.conftest import OpenWindow
from tests.waiting import PATIENCE_MS


def test_settings_dialog_saves_what_the_pipeline_reads(qtbot: QtBot, prefs: QSettings,
                                                       tmp_path: Path) -> None:
    dialog = SettingsDialog(prefs, Settings(), tmp_path / "a")
    qtbot.addWidget(dialog)
    dialog.fields["host_delay_ms"].setValue(750)
    read_timeout = dialog.fields["read_timeout"]
    assert isinstance(read_timeout, QDoubleSpinBox)
    read_timeout.setValue(33.0)
    dialog.fields["epub_budget_bytes"].setValue(80)
    dialog.fields["image_max_edge"].setValue(16)  # the lowest the pipeline takes
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.archive_edit.setText(str(tmp_path / "b"))
    dialog.cookies_edit.setText(str(tmp_path / "cookies.txt"))
    assert dialog.render_choice.currentData() == "per-site"
    render = dialog.render_choice
    render.setCurrentIndex(render.findData("browser"))  # every site rendered
    dialog.accept()
    prefs.sync()
    again = QSettings(prefs.fileName(), QSettings.Format.IniFormat)
    settings = settings_from_prefs(again)
    assert settings.host_delay_ms == 750 and settings.read_timeout == 33.0
    assert settings.epub_budget_bytes == 80 * MB and settings.image_max_edge == 16
    assert settings.jpeg_quality == Settings().jpeg_quality  # untouched values keep defaults
    assert settings.cookies_file == str(tmp_path / "cookies.txt")  # the runner loads it
    assert settings.render == "browser"
    assert again.value(LANGUAGE_KEY) == "zh_CN"
    assert Path(str(again.value(ARCHIVE_KEY))) == tmp_path / "b"


def test_nonsense_in_the_ini_keeps_the_default(prefs: QSettings) -> None:
    prefs.setValue("settings/host_delay_ms", "soon")
    prefs.setValue("settings/per_host_connections", "0")  # a number no run could work with
    prefs.setValue("settings/image_max_edge", "15")  # under the declared 16
    prefs.setValue("settings/retries", "5")
    prefs.setValue("settings/jpeg_quality", "1")
    prefs.setValue("settings/render", "always")  # no such choice
    settings = settings_from_prefs(prefs)
    assert settings.render == Settings().render
    assert settings.host_delay_ms == Settings().host_delay_ms
    assert settings.per_host_connections == Settings().per_host_connections
    assert settings.image_max_edge == Settings().image_max_edge
    assert (settings.retries, settings.jpeg_quality) == (5, 1)


def test_the_dialogs_ranges_are_the_declared_ones(qtbot: QtBot, prefs: QSettings,
                                                  tmp_path: Path) -> None:
    dialog = SettingsDialog(prefs, Settings(), tmp_path)
    qtbot.addWidget(dialog)
    boxes = dialog.fields
    assert list(boxes) == list(TUNABLE)
    assert (boxes["image_max_edge"].minimum(), boxes["image_max_edge"].maximum()) == (16, 10_000)
    assert (boxes["jpeg_quality"].minimum(), boxes["jpeg_quality"].maximum()) == (1, 100)
    assert (boxes["epub_budget_bytes"].minimum(), boxes["epub_budget_bytes"].maximum()) == (
        1, 2000)  # shown in MB
    assert boxes["epub_budget_bytes"].value() == Settings().epub_budget_bytes // MB
    assert isinstance(boxes["read_timeout"], QDoubleSpinBox)
    assert boxes["read_timeout"].minimum() == pytest.approx(0.1)  # "above 0", to a tenth
    for name, box in boxes.items():
        if isinstance(box, QDoubleSpinBox):
            step, scale = 10.0 ** -box.decimals(), 1
        else:
            step, scale = 1.0, TUNABLE[name].scale
        for end in (box.minimum(), box.maximum()):  # both ends are values the pipeline takes
            box.setValue(end)  # type: ignore[arg-type]  # an int box gets its own int ends
            assert getattr(dialog.chosen_settings(), name) == end * scale
        for past in (box.minimum() - step, box.maximum() + step):  # one step past is not
            with pytest.raises(ValueError, match=f"setting {name} must be"):
                Settings().with_overrides(**{name: past * scale})


def test_the_dialogs_labels_speak_chinese(chinese: None, qtbot: QtBot, prefs: QSettings,
                                          tmp_path: Path) -> None:
    dialog = SettingsDialog(prefs, Settings(), tmp_path)
    qtbot.addWidget(dialog)
    form = dialog.layout()
    assert isinstance(form, QFormLayout)

    def label(name: str) -> str:
        widget = form.labelForField(dialog.fields[name])
        assert isinstance(widget, QLabel)
        return widget.text()

    assert label("image_max_edge") == "图片最长边（像素）"
    assert label("jpeg_quality") == "JPEG 质量"
    assert label("epub_budget_bytes") == "EPUB 体积上限（MB）"
    for name, spec in TUNABLE.items():
        assert label(name) != spec.label, name


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
        with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
            pass
        assert window.archive is not None
        assert window.archive.root == (tmp_path / "remembered").resolve()
        assert (tmp_path / "remembered" / "rules.yaml").exists()
        assert window.run_bar.run_button.text() != "Run" and translators
    finally:
        remove_language(qapp, translators)
