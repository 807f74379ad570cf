"""The window open beside a terminal's run and a person's hand edit: it shows their changes as
they land, its own edits reach the file, and closing it writes nothing over anyone's work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from pipeline.records.task import Status
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from tests.gui.conftest import OpenWindow, saved_rows
from tests.pipeline.test_many_writers import _seed, hand_edit, start_run
from tests.sites.faults import FaultServer
from tests.small_archive import make_small_archive
from tests.waiting import PATIENCE, PATIENCE_MS

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="the run is a POSIX child process here")
def test_window_beside_a_terminal_run_and_a_hand_edit(qtbot: QtBot, open_window: OpenWindow,
                                                      tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    with FaultServer() as server:
        _seed(archive, server, 30, latency=0.3)
        # the server answers 10 pages and holds the rest until the window has closed, so the
        # run still writes then however slow the window is; the held requests wait that long
        server.hold_after = 10
        window = open_window(archive.root)
        run = start_run(archive, "--set", f"read_timeout={3 * PATIENCE:g}",
                        "--set", f"page_deadline={3 * PATIENCE:g}")
        try:
            # the window follows the terminal's run through the file
            qtbot.waitUntil(lambda: sum(t.status == Status.LOCALIZED
                                        for t in window.model.tasks()) >= 5, timeout=PATIENCE_MS)
            # the hand edit before the window's own: one landing while the window's save is
            # due is taken in by that save and shown only once the file changes again, which
            # the held run no longer does
            with hand_edit(archive) as rows:
                for row in rows:
                    row["note"] = "手记" if row["id"] == "5" else ""
                    if row["id"] == "6":
                        row["title"] = "手工改的标题"
            task_6 = lambda: window.model.task(6)  # noqa: E731
            qtbot.waitUntil(lambda: task_6() is not None
                            and task_6().title == "手工改的标题", timeout=PATIENCE_MS)
            window.set_category([3, 4], "03_窗口", None, "Change category")
            assert run.poll() is None  # the window closes while the run still writes
            window.close()
        finally:
            server.release()
            status = run.wait(2 * PATIENCE)
    tasks = {t.id: t for t in TaskStore(archive.tasks_path).tasks()}
    assert status == 0, [(t.id, t.status.value, t.error) for t in tasks.values()
                         if t.status != Status.LOCALIZED]
    assert len(tasks) == 30
    assert (tasks[3].cat1, tasks[4].cat1) == ("03_窗口", "03_窗口")
    assert tasks[5].extra == {"note": "手记"} and tasks[6].title == "手工改的标题"
    assert {t.status for t in tasks.values()} == {Status.LOCALIZED}  # the run's, all of them


def test_window_shows_a_terminal_build_marking_its_article_done(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    """A terminal's ``build --id`` journals its mark beside tasks.csv (the file is not
    rewritten); the window following the list shows the article done all the same."""
    root = make_small_archive(tmp_path / "archive")
    window = open_window(root)
    qtbot.waitUntil(lambda: window.model.task(1) is not None
                    and window.model.task(1).status == Status.LOCALIZED, timeout=PATIENCE_MS)
    subprocess.run([sys.executable, str(REPO / "main.py"), "--archive", str(root), "build",
                    "--id", "1"], check=True, capture_output=True, timeout=PATIENCE, cwd=REPO)
    assert saved_rows(root / "tasks.csv")[1]["status"] == "localized"  # the mark: journaled
    qtbot.waitUntil(lambda: window.model.task(1).status == Status.DONE, timeout=PATIENCE_MS)
    assert window.model.task(2).status == Status.LOCALIZED
