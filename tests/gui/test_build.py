"""Build EPUB from the window: a valid book in 03_output, and Open hands it to the desktop."""

from __future__ import annotations

import zipfile
from pathlib import Path

from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from gui.task_model import TaskRole
from pipeline.demo_site import catalog
from pipeline.demo_site.server import DemoSite
from pipeline.records.settings import Settings
from pipeline.store.tasks import TaskStore
from tests.gui.conftest import (
    OpenWindow,
    add_demo_links,
    build_everything,
    run_to_end,
)
from tests.pipeline.book.test_order import ORDERS, bound_titles, pasted_archive
from tests.pipeline.book.validator import assert_valid
from tests.small_archive import make_small_archive
from tests.waiting import PATIENCE_MS


def test_build_selected_tasks_makes_a_valid_epub(qtbot: QtBot, open_window: OpenWindow,
                                                 demo_site: DemoSite) -> None:
    window = open_window()
    opened: list[QUrl] = []
    window.open_url = lambda url: opened.append(url) or True
    window.epub_program = lambda: "reader.desktop"  # a desktop with a reader for EPUB
    add_demo_links(qtbot, window, demo_site, cat1="Demo")
    run_to_end(qtbot, window)
    cleaned = [t for t in window.model.tasks() if t.status in ("cleaned", "localized")
               and catalog.NEAR_DUPLICATE_PATH not in t.url][:3]
    window.table.clearSelection()
    for task in cleaned:
        row = next(r for r in range(window.proxy.rowCount())
                   if window.proxy.index(r, 0).data(TaskRole).id == task.id)
        window.table.selectionModel().select(
            window.proxy.index(row, 0),
            window.table.selectionModel().SelectionFlag.Select
            | window.table.selectionModel().SelectionFlag.Rows)
    window.build_bar.scope.setCurrentIndex(window.build_bar.scope.findData("selected"))
    steps: list[tuple[int, int]] = []
    window.build_bar.progressed.connect(lambda done, total: steps.append((done, total)))
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        window.build_bar.button.click()
    result = blocker.args[0]
    assert result is not None and result.articles == len(cleaned)
    assert steps and steps[-1][0] == steps[-1][1]
    [book] = result.epubs
    assert book.parent == window.archive.output_dir
    with zipfile.ZipFile(book) as z:
        chapters = " ".join(z.read(n).decode("utf-8") for n in z.namelist()
                            if n.endswith(".xhtml"))
    assert all(t.extracted_title in chapters for t in cleaned)
    # as the command line's build does: the localized ones bound are done, for every reader
    # of the list too (journaled beside tasks.csv until its next save writes them in)
    localized = {t.id for t in cleaned if t.status == "localized"}
    assert localized
    qtbot.waitUntil(lambda: {t.id for t in TaskStore(window.archive.tasks_path).some(localized)
                             if t.status == "done"} == localized, timeout=PATIENCE_MS)
    qtbot.waitUntil(lambda: all(window.model.task(i).status == "done" for i in localized),
                    timeout=PATIENCE_MS)
    assert_valid(book)
    assert window.build_bar.open_button.isEnabled()
    window.build_bar.open_button.click()
    qtbot.waitUntil(lambda: bool(opened), timeout=PATIENCE_MS)
    assert opened[-1].toLocalFile() == str(book)


def test_a_build_says_which_near_duplicates_it_left_out(qtbot: QtBot, open_window: OpenWindow,
                                                        demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="Demo")
    run_to_end(qtbot, window)
    result = build_everything(qtbot, window)
    repost = next(t for t in window.model.tasks() if catalog.NEAR_DUPLICATE_PATH in t.url)
    original = next(t for t in window.model.tasks() if t.url.endswith(catalog.NEAR_DUPLICATE_OF))
    assert result.left_out == [(repost.id, original.id)] and repost.id not in result.task_ids
    assert "1 near duplicate left out" in window.build_bar.status.text()
    assert f"#{repost.id} left out of the book" in window.log.toPlainText()


def test_the_book_title_typed_in_the_window_names_the_book(
        qtbot: QtBot, open_window: OpenWindow, demo_site: DemoSite) -> None:
    window = open_window()
    assert window.archive is not None
    assert window.build_bar.title.placeholderText() == window.archive.name  # the default
    add_demo_links(qtbot, window, demo_site, cat1="Demo")
    run_to_end(qtbot, window)
    window.build_bar.title.setText("桥与茶 Bridges")
    [book] = build_everything(qtbot, window).epubs
    assert book.name == "桥与茶 Bridges.epub"
    with zipfile.ZipFile(book) as z:
        assert "<dc:title>桥与茶 Bridges</dc:title>" in z.read("EPUB/content.opf").decode("utf-8")


def test_the_build_rows_order_binds_the_chapters_in_it(qtbot: QtBot, open_window: OpenWindow,
                                                       tmp_path: Path) -> None:
    """The window opens with the ``book_order`` setting's order (the task list's) and binds
    in the one a person chooses there, as ``build --order`` does."""
    root = tmp_path / "fruit"
    settings = Settings().with_overrides(book_order="published")
    pasted_archive(root, settings).close()
    window = open_window(root, settings)
    order = window.build_bar.order
    assert order.currentData() == "published"
    assert [order.itemData(i) for i in range(order.count())] == ["list", "published", "title"]
    order.setCurrentIndex(order.findData("title"))
    [book] = build_everything(qtbot, window).epubs
    assert bound_titles(window.workspace, book) == (ORDERS["title"],) * 3


def test_the_format_choice_binds_a_pdf_and_open_shows_it(
        qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    root = make_small_archive(tmp_path / "archive")
    window = open_window(root)
    bar = window.build_bar
    opened: list[QUrl] = []
    bar.open_url = lambda url: opened.append(url) or True
    bar.scope.setCurrentIndex(bar.scope.findData("all"))
    bar.format.setCurrentIndex(bar.format.findData("pdf"))
    assert bar.button.text() == "Build PDF"
    with qtbot.waitSignal(window.build_finished, timeout=PATIENCE_MS) as blocker:
        bar.button.click()
    result = blocker.args[0]
    assert result is not None and result.epubs == [] and result.articles == 3
    [pdf] = result.pdfs
    assert pdf.read_bytes().startswith(b"%PDF-") and pdf.name in bar.status.text()
    bar.open_button.click()
    assert [u.toLocalFile() for u in opened] == [str(pdf)]
