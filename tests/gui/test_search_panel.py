"""The search panel: typing searches the archive's index in a job, hits ranked as the index
ranks them with their matches highlighted, an empty answer said, a stale one dropped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.search_panel import HtmlRole, SearchPanel, snippet_html
from gui.worker import Jobs
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.search import Hit
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import jobs_done
from tests.pipeline.book.synthetic import add_article
from tests.waiting import PATIENCE_MS

ARTICLES = [  # title, text
    ("廊桥修缮笔记", "一座廊桥的修缮笔记：木拱廊桥在闽浙的山区，廊桥下是溪水。"),
    ("Covered bridges", "The timber arch [1] bridges of Fujian are built without nails & glue."),
    ("山区笔记", "路过一座廊桥，山很高。"),
]


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    ws = Workspace.open(tmp_path / "a", Settings())
    for title, text in ARTICLES:
        task = ws.store.add(f"https://a.example/{len(ws.tasks()) + 1}")
        ws.store.update(task.id, status=Status.CLEANED, extracted_title=title)
        add_article(ws.archive, task.id, url=task.url, title=title,
                    content_html=f"<p>{text}</p>", text=text)
    ws.save()
    assert ws.rebuild_index() == len(ARTICLES)
    return ws


@pytest.fixture
def panel(qtbot: QtBot, workspace: Workspace) -> Iterator[SearchPanel]:
    jobs = Jobs()
    panel = SearchPanel(workspace, jobs)
    qtbot.addWidget(panel)
    panel.resize(400, 500)
    panel.show()
    yield panel
    jobs_done(jobs)


def _type(qtbot: QtBot, panel: SearchPanel, text: str) -> tuple[str, int]:
    """Type as a person does: Latin letters key by key, Chinese committed by an input method
    (QTest's key clicks cannot carry characters outside Latin-1)."""
    panel.field.clear()
    panel.field.setFocus()
    with qtbot.waitSignal(panel.searched, timeout=PATIENCE_MS,
                          check_params_cb=lambda query, _n: query == text) as blocker:
        if text.isascii():
            qtbot.keyClicks(panel.field, text)
        else:
            event = QInputMethodEvent()
            event.setCommitString(text)
            QApplication.sendEvent(panel.field, event)
    return blocker.args[0], blocker.args[1]


def _ids(panel: SearchPanel) -> list[int]:
    return [panel.model.task_id(row) for row in range(panel.model.rowCount())]


def test_typing_finds_a_two_character_chinese_word_ranked_as_the_index_ranks(
        qtbot: QtBot, panel: SearchPanel, workspace: Workspace) -> None:
    assert _type(qtbot, panel, "廊桥") == ("廊桥", 2)
    ranked = [hit.task_id for hit in workspace.search("廊桥")]
    assert _ids(panel) == ranked == [1, 3]  # in the title and three times: first
    first = panel.model.index(0)
    assert first.data().startswith("廊桥修缮笔记\n")
    page = first.data(HtmlRole)
    assert "<b>廊桥修缮笔记</b>" in page
    assert page.count(">廊桥</span>") == 3 and "[" not in page
    assert "2 articles found" in panel.status.text()


def test_an_english_word_is_found_and_the_snippet_escaped(qtbot: QtBot,
                                                          panel: SearchPanel) -> None:
    assert _type(qtbot, panel, "timber") == ("timber", 1)
    assert _ids(panel) == [2]
    page = panel.model.index(0).data(HtmlRole)
    assert ">timber</span>" in page
    assert "[1]" in page  # the article's own brackets: no match, left as they are
    assert "&amp; glue" in page and "& glue" not in page


def test_snippet_html_marks_only_what_the_query_holds() -> None:
    assert snippet_html("<a> [Bridge] [x] &", "bridge") == (
        '&lt;a&gt; <span style="background-color:#ffe082; color:#000000; font-weight:bold">'
        'Bridge</span> [x] &amp;')
    assert snippet_html("no marks", "bridge") == "no marks"


def test_an_empty_result_says_so_and_an_empty_field_clears(qtbot: QtBot,
                                                          panel: SearchPanel) -> None:
    _type(qtbot, panel, "廊桥")
    assert _type(qtbot, panel, "nowhere") == ("nowhere", 0)
    assert panel.model.rowCount() == 0
    assert "No article holds “nowhere”" in panel.status.text()
    panel.field.clear()
    panel.search_now()
    assert panel.model.rowCount() == 0 and panel.status.text() == ""


def test_a_stale_answer_is_dropped(qtbot: QtBot, panel: SearchPanel) -> None:
    answers: list[str] = []
    panel.searched.connect(lambda query, _n: answers.append(query))
    panel.field.setText("timber")
    panel.search_now()
    panel.field.setText("廊桥")
    panel.search_now()  # asked before the first answer can reach the window
    with qtbot.waitSignal(panel.searched, timeout=PATIENCE_MS):
        pass
    jobs_done(panel.jobs)
    QCoreApplication.processEvents()
    assert answers == ["廊桥"]
    assert _ids(panel) == [1, 3]


def test_typing_is_debounced_into_one_search(qtbot: QtBot, panel: SearchPanel,
                                             workspace: Workspace,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    search = workspace.search

    def counted(query: str, limit: int = 50) -> list[Hit]:
        asked.append(query)
        return search(query, limit)

    monkeypatch.setattr(workspace, "search", counted)
    _type(qtbot, panel, "timber")  # six keystrokes
    jobs_done(panel.jobs)
    assert asked == ["timber"]


def test_enter_and_double_click_on_a_hit_choose_its_task(qtbot: QtBot,
                                                         panel: SearchPanel) -> None:
    _type(qtbot, panel, "廊桥")
    view = panel.results
    view.setFocus()
    view.setCurrentIndex(panel.model.index(1))
    with qtbot.waitSignal(panel.task_chosen, timeout=PATIENCE_MS) as chosen:
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert chosen.args == [3]
    centre = view.visualRect(panel.model.index(0)).center()
    with qtbot.waitSignal(panel.task_chosen, timeout=PATIENCE_MS) as chosen:
        # a person's double-click is a press first: the view acts on the row pressed
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert chosen.args == [1]


def test_enter_in_the_field_searches_at_once(qtbot: QtBot, panel: SearchPanel) -> None:
    panel.debounce.setInterval(2 * PATIENCE_MS)  # a search in time can only be Enter's
    panel.field.setText("timber")
    with qtbot.waitSignal(panel.searched, timeout=PATIENCE_MS):
        qtbot.keyClick(panel.field, Qt.Key.Key_Return)
    assert _ids(panel) == [2]


def test_enter_again_on_the_answer_goes_to_the_hits(qtbot: QtBot, panel: SearchPanel) -> None:
    _type(qtbot, panel, "廊桥")
    panel.field.setFocus()
    qtbot.keyClick(panel.field, Qt.Key.Key_Return)
    assert panel.results.hasFocus() and panel.results.currentIndex().row() == 0
