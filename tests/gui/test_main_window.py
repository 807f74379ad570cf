"""The real window against the demo site on 127.0.0.1: paste, run, edit, review, stop, resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

from PySide6.QtCore import QMimeData, Qt, QUrl
from pytestqt.qtbot import QtBot

from gui.task_model import COLUMNS
from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.store.tasks import TaskStore
from tests.gui.conftest import OpenWindow, add_demo_links, run_to_end, saved_rows
from tests.waiting import PATIENCE_MS


def test_paste_shows_the_intake_report(qtbot: QtBot, open_window: OpenWindow,
                                       demo_site: DemoSite, tmp_path: Path) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="Reading")
    # the same text into an empty store of its own gives the numbers the label must show
    expected = add_links(TaskStore(tmp_path / "other.csv"), demo_site.paste_text())
    assert window.intake.report.text() == (f"Added {len(expected.added)} · duplicates"
                                    f" {len(expected.duplicates)} · rejected"
                                    f" {len(expected.rejected)}")
    rows = [window.intake.report_list.item(n).text()
            for n in range(window.intake.report_list.count())]
    assert any(r.startswith("Rejected mailto:editor@example.com: ") for r in rows)
    assert window.model.rowCount() == len(expected.added)
    assert {t.cat1 for t in window.model.tasks()} == {"Reading"}
    # the box keeps the rejected lines, to fix; the new rows are selected
    assert window.intake.paste.toPlainText() == demo_site.paste_text().splitlines()[-1] + "\n"
    assert window.selected_ids() == sorted(t.id for t in window.model.tasks())
    qtbot.waitUntil(lambda: len(saved_rows(window.archive.tasks_path)) == len(expected.added),
                    timeout=PATIENCE_MS)


def test_run_edit_category_and_preview(qtbot: QtBot, open_window: OpenWindow,
                                       demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    seen: list[str] = []
    window.controller.tasks_changed.connect(lambda tasks: seen.extend(t["status"] for t in tasks))
    progress = run_to_end(qtbot, window)
    assert progress.total == window.model.rowCount()
    assert progress.finished == progress.total
    # statuses changed in the table while it ran, not only at the end
    assert {"running", "failed"} <= set(seen) and set(seen) & {"cleaned", "localized"}
    statuses = [window.proxy.index(r, 0).data() for r in range(window.proxy.rowCount())]
    # every page cleaned in the run shows a clean status (or localized, where images are)
    finished = statuses.count("cleaned") + statuses.count("localized")
    assert finished == progress.cleaned - statuses.count("duplicate")
    assert "failed" in statuses  # the interstitial page has no article
    assert window.run_bar.progress.value() == progress.total

    # edit a category in place, as the item delegate does; it reaches tasks.csv
    index = window.proxy.index(0, COLUMNS.index("cat1"))
    assert window.proxy.flags(index) & Qt.ItemFlag.ItemIsEditable
    assert window.proxy.setData(index, "Bridges 桥")
    task_id = window.model.task_at(window.proxy.mapToSource(index).row()).id
    qtbot.waitUntil(lambda: saved_rows(window.archive.tasks_path)[task_id]["cat1"]
                    == "Bridges 桥", timeout=PATIENCE_MS)

    # the preview shows the article as the book's chapter shows it, beside the raw page's text
    window.select_task(task_id)
    article = json.loads(window.archive.clean_meta(task_id).read_text(encoding="utf-8"))
    qtbot.waitUntil(lambda: window.preview.shown is not None
                    and window.preview.shown.task.id == task_id, timeout=PATIENCE_MS)
    book = window.preview.book.toPlainText()
    assert book.startswith("Bridges 桥")  # the chapter header's category, as just edited
    assert article["title"] in book
    assert article["text"].split("\n")[0][:40] in book
    raw = window.preview.raw.toPlainText()
    assert article["title"] in raw and len(raw) > len(article["text"]) // 2
    # the article's images come from the archive, never from the web
    shown = window.preview.shown
    task = window.model.task(task_id)
    sources = re.findall(r'<img[^>]*\ssrc="([^"]+)"', shown.chapter_html)
    assert task is not None and task.images_ok and len(sources) >= task.images_ok
    assert all((shown.base / u).is_file() for u in sources)


def test_filters_narrow_the_table(qtbot: QtBot, open_window: OpenWindow,
                                  demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site, cat1="A")
    total = window.model.rowCount()
    window.search.setText("blog")  # applied once typing pauses
    blog = [t for t in window.model.tasks() if "blog" in t.url]
    qtbot.waitUntil(lambda: window.proxy.rowCount() == len(blog), timeout=PATIENCE_MS)
    assert 0 < len(blog) < total
    window.search.clear()
    window.status_filter.setCurrentIndex(window.status_filter.findData("failed"))
    assert window.proxy.rowCount() == 0
    window.status_filter.setCurrentIndex(window.status_filter.findData("pending"))
    assert window.proxy.rowCount() == total
    window.category_filter.setCurrentIndex(window.category_filter.findData("A"))
    assert window.proxy.rowCount() == total


def test_dropped_text_file_goes_into_the_paste_area(qtbot: QtBot, open_window: OpenWindow,
                                                    demo_site: DemoSite, tmp_path: Path) -> None:
    window = open_window()
    links = tmp_path / "links.txt"
    links.write_text("读这个 " + demo_site.article_urls[0] + "\n", encoding="gb18030")
    bookmarks = tmp_path / "bookmarks.html"
    bookmarks.write_text("<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p>"
                         f'<DT><A HREF="{demo_site.article_urls[2]}">tea</A></DL>',
                         encoding="utf-8")
    ignored = tmp_path / "photo.jpg"
    ignored.write_bytes(b"\xff\xd8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(links)), QUrl(demo_site.article_urls[1]),
                  QUrl.fromLocalFile(str(bookmarks)), QUrl.fromLocalFile(str(ignored))])
    assert window.intake.paste.canInsertFromMimeData(mime)
    window.intake.paste.insertFromMimeData(mime)
    text = window.intake.paste.toPlainText()
    assert "读这个" in text and demo_site.article_urls[1] in text and "photo.jpg" not in text
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS) as blocker:
        window.intake.add_button.click()
    assert len(blocker.args[0].added) == 3


def test_remove_and_change_category_of_a_selection(qtbot: QtBot, open_window: OpenWindow,
                                                   demo_site: DemoSite) -> None:
    window = open_window()
    add_demo_links(qtbot, window, demo_site)
    window.table.clearSelection()  # what adding selected (the new rows)
    window.table.selectRow(0)
    window.table.selectionModel().select(
        window.proxy.index(1, 0), window.table.selectionModel().SelectionFlag.Select
        | window.table.selectionModel().SelectionFlag.Rows)
    ids = window.selected_ids()
    assert len(ids) == 2 and window.task_actions["remove"].isEnabled()
    window.set_category(ids, "Later", None, "Change category")
    assert [window.model.task(i).cat1 for i in ids] == ["Later", "Later"]
    assert window.category_filter.findData("Later") >= 0
    before = window.model.rowCount()
    window.task_actions["remove"].trigger()
    assert window.model.rowCount() == before - 2
    assert all(window.model.task(i) is None for i in ids)
    # in the trash: still rows of the file, marked, until the trash is emptied
    qtbot.waitUntil(lambda: all(saved_rows(window.archive.tasks_path)[i]["deleted_at"]
                                for i in ids), timeout=PATIENCE_MS)
    assert len(saved_rows(window.archive.tasks_path)) == before


def test_open_actions_hand_urls_to_the_desktop(qtbot: QtBot, open_window: OpenWindow,
                                               demo_site: DemoSite) -> None:
    window = open_window()
    opened: list[QUrl] = []
    window.open_url = opened.append
    add_demo_links(qtbot, window, demo_site)
    run_to_end(qtbot, window)
    task = window.model.tasks()[0]
    window.select_task(task.id)
    window.task_actions["open_source"].trigger()
    window.task_actions["open_clean"].trigger()
    window.build_bar.folder_button.click()
    assert [u.toString() for u in opened[:1]] == [task.url]
    assert opened[1].toLocalFile() == str(window.archive.clean_html(task.id))
    assert opened[2].toLocalFile() == str(window.archive.output_dir)
