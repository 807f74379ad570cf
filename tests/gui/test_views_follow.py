"""Issue 28, one source of change: each route that changes the archive — a run's end, a retry,
remove and Undo, a restore from the Trash, an inline edit, a hand edit the window's own save
takes in, a build — reaches each view that shows what changed, in the real window against a
local site. And the small states that went stale: the task count after adding, a retry's
progress, the ETA while paused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from gui.run_bar import RunBar
from gui.task_model import COLUMNS
from pipeline.records.events import Progress
from pipeline.store.tasks import TaskStore
from tests.gui.conftest import OpenWindow, jobs_done, look_at
from tests.sites.articles import ArticleSite, article
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS


@pytest.fixture
def site() -> Iterator[ArticleSite]:
    with ArticleSite() as s:
        yield s


def page(topic: str) -> str:
    """An article of its own words (two pages with the same text would be duplicates)."""
    return article(f"{topic}札记", [f"{topic}的第{n}段：这一段写{topic}在第{n}年的样子，"
                                    f"从早到晚，{topic}边上的人来来往往。" * 3 for n in range(6)])


def failed_ids(window: MainWindow) -> list[int]:
    return sorted(window.failures._tasks)


def run_and_settle(qtbot: QtBot, window: MainWindow, start: object) -> None:
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
        assert callable(start)
        start()


def test_each_route_that_changes_the_archive_reaches_each_view(
        qtbot: QtBot, open_window: OpenWindow, site: ArticleSite) -> None:
    links = [site.put("/tea", page("茶园")), site.put("/bridge", page("廊桥")),
             site.url("/gone-1"), site.url("/gone-2")]
    window = open_window()
    window.intake.paste.setPlainText("\n".join(links))
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()
    # the count follows the list (it said "0 tasks" after adding 45)
    assert window.filter_state.label.text() == "4 tasks"
    ids = {t.url: t.id for t in window.model.tasks()}
    tea, bridge, gone_1, gone_2 = (ids[link] for link in links)

    # a run with failures: the Failures tab lists them as soon as the run has ended
    run_and_settle(qtbot, window, window.run_bar.run_button.click)
    look_at(window, window.failures)
    qtbot.waitUntil(lambda: failed_ids(window) == [gone_1, gone_2], timeout=PATIENCE_MS)
    assert window.failures.summary.text() == "2 failed tasks"

    # a retry fixes one: it leaves the list; the run bar starts from the retry's own total
    site.put("/gone-1", page("石板路"))
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
        window.start_run([gone_1], retry_failed=True)
        assert window.run_bar.stage_counts.text() == "" and window.run_bar.rate.text() == ""
        assert window.run_bar.progress.maximum() == 0  # busy until the run says its total
    assert window.run_bar.progress.maximum() == 1
    qtbot.waitUntil(lambda: failed_ids(window) == [gone_2], timeout=PATIENCE_MS)

    # remove, Undo remove, remove and restore from the Trash: the lists follow each, the one
    # shown at once, the one hidden meanwhile when it is shown again
    window.remove_tasks([gone_2])
    qtbot.waitUntil(lambda: failed_ids(window) == [], timeout=PATIENCE_MS)
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [gone_2], timeout=PATIENCE_MS)
    assert window.model.task(gone_2) is None and window.filter_state.label.text() == "3 tasks"
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [], timeout=PATIENCE_MS)
    look_at(window, window.failures)
    qtbot.waitUntil(lambda: failed_ids(window) == [gone_2], timeout=PATIENCE_MS)
    window.remove_tasks([gone_2])
    look_at(window, window.trash)
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [gone_2], timeout=PATIENCE_MS)
    window.trash.list.topLevelItem(0).setSelected(True)
    window.trash.restore_button.click()
    qtbot.waitUntil(lambda: window.model.task(gone_2) is not None
                    and window.trash.trashed_ids() == [], timeout=PATIENCE_MS)
    look_at(window, window.failures)
    qtbot.waitUntil(lambda: failed_ids(window) == [gone_2], timeout=PATIENCE_MS)
    assert window.filter_state.label.text() == "4 tasks"

    # an inline title edit: the preview shows the new title at once
    window.select_task(tea)
    qtbot.waitUntil(lambda: window.preview.shown is not None
                    and window.preview.shown.task.id == tea, timeout=PATIENCE_MS)
    row = next(r for r in range(window.model.rowCount()) if window.model.task_at(r).id == tea)
    assert window.model.setData(window.model.index(row, COLUMNS.index("title")), "山中茶园")
    qtbot.waitUntil(lambda: "山中茶园" in window.preview.header.text(), timeout=PATIENCE_MS)

    # a hand edit landing while the window's own edit waits to be saved: the save takes it
    # in (the file watch sees no change after that), and the table shows it all the same
    window.file_watch.stop()  # only the save can bring the hand edit in
    with qtbot.waitSignal(window.refreshed, timeout=PATIENCE_MS):  # the edit read back
        assert window.model.setData(window.model.index(row, COLUMNS.index("cat2")), "窗口")
    jobs_done(window.jobs)
    window._save_timer.stop()  # the save, due, waits until the hand edit has landed
    hand = TaskStore(window.archive.tasks_path)
    hand.update(bridge, title="手工改的标题")
    hand.save()
    with qtbot.waitSignal(window.saved, timeout=PATIENCE_MS):
        window.save_tasks()
    assert TaskStore(window.archive.tasks_path).get(tea).cat2 == "窗口"
    qtbot.waitUntil(lambda: window.model.task(bridge).title == "手工改的标题",
                    timeout=PATIENCE_MS)
    window.file_watch.start()

    # a build: the Books tab lists the book; a bound task trashed puts it out of date, which
    # the tab, hidden meanwhile, shows when it is opened
    with qtbot.waitSignal(window.books.refreshed, timeout=PATIENCE_MS):
        look_at(window, window.books)  # hidden since the archive opened: read now
    with qtbot.waitSignal(window.books.refreshed, timeout=PATIENCE_MS):
        with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS):
            assert window.build()
    assert window.books.list.topLevelItem(0).text(3) == "up to date"
    qtbot.waitUntil(lambda: window.model.task(tea).status == "done", timeout=PATIENCE_MS)
    look_at(window, window.trash)
    window.remove_tasks([bridge])
    qtbot.waitUntil(lambda: window.trash.trashed_ids() == [bridge], timeout=PATIENCE_MS)
    with qtbot.waitSignal(window.books.refreshed, timeout=PATIENCE_MS):
        window.tabs.setCurrentWidget(window.books)
    assert window.books.list.topLevelItem(0).text(3) == "out of date: 1 gone since"
    jobs_done(window.jobs)


def test_no_eta_while_paused(qtbot: QtBot) -> None:
    """A rate that falls while nothing runs foretold 8:14 for a run that took 20 s."""
    bar = RunBar()
    qtbot.addWidget(bar)
    bar.set_state(True, True, False)
    bar.display(Progress(total=10, elapsed=2.0, finished=2))
    assert "ETA 0:08" in bar.rate.text()
    bar.set_state(True, True, True)
    assert bar.rate.text() == ""
    bar.display(Progress(total=10, elapsed=60.0, finished=3))  # a straggler while paused
    assert bar.rate.text() == ""
    bar.set_state(True, True, False)
    bar.display(Progress(total=10, elapsed=61.0, finished=4))
    assert "ETA" in bar.rate.text()
