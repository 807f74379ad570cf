"""Pause, Stop and closing mid-run: a run ends early, nothing half-written, and the next
window resumes where the archive's outputs end, refetching nothing."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import shiboken6
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from gui.task_model import COLUMNS
from pipeline.demo_site.server import DemoSite
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow, add_demo_links, run_to_end, saved_rows
from tests.waiting import PATIENCE, PATIENCE_MS, RUN_PATIENCE_MS, settled


@pytest.fixture
def slow_settings(fast_settings: Settings) -> Settings:
    """One connection and 200 ms between requests: a run of the demo site takes seconds."""
    return fast_settings.with_overrides(host_delay_ms=200, per_host_connections=1)


def _start_and_wait_for_a_finished_task(qtbot: QtBot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.controller.progress, timeout=RUN_PATIENCE_MS):
        window.run_bar.run_button.click()


def _assert_archive_whole(root: Path) -> None:
    """No temp file left, every stage record readable, no task left "running"."""
    assert not list(root.rglob("*.tmp"))
    for record in [*root.glob("00_raw/*.json"), *root.glob("01_clean/*.json")]:
        json.loads(record.read_text(encoding="utf-8"))
    assert "running" not in {row["status"] for row in saved_rows(root / "tasks.csv").values()}


def test_pause_then_stop_mid_run(qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite,
                                 slow_settings: Settings) -> None:
    window = open_window(settings=slow_settings)
    add_demo_links(qtbot, window, demo_site)
    _start_and_wait_for_a_finished_task(qtbot, window)
    assert window.run_bar.stop_button.isEnabled() and not window.run_bar.run_button.isEnabled()

    moves: list[object] = []
    window.controller.tasks_changed.connect(moves.append)
    window.run_bar.pause_button.click()
    assert window.controller.paused and window.run_bar.pause_button.text() == "Resume"
    # the stages in flight finish and their lines cross the pipe (late, on a loaded machine;
    # a clean in flight shows no "running"), then nothing moves while paused
    still = settled(lambda: (len(moves), len(demo_site.request_log)), 2.0)
    qtbot.waitUntil(lambda: still() and "running" not in {t.status for t in window.model.tasks()},
                    timeout=RUN_PATIENCE_MS)
    with qtbot.assertNotEmitted(window.controller.tasks_changed, wait=600):
        pass
    window.run_bar.pause_button.click()
    assert not window.controller.paused and window.run_bar.pause_button.text() == "Pause"
    with qtbot.waitSignal(window.controller.tasks_changed, timeout=RUN_PATIENCE_MS):
        pass  # and it moves again
    window.run_bar.pause_button.click()

    reports: list[str] = []
    window.report_view.written.connect(reports.append)
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS) as blocker:
        window.run_bar.stop_button.click()
    # the run's end writes its report in a job (the page, then its record): whole once shown
    qtbot.waitUntil(lambda: bool(reports), timeout=PATIENCE_MS)
    progress = blocker.args[0]
    assert 0 < progress.finished < progress.total  # it stopped, and early
    assert window.run_bar.run_button.isEnabled() and not window.run_bar.stop_button.isEnabled()
    qtbot.waitUntil(lambda: window.archive.tasks_path.exists(), timeout=PATIENCE_MS)
    _assert_archive_whole(window.archive.root)
    statuses = [t.status for t in window.model.tasks()]
    assert "pending" in statuses and "running" not in statuses


def test_close_mid_run_and_reopen_resumes(qtbot: QtBot, open_window: OpenWindow,
                                          demo_site: DemoSite, slow_settings: Settings,
                                          fast_settings: Settings) -> None:
    first = open_window(settings=slow_settings)
    root = first.archive.root
    add_demo_links(qtbot, first, demo_site)
    _start_and_wait_for_a_finished_task(qtbot, first)

    first.close()  # stops the run and waits for it: nothing half-written
    _assert_archive_whole(root)
    fetched_before = {int(p.stem) for p in root.glob("00_raw/*.json")}
    rows = saved_rows(root / "tasks.csv")
    assert fetched_before and "pending" in {r["status"] for r in rows.values()}

    second = open_window(root, fast_settings)
    assert "running" not in {t.status for t in second.model.tasks()}
    progress = run_to_end(qtbot, second)
    assert progress.finished == progress.total > 0
    assert {t.status for t in second.model.tasks()} <= {"cleaned", "localized", "failed",
                                                       "duplicate"}
    requested = [r.path for r in demo_site.request_log]
    for task_id in fetched_before:
        url = urlsplit(rows[task_id]["url"])
        path = url.path + (f"?{url.query}" if url.query else "")
        assert requested.count(path) == 1, f"{path} fetched again after reopening"


def test_an_edit_during_a_run_survives_the_runs_own_saves(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite,
        slow_settings: Settings) -> None:
    window = open_window(settings=slow_settings)
    add_demo_links(qtbot, window, demo_site)
    _start_and_wait_for_a_finished_task(qtbot, window)
    last = window.model.rowCount() - 1
    task_id = window.model.task_at(last).id
    assert window.model.setData(window.model.index(last, COLUMNS.index("cat2")), "中途")
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
        window.run_bar.stop_button.click()
    # the window's own save (its timer) puts the edit in after the run's last save
    qtbot.waitUntil(lambda: saved_rows(window.archive.tasks_path)[task_id]["cat2"] == "中途",
                    timeout=PATIENCE_MS)
    row = saved_rows(window.archive.tasks_path)[task_id]
    assert row["status"] == window.model.task(task_id).status  # and the run's word for it


def test_quitting_mid_run_prints_nothing_and_leaves_no_job_behind(
        qtbot: QtBot, prefs: QSettings, demo_site: DemoSite, slow_settings: Settings,
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Issue 28: quitting printed "RuntimeError: Signal source has been deleted". The run's
    end, settled in a job while the window closed, went on to write the report in a job of
    its own; the window was deleted while that ran, and the job emitted on the deleted
    ``Jobs``. Here the report waits until the window is being deleted, the worst moment."""
    root = tmp_path / "archive"
    Workspace.open(root).add_links(demo_site.paste_text())
    window = MainWindow(root, prefs, slow_settings)
    window.confirm = lambda question: True
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        pass
    workspace = window.workspace
    assert workspace is not None
    deleting = threading.Event()
    write_report = workspace.report

    def report_once_deleting() -> Path:
        deleting.wait(PATIENCE)
        return write_report()

    workspace.report = report_once_deleting  # type: ignore[method-assign]
    window.jobs.destroyed.connect(lambda *_: deleting.set())
    _start_and_wait_for_a_finished_task(qtbot, window)
    capfd.readouterr()

    window.close()  # stops the run, waits for it and for the jobs in flight
    QApplication.processEvents()  # what the close left queued is delivered
    shiboken6.delete(window)  # as the application's end deletes it

    err = capfd.readouterr().err
    assert "RuntimeError" not in err and "Signal source has been deleted" not in err, err
    _assert_archive_whole(root)
