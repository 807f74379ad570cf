"""Issue 19 in the window: a page that needs JavaScript fails as such, and the Failures tab's
"Render with browser…" writes the site's rule and archives it through the system's Chromium;
the rules editor's box writes the same rule and says beside it what this machine lacks."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.errors import ErrorKind
from pipeline.records.settings import Settings
from tests.gui.conftest import OpenWindow, run_to_end
from tests.pipeline.test_render import browser  # noqa: F401  (the fixture)
from tests.sites.spa import SpaSite, paragraphs
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS


def add_and_run(qtbot: QtBot, window: MainWindow, url: str) -> None:
    assert window.workspace is not None
    window.workspace.add_links(url)
    window.file_watch.follow(changed_here=True)
    qtbot.waitUntil(lambda: window.model.rowCount() == 1, timeout=PATIENCE_MS)
    run_to_end(qtbot, window)


def test_render_with_browser_from_the_failures_tab(
        qtbot: QtBot, open_window: OpenWindow, browser: None) -> None:  # noqa: F811
    with SpaSite() as site:
        url = site.put("a", "窗口里渲染的文章", paragraphs("a"))
        window = open_window()
        add_and_run(qtbot, window, url)
        assert window.workspace is not None
        [task] = window.workspace.tasks()
        assert task.failure_kind is ErrorKind.NEEDS_JS, (task.status, task.error_kind)
        view = window.failures
        with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
            view.refresh()
        assert not view.render_button.isEnabled()  # nothing chosen yet
        view.tree.topLevelItem(0).setSelected(True)  # the needs-JavaScript group
        assert view.render_button.isEnabled()
        asked: list[str] = []
        window.confirm = lambda question: asked.append(question) or True
        with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
            view.render_button.click()
        assert asked and "the site of this page" in asked[0]  # one page, said as one
        rules = window.workspace.archive.rules_path.read_text(encoding="utf-8")
        assert "127.0.0.1:\n  render: browser\n" in rules
        [task] = window.workspace.tasks()
        assert task.status == "localized", task.error
        assert "Rendered with the browser from now on: 127.0.0.1" in window.log.toPlainText()


def test_without_a_browser_the_window_says_what_to_install(
        qtbot: QtBot, open_window: OpenWindow, fast_settings: Settings,
        tmp_path: Path) -> None:
    settings = fast_settings.with_overrides(browser_path="/nonexistent/chromium")
    with SpaSite() as site:
        url = site.put("b", "没有浏览器", paragraphs("b"))
        window = open_window(settings=settings)
        add_and_run(qtbot, window, url)
        told: list[tuple[str, str]] = []
        window.tell = lambda title, message: told.append((title, message))
        assert window.workspace is not None
        rules_path = window.workspace.archive.rules_path
        before = rules_path.read_bytes()
        window.render_sites([t.id for t in window.workspace.tasks()])
        qtbot.waitUntil(lambda: bool(told), timeout=PATIENCE_MS)
        assert "apt install chromium" in told[0][1]
        assert rules_path.read_bytes() == before  # refused: nothing written

        # the rules editor's box writes the rule, and says at once what is missing here
        window.select_task(window.workspace.tasks()[0].id)
        window.show_rules_editor()
        editor = window.rules_editor
        assert editor is not None and editor.form.section.currentText() == "127.0.0.1"
        assert not editor.form.render_box.isChecked()
        editor.form.render_box.setChecked(True)
        qtbot.waitUntil(lambda: "render: browser" in editor.editor.toPlainText(),
                        timeout=PATIENCE_MS)
        qtbot.waitUntil(lambda: "apt install chromium" in editor.form.render_note.text(),
                        timeout=PATIENCE_MS)
        editor.form.render_box.setChecked(False)
        qtbot.waitUntil(lambda: "render:" not in editor.editor.toPlainText(), timeout=PATIENCE_MS)
        assert editor.form.render_note.text() == ""
