"""Issue 30: the window does not wait for an archive to open. It is shown at once and says in
the table's place that it reads the archive's tasks, and about how many; it answers while the
open is held; an action that needs the tasks says why it does nothing, in one line; the table
comes when the open ends, and an open that fails says why and shows no "reading" line."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.settings import Settings
from tests.gui.conftest import jobs_done
from tests.gui.test_table_at_scale import _archive
from tests.waiting import PATIENCE_MS

TASKS = 3000


@contextmanager
def another_writer_saving(root: Path) -> Iterator[None]:
    """The task list's lock held, as another writer holds it while it saves (``flock``, what
    ``TaskStore.save`` takes): an open whose reconcile saves waits for it."""
    with open(root / ".tasks.csv.lock", "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def test_the_window_is_shown_and_answers_while_its_archive_opens(
        qtbot: QtBot, prefs: QSettings, fast_settings: Settings, tmp_path: Path) -> None:
    # cleaned tasks with no clean pages: opening reconciles them to pending and saves
    root = _archive(tmp_path / "archive", TASKS)
    saved_page = tmp_path / "page.html"
    saved_page.write_text("<html><body>saved</body></html>", encoding="utf-8")
    with another_writer_saving(root):
        window = MainWindow(root, prefs, fast_settings)
        window.confirm = lambda question: True
        qtbot.addWidget(window)
        window.show()
        # the table's place says what is being read, and about how many tasks
        qtbot.waitUntil(lambda: f"reading about {TASKS} tasks" in window.opening_hint.text(),
                        timeout=PATIENCE_MS)
        assert str(root) in window.opening_hint.text()
        assert window.opening_hint.isVisible() and not window.table.isVisible()
        assert not window.filter_state.isVisible()  # no "0 tasks" while they are read
        # the window answers: its own timers keep firing while the open waits
        ticks: list[int] = []
        beat = QTimer(window)
        beat.timeout.connect(lambda: ticks.append(1))
        beat.start(10)
        qtbot.waitUntil(lambda: len(ticks) >= 20, timeout=PATIENCE_MS)
        beat.stop()
        assert window.workspace is None  # still opening
        # what needs the tasks says so, once, in one line: Ctrl+Enter on a paste, a drop
        window.intake.paste.setPlainText("https://news.example/new")
        window.intake.paste.submit_action.trigger()  # Ctrl+Enter (offscreen, no key focus)
        said = window.statusBar().currentMessage()
        assert said.startswith(f"{root} is still opening") and "\n" not in said, said
        window.import_saved([saved_page])
        lines = window.log.toPlainText().splitlines()
        assert lines.count(said) == 2 and not window.importing
    with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
        pass
    assert window.model.rowCount() == TASKS
    assert window.table.isVisible() and not window.opening_hint.isVisible()
    assert window.filter_state.isVisible() and window.intake.add_button.isEnabled()


def test_an_archive_that_cannot_open_says_why_and_reads_nothing(
        qtbot: QtBot, prefs: QSettings, fast_settings: Settings, tmp_path: Path) -> None:
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("a file, not an archive", encoding="utf-8")
    window = MainWindow(not_a_folder, prefs, fast_settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: "not an archive folder" in window.statusBar().currentMessage(),
                    timeout=PATIENCE_MS)
    assert window.opening is None and not window.opening_hint.isVisible()
    assert not window.say_if_opening()  # nothing is opening: nothing to say


def test_an_archive_asked_for_while_another_opens_is_the_one_shown(
        qtbot: QtBot, prefs: QSettings, fast_settings: Settings, tmp_path: Path) -> None:
    first = _archive(tmp_path / "first", 30)
    second = _archive(tmp_path / "second", 20)
    with another_writer_saving(first):
        window = MainWindow(first, prefs, fast_settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: "reading about 30 tasks" in window.opening_hint.text(),
                        timeout=PATIENCE_MS)
        with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
            window.open_archive(second)  # File → Open while the first is still read
    assert window.archive is not None and window.archive.root == second.resolve()
    jobs_done(window.jobs)  # the first's open ends once the other writer is done
    QApplication.processEvents()  # and its answer is delivered: dropped
    assert window.archive.root == second.resolve() and window.model.rowCount() == 20
