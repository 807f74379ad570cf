"""The shipped Chinese translation: complete, compiled, chosen by locale, and used by the window."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from pytestqt.qtbot import QtBot

from gui.language import I18N_DIR, resolve_language
from gui.main_window.task_actions import CategoryDialog
from tests.gui.conftest import OpenWindow
from tests.waiting import PATIENCE

TS = I18N_DIR / "kuaibu_zh_CN.ts"
REPO = Path(__file__).resolve().parents[2]
# the pipeline modules whose English the window shows translated (QT_TRANSLATE_NOOP)
TRANSLATED_IN_PIPELINE = ("pipeline/records/settings.py", "pipeline/rules/model.py")


def _messages(ts: Path = TS) -> list[tuple[str, str, ET.Element]]:
    root = ET.parse(ts).getroot()
    return [(ctx.findtext("name") or "", msg.findtext("source") or "", msg)
            for ctx in root.iter("context") for msg in ctx.iter("message")]


def test_language_follows_the_locale_unless_chosen() -> None:
    assert resolve_language("", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("", QLocale("zh_TW")) == "zh_CN"
    assert resolve_language("", QLocale("de_DE")) == "en"
    assert resolve_language("en", QLocale("zh_CN")) == "en"
    assert resolve_language("zh_CN", QLocale("en_US")) == "zh_CN"


def test_every_message_is_translated_and_compiled(chinese: None) -> None:
    messages = _messages()
    assert len(messages) > 100
    for context, source, msg in messages:
        translation = msg.find("translation")
        assert translation is not None and translation.get("type") is None, source
        assert QCoreApplication.translate(context, source) == translation.text, (
            f"{context}/{source}: the .qm is stale; run pyside6-lrelease")


def test_window_speaks_chinese(chinese: None, qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    zh = {(ctx, src): msg.findtext("translation") for ctx, src, msg in _messages()}
    assert window.run_bar.run_button.text() == zh[("RunBar", "Run")] != "Run"
    header = window.model.headerData(0, Qt.Orientation.Horizontal)
    assert header == zh[("TaskTableModel", "Status")]
    assert window.status_filter.findText(zh[("TaskTableModel", "pending")]) > 0


def test_every_part_of_the_window_speaks_chinese(chinese: None, open_window: OpenWindow) -> None:
    """MainWindow is one class made of parts (gui/main_window/), and lupdate files each string
    under the part whose code says it; the window must find every one of them from itself
    (PySide6's tr looks under each class of the window's MRO)."""
    window = open_window()
    parts = {cls.__name__ for cls in type(window).__mro__}
    said_by_parts = [(context, source, msg.findtext("translation"))
                     for context, source, msg in _messages()
                     if any((loc.get("filename") or "").startswith("../main_window/")
                            for loc in msg.iter("location"))]
    assert len(said_by_parts) > 70
    dialog = CategoryDialog([], window)
    for context, source, translation in said_by_parts:
        speaker = dialog if context == "CategoryDialog" else window
        assert context in parts | {"CategoryDialog"}, f"{context} is no part of the window"
        assert speaker.tr(source) == translation != source, (context, source)
    assert window.selection_button.text() == dict(
        (s, t) for c, s, t in said_by_parts if c == "WindowShell")["Selected"]
    assert window.run_action.text() == dict(
        (s, t) for c, s, t in said_by_parts if c == "WindowMenus")["&Run"]


def test_every_string_in_the_code_is_in_the_translation(tmp_path: Path) -> None:
    """A string added to the window since the last lupdate would show in English: collect the
    code's strings afresh, as lupdate does, and find each in the shipped translation."""
    lupdate = shutil.which("pyside6-lupdate", path=str(Path(sys.executable).parent))
    assert lupdate is not None, "pyside6-lupdate comes with PySide6-Essentials"
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p.relative_to(REPO)) for p in (REPO / "gui").rglob("*.py"))
    subprocess.run([lupdate, *sources, *TRANSLATED_IN_PIPELINE, "-ts", str(fresh)], cwd=REPO,
                   check=True, capture_output=True, timeout=PATIENCE)
    shipped = {(context, source) for context, source, _ in _messages()}
    missing = [(c, s) for c, s, _ in _messages(fresh) if (c, s) not in shipped]
    assert missing == [], "run pyside6-lupdate and translate these"
