"""A row that needs review says why in the table's Why column, as a failed row does, in the
window's language (issue 28 §11), not only in a tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui.task_model import COLUMNS
from pipeline.demo_site.server import DemoSite
from pipeline.records.task import Status
from tests.gui.conftest import OpenWindow, add_demo_links, run_to_end
from tests.pipeline.test_many_writers import hand_edit
from tests.waiting import PATIENCE_MS


def _why_of_an_unsure_article(qtbot: QtBot, open_window: OpenWindow,
                              demo_site: DemoSite) -> tuple[str, str]:
    """Run the demo, mark one article as the extractor's unsure one (as tasks.csv says it
    after a baseline pass), and read its Why cell and that cell's tooltip."""
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    unsure = next(t for t in window.model.tasks() if t.status == Status.LOCALIZED)
    assert window.workspace is not None
    with hand_edit(window.workspace.archive) as rows:
        for row in rows:
            if row["id"] == str(unsure.id):
                row["confidence"] = "0.31"
    qtbot.waitUntil(lambda: window.model.task(unsure.id).confidence == 0.31,
                    timeout=PATIENCE_MS)
    model = window.model
    row = next(r for r in range(model.rowCount()) if model.task_at(r).id == unsure.id)
    why = model.index(row, COLUMNS.index("kind"))
    return why.data(), why.data(Qt.ItemDataRole.ToolTipRole)


def test_why_says_the_article_needs_review(qtbot: QtBot, open_window: OpenWindow,
                                           demo_site: DemoSite) -> None:
    shown, tip = _why_of_an_unsure_article(qtbot, open_window, demo_site)
    assert shown == "unsure extraction (0.31)"
    assert "0.31" in tip


def test_why_says_it_in_chinese(chinese: None, qtbot: QtBot,  # noqa: F811
                                open_window: OpenWindow, demo_site: DemoSite) -> None:
    shown, _tip = _why_of_an_unsure_article(qtbot, open_window, demo_site)
    assert "0.31" in shown and "unsure" not in shown
