"""The extension loaded unpacked into the real Chromium, its native host registered in the
test's own profile: "Save to Kuaibu" (the function the toolbar, the menu and the shortcut
call, run in the extension's service worker) archives a page as the person saw it — an
article that appeared only after a click, one behind a cookie login — images included,
and adds a right-clicked link as a task.

Needs Playwright and Chromium as the rendering tests do (KUAIBU_NO_BROWSER=1 skips them).
Chromium reads a profile's own native messaging hosts from
``<user-data-dir>/NativeMessagingHosts`` on Linux, so nothing outside the test's folder is
touched. The new headless mode loads extensions: no display is needed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pipeline.browser.identity import CHROMIUM_EXTENSION_ID, EXTENSION_DIR
from pipeline.browser.install import write_host
from pipeline.net.render import find_browser
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.browser_needed import needs_browser
from tests.sites.reading import CLICKED_TEXT, MEMBERS_TEXT, SESSION, ReadingSite
from tests.waiting import PATIENCE

# the browser extra (pip install -e '.[browser]'); without it these tests are skipped
sync_api = pytest.importorskip("playwright.sync_api")

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Playwright, Worker


@dataclass
class Browser:
    context: BrowserContext
    worker: Worker
    archive: Path
    site: ReadingSite

    def save(self, page: Page, category: str) -> dict[str, Any]:
        """Press "Save to Kuaibu" for ``page``'s tab: the answer the extension shows."""
        return self.worker.evaluate(
            """async ([url, category]) => {
                 const [tab] = await chrome.tabs.query({ url });
                 return savePage(tab, category);
               }""", [page.url, category])

    def save_link(self, page: Page, link: str, category: str) -> dict[str, Any]:
        return self.worker.evaluate(
            """async ([url, link, category]) => {
                 const [tab] = await chrome.tabs.query({ url });
                 return saveLink(tab, link, url, category);
               }""", [page.url, link, category])


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """One Playwright for the module's browsers (its sync API cannot be started twice)."""
    needs_browser()
    with sync_api.sync_playwright() as p:
        yield p


@contextmanager
def chromium_with_extension(p: Playwright, root: Path, language: str = "en_US"
                            ) -> Iterator[tuple[BrowserContext, Worker, Path]]:
    """Chromium in a profile of its own under ``root`` with the extension loaded and the host
    registered in the profile, on an archive of its own; its UI in ``language``."""
    archive, profile = root / "archive", root / "profile"
    Workspace.open(archive).close()  # install-browser makes it; the host never does
    write_host(profile / "NativeMessagingHosts", archive)
    context = p.chromium.launch_persistent_context(
        str(profile), executable_path=find_browser(Settings()), headless=True,
        locale=language.replace("_", "-"),
        env={**os.environ, "LANGUAGE": language, "LANG": f"{language}.UTF-8"},
        args=[f"--load-extension={EXTENSION_DIR}",
              f"--disable-extensions-except={EXTENSION_DIR}",
              f"--lang={language.replace('_', '-')}"])
    try:
        worker = (context.service_workers[0] if context.service_workers else
                  context.wait_for_event("serviceworker", timeout=PATIENCE * 1000))
        yield context, worker, archive
    finally:
        context.close()


@pytest.fixture(scope="module")
def chromium(playwright: Playwright,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    with (ReadingSite() as site,
          chromium_with_extension(playwright, tmp_path_factory.mktemp("extension")) as (
              context, worker, archive)):
        yield Browser(context, worker, archive, site)


def archived(archive: Path, task_id: int) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A task's raw record, its article and how many of its images are stored."""
    ws = Workspace.open(archive)
    try:
        record = json.loads(ws.archive.raw_meta(task_id).read_text(encoding="utf-8"))
        article = json.loads(ws.archive.clean_meta(task_id).read_text(encoding="utf-8"))
        assets = ws.archive.read_assets(task_id)
        return record, article, assets.ok if assets is not None else 0
    finally:
        ws.close()


def test_the_extension_is_kuaibus(chromium: Browser) -> None:
    assert chromium.worker.url == f"chrome-extension://{CHROMIUM_EXTENSION_ID}/background.js"


def test_an_article_shown_after_a_click_is_archived_as_seen(chromium: Browser) -> None:
    page = chromium.context.new_page()
    page.goto(chromium.site.url("/click.html"))
    page.click("#more")
    page.wait_for_selector("#article[data-ready]")
    answer = chromium.save(page, "山居")
    assert answer["ok"], answer
    assert answer["status"] == "localized" and answer["text"] == f"Saved as task #{answer['task']}."
    record, article, images = archived(chromium.archive, answer["task"])
    for paragraph in CLICKED_TEXT:
        assert paragraph in article["text"]
    assert images == 1
    assert record["capture"]["by"] == "browser" and "Chrom" in record["capture"]["browser"]
    rendered = (chromium.archive / "00_raw" / f"{answer['task']}.rendered.html")
    assert CLICKED_TEXT[0] in rendered.read_text(encoding="utf-8")
    page.close()


def test_a_page_behind_a_login_is_archived_without_kuaibu_holding_the_cookie(
        chromium: Browser) -> None:
    page = chromium.context.new_page()
    page.goto(chromium.site.url("/login"))  # the person logs in: the cookie is the browser's
    assert page.url.endswith("/members.html")
    answer = chromium.save(page, "Harbour")
    assert answer["ok"], answer
    _, article, images = archived(chromium.archive, answer["task"])
    for paragraph in MEMBERS_TEXT:
        assert paragraph in article["text"]
    assert images == 1
    ours = chromium.site.requests_by_kuaibu()
    assert "/img/harbour.jpg" in [r.path for r in ours]  # the image came home by Kuaibu
    assert all(SESSION not in r.cookie for r in ours)  # never with the browser's cookie
    assert "/members.html" not in [r.path for r in ours]  # the page came from the browser
    page.close()


def test_a_selection_is_the_article(chromium: Browser) -> None:
    page = chromium.context.new_page()
    page.goto(chromium.site.url("/login"))
    page.evaluate("""() => {
        const second = document.querySelectorAll("article p")[1];
        const range = document.createRange();
        range.selectNodeContents(second);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
    }""")
    answer = chromium.save(page, "Harbour")
    assert answer["ok"], answer
    record, article, _ = archived(chromium.archive, answer["task"])
    assert MEMBERS_TEXT[1] in article["text"]
    assert MEMBERS_TEXT[0] not in article["text"] and MEMBERS_TEXT[2] not in article["text"]
    assert "data-kuaibu-selection" in record["capture"]["selection"]
    page.close()


def test_a_link_is_added_as_a_task_and_the_categories_are_the_archives(
        chromium: Browser) -> None:
    page = chromium.context.new_page()
    page.goto(chromium.site.url("/login"))
    link = chromium.site.url("/click.html?from=menu")
    answer = chromium.save_link(page, link, "Later")
    assert answer["ok"] and answer["added"], answer
    ws = Workspace.open(chromium.archive)
    try:
        task = ws.task(answer["task"])
        assert (task.url, task.cat1, task.found_on) == (link, "Later", page.url)
    finally:
        ws.close()
    known = chromium.worker.evaluate("categories()")
    assert known["ok"] and "Later" in known["categories"] and known["last"] == "Later"
    page.close()


def test_the_popup_offers_the_archives_categories_and_says_the_result(
        chromium: Browser) -> None:
    """The toolbar's popup, opened as a page: its chooser holds the archive's categories with
    the last one filled in; Save in a tab that is no web page says why it saved nothing."""
    chromium.worker.evaluate("chrome.storage.local.set({ category: 'Harbour' })")
    popup = chromium.context.new_page()
    popup.goto(f"chrome-extension://{CHROMIUM_EXTENSION_ID}/popup.html")
    # filled in one go once the host answered (the page's policy forbids eval: no
    # wait_for_function here)
    popup.locator("#categories option").first.wait_for(state="attached",
                                                       timeout=PATIENCE * 1000)
    assert popup.input_value("#category") == "Harbour"
    options = popup.eval_on_selector_all("#categories option", "els => els.map(e => e.value)")
    assert {"Harbour", "山居"} <= set(options)
    assert popup.text_content("#save") == "Save to Kuaibu"
    popup.click("#save")  # the active tab is the popup itself here
    popup.locator("#result.failed").wait_for(timeout=PATIENCE * 1000)
    assert popup.text_content("#result") == (
        "Not saved: only http and https pages can be saved")
    popup.close()


def test_the_extension_speaks_chinese_in_a_chinese_browser(playwright: Playwright,
                                                           tmp_path: Path) -> None:
    with chromium_with_extension(playwright, tmp_path, "zh_CN") as (context, _, _):
        popup = context.new_page()
        popup.goto(f"chrome-extension://{CHROMIUM_EXTENSION_ID}/popup.html")
        assert popup.text_content("#save") == "保存到快捕"
        assert popup.text_content("#category-label") == "分类"
        popup.click("#save")
        popup.locator("#result.failed").wait_for(timeout=PATIENCE * 1000)
        assert popup.text_content("#result") == "未保存：只能保存 http 和 https 网页"
