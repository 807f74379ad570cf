"""Rendering pages whose article a script builds (issue 19), against a local single-page app.

These tests need Playwright (``pip install -e '.[browser]'``) and Chromium (``apt install
chromium``), which CI installs: without them they fail, saying what is missing, unless
KUAIBU_NO_BROWSER=1 is set (then they are skipped with that reason).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.net.render import browser_problem, request_verdict
from pipeline.records.errors import ErrorKind
from pipeline.records.failures import Code
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.usecases.workspace import Workspace
from tests.browser_needed import needs_browser
from tests.sites.spa import SpaSite, paragraphs
from tests.waiting import PATIENCE, outcome_of, when

REPO = Path(__file__).resolve().parents[2]
FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=0)
RENDER_RULE = "127.0.0.1:\n  render: browser\n  cookies: \"sid=42\"\n"
NO_BROWSER = "/nonexistent/chromium"


@pytest.fixture(scope="module")
def browser() -> None:
    needs_browser()


def workspace(root: Path, settings: Settings = FAST, rules: str = "") -> Workspace:
    ws = Workspace.open(root, settings)
    if rules:
        ws.archive.rules_path.write_text(rules, encoding="utf-8")
    return ws


def archived(ws: Workspace, *urls: str) -> list[Task]:
    """The tasks of ``urls`` after one run, as tasks.csv has them."""
    ws.add_links("\n".join(urls))
    ws.run()
    ws.refresh()
    by_url = {t.url: t for t in ws.tasks()}
    return [by_url[u] for u in urls]


@dataclass
class Archived:
    ws: Workspace
    site: SpaSite
    task: Task


@pytest.fixture(scope="module")
def spa_archived(browser: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Archived]:
    """One app page archived under a ``render: browser`` rule (with a cookie for the site)."""
    with SpaSite() as site:
        url = site.put("first", "单页应用里的文章", paragraphs("first"), images=2, lazy=2)
        ws = workspace(tmp_path_factory.mktemp("spa") / "archive", rules=RENDER_RULE)
        [task] = archived(ws, url)
        yield Archived(ws, site, task)
        ws.close()


# -- what the browser may ask for (no browser needed) ---------------------------------------


@pytest.mark.parametrize(("url", "method", "kind", "verdict"), [
    ("http://a.test/app.js", "GET", "script", None),
    ("http://a.test/api/x.json", "GET", "fetch", None),
    ("http://a.test/frame", "GET", "document", None),
    ("http://cdn.test/pic.jpg", "GET", "image", None),
    ("https://cdn.test/site.css", "GET", "stylesheet", None),
    ("https://cdn.test/lib.js", "GET", "script", None),
    ("https://cdn.test/f.woff2", "GET", "font", None),
    ("http://tracker.test/collect", "GET", "fetch", "a fetch request to another host"),
    ("http://tracker.test/frame", "GET", "document", "a document request to another host"),
    ("http://tracker.test/clip.mp4", "GET", "media", "a media request to another host"),
    ("http://a.test/beacon", "POST", "ping", "a POST request (an archiver only reads)"),
    ("http://a.test/live", "GET", "eventsource", "a eventsource"),
    ("ftp://a.test/x", "GET", "other", "ftp scheme"),
])
def test_the_browser_gets_only_what_a_page_needs_to_show(url: str, method: str, kind: str,
                                                        verdict: str | None) -> None:
    assert request_verdict(url, method, kind, "a.test") == verdict


def test_browser_problem_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = browser_problem(Settings(browser_path=NO_BROWSER))
    assert missing is not None
    assert NO_BROWSER in missing.text and "apt install chromium" in missing.text
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)  # as if not installed
    without = browser_problem(Settings())
    assert without is not None
    assert without.code is Code.NEEDS_PLAYWRIGHT
    assert "pip install -e '.[browser]'" in without.text and "apt install chromium" in without.text


def test_a_rule_without_a_browser_fails_the_task_saying_what_to_install(
        tmp_path: Path) -> None:
    with SpaSite() as site:
        url = site.put("a", "标题", paragraphs("a"))
        ws = workspace(tmp_path / "archive", FAST.with_overrides(browser_path=NO_BROWSER),
                       RENDER_RULE)
        [task] = archived(ws, url)
        assert site.requests == []  # failed before asking the site for anything
    assert task.status == "failed"
    assert task.error_kind == ErrorKind.RULES
    assert "apt install chromium" in task.error


def test_a_browser_that_does_not_start_fails_saying_so(tmp_path: Path) -> None:
    """browser_path names a program that is no Chromium: the task fails by the rule, saying
    Chromium did not start (not as a bug)."""
    pytest.importorskip("playwright.async_api")
    not_chromium = shutil.which("false")
    if not_chromium is None:
        pytest.skip("no 'false' program to stand for a browser that does not start")
    with SpaSite() as site:
        url = site.put("a", "标题", paragraphs("a"))
        ws = workspace(tmp_path / "archive", FAST.with_overrides(browser_path=not_chromium),
                       RENDER_RULE)
        [task] = archived(ws, url)
    assert task.failure is not None, task.error
    assert task.failure.code is Code.CHROMIUM_DID_NOT_START
    assert task.error_kind == ErrorKind.RULES


# -- without the rule -------------------------------------------------------------------------


def test_without_the_rule_the_app_page_fails_as_needing_javascript(tmp_path: Path) -> None:
    with SpaSite() as site:
        [task] = archived(workspace(tmp_path / "archive"), site.put("a", "标题", paragraphs("a")))
    assert task.status == "failed", task.error
    assert task.error_kind == "needs-javascript"
    assert "render: browser" in task.error  # the advice
    assert not (tmp_path / "archive" / "00_raw" / f"{task.id}.rendered.html").exists()


def test_a_needs_javascript_failure_is_rendered_once_the_rule_is_set(
        browser: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The way out the advice names, headless: ``rules set`` writes the rule (the file's
    comments kept), and retrying the kind renders the page already stored unrendered."""
    from pipeline.cli.main import main

    root = tmp_path / "archive"
    with SpaSite() as site:
        url = site.put("a", "后来才渲染的文章", paragraphs("a"))
        ws = workspace(root, rules="# my notes\n127.0.0.1:\n  min_chars: 100\n")
        [task] = archived(ws, url)
        assert task.error_kind == "needs-javascript"
        ws.close()
        assert main(["rules", "set", "--domain", "127.0.0.1", "--value", "render=browser",
                     "--archive", str(root)]) == 0
        assert "127.0.0.1: render = 'browser'" in capsys.readouterr().out
        assert (root / "rules.yaml").read_text(encoding="utf-8") == (
            "# my notes\n127.0.0.1:\n  min_chars: 100\n  render: browser\n")
        assert main(["run", "--retry-failed", "--kind", "needs-javascript", "--set",
                     "host_delay_ms=0", "--archive", str(root)]) == 0
    ws = Workspace.open(root, FAST)
    [task] = ws.tasks()
    assert task.status == "localized", task.error
    article = ws.archive.read_article(task.id)
    assert article is not None and "a 第6段" in article.text
    assert ws.archive.raw_rendered(task.id).exists()
    # the unrendered shell is kept in the history, as any page fetched again
    assert list((root / "00_raw" / "history" / str(task.id)).glob("*.html"))


def test_a_page_the_browser_leaves_empty_is_not_told_to_turn_rendering_on(
        browser: None, tmp_path: Path) -> None:
    """Rendered because the setting says every site (no rule for it), the page is still an
    empty shell (its script never comes): the advice is about what rendering could not do."""
    from tests.sites.articles import ArticleSite

    shell = ('<html><body><div id="root"></div><script src="/never.js"></script>'
             "<noscript>You need to enable JavaScript to run this app.</noscript></body></html>")
    with ArticleSite() as site:
        url = site.put("/app", shell)
        [task] = archived(workspace(tmp_path / "archive", FAST.with_overrides(render="browser")),
                          url)
    assert task.error_kind == "needs-javascript", task.error
    assert "even rendered with a browser" in task.error and "pip install" not in task.error


def test_rules_set_refuses_what_the_file_would_not_take(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.cli.main import main

    root = tmp_path / "archive"
    Workspace.open(root, FAST).close()
    before = (root / "rules.yaml").read_bytes() if (root / "rules.yaml").exists() else None
    assert main(["rules", "set", "--domain", "a.test", "--value", "render=always",
                 "--archive", str(root)]) == 1
    assert "render" in capsys.readouterr().err
    assert main(["rules", "set", "--domain", "a.test", "--archive", str(root)]) == 1
    after = (root / "rules.yaml").read_bytes() if (root / "rules.yaml").exists() else None
    assert after == before


# -- with the rule ----------------------------------------------------------------------------


def test_with_the_rule_the_app_page_is_archived_with_its_text(spa_archived: Archived) -> None:
    ws, task = spa_archived.ws, spa_archived.task
    assert task.status == "localized", task.error
    article = ws.archive.read_article(task.id)
    assert article is not None
    assert article.title == "单页应用里的文章"
    assert "first 第1段" in article.text and "first 第6段" in article.text
    assert "图2：滚动到这里才加载的图片" in article.text
    raw, rendered = ws.archive.raw_html(task.id), ws.archive.raw_rendered(task.id)
    assert rendered.parent == raw.parent
    assert b'<div id="root"></div>' in raw.read_bytes()  # the bytes the server sent, kept
    assert "first 第1段" in rendered.read_text(encoding="utf-8")
    record = json.loads(ws.archive.raw_meta(task.id).read_text(encoding="utf-8"))
    assert record["rendered"] is True
    assert record["render"]["requests"]["page"] == 1
    assert record["render"]["requests"]["blocked"] >= 4  # fetch, beacon, frame, websocket


def test_the_browser_is_handed_the_page_and_fetches_the_rest_as_a_run_does(
        spa_archived: Archived) -> None:
    site = spa_archived.site
    assert len(site.asked("/a/first")) == 1  # the fetch stage's request only: no second fetch
    [api] = site.asked("/api/first.json")
    assert api.headers.get("Cookie") == "sid=42"  # the site's rules cookie
    assert api.headers.get("User-Agent") == FAST.user_agent
    log = (spa_archived.ws.archive.logs_dir / "fetch.log").read_text(encoding="utf-8")
    assert "/api/first.json" in log and "blocked: a fetch request to another host" in log


def test_the_images_scripts_inserted_come_home_lazy_ones_too(spa_archived: Archived) -> None:
    ws, site, task = spa_archived.ws, spa_archived.site, spa_archived.task
    article = ws.archive.read_article(task.id)
    assert article is not None
    assert article.images == site.image_urls("first")  # the lazy ones exist only after a scroll
    assert task.images_total == task.images_ok == 4
    assert len(list(ws.archive.assets_dir.rglob("*.jpg"))) == 4


def test_lazy_images_come_home_when_the_data_comes_after_the_page_first_settled(
        browser: None, tmp_path: Path) -> None:
    # the script asks for its data after the first quiet spell, while the end is in view
    with SpaSite(delay_ms=FAST.render_quiet_ms * 3 // 2) as site:
        ws = workspace(tmp_path / "archive", rules=RENDER_RULE)
        [task] = archived(ws, site.put("late", "迟到的数据", paragraphs("late")))
        urls = site.image_urls("late")
    article = ws.archive.read_article(task.id)
    assert article is not None and article.images == urls
    assert task.images_total == task.images_ok == 4


def test_the_browser_reaches_only_the_page_host_and_the_image_host(
        spa_archived: Archived) -> None:
    site = spa_archived.site
    assert site.tracker.connections == 0  # no fetch, beacon, frame, socket or preconnect
    assert site.images.hits
    for hit in site.images.hits:  # the browser's and the localize stage's: images only
        assert hit.path.startswith("/img/"), hit.path
        assert hit.headers["Accept"].startswith("image/"), hit.headers["Accept"]


def test_cleaning_again_reads_the_rendered_page_without_the_browser(
        spa_archived: Archived) -> None:
    ws = Workspace.open(spa_archived.ws.archive.root, FAST.with_overrides(browser_path=NO_BROWSER))
    before = ws.archive.read_article(spa_archived.task.id)
    progress = ws.reclean(ws.reclean_ids())
    assert progress.cleaned == 1 and progress.failed == 0
    after = ws.archive.read_article(spa_archived.task.id)
    assert after is not None and before is not None and after.text == before.text
    assert ws.task(spa_archived.task.id).status == "localized"


def test_a_check_for_updates_renders_again_and_finds_new_data_behind_the_same_shell(
        browser: None, tmp_path: Path) -> None:
    with SpaSite() as site:
        ws = workspace(tmp_path / "archive", rules=RENDER_RULE)
        [task] = archived(ws, site.put("news", "旧标题", paragraphs("news")))
        shell = ws.archive.raw_html(task.id).read_bytes()
        site.put("news", "新标题", paragraphs("news-updated"))  # the data changes, the shell not
        progress = ws.check_updates([task.id])
    assert progress.changed == 1, ws.task(task.id).refresh_error
    assert ws.archive.raw_html(task.id).read_bytes() == shell
    article = ws.archive.read_article(task.id)
    assert article is not None and "news-updated 第1段" in article.text
    [old] = (ws.archive.raw_dir / "history" / str(task.id)).glob("*.rendered.html")
    assert "news 第1段" in old.read_text(encoding="utf-8")


# -- the setting for all domains, limits, the command line -----------------------------------


def test_the_setting_renders_every_site_but_those_whose_rule_says_fetch(
        browser: None, tmp_path: Path) -> None:
    settings = FAST.with_overrides(render="browser")
    with SpaSite() as opted_out, SpaSite("127.0.0.4", "127.0.0.5", "127.0.0.6") as other:
        ws = workspace(tmp_path / "archive", settings, "127.0.0.1:\n  render: fetch\n")
        plain, rendered = archived(ws, opted_out.put("a", "不渲染", paragraphs("a")),
                                   other.put("b", "渲染", paragraphs("b")))
    assert plain.status == "failed"  # fetched as it is: a shell without its article
    assert not ws.archive.raw_rendered(plain.id).exists()
    assert rendered.status == "localized", rendered.error
    assert ws.archive.raw_rendered(rendered.id).exists()


def test_a_render_past_the_page_deadline_fails_saying_so(browser: None, tmp_path: Path) -> None:
    with SpaSite() as site:
        # the article's data never comes in time: a render that waited for it would take
        # twice the patience (outcome_of fails the test), one cut at its deadline ends well
        # within it, however loaded
        site.api_delay = 2 * PATIENCE
        ws = workspace(tmp_path / "archive", FAST.with_overrides(page_deadline=2.0),
                       RENDER_RULE)
        url = site.put("slow", "慢", paragraphs("slow"))
        outcome = outcome_of(lambda: archived(ws, url), "the run of a render past its deadline")
    assert not isinstance(outcome, BaseException), outcome
    [task] = outcome
    assert task.status == "failed"
    assert task.error_kind == ErrorKind.NETWORK
    assert task.error == "not rendered within 2 s (its scripts kept loading)"
    assert not ws.archive.has_raw(task.id)


def test_a_stop_ends_a_render_at_once(browser: None, tmp_path: Path) -> None:
    with SpaSite() as site:
        site.api_delay = 2 * PATIENCE  # the data would come long after the stop
        ws = workspace(tmp_path / "archive", rules=RENDER_RULE)
        ws.add_links(site.put("slow", "慢", paragraphs("slow")))
        runner = ws.runner()
        when(lambda: site.asked("/api/slow.json"), runner.stop,
             "the script's request for its data")
        # a render the stop did not end would wait twice PATIENCE: outcome_of fails the test
        outcome = outcome_of(runner.run, "the stopped run")
    assert not isinstance(outcome, BaseException), outcome
    ws.refresh()
    [task] = ws.tasks()
    assert task.status == "pending"  # put back for the next run, not failed


def test_a_rendered_page_over_the_size_limit_is_refused(browser: None, tmp_path: Path) -> None:
    with SpaSite() as site:
        # the shell and the data are each well under the limit, the page built from them not
        url = site.put("big", "大", paragraphs("big", count=2), repeat=20)
        ws = workspace(tmp_path / "archive", FAST.with_overrides(max_page_bytes=8000),
                       RENDER_RULE)
        [task] = archived(ws, url)
    assert task.status == "failed"
    assert task.error_kind == ErrorKind.TOO_LARGE
    assert "rendered page larger than" in task.error


def test_the_render_command_prints_the_rendered_text(browser: None, tmp_path: Path) -> None:
    (tmp_path / "archive").mkdir()  # render reads its rules; only add/harvest/demo make one
    with SpaSite() as site:
        url = site.put("cli", "命令行里的单页应用", paragraphs("cli"))
        done = subprocess.run(
            [sys.executable, "main.py", "--archive", str(tmp_path / "archive"), "render", url],
            cwd=REPO, capture_output=True, text=True, timeout=2 * PATIENCE)
    assert done.returncode == 0, done.stderr
    assert "title:   命令行里的单页应用" in done.stdout
    assert "cli 第1段" in done.stdout and "cli 第6段" in done.stdout
    assert site.tracker.connections == 0


def test_the_render_command_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "archive").mkdir()
    done = subprocess.run(
        [sys.executable, "main.py", "--archive", str(tmp_path / "archive"),
         "--set", f"browser_path={NO_BROWSER}", "render", "http://127.0.0.1:9/a"],
        cwd=REPO, capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 1
    assert "apt install chromium" in done.stderr
