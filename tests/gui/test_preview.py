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
