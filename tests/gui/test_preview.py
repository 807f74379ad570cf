"""The preview pane shows what the workspace rendered, and says how the text was found."""

from __future__ import annotations

from pathlib import Path

from pipeline.records.article import Article, Method


def test_header_says_which_retry_of_the_extractor_found_the_text(qtbot) -> None:  # noqa: ANN001
    from gui.preview import PreviewPane
    from pipeline.records.task import Task
    from pipeline.usecases.library import Preview

    pane = PreviewPane()
    qtbot.addWidget(pane)
    task = Task(id=7, url="https://a.example/p", status="cleaned", title="T")
    found = Article(url=task.url, title="T", content_html="<p>x</p>", text="x",
                    confidence=0.3, method=Method.BASELINE)
    chapter = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html><body>'
               '<h1 class="chapter-title">T</h1><p>x</p></body></html>')
    pane.show_data(Preview(task, found, chapter, Path("/"), "h1 { color: red }", "raw"))
    assert "every prose line of the page" in pane.header.text()
    assert pane.book.toPlainText().split() == ["T", "x"]  # no XML declaration shown as text
    found.method = Method.STRICT
    pane.show_data(Preview(task, found, chapter, Path("/"), "", "raw"))
    assert "retry" not in pane.header.text() and "prose line" not in pane.header.text()


def test_the_raw_text_marks_what_was_cut(qtbot, open_window, demo_site) -> None:  # noqa: ANN001
    """The raw pane strikes through what the article left out of the page (the site's
    newsletter box, its footer) and leaves what it kept plain (issue 28 §11)."""
    from PySide6.QtGui import QTextCursor

    from tests.gui.conftest import add_demo_links, run_to_end
    from tests.waiting import PATIENCE_MS

    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    task = next(t for t in window.model.tasks() if t.url.endswith("/stone-arch-bridges.html"))
    window.select_task(task.id)
    qtbot.waitUntil(lambda: window.preview.shown is not None
                    and window.preview.shown.task.id == task.id, timeout=PATIENCE_MS)
    document = window.preview.raw.document()
    kept, cut = [], []
    block = document.begin()
    while block.isValid():
        cursor = QTextCursor(block)
        for start in range(block.position(), block.position() + block.length() - 1):
            cursor.setPosition(start + 1)
            (cut if cursor.charFormat().fontStrikeOut() else kept).append(
                document.characterAt(start))
        kept.append("\n")
        cut.append("\n")
        block = block.next()
    kept_text, cut_text = "".join(kept), "".join(cut)
    assert "No spam." in cut_text and "Get the monthly letter" in cut_text
    assert "Privacy" in cut_text and "Privacy" not in kept_text
    assert "quietly, for longer than anyone who built it has been alive" in " ".join(
        kept_text.split())
    assert document.toPlainText() == window.preview.shown.raw_text
