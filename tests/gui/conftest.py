"""Fixtures for the window tests: the demo site, private preferences, fast settings, a window."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from gui.language import install_language, remove_language
from gui.main_window.window import MainWindow
from gui.worker import Jobs
from pipeline.demo_site.server import DemoSite
from pipeline.records.settings import Settings
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS


@pytest.fixture(scope="session", autouse=True)
def english(qapp: QApplication) -> Iterator[None]:
    """The English translation (its plural forms: "1 task"), installed as the app does."""
    installed = install_language(qapp, "en")
    yield
    remove_language(qapp, installed)


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    """The window in Chinese for one test (Kuaibu's translation and Qt's own)."""
    installed = install_language(qapp, "zh_CN")
    yield
    remove_language(qapp, installed)


@pytest.fixture
def demo_site() -> Iterator[DemoSite]:
    with DemoSite() as site:
        yield site


@pytest.fixture
def prefs(tmp_path: Path) -> QSettings:
    """Preferences in the test's own ini file, never the user's."""
    return QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def fast_settings() -> Settings:
    """Polite enough for one local host, but quick: short gaps, one quick retry."""
    return Settings().with_overrides(host_delay_ms=20, retries=1, retry_waits=(0.05,),
                                     read_timeout=5.0, tasks_flush_seconds=0.2)


OpenWindow = Callable[..., MainWindow]


@pytest.fixture
def open_window(qtbot: QtBot, prefs: QSettings, fast_settings: Settings,
                tmp_path: Path) -> OpenWindow:
    """Open a window on an archive (default: tmp_path/archive) and wait until it is loaded."""

    def open_(root: Path | None = None, settings: Settings | None = None) -> MainWindow:
        window = MainWindow(root or tmp_path / "archive", prefs, settings or fast_settings)
        window.confirm = lambda question: True  # the person says yes (a test says no itself)
        qtbot.addWidget(window)
        with qtbot.waitSignal(window.archive_loaded, timeout=PATIENCE_MS):
            pass
        return window

    return open_


def add_demo_links(qtbot: QtBot, window: MainWindow, site: DemoSite, cat1: str = "") -> None:
    """Paste the demo site's chat text and press Add, as a person would."""
    window.intake.paste.setPlainText(site.paste_text())
    window.intake.cat1.setCurrentText(cat1)
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()


def run_to_end(qtbot: QtBot, window: MainWindow) -> object:
    with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS) as blocker:
        window.run_bar.run_button.click()
    return blocker.args[0]


def build_everything(qtbot: QtBot, window: MainWindow) -> Any:
    """Bind every task into one book from the build row, as a person does; the build's
    result."""
    window.build_bar.scope.setCurrentIndex(window.build_bar.scope.findData("all"))
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        window.build_bar.button.click()
    return blocker.args[0]


def look_at(window: MainWindow, tab: QWidget) -> None:
    """The window shown with a bottom tab forward: a tab reads the archive only when seen."""
    window.show()
    window.bring_tab(tab)


def jobs_done(jobs: Jobs) -> None:
    """Wait for every job ``jobs`` holds to end, failing after PATIENCE (never forever)."""
    assert jobs.wait(PATIENCE_MS), f"a job still running after {PATIENCE_MS // 1000} s"


def saved_rows(tasks_csv: Path) -> dict[int, dict[str, str]]:
    """tasks.csv as written, read with csv alone (a TaskStore would sweep the window's temp
    files while it saves)."""
    if not tasks_csv.exists():
        return {}
    with open(tasks_csv, encoding="utf-8-sig", newline="") as f:
        return {int(row["id"]): row for row in csv.DictReader(f)}
