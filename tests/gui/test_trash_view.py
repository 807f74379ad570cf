"""The Trash view: the removed tasks listed, Restore and Empty trash through the workspace
(saved to tasks.csv), and the question before emptying says how many go."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui.trash_view import TrashView, local_time
from gui.worker import Jobs
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import jobs_done, saved_rows
from tests.pipeline.book.synthetic import add_article
from tests.waiting import PATIENCE_MS


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """Four tasks; 1 and 3 in the trash (3 the later), 3 with a stored article."""
    ws = Workspace.open(tmp_path / "a")
    ws.add_links("\n".join(f"https://a.example/post/{n}" for n in range(1, 5)))
    ws.store.update(3, status=Status.CLEANED, extracted_title="第三篇")
    add_article(ws.archive, 3, url=ws.task(3).url, title="第三篇", content_html="<p>正文</p>")
    ws.remove([1])
    ws.store.update(3, deleted_at="2099-01-01T00:00:00+00:00")
    ws.save()
    return ws


@pytest.fixture
def view(qtbot: QtBot, workspace: Workspace) -> Iterator[TrashView]:
    jobs = Jobs()
    view = TrashView(workspace, jobs)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.refresh()
    yield view
    jobs_done(jobs)


def _rows(view: TrashView) -> list[QTreeWidgetItem]:
    items = [view.list.topLevelItem(i) for i in range(view.list.topLevelItemCount())]
    return [item for item in items if item is not None]


def test_lists_the_trash_newest_first(view: TrashView, workspace: Workspace) -> None:
    assert view.trashed_ids() == [3, 1]
    first, second = _rows(view)
    assert [first.text(i) for i in range(3)] == [
        "第三篇", "https://a.example/post/3", local_time("2099-01-01T00:00:00+00:00")]
    assert second.text(0) == second.text(1) == "https://a.example/post/1"  # no title yet
    assert second.text(2) == local_time(workspace.task(1).deleted_at) != ""
    assert "2 tasks in the trash" in view.summary.text()
    assert not view.restore_button.isEnabled() and view.empty_button.isEnabled()


def test_restore_puts_the_selected_back_and_saves(qtbot: QtBot, view: TrashView,
                                                  workspace: Workspace) -> None:
    _rows(view)[1].setSelected(True)
    assert view.restore_button.isEnabled()
    with qtbot.waitSignal(view.restored, timeout=PATIENCE_MS) as restored:
        view.restore_button.click()
    assert restored.args == [[1]]
    qtbot.waitUntil(lambda: view.trashed_ids() == [3], timeout=PATIENCE_MS)
    assert [t.id for t in workspace.trash()] == [3]
    rows = saved_rows(workspace.archive.tasks_path)
    assert rows[1]["deleted_at"] == "" and rows[3]["deleted_at"] != ""


def test_empty_trash_asks_with_the_count_and_a_no_keeps_everything(
        qtbot: QtBot, view: TrashView, workspace: Workspace) -> None:
    asked: list[int] = []

    def no(count: int) -> bool:
        asked.append(count)
        return False

    view.confirm = no
    view.empty_button.click()
    assert asked == [2]
    jobs_done(view.jobs)
    assert len(workspace.trash()) == 2 and workspace.archive.has_clean(3)
    assert set(saved_rows(workspace.archive.tasks_path)) == {1, 2, 3, 4}


def test_empty_trash_removes_them_for_good(qtbot: QtBot, view: TrashView,
                                           workspace: Workspace) -> None:
    asked: list[int] = []

    def yes(count: int) -> bool:
        asked.append(count)
        return True

    view.confirm = yes
    with qtbot.waitSignal(view.emptied, timeout=PATIENCE_MS) as emptied:
        view.empty_button.click()
    assert asked == [2] and emptied.args == [2]
    qtbot.waitUntil(lambda: view.trashed_ids() == [], timeout=PATIENCE_MS)
    assert "The trash is empty." in view.summary.text()
    assert not view.empty_button.isEnabled()
    assert [t.id for t in workspace.tasks()] == [2, 4] and workspace.trash() == []
    assert not workspace.archive.has_clean(3)
    assert set(saved_rows(workspace.archive.tasks_path)) == {2, 4}
    assert [t.id for t in Workspace.open(workspace.archive.root).trash()] == []


def test_the_question_names_the_count(qtbot: QtBot, view: TrashView,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def question(_parent: object, _title: str, text: str, *_args: object
                 ) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", question)
    assert view.confirm(2) is False
    assert len(asked) == 1 and "Delete the 2 tasks in the trash for good" in asked[0]

