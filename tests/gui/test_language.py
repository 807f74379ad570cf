"""The shipped translations: Chinese complete, English's plural forms, compiled, chosen by
locale, and used by the window."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from gui.language import (
    I18N_DIR,
    install_language,
    remove_language,
    resolve_language,
    shown_name,
)
from gui.main_window.task_actions import CategoryDialog
from pipeline.demo_site.server import DemoSite
from tests.gui.conftest import OpenWindow, add_demo_links
from tests.waiting import PATIENCE

TS = I18N_DIR / "kuaibu_zh_CN.ts"
TS_EN = I18N_DIR / "kuaibu_en.ts"
REPO = Path(__file__).resolve().parents[2]
# the pipeline modules whose English the window shows translated (QT_TRANSLATE_NOOP)
TRANSLATED_IN_PIPELINE = ("pipeline/records/settings.py", "pipeline/rules/model.py")


def _messages(ts: Path = TS) -> list[tuple[str, str, ET.Element]]:
    root = ET.parse(ts).getroot()
    return [(ctx.findtext("name") or "", msg.findtext("source") or "", msg)
            for ctx in root.iter("context") for msg in ctx.iter("message")]


def _said(msg: ET.Element, n: int = 2) -> str:
    """What a message's translation says (for ``n``, %n filled, when it has plural forms)."""
    translation = msg.find("translation")
    assert translation is not None
    forms = [form.text or "" for form in translation.iter("numerusform")]
    if msg.get("numerus") != "yes":
        return translation.text or ""
    return forms[0 if n == 1 or len(forms) == 1 else 1].replace("%n", str(n))


def _compiled(context: str, source: str, msg: ET.Element, n: int = 2) -> str:
    """What the installed translators say for the message."""
    if msg.get("numerus") == "yes":
        return QCoreApplication.translate(context, source, None, n)
    return QCoreApplication.translate(context, source)


def test_language_follows_the_locale_unless_chosen() -> None:
    assert resolve_language("", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("", QLocale("zh_TW")) == "zh_CN"
    assert resolve_language("", QLocale("de_DE")) == "en"
    assert resolve_language("en", QLocale("zh_CN")) == "en"
    assert resolve_language("zh_CN", QLocale("en_US")) == "zh_CN"


def _complete_and_compiled(messages: list[tuple[str, str, ET.Element]]) -> None:
    for context, source, msg in messages:
        translation = msg.find("translation")
        assert translation is not None and translation.get("type") is None, source
        for n in (1, 2):
            assert _compiled(context, source, msg, n) == _said(msg, n), (
                f"{context}/{source}: the .qm is stale; run pyside6-lrelease")


def test_every_message_is_translated_and_compiled(chinese: None) -> None:
    messages = _messages()
    assert len(messages) > 100
    _complete_and_compiled(messages)


def test_english_has_every_plural_form_compiled() -> None:
    """English says "1 task" from its own translation (the conftest installs it as the app
    does); it holds every message with a count the Chinese one holds."""
    english = _messages(TS_EN)
    _complete_and_compiled(english)
    counted = {(c, s) for c, s, msg in _messages() if msg.get("numerus") == "yes"}
    assert len(counted) > 20 and {(c, s) for c, s, _ in english} == counted
    assert all(len(list(msg.iter("numerusform"))) == 2 for _, _, msg in english)


def test_counts_speak_both_languages(qtbot: QtBot, open_window: OpenWindow, qapp: QApplication,
                                     demo_site: DemoSite) -> None:
    """"1 tasks restored" was the English window's word for one task."""
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    asked: list[str] = []
    window.confirm = lambda question: asked.append(question) or True
    window.remove_tasks([1])
    assert asked[0].startswith("Move 1 task to the trash?"), asked
    assert window.statusBar().currentMessage() == "1 task moved to the trash"
    window.undo_action.trigger()
    assert window.statusBar().currentMessage() == "1 task restored"
    installed = install_language(qapp, "zh_CN")
    try:
        window.remove_tasks([1, 2])
        assert window.statusBar().currentMessage() == "已将 2 个任务移到回收站"
    finally:
        remove_language(qapp, installed)


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
    said_by_parts = [(context, source, _said(msg, 2), msg.get("numerus") == "yes")
                     for context, source, msg in _messages()
                     if any((loc.get("filename") or "").startswith("../main_window/")
                            for loc in msg.iter("location"))]
    assert len(said_by_parts) > 70
    dialog = CategoryDialog([], window)
    for context, source, translation, counted in said_by_parts:
        speaker = dialog if context == "CategoryDialog" else window
        assert context in parts | {"CategoryDialog"}, f"{context} is no part of the window"
        said = speaker.tr(source, "", 2) if counted else speaker.tr(source)
        assert said == translation != source, (context, source)
    assert window.selection_button.text() == dict(
        (s, t) for c, s, t, _ in said_by_parts if c == "WindowShell")["Selected"]
    assert window.run_action.text() == dict(
        (s, t) for c, s, t, _ in said_by_parts if c == "WindowMenus")["&Run"]


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


def test_one_word_for_archive() -> None:
    """归档 is "archive" throughout (the File menu said 存档 and 归档 side by side)."""
    said = [_said(msg) for _, _, msg in _messages()]
    assert [s for s in said if "存档" in s] == [] and sum("归档" in s for s in said) > 10


def test_sentences_name_the_buttons_as_labelled(qapp: QApplication,
                                                open_window: OpenWindow) -> None:
    """The empty list's hint said press 添加 beside a button labelled 添加链接: it takes the
    button's own words, in either language."""
    for language in ("en", "zh_CN"):
        installed = install_language(qapp, language) if language != "en" else []
        try:
            window = open_window()
            hint = window.empty_hint.findChild(QLabel)
            assert hint is not None
            button = shown_name(window.intake.add_button)
            assert f"press {button} (" in hint.text() or f"点“{button}”" in hint.text()
            assert button in ("Add links", "添加链接"), button
        finally:
            remove_language(qapp, installed)
