"""The Failures view: a real run's failures grouped by kind and by domain with their counts,
"Retry these" naming the tasks, and a task's reason, fetch log and stored response."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui.failures_view import FailuresView, KeyRole
from gui.task_model import TaskTableModel, kind_names
from gui.worker import Jobs
from pipeline.records.errors import ErrorKind
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import jobs_done
from tests.sites.faults import FaultServer
from tests.waiting import PATIENCE_MS


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """Six links on two hosts, run: 1, 2 on the first fail (404, 500); on the second 3 is
    fetched, 4 fails (410), 5 is a list page (no article, its page stored), 6 anti-bot."""
    ws = Workspace.open(tmp_path / "a", Settings(host_delay_ms=0, retries=1,
                                                 retry_waits=(0.05,)))
    with FaultServer() as one, FaultServer("127.0.0.2") as two:
        ws.add_links("\n".join([one.url("/status?code=404&fail=9"),
                                one.url("/status?code=500&fail=9"), two.url("/ok"),
                                two.url("/status?code=410&fail=9"), two.url("/links"),
                                two.url("/interstitial?fail=9")]))
        ws.run()
    assert ws.task(3).status == Status.LOCALIZED
    return ws


@pytest.fixture
def view(qtbot: QtBot, workspace: Workspace) -> Iterator[FailuresView]:
    jobs = Jobs()
    view = FailuresView(workspace, jobs)
    qtbot.addWidget(view)
    view.resize(700, 600)
    view.show()
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.refresh()
    yield view
    jobs_done(jobs)


def _groups(view: FailuresView) -> list[tuple[str, list[int]]]:
    out = []
    for heading in _headings(view):
        ids = [int(child.data(0, KeyRole)) for child in _children(heading)]
        out.append((heading.text(0), ids))
    return out


def _headings(view: FailuresView) -> list[QTreeWidgetItem]:
    items = [view.tree.topLevelItem(i) for i in range(view.tree.topLevelItemCount())]
    return [item for item in items if item is not None]


def _children(heading: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    items = [heading.child(i) for i in range(heading.childCount())]
    return [item for item in items if item is not None]


def _task_item(view: FailuresView, task_id: int) -> QTreeWidgetItem:
    for heading in _headings(view):
        for child in _children(heading):
            if child.data(0, KeyRole) == task_id:
                return child
    raise AssertionError(f"task {task_id} is not shown")


def test_groups_by_kind_with_counts_commonest_first(view: FailuresView) -> None:
    names = kind_names()
    assert _groups(view) == [
        (f"{names[ErrorKind.HTTP_4XX]} (2)", [1, 4]),
        (f"{names[ErrorKind.HTTP_5XX]} (1)", [2]),
        (f"{names[ErrorKind.INTERSTITIAL]} (1)", [6]),
        (f"{names[ErrorKind.NO_ARTICLE]} (1)", [5]),
    ]
    row = _task_item(view, 4)
    assert row.text(2) == "127.0.0.2" and row.text(3) == "the page was removed (HTTP 410)"
    assert "5 failed tasks" in view.summary.text()


def test_the_table_and_the_view_share_the_kind_names() -> None:
    model = TaskTableModel()
    assert model.failure_name(ErrorKind.HTTP_4XX) == f"failed: {kind_names()[ErrorKind.HTTP_4XX]}"
    assert set(kind_names()) == set(ErrorKind)


def test_groups_by_domain_after_the_switch(qtbot: QtBot, view: FailuresView) -> None:
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.by_domain.click()
    assert _groups(view) == [("127.0.0.2 (3)", [4, 5, 6]), ("127.0.0.1 (2)", [1, 2])]
    assert _task_item(view, 5).text(2) == kind_names()[ErrorKind.NO_ARTICLE]
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.by_kind.click()
    assert _groups(view)[0][1] == [1, 4]


def test_retry_these_on_a_group_and_on_selected_tasks(qtbot: QtBot, view: FailuresView) -> None:
    assert not view.retry_button.isEnabled()
    _headings(view)[0].setSelected(True)
    assert view.retry_button.isEnabled()
    with qtbot.waitSignal(view.retry_requested, timeout=PATIENCE_MS) as retry:
        view.retry_button.click()
    assert retry.args == [[1, 4], "http-4xx"]

    view.tree.clearSelection()
    _task_item(view, 2).setSelected(True)
    _task_item(view, 5).setSelected(True)
    with qtbot.waitSignal(view.retry_requested, timeout=PATIENCE_MS) as retry:
        view.retry_button.click()
    assert retry.args == [[2, 5], None]  # two kinds: none named


def test_retry_by_domain_names_the_kind_the_tasks_share(qtbot: QtBot,
                                                        view: FailuresView) -> None:
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.by_domain.click()
    _headings(view)[1].setSelected(True)  # 127.0.0.1: a 404 and a 500
    with qtbot.waitSignal(view.retry_requested, timeout=PATIENCE_MS) as retry:
        view.retry_button.click()
    assert retry.args == [[1, 2], None]


def test_a_task_shows_its_reason_and_fetch_log_lines(qtbot: QtBot, view: FailuresView,
                                                     workspace: Workspace) -> None:
    with qtbot.waitSignal(view.details_shown, timeout=PATIENCE_MS) as shown:
        view.tree.setCurrentItem(_task_item(view, 2))
    assert shown.args == [2]
    text = view.details.toPlainText()
    assert "Reason: the site's server failed (HTTP 500)" in text  # in the window's words
    log = workspace.fetch_log(2)
    assert len(log) == 2 and all(line in text for line in log)
    assert "try 1" in text and "try 2" in text
    assert not view.response_button.isEnabled()  # a 500's body is not kept


def test_the_stored_response_of_a_page_without_an_article(qtbot: QtBot,
                                                          view: FailuresView) -> None:
    with qtbot.waitSignal(view.details_shown, timeout=PATIENCE_MS):
        view.tree.setCurrentItem(_task_item(view, 5))
    assert view.response_button.isEnabled()
    with qtbot.waitSignal(view.response_shown, timeout=PATIENCE_MS):
        view.response_button.click()
    assert view.response.isVisible()
    shown = view.response.toPlainText()
    assert shown.startswith("<html>") and "<li><a href='/ok?n=0'>第0篇文章的标题</a></li>" in shown
    view.tree.setCurrentItem(_task_item(view, 1))
    assert not view.response.isVisible()


def test_a_group_chosen_counts_its_reasons(view: FailuresView) -> None:
    view.tree.setCurrentItem(_headings(view)[0])
    text = view.details.toPlainText()
    assert ("1 × the page does not exist (HTTP 404)" in text
            and "1 × the page was removed (HTTP 410)" in text)


def test_refresh_follows_a_fixed_task_and_keeps_the_selection(
        qtbot: QtBot, view: FailuresView, workspace: Workspace) -> None:
    view.tree.setCurrentItem(_task_item(view, 6))
    workspace.store.update(1, status=Status.PENDING, error="", error_kind="")  # retried
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.refresh()
    assert _groups(view)[0][1] == [4]
    assert [int(i.data(0, KeyRole)) for i in view.tree.selectedItems()] == [6]


def test_double_click_on_a_task_chooses_it(qtbot: QtBot, view: FailuresView) -> None:
    item = _task_item(view, 4)
    with qtbot.waitSignal(view.task_chosen, timeout=PATIENCE_MS) as chosen:
        view.tree.itemDoubleClicked.emit(item, 1)
    assert chosen.args == [4]


def test_no_failures_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    jobs = Jobs()
    view = FailuresView(Workspace.open(tmp_path / "empty"), jobs)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        view.refresh()
    assert view.tree.topLevelItemCount() == 0 and view.summary.text() == "No failed tasks."
    jobs_done(jobs)
