"""The rules editor on stored pages: validation as you type, test a rule, apply it, pick content."""

from __future__ import annotations

import json

from pytestqt.qtbot import QtBot

from gui.main_window import MainWindow
from gui.rules_editor import RulesEditor
from pipeline.demo_site.server import DemoSite
from tests.gui.conftest import OpenWindow, add_demo_links, run_to_end

HEADING = "Compression is the only language stone speaks"  # an <h2> of the first demo article


def _editor_on_first_article(qtbot: QtBot, open_window: OpenWindow,
                             demo_site: DemoSite) -> tuple[MainWindow, RulesEditor, int]:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    task_id = window.model.tasks()[0].id
    window.select_task(task_id)
    window.show_rules_editor()
    editor = window.rules_editor
    assert editor is not None and editor.task is not None and editor.task.id == task_id
    assert editor.section.currentText() == "127.0.0.1"
    return window, editor, task_id


def test_a_rule_tested_changes_the_preview_then_applies_to_the_domain(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window, editor, task_id = _editor_on_first_article(qtbot, open_window, demo_site)
    clean_json = window.archive.clean_meta(task_id)
    assert HEADING in json.loads(clean_json.read_text(encoding="utf-8"))["text"]
    qtbot.waitUntil(lambda: HEADING in window.preview.book.toPlainText(), timeout=5_000)

    editor.strip_extra.setText("h2")
    editor.write_form()
    assert "127.0.0.1:\n  strip_extra:\n  - h2" in editor.editor.toPlainText()
    with qtbot.waitSignal(editor.tested, timeout=5_000) as blocker:
        editor.test_button.click()
    assert blocker.args[0].task.id == task_id
    book = window.preview.book.toPlainText()
    assert HEADING not in book and "Stand under an old stone bridge" in book
    assert "not saved" in window.preview.header.text()
    # a test writes nothing
    assert HEADING in json.loads(clean_json.read_text(encoding="utf-8"))["text"]
    assert "h2" not in window.archive.rules_path.read_text(encoding="utf-8")

    with qtbot.waitSignal(window.run_finished, timeout=10_000) as done:
        editor.apply_button.click()
    assert done.args[0].counts["cleaned"] >= 1
    assert "- h2" in window.archive.rules_path.read_text(encoding="utf-8")
    assert HEADING not in json.loads(clean_json.read_text(encoding="utf-8"))["text"]


def test_validation_as_you_type_names_the_line(qtbot: QtBot, open_window: OpenWindow,
                                                demo_site: DemoSite) -> None:
    _window, editor, _ = _editor_on_first_article(qtbot, open_window, demo_site)
    good = editor.editor.toPlainText()
    bad = good.rstrip("\n") + "\n127.0.0.1:\n  content_selecter: article\n"
    with qtbot.waitSignal(editor.validated, timeout=2_000) as blocker:
        editor.editor.setPlainText(bad)
    line = len(bad.splitlines())
    assert blocker.args[0].startswith(f"Line {line}: 127.0.0.1.content_selecter: unknown key")
    assert not editor.test_button.isEnabled() and not editor.apply_button.isEnabled()
    assert len(editor.editor.extraSelections()) == 1
    with qtbot.waitSignal(editor.validated, timeout=2_000) as blocker:
        editor.editor.setPlainText(bad.replace("selecter", "selector"))
    assert blocker.args[0] == "" and editor.test_button.isEnabled()


def test_pick_content_suggests_a_selector_that_finds_the_same_article(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window, editor, task_id = _editor_on_first_article(qtbot, open_window, demo_site)
    stored = json.loads(window.archive.clean_meta(task_id).read_text(encoding="utf-8"))
    editor.pick.click()
    qtbot.waitUntil(lambda: editor.content_selector.text() != "", timeout=5_000)
    editor.write_form()
    with qtbot.waitSignal(editor.tested, timeout=5_000) as blocker:
        editor.test_button.click()
    article = blocker.args[0].article
    assert article.confidence == 1.0  # the selector matched: the rule, not the algorithm
    # the element holds all the extractor kept, plus at most a little framing (a byline)
    assert " ".join(stored["text"].split()) in " ".join(article.text.split())
    assert article.chars <= stored["chars"] * 1.1
