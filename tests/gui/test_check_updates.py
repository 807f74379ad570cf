"""Check for updates from the window: a real archive, a site that edits one article and
removes another, the check run in the child process, and the summary it ends with."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.main_window.window import MainWindow
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow
from tests.pipeline.test_duplicates import BRIDGE, TEA
from tests.sites.articles import ArticleSite, article
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=20)
CHANGED_LINE = ("Since this was written the farm has moved its wok to a new shed, and the "
                "family now fires tea twice a week through the winter as well.")
STEEP = ["Steeping green tea well takes water below boiling, a warm cup and patience. "
         "Two minutes is enough for the first infusion, and the leaves give three more."] * 3


def archive_of(root: Path, site: ArticleSite, pages: dict[str, tuple[str, list[str], str]],
               cat1: str = "") -> None:
    """Fetch and clean ``pages`` (path → title, paragraphs, category) into an archive."""
    ws = Workspace.open(root, FAST)
    for path, (title, paragraphs, category) in pages.items():
        lang = "zh-CN" if paragraphs is BRIDGE else "en"
        ws.add_links(site.put(path, article(title, paragraphs, lang=lang)), cat1=category)
    ws.run()
    assert all(t.status == Status.LOCALIZED for t in ws.tasks())
    ws.close()


def check(qtbot: QtBot, window: MainWindow, start: object) -> str:
    """Start a check and wait for its summary; while it runs, the run actions wait."""
    with qtbot.waitSignal(window.updates.summarized, timeout=RUN_PATIENCE_MS) as blocker:
        assert callable(start)
        start()
        qtbot.waitUntil(lambda: window.controller.running, timeout=PATIENCE_MS)
        assert not window.check_updates_action.isEnabled()
        assert not window.run_action.isEnabled()
    assert window.check_updates_action.isEnabled()
    return str(blocker.args[0])


def test_check_for_updates_of_all_names_what_changed(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    root = tmp_path / "archive"
    with ArticleSite() as site:
        archive_of(root, site, {"/tea.html": ("Firing tea", TEA, ""),
                                "/bridge.html": ("廊桥修缮笔记", BRIDGE, ""),
                                "/steep.html": ("Steeping tea", STEEP, "")})
        site.put("/tea.html", article("Firing tea", TEA[:-1] + [CHANGED_LINE], lang="en"))
        site.put("/steep.html", "<h1>Gone</h1>", status=404)
        site.delay["/bridge.html"] = 0.5  # long enough to see the run going
        window = open_window(root)
        assert not window.table.selectionModel().hasSelection()
        summary = check(qtbot, window, window.check_updates_action.trigger)
    head, *changed = summary.splitlines()
    assert head == "Checked 3: 1 changed, 1 unchanged, 1 could not be checked"
    assert len(changed) == 1 and changed[0].startswith("#1 Firing tea: ")
    assert "farm" in changed[0] or "wok" in changed[0]  # what changed, in a line
    assert window.statusBar().currentMessage() == head
    box = window.updates.summary_box
    assert box is not None and box.text() == head and "#1 Firing tea" in box.informativeText()
    store = TaskStore(root / "tasks.csv")
    tea, bridge, steep = store.get(1), store.get(2), store.get(3)
    assert tea.revised_at and tea.last_checked
    assert not bridge.revised_at and bridge.last_checked
    assert steep.refresh_error and steep.status == Status.LOCALIZED  # still bound as archived
    qtbot.waitUntil(lambda: (t := window.model.task(1)) is not None and bool(t.revised_at),
                    timeout=PATIENCE_MS)


def test_a_category_node_or_the_selected_rows_are_checked_alone(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    root = tmp_path / "archive"
    with ArticleSite() as site:
        archive_of(root, site, {"/tea.html": ("Firing tea", TEA, "Tea"),
                                "/bridge.html": ("廊桥修缮笔记", BRIDGE, "Travel")})
        site.delay["/tea.html"] = site.delay["/bridge.html"] = 0.5
        window = open_window(root)
        summary = check(qtbot, window, lambda: window.check_updates(("Tea", None)))
        assert site.requests.count("/bridge.html") == 1  # the archive's fetch, no check
        assert summary == "Checked 1: 0 changed, 1 unchanged, 0 could not be checked"
        store = TaskStore(root / "tasks.csv")
        assert store.get(1).last_checked and not store.get(2).last_checked

        window.select_task(2)  # the table's context menu takes the selected rows
        summary = check(qtbot, window, window.task_actions["check_updates"].trigger)
        assert site.requests.count("/bridge.html") == 2
        assert site.requests.count("/tea.html") == 2
    assert summary.startswith("Checked 1: 0 changed, 1 unchanged")
    assert TaskStore(root / "tasks.csv").get(2).last_checked


def test_nothing_archived_is_nothing_to_check(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    window.intake.paste.setPlainText("https://a.example/post/1")
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()
    with qtbot.waitSignal(window.updates.said, timeout=PATIENCE_MS) as blocker:
        window.check_updates_action.trigger()
    assert "Nothing to check" in str(blocker.args[0])
    assert not window.controller.running
