"""The Duplicates tab on a real archive: a repost that differs from its original by one year
is listed with both links, its differences shown, and a decision pressed in the tab reaches
tasks.csv and duplicates.csv (and comes back undone by Keep both)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui.duplicates_view import ADDED_STYLE, REMOVED_STYLE, DuplicatesView, hunks_html
from gui.main_window.window import MainWindow
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.duplicates import read_decisions
from pipeline.store.tasks import TaskStore
from pipeline.text.textdiff import Hunk
from pipeline.usecases.workspace import Workspace
from tests.gui.conftest import OpenWindow
from tests.pipeline.test_duplicates import TEA, with_footer
from tests.sites.articles import ArticleSite, article
from tests.waiting import PATIENCE_MS

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=20)
ORIGINAL, REPOST = "/news/bridge.html", "/reprint/bridge.html"


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """#1 and #2 nearly the same (the year in the last line), #3 another article, #4 the same
    text as #3 under another link (an exact duplicate the run sets aside)."""
    root = tmp_path / "archive"
    with ArticleSite() as site:
        links = [site.put(ORIGINAL, article("廊桥修缮笔记", with_footer(2023))),
                 site.put(REPOST, article("廊桥修缮笔记（转载）", with_footer(2024))),
                 site.put("/food/tea.html", article("Firing tea", TEA, lang="en")),
                 site.put("/copy/tea.html", article("Firing tea", TEA, lang="en"))]
        ws = Workspace.open(root, FAST)
        ws.add_links("\n".join(links))
        ws.run()
        ws.close()
    return root


def shown_tab(qtbot: QtBot, window: MainWindow) -> DuplicatesView:
    """Show the window and open the Duplicates tab, which reads the pairs as it is shown."""
    view = window.duplicates
    window.show()
    with qtbot.waitSignal(view.refreshed, timeout=PATIENCE_MS):
        window.tabs.setCurrentWidget(view)
    return view


def task(root: Path, task_id: int) -> tuple[Status, int | None]:
    saved = TaskStore(root / "tasks.csv").get(task_id)
    return saved.status, saved.duplicate_of


def decide(qtbot: QtBot, view: DuplicatesView, button_text: str, decision: str) -> None:
    """Press a decision button and wait until the list shows the decision."""
    button = {b.text(): b for b in (view.second_button, view.first_button, view.keep_button,
                                    view.undecide_button)}[button_text]
    assert button.isEnabled()
    with qtbot.waitSignal(view.decided, timeout=PATIENCE_MS):
        button.click()
    qtbot.waitUntil(lambda: (item := view.list.topLevelItem(0)) is not None
                    and item.text(4) == decision, timeout=PATIENCE_MS)


def test_a_pair_is_listed_its_differences_shown_and_decisions_saved(
        qtbot: QtBot, open_window: OpenWindow, archive: Path) -> None:
    window = open_window(archive)
    view = shown_tab(qtbot, window)
    [pair] = view.pairs()
    assert (pair.first.id, pair.second.id) == (1, 2)
    item = view.list.topLevelItem(0)
    assert item is not None
    assert item.text(0) == "#1 · #2"
    assert (item.text(1), item.text(2)) == ("廊桥修缮笔记", "廊桥修缮笔记（转载）")
    assert re.fullmatch(r"1 bit|\d+ bits", item.text(3)) and item.text(4) == "undecided"
    assert item.text(5).endswith(ORIGINAL) and item.text(6).endswith(REPOST)
    assert "1 near-duplicate pair, 1 to judge" in view.summary.text()
    assert "1 exact duplicate (" in view.summary.text()  # #4, the copy of #3
    assert not view.second_button.isEnabled()  # nothing selected yet

    with qtbot.waitSignal(view.differences_shown, timeout=PATIENCE_MS):
        assert view.select_pair(1, 2)
    shown = view.differences_text()
    assert "2023" in shown and "2024" in shown and "1 place differs" in shown
    assert ORIGINAL in shown and REPOST in shown
    assert "line-through" in view.differences.toHtml()

    decide(qtbot, view, "Second is a duplicate of first", "#2 duplicates #1")
    assert task(archive, 2) == (Status.DUPLICATE, 1)
    assert task(archive, 1) == (Status.LOCALIZED, None)
    [decided] = read_decisions(archive / "duplicates.csv").values()
    assert (decided.duplicate, decided.original, decided.decision.value) == (2, 1, "duplicate")
    qtbot.waitUntil(lambda: (t := window.model.task(2)) is not None
                    and t.status == Status.DUPLICATE, timeout=PATIENCE_MS)  # the table follows
    assert not view.second_button.isEnabled() and view.undecide_button.isEnabled()

    decide(qtbot, view, "Keep both", "keep both")
    assert task(archive, 2) == (Status.LOCALIZED, None)
    [decided] = read_decisions(archive / "duplicates.csv").values()
    assert decided.decision.value == "keep-both"
    qtbot.waitUntil(lambda: "0 to judge" in view.summary.text(), timeout=PATIENCE_MS)

    decide(qtbot, view, "Undecide", "undecided")
    assert read_decisions(archive / "duplicates.csv") == {}
    assert task(archive, 2) == (Status.LOCALIZED, None)


def test_a_broken_decisions_file_is_said_and_nothing_changes(
        qtbot: QtBot, open_window: OpenWindow, archive: Path) -> None:
    window = open_window(archive)
    view = shown_tab(qtbot, window)
    assert view.select_pair(1, 2)
    decisions = archive / "duplicates.csv"
    decisions.write_text("duplicate,original,decision\n2,one,duplicate\n", encoding="utf-8")
    before = decisions.read_bytes()
    view.second_button.click()
    qtbot.waitUntil(lambda: "line 2" in view.summary.text(), timeout=PATIENCE_MS)
    assert decisions.read_bytes() == before
    assert task(archive, 2) == (Status.LOCALIZED, None)
    assert view.second_button.isEnabled()  # free to try again once the file is mended


def test_open_report_writes_the_page_and_opens_it(
        qtbot: QtBot, open_window: OpenWindow, archive: Path) -> None:
    window = open_window(archive)
    opened: list[str] = []
    window.open_url = lambda url: opened.append(url.toLocalFile())
    view = shown_tab(qtbot, window)
    view.report_button.click()
    qtbot.waitUntil(lambda: bool(opened), timeout=PATIENCE_MS)
    page = Path(opened[0])
    assert page == archive / "04_logs" / "near_duplicates.html"
    assert REPOST in page.read_text(encoding="utf-8")


def test_differences_are_escaped_and_marked_and_spaced_as_their_script() -> None:
    shown = hunks_html([Hunk("<b>年份", "2023", "2024", "&冬天"), Hunk("a", "", "new", "")])
    assert "&lt;b&gt;年份" in shown and "&amp;冬天" in shown and "<b>" not in shown
    assert shown.count("<p>") == 2 and f'<span style="{REMOVED_STYLE}"></span>' not in shown
    removed, added = (f'<span style="{style}">' for style in (REMOVED_STYLE, ADDED_STYLE))
    assert hunks_html([Hunk("记录写于", "2023", "2024", "年冬天")]) == (
        f"<p>…记录写于{removed}2023</span> {added}2024</span>年冬天…</p>")
    assert hunks_html([Hunk("", "The year", "", "was cold")]) == (
        f"<p>{removed}The year</span> was cold…</p>")
