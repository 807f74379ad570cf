"""The window's parts of issue 17, driven as a person would: "Harvest a list page…" previews a
real local list page with checkboxes and adds the checked links; after a run the report is
written, shown in its tab and its links open the clean pages and sources."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui.harvest_dialog import URL_COLUMN, WHY_COLUMN, HarvestDialog
from gui.language import install_language, remove_language
from gui.main_window.window import MainWindow
from tests.gui.conftest import OpenWindow, jobs_done, look_at, run_to_end
from tests.pipeline.test_duplicates import BRIDGE
from tests.pipeline.test_harvest import article_paths, english_list
from tests.sites.articles import ArticleSite, article
from tests.waiting import PATIENCE_MS, RUN_PATIENCE_MS


@pytest.fixture
def site() -> Iterator[ArticleSite]:
    with ArticleSite() as s:
        yield s


def open_harvest(qtbot: QtBot, window: MainWindow, url: str) -> HarvestDialog:
    window.harvest_action.trigger()
    dialog = window.harvest_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.url.setText(url)
    dialog.preview_button.click()
    qtbot.waitUntil(lambda: dialog.harvested is not None and not dialog._busy, timeout=PATIENCE_MS)
    return dialog


def test_harvest_previews_checks_the_articles_and_adds_the_checked(
        qtbot: QtBot, open_window: OpenWindow, site: ArticleSite) -> None:
    list_url = site.put("/list", english_list())
    window = open_window()
    window.intake.paste.setPlainText("a half-written note the person is still pasting")
    dialog = open_harvest(qtbot, window, list_url)
    want = [site.url(p) for p in article_paths()]
    rows = [dialog.list.topLevelItem(i) for i in range(dialog.list.topLevelItemCount())]
    assert [r.text(URL_COLUMN) for r in rows] == want  # in page order, chrome left out
    assert all(r.checkState(URL_COLUMN) == Qt.CheckState.Checked for r in rows)
    assert "30" in dialog.summary.text()
    assert site.requests == ["/list"]  # depth 1: no article was read by the preview
    assert window.model.rowCount() == 0  # nothing added before Add

    rows[0].setCheckState(URL_COLUMN, Qt.CheckState.Unchecked)
    rows[5].setCheckState(URL_COLUMN, Qt.CheckState.Unchecked)
    dialog.cat1.setText("河流")
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS) as blocker:
        dialog.add_checked()
    report = blocker.args[0]
    assert len(report.added) == 28
    assert window.workspace is not None
    tasks = window.workspace.tasks()
    assert [t.url for t in tasks] == [u for i, u in enumerate(want) if i not in (0, 5)]
    assert {t.cat1 for t in tasks} == {"河流"}
    assert window.model.rowCount() == 28
    # the paste area is the person's: a harvest neither adds to it nor clears it
    assert window.intake.paste.toPlainText() == "a half-written note the person is still pasting"

    # a second add of the same links reports them as duplicates, as pasting them would
    dialog.check_all.click()
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS) as blocker:
        dialog.add_checked()
    assert len(blocker.args[0].added) == 2 and len(blocker.args[0].duplicates) == 28
    assert "28" in dialog.summary.text()


def test_a_detail_page_is_one_checked_row(qtbot: QtBot, open_window: OpenWindow,
                                          site: ArticleSite) -> None:
    url = site.put("/bridge.html", article("廊桥修缮笔记", BRIDGE * 3))
    window = open_window()
    dialog = open_harvest(qtbot, window, url)
    assert dialog.harvested is not None and dialog.harvested.kind == "detail"
    assert dialog.checked_urls() == [url]
    dialog.check_none.click()
    assert not dialog.add_button.isEnabled()


def test_a_page_that_fails_says_why_and_adds_nothing(qtbot: QtBot, open_window: OpenWindow,
                                                     site: ArticleSite) -> None:
    window = open_window()
    window.harvest_action.trigger()
    dialog = window.harvest_dialog
    assert dialog is not None
    dialog.url.setText(site.url("/missing"))
    dialog.preview_button.click()
    qtbot.waitUntil(lambda: "404" in dialog.summary.text(), timeout=PATIENCE_MS)
    assert dialog.list.topLevelItemCount() == 0 and not dialog.add_button.isEnabled()


def test_after_a_run_the_report_is_written_shown_and_its_links_open(
        qtbot: QtBot, open_window: OpenWindow, site: ArticleSite) -> None:
    good = site.put("/bridge.html", article("廊桥修缮笔记", BRIDGE * 3))
    window = open_window()
    assert window.workspace is not None
    window.workspace.add_links(f"{good}\n{site.url('/gone')}")
    window.file_watch.follow(changed_here=True)
    qtbot.waitUntil(lambda: window.model.rowCount() == 2, timeout=PATIENCE_MS)
    opened: list[QUrl] = []
    window.open_url = opened.append
    with qtbot.waitSignal(window.report_view.written, timeout=PATIENCE_MS) as blocker:
        run_to_end(qtbot, window)
    path = Path(blocker.args[0])
    assert path == window.workspace.archive.logs_dir / "report.html" and path.exists()
    assert "Report: " in window.log.toPlainText()
    # issue 28: not brought forward over the article the person may be reading; issue 30:
    # hidden, it is not read until it is shown
    assert window.tabs.currentWidget() is window.preview
    jobs_done(window.jobs)
    assert window.report_view.path is None
    with qtbot.waitSignal(window.report_view.shown, timeout=PATIENCE_MS):
        look_at(window, window.report_view)
    shown = window.report_view.page.toPlainText()
    # the window says the report in its own words: kinds as the table names them, advice
    # naming its buttons, never a command (the file names commands)
    assert "HTTP 4xx" in shown and "127.0.0.1" in shown and "Wayback copy" in shown
    assert "http-4xx" in page_text(path) and "--" not in shown

    # a relative link (a suspect or sample article's clean page) opens from the report's folder
    href = re.search(r'href="(\.\./01_clean/\d+\.html)"', path.read_text(encoding="utf-8"))
    assert href is not None
    window.report_view.page.anchorClicked.emit(QUrl(href.group(1)))
    assert opened and Path(opened[-1].toLocalFile()).resolve() == (
        path.parent / href.group(1)).resolve()
    assert Path(opened[-1].toLocalFile()).exists()
    window.report_view.browser_button.click()
    assert Path(opened[-1].toLocalFile()) == path

    # issue 28: "Write again" shows the page written again (the same URL, read anew) ...
    window.workspace.add_links(site.url("/later"))
    with qtbot.waitSignal(window.report_view.shown, timeout=PATIENCE_MS):
        window.report_view.again_button.click()
    assert window.report_view.page.toPlainText() != shown
    # ... and a second run's report replaces the first's: the pages that failed are there now
    site.put("/gone", article("廊桥又修好了", BRIDGE * 3))
    site.put("/later", article("廊桥再记", BRIDGE * 2))
    window.tabs.setCurrentWidget(window.preview)
    with qtbot.waitSignal(window.report_view.written, timeout=PATIENCE_MS):
        with qtbot.waitSignal(window.run_finished, timeout=RUN_PATIENCE_MS):
            window.run_bar.retry_button.click()
    assert window.tabs.currentWidget() is window.preview
    with qtbot.waitSignal(window.report_view.shown, timeout=PATIENCE_MS):
        look_at(window, window.report_view)
    again = window.report_view.page.toPlainText()
    assert "HTTP 4xx" not in again and "http-4xx" not in page_text(path)


def page_text(path: Path) -> str:
    """The text a report page shows, read from its file."""
    document = QTextDocument()
    document.setHtml(path.read_text(encoding="utf-8"))
    return document.toPlainText()


def test_refused_links_are_shown_with_why_and_cannot_be_added(
        qtbot: QtBot, tmp_path: Path) -> None:
    """Issue 25: a public page's links to inner addresses are rows saying "refused: …" (in
    the window's language), unchecked and uncheckable, and Check all leaves them so; the
    links added are the page's (``found_on``), so a run judges them as its links too."""
    from gui.worker import Jobs
    from pipeline.usecases.workspace import Workspace
    from tests.pipeline.test_found_links_policy import ARTICLES, FAST, NETWORK, Hosts, publish

    with Hosts.serving() as hosts:
        list_url, own, redirect = publish(hosts)
        workspace = Workspace.open(tmp_path / "archive", FAST, NETWORK)
        jobs = Jobs()
        dialog = HarvestDialog(workspace, jobs, ("", ""))
        qtbot.addWidget(dialog)
        dialog.url.setText(list_url)
        dialog.same_site.setChecked(False)
        dialog.pattern.setText(ARTICLES)
        dialog.preview_button.click()
        qtbot.waitUntil(lambda: dialog.harvested is not None and not dialog._busy,
                        timeout=PATIENCE_MS)
        rows = [dialog.list.topLevelItem(i) for i in range(dialog.list.topLevelItemCount())]
        refused = [r for r in rows if r.text(WHY_COLUMN).startswith("refused: ")]
        assert len(refused) == 9 and "9 refused" in dialog.summary.text()
        assert all(not r.flags() & Qt.ItemFlag.ItemIsUserCheckable for r in refused)
        dialog.check_all.click()
        assert all(r.checkState(URL_COLUMN) == Qt.CheckState.Unchecked for r in refused)
        assert set(dialog.checked_urls()) == {*own, redirect}
        with qtbot.waitSignal(dialog.added, timeout=PATIENCE_MS):
            dialog.add_checked()
        jobs_done(jobs)
        assert {t.found_on for t in workspace.tasks()} == {list_url}
        assert hosts.private_hits() == []


def test_a_harvest_says_its_reasons_in_the_windows_language(
        qtbot: QtBot, qapp: QApplication, tmp_path: Path, site: ArticleSite) -> None:
    """Why the page is a list and why each link scores as it does come from harvest as codes:
    the Chinese window says them in Chinese, not in the English the command line prints."""
    from gui.worker import Jobs
    from pipeline.usecases.workspace import Workspace

    list_url = site.put("/list", english_list())
    installed = install_language(qapp, "zh_CN")
    try:
        dialog = HarvestDialog(Workspace.open(tmp_path / "archive"), Jobs(), ("", ""))
        qtbot.addWidget(dialog)
        dialog.url.setText(list_url)
        dialog.preview_button.click()
        qtbot.waitUntil(lambda: dialog.harvested is not None and not dialog._busy,
                        timeout=PATIENCE_MS)
        why = dialog.list.topLevelItem(0).text(WHY_COLUMN)
        summary = dialog.summary.text()
    finally:
        remove_language(qapp, installed)
    assert "chars" not in why and "main list" not in why, why
    assert re.search(r"[\u4e00-\u9fff]", why), why
    assert "sibling blocks" not in summary and "30" in summary, summary


def test_an_archive_opened_shows_the_report_its_last_run_wrote(
        qtbot: QtBot, open_window: OpenWindow) -> None:
    """The report tab asks the workspace for the last report (``last_report``): none before
    a run or ``report`` wrote one, that one after (read in a job)."""
    window = open_window()
    look_at(window, window.report_view)  # a hidden tab reads when shown (test_hidden_tabs)
    workspace = window.workspace
    assert workspace is not None and workspace.last_report() is None
    window.report_view.set_workspace(workspace)
    assert window.report_view.path is None
    assert "No report yet" in window.report_view.summary.text()
    written = workspace.report()
    assert workspace.last_report() == written
    with qtbot.waitSignal(window.report_view.shown, timeout=PATIENCE_MS):
        window.report_view.set_workspace(workspace)
    assert window.report_view.path == written
    assert str(written) in window.report_view.summary.text()


def test_links_the_archive_has_are_marked_and_left_unchecked(
        qtbot: QtBot, open_window: OpenWindow, site: ArticleSite) -> None:
    """A list page read again after some of its links were added: those say their task and
    are unchecked, matched as adding them would match them (tracking parameters dropped)."""
    list_url = site.put("/list", english_list())
    window = open_window()
    want = [site.url(p) for p in article_paths()]
    # two links as a person pasted them earlier, one with a tracker the archive drops
    window.intake.paste.setPlainText(f"{want[0]}?utm_source=chat\n{want[3]}")
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS):
        window.intake.add_button.click()
    assert window.workspace is not None
    ids = {t.url: t.id for t in window.workspace.tasks()}
    dialog = open_harvest(qtbot, window, list_url)
    rows = {dialog.list.topLevelItem(i).text(URL_COLUMN): dialog.list.topLevelItem(i)
            for i in range(dialog.list.topLevelItemCount())}
    for url in want:
        row = rows[url]
        if url in (want[0], want[3]):
            assert row.checkState(URL_COLUMN) == Qt.CheckState.Unchecked, url
            assert f"#{ids[url]}" in row.text(WHY_COLUMN)
        else:
            assert row.checkState(URL_COLUMN) == Qt.CheckState.Checked, url
            assert "#" not in row.text(WHY_COLUMN)
    assert "2 already in the archive" in dialog.summary.text()
    with qtbot.waitSignal(window.intake_done, timeout=PATIENCE_MS) as blocker:
        dialog.add_checked()
    assert len(blocker.args[0].added) == len(want) - 2 and not blocker.args[0].duplicates
    dialog.close()
