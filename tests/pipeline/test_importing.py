"""Importing saved pages (issue 31): files made the way browsers and SingleFile make them from
a local site import to the article and images a fetch of the same page gives, with not one
request to the site; bad inputs are each refused with their reason, and the rest goes on.

The MHTML is made by the project's Chromium (Playwright's CDP ``Page.captureSnapshot``, what
Chrome's "Webpage, single file" writes); the tests that need it fail saying what is missing
unless KUAIBU_NO_BROWSER=1 is set (then they are skipped with that reason).
"""

from __future__ import annotations

import base64
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.intake.confined import Folder
from pipeline.intake.saved_html import beside_page
from pipeline.intake.saved_page import Refusal
from pipeline.net.render import LAUNCH_ARGS, find_browser
from pipeline.records.failures import Code
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.archive import ArchiveBusy
from pipeline.store.asset_map import AssetMap
from pipeline.usecases.importing import ImportProgress, ImportSummary
from pipeline.usecases.workspace import Workspace
from tests.browser_needed import needs_browser
from tests.sites.images import ImageServer, jpeg_bytes, png_alpha_bytes
from tests.small_archive import REPO, run_main
from tests.waiting import wait_until

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0, host_delay_ms=0)
PARAGRAPHS = [f"第{n}段：保存下来的网页，换一台电脑图片就断了；导入之后，文章和图片都在归档里，"
              f"和抓取的一样。This is paragraph {n} of the saved story, long enough to count."
              for n in range(1, 9)]
PAGE = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">
<title>保存的文章</title><link rel="canonical" href="{canonical}"></head>
<body><header><nav><a href="/">首页</a> <a href="/news/">新闻</a></nav></header>
<article><h1>保存的文章</h1>
<p>{p0}</p><figure><img src="{img_a}" alt="第一张图" width="320" height="200"></figure>
<p>{p1}</p><p>{p2}</p><p>{p3}</p><figure><img src="{img_b}" alt="第二张图"></figure>
<p>{p4}</p><p>{p5}</p><p>{p6}</p><p>{p7}</p></article>
<footer><p>关于我们 · 联系方式</p></footer></body></html>"""
IMAGE_A, IMAGE_B = jpeg_bytes((320, 200), seed=3), png_alpha_bytes((200, 120))


def page_html(canonical: str, img_a: str, img_b: str) -> str:
    return PAGE.format(canonical=canonical, img_a=img_a, img_b=img_b,
                       **{f"p{n}": p for n, p in enumerate(PARAGRAPHS)})


@pytest.fixture
def site() -> Iterator[ImageServer]:
    """The story at /news/story.html with its two images, as a site serves it."""
    with ImageServer() as server:
        url = server.url("/news/story.html")
        server.put("/news/story.html", page_html(url, "/img/a.jpg", "/img/b.png").encode(),
                   "text/html; charset=utf-8")
        server.put("/img/a.jpg", IMAGE_A, "image/jpeg")
        server.put("/img/b.png", IMAGE_B, "image/png")
        yield server


@dataclass(frozen=True)
class Outcome:
    """What an archive holds of its one article: title, text and its stored images."""

    title: str
    text: str
    images: tuple[str, ...]  # the 02_assets paths, in the article's order


def outcome(ws: Workspace, task_id: int) -> Outcome:
    article = ws.archive.read_article(task_id)
    assets = ws.archive.read_assets(task_id)
    assert article is not None and assets is not None
    paths = tuple(str(assets.entries[url].path) for url in article.images)
    assert all((ws.archive.root / p).is_file() for p in paths)
    return Outcome(article.title, article.text, paths)


def fetched(site: ImageServer, root: Path) -> Outcome:
    """The story as a run fetches it."""
    ws = Workspace.open(root, FAST)
    ws.add_links(site.url("/news/story.html"))
    ws.run()
    ws.refresh()
    [task] = ws.tasks()
    assert task.status == Status.LOCALIZED and task.images_ok == 2
    return outcome(ws, task.id)


def imported(paths: list[Path], root: Path, **options: object) -> tuple[Workspace,
                                                                         ImportSummary]:
    ws = Workspace.open(root, FAST)
    return ws, ws.import_pages(paths, **options)  # type: ignore[arg-type]


# -- how saved pages are written ------------------------------------------------------------

def save_complete(site: ImageServer, folder: Path) -> Path:
    """"Web page, complete" as Chrome writes it: the page with its images in story_files/,
    every reference rewritten to that folder, and the saved-from mark on the first line."""
    url = site.url("/news/story.html")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "story_files").mkdir()
    (folder / "story_files" / "a.jpg").write_bytes(IMAGE_A)
    (folder / "story_files" / "b.png").write_bytes(IMAGE_B)
    html = page_html(url, "./story_files/a.jpg", "./story_files/b.png")
    mark = f"<!-- saved from url=({len(url):04d}){url} -->\n"
    path = folder / "story.html"
    path.write_text(html.replace("<html", mark + "<html", 1), encoding="utf-8")
    return path


def save_singlefile(site: ImageServer, folder: Path) -> Path:
    """A page as SingleFile saves it: every image a data: URI, the address in its header."""
    url = site.url("/news/story.html")
    folder.mkdir(parents=True, exist_ok=True)
    html = page_html(url, "data:image/jpeg;base64," + base64.b64encode(IMAGE_A).decode(),
                     "data:image/png;base64," + base64.b64encode(IMAGE_B).decode())
    header = (f"<!--\n Page saved with SingleFile \n url: {url} \n"
              " saved date: Thu Dec 03 2026 13:27:00 GMT+0800 (China Standard Time)\n-->")
    path = folder / "story (12_3_2026 1_27_00 PM).html"
    path.write_text(html.replace("<head>", header + "<head>", 1), encoding="utf-8")
    return path


def save_mhtml(site: ImageServer, folder: Path) -> Path:
    """The page as the project's Chromium snapshots it (``Page.captureSnapshot``)."""
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser(Settings()),
                                    args=list(LAUNCH_ARGS))
        try:
            page = browser.new_page()
            page.goto(site.url("/news/story.html"), wait_until="load")
            snapshot = page.context.new_cdp_session(page).send("Page.captureSnapshot",
                                                               {"format": "mhtml"})
        finally:
            browser.close()
    path = folder / "story.mhtml"
    path.write_bytes(snapshot["data"].encode("utf-8"))
    return path


@pytest.fixture(scope="module")
def browser() -> None:
    needs_browser()


# -- each saved page imports as a fetch of it ------------------------------------------------

def assert_imports_as_fetched(site: ImageServer, saved: Path, tmp_path: Path,
                              source: str) -> Workspace:
    expected = fetched(site, tmp_path / "fetched")
    before = len(site.hits)
    ws, summary = imported([saved], tmp_path / "imported")
    assert len(site.hits) == before, "an import asked the site for something"
    assert (summary.refused, summary.duplicates, summary.failed) == ([], [], [])
    [task] = summary.imported
    assert task.url == site.url("/news/story.html")
    assert task.status == Status.LOCALIZED and task.images_ok == task.images_total == 2
    assert outcome(ws, task.id) == expected
    record = ws.archive.raw_meta(task.id).read_text(encoding="utf-8")
    assert f'"source": "{source}"' in record and str(saved) in record
    assert ws.archive.raw_html(task.id).read_bytes() == saved.read_bytes() or source == "mhtml"
    return ws


def test_a_complete_page_imports_as_fetched(site: ImageServer, tmp_path: Path) -> None:
    saved = save_complete(site, tmp_path / "saved")
    assert_imports_as_fetched(site, saved, tmp_path, "complete")


def test_a_singlefile_page_imports_as_fetched(site: ImageServer, tmp_path: Path) -> None:
    saved = save_singlefile(site, tmp_path / "saved")
    ws = assert_imports_as_fetched(site, saved, tmp_path, "singlefile")
    [task] = ws.tasks()
    assert task.fetched_at == "2026-12-03T05:27:00+00:00"  # the saved date, not the import's


def test_an_mhtml_snapshot_imports_as_fetched(browser: None, site: ImageServer,
                                              tmp_path: Path) -> None:
    saved = save_mhtml(site, tmp_path / "saved")
    assert b"quoted-printable" in saved.read_bytes() and b"base64" in saved.read_bytes()
    assert_imports_as_fetched(site, saved, tmp_path, "mhtml")


def test_a_folder_of_saves_imports_each_once_and_duplicates_are_found(
        browser: None, site: ImageServer, tmp_path: Path) -> None:
    """A folder walked recursively: the complete page's resources folder is its page's, not
    pages of its own; the same page saved three ways is one task and two duplicates, and a
    page saved again later is a duplicate of the task the first import made."""
    folder = tmp_path / "saved"
    save_complete(site, folder / "2024")
    save_singlefile(site, folder / "2025" / "deep")
    save_mhtml(site, folder / "2026")
    before = len(site.hits)
    progress: list[ImportProgress] = []
    ws, summary = imported([folder], tmp_path / "archive", cat1="收藏", cat2="旧网页",
                           progress=progress.append)
    assert len(site.hits) == before
    assert [(p.files_done, p.files, p.pages) for p in progress] == [
        (0, 3, 1), (1, 3, 1), (1, 3, 2), (2, 3, 2), (2, 3, 3), (3, 3, 3)]
    [task] = summary.imported
    assert (task.cat1, task.cat2) == ("收藏", "旧网页")
    assert sorted(summary.duplicates) == sorted((str(p), task.id) for p in (
        folder / "2025" / "deep" / "story (12_3_2026 1_27_00 PM).html",
        folder / "2026" / "story.mhtml"))
    again = ws.import_pages([folder / "2024"])
    assert again.imported == [] and again.duplicates == [(str(folder / "2024" / "story.html"),
                                                          task.id)]


def test_the_import_command_says_what_it_made_and_refused(site: ImageServer,
                                                          tmp_path: Path) -> None:
    saved = save_complete(site, tmp_path / "saved")
    (tmp_path / "saved" / "notes.txt").write_text("not a page", encoding="utf-8")
    before = len(site.hits)
    proc = run_main("--archive", tmp_path / "archive", "import", tmp_path / "saved",
                    "--cat1", "收藏", "--cat2", "旧网页")
    assert proc.returncode == 0, proc.stderr
    assert len(site.hits) == before
    assert proc.stdout.splitlines() == [
        f"  imported #1, images 2/2: {site.url('/news/story.html')}",
        f"  refused: {tmp_path / 'saved' / 'notes.txt'} — not a saved page or web archive"
        " Kuaibu reads (.txt)",
        "imported 1, failed 0, duplicates 0, refused 1"]
    assert "2/2" in proc.stderr  # the progress: files read of those found
    proc = run_main("--archive", tmp_path / "archive", "import", saved)
    assert proc.stdout.splitlines()[-2:] == [f"  duplicate of #1: {saved}",
                                             "imported 0, failed 0, duplicates 1, refused 0"]
    [task] = Workspace.open(tmp_path / "archive").tasks()
    assert (task.cat1, task.cat2, task.status) == ("收藏", "旧网页", Status.LOCALIZED)


def test_a_page_in_the_trash_comes_back_imported_not_as_a_duplicate(
        site: ImageServer, tmp_path: Path) -> None:
    saved = save_complete(site, tmp_path / "saved")
    ws, summary = imported([saved], tmp_path / "archive")
    [task] = summary.imported
    ws.remove([task.id])
    ws.save()
    before = len(site.hits)
    again = ws.import_pages([saved])
    assert again.duplicates == [] and [t.id for t in again.imported] == [task.id]
    assert again.restored == {task.id} and len(site.hits) == before
    assert [t.id for t in ws.tasks()] == [task.id]  # back on the list, its files as they were
    assert again.imported[0].images_ok == 2
    ws.remove([task.id])
    ws.save()
    proc = run_main("--archive", ws.archive.root, "import", saved)
    assert f"imported #{task.id} (restored from the trash), images 2/2" in proc.stdout, proc
    assert "duplicates 0" in proc.stdout


def test_images_a_save_lacks_are_missing_unless_fetching_them_is_allowed(
        site: ImageServer, tmp_path: Path) -> None:
    saved = save_complete(site, tmp_path / "saved")
    (saved.parent / "story_files" / "b.png").unlink()
    before = len(site.hits)
    ws, summary = imported([saved], tmp_path / "without")
    assert len(site.hits) == before
    [task] = summary.imported
    assert (task.images_ok, task.images_total) == (1, 2)
    assets = ws.archive.read_assets(task.id)
    assert assets is not None
    [missing] = [e for e in assets.entries.values() if e.error]
    assert missing.code == Code.NOT_IN_SAVED_PAGE
    # allowed, the image is asked of the site under the page's URL, through the address
    # policy like any image (a local page's images are local: allowed)
    site.put("/news/story_files/b.png", IMAGE_B, "image/png")
    ws, summary = imported([saved], tmp_path / "with", fetch_missing=True)
    [task] = summary.imported
    assert (task.images_ok, task.images_total) == (2, 2)
    assert [h.path for h in site.hits[before:]] == ["/news/story_files/b.png"]


def test_a_page_is_its_links_canonical_task_and_still_finds_its_files(tmp_path: Path) -> None:
    """The saved-from address is a link like any pasted one (tracking parameters dropped, a
    Chinese host in Punycode); the page's files are found under it all the same."""
    url = "https://新闻.例子.中国/2024/文章.html?utm_source=wechat&id=7"
    folder = tmp_path / "saved"
    (folder / "文章_files").mkdir(parents=True)
    (folder / "文章_files" / "图 一.jpg").write_bytes(IMAGE_A)
    html = page_html(url, "./文章_files/图%20一.jpg", "./文章_files/图 二.png")
    (folder / "文章.html").write_text(f"<!-- saved from url=({len(url):04d}){url} -->\n{html}",
                                     encoding="utf-8")
    ws, summary = imported([folder], tmp_path / "archive")
    [task] = summary.imported
    assert task.url == "https://xn--efvy88h.xn--fsqu00a.xn--fiqs8s/2024/%E6%96%87%E7%AB%A0.html?id=7"
    assert (task.images_ok, task.images_total) == (1, 2)


def test_a_page_that_kept_its_base_href_still_finds_its_files(site: ImageServer,
                                                              tmp_path: Path) -> None:
    """A save that kept ``<base href>`` to the site's root: its ``story_files/a.jpg`` reads
    as the site's ``/story_files/a.jpg``, and is found beside the page all the same — while
    a reference climbing out through the base is still never read."""
    saved = save_complete(site, tmp_path / "saved")
    html = saved.read_text(encoding="utf-8").replace("./story_files/", "story_files/")
    saved.write_text(html.replace("<head>", f'<head><base href="{site.url("/")}">', 1),
                     encoding="utf-8")
    (tmp_path / "secret.png").write_bytes(IMAGE_B)
    before = len(site.hits)
    ws, summary = imported([saved], tmp_path / "archive")
    [task] = summary.imported
    assert (task.images_ok, task.images_total) == (2, 2)
    assert len(site.hits) == before
    [entry] = [e for e in (ws.archive.read_assets(task.id) or AssetMap()).entries.values()
               if e.url.endswith("/b.png")]
    assert entry.url == site.url("/story_files/b.png")
    resource = beside_page(site.url("/news/story.html"), saved, Folder(saved.parent),
                           1 << 20, site.url("/"))
    assert resource(site.url("/%2e%2e/secret.png")) is None
    assert resource(site.url("/story_files/a.jpg")) == IMAGE_A


def test_a_page_without_its_address_is_named_by_its_file(tmp_path: Path) -> None:
    page = tmp_path / "saved" / "无名.html"
    page.parent.mkdir()
    page.write_text(page_html("", "pic_files/a.jpg", "pic_files/b.png")
                    .replace('<link rel="canonical" href="">', ""), encoding="utf-8")
    (tmp_path / "saved" / "pic_files").mkdir()
    (tmp_path / "saved" / "pic_files" / "a.jpg").write_bytes(IMAGE_A)
    ws, summary = imported([page], tmp_path / "archive")
    [task] = summary.imported
    assert task.url == page.resolve().as_uri() and task.images_ok == 1
    assert '"url_known": false' in ws.archive.raw_meta(task.id).read_text(encoding="utf-8")


# -- bad inputs: each refused with its reason, the rest imported ----------------------------

def test_bad_inputs_are_each_refused_with_their_reason(site: ImageServer,
                                                       tmp_path: Path) -> None:
    folder = tmp_path / "given"
    good = save_complete(site, folder / "good")
    (folder / "broken.mhtml").write_bytes(
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\";"
        b" boundary=\"----Boundary--A\"\r\n\r\n------Boundary--B\r\nContent-Type: text/html"
        b"\r\n\r\n<html><body><p>lost</p></body></html>\r\n------Boundary--B--\r\n")
    (folder / "climbing.html").write_text(
        page_html("", "../../etc/passwd", "climbing_files/b.png"), encoding="utf-8")
    (folder / "notes.txt").write_text("not a page", encoding="utf-8")
    (folder / "huge.html").write_bytes(b"<html>" + b"x" * (2 * 1024 * 1024))
    (folder / "huge.mht").write_bytes(b"MIME-Version: 1.0\r\n" + b"x" * (90 * 1024 * 1024))
    (folder / "pictures.mht").write_bytes(
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n--B\r\n"
        b"Content-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(IMAGE_A) + b"\r\n--B--\r\n")
    os.symlink("/etc", folder / "linked")
    os.symlink(good, folder / "linked.html")
    before = len(site.hits)
    small = FAST.with_overrides(max_page_bytes=1024 * 1024)
    ws = Workspace.open(tmp_path / "archive", small)
    summary = ws.import_pages([folder, tmp_path / "nowhere.html"])
    assert len(site.hits) == before
    reasons = {Path(r.origin).name: r.reason for r in summary.refused}
    assert reasons == {
        "broken.mhtml": Refusal.BROKEN_MHTML,
        "climbing.html": Refusal.CLIMBS_OUT,
        "notes.txt": Refusal.UNKNOWN_FORMAT,
        "huge.html": Refusal.TOO_LARGE,
        "huge.mht": Refusal.TOO_LARGE,
        "pictures.mht": Refusal.NO_HTML,
        "linked": Refusal.SYMLINK,
        "linked.html": Refusal.SYMLINK,
        "nowhere.html": Refusal.UNREADABLE,
    }
    details = {Path(r.origin).name: r.detail for r in summary.refused}
    assert details["climbing.html"] == "../../etc/passwd"
    assert details["broken.mhtml"] == "StartBoundaryNotFound"
    [task] = summary.imported
    assert task.url == site.url("/news/story.html") and task.images_ok == 2


def test_a_resource_reached_through_a_link_is_never_read(tmp_path: Path) -> None:
    """A ``_files`` folder that is a symbolic link (to anywhere): the page is refused, its
    images never read; nothing is read outside what was given."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.jpg").write_bytes(IMAGE_A)
    given = tmp_path / "given"
    given.mkdir()
    page = given / "pic.html"
    page.write_text(page_html("https://example.org/pic.html", "pic_files/a.jpg", "b.png"),
                    encoding="utf-8")
    os.symlink(outside, given / "pic_files")
    ws, summary = imported([page], tmp_path / "archive")
    assert [(r.reason, r.detail) for r in summary.refused] == [(Refusal.SYMLINK,
                                                                "pic_files/a.jpg")]
    assert summary.imported == [] and ws.tasks() == []


# -- an import killed or stopped partway ------------------------------------------------------

# The import command in a child process whose first image is held: it signals, then waits to
# be killed, with its tasks added, their pages stored and none of their images read.
HELD_IMPORT = """
import sys, threading
from pathlib import Path
import pipeline.run.localize as localize
def held(data, settings):
    Path(sys.argv[1]).touch()
    threading.Event().wait()  # held until the test kills the process
localize.process_image = held
from pipeline.cli.main import main
sys.exit(main(["import", *sys.argv[2:]]))
"""


def save_stories(site: ImageServer, folder: Path, count: int) -> None:
    """``count`` different stories saved complete, each in its own folder."""
    for n in range(count):
        url = site.url(f"/news/story{n}.html")
        (folder / str(n) / "story_files").mkdir(parents=True)
        (folder / str(n) / "story_files" / "a.jpg").write_bytes(IMAGE_A)
        (folder / str(n) / "story_files" / "b.png").write_bytes(IMAGE_B)
        html = page_html(url, "./story_files/a.jpg", "./story_files/b.png")
        html = html.replace("This is paragraph", f"Story {n}, paragraph")
        (folder / str(n) / "story.html").write_text(
            f"<!-- saved from url=({len(url):04d}){url} -->\n{html}", encoding="utf-8")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is POSIX")
def test_an_import_killed_partway_is_finished_by_importing_again_never_from_the_web(
        site: ImageServer, tmp_path: Path) -> None:
    """Killed with its tasks added but their images not read: a plain run takes them no
    further than the save allows (nothing asked of the site), and importing the same files
    again finishes them with the saved images rather than calling them duplicates."""
    folder, root, held = tmp_path / "saved", tmp_path / "archive", tmp_path / "held"
    save_stories(site, folder, 3)
    before = len(site.hits)
    child = subprocess.Popen(
        [sys.executable, "-c", HELD_IMPORT, str(held), str(folder), "--archive", str(root)],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(held.exists, "the import to reach its first image")
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    ws = Workspace.open(root, FAST)
    assert len(ws.tasks()) == 3
    ws.run()
    ws.refresh()
    assert len(site.hits) == before, "a plain run fetched an imported page's images"
    assert {(t.status, t.images_ok) for t in ws.tasks()} == {(Status.LOCALIZED, 0)}
    again = ws.import_pages([folder])
    assert again.duplicates == [] and len(again.imported) == 3
    assert {(t.images_ok, t.images_total) for t in again.imported} == {(2, 2)}
    assert len(site.hits) == before
    assert ws.import_pages([folder]).duplicates != []  # finished now: duplicates


def test_retrying_an_imported_pages_lost_images_asks_the_web_only_if_its_import_could(
        site: ImageServer, tmp_path: Path) -> None:
    """``run --retry-failed`` takes up lost images: an imported page's are asked of the site
    only when its import had ``--fetch-missing``."""
    saved = save_complete(site, tmp_path / "saved")
    (saved.parent / "story_files" / "b.png").unlink()
    before = len(site.hits)
    ws, summary = imported([saved], tmp_path / "without")
    ws.run(retry_failed=True)
    assert len(site.hits) == before and ws.task(summary.imported[0].id).images_ok == 1
    ws, summary = imported([saved], tmp_path / "with", fetch_missing=True)
    [task] = summary.imported
    assert task.images_ok == 1  # the site has no such image yet
    site.put("/news/story_files/b.png", IMAGE_B, "image/png")
    ws.run(retry_failed=True)
    assert ws.task(task.id).images_ok == 2


def test_an_import_waits_for_no_run_and_adds_nothing_while_one_works(
        site: ImageServer, tmp_path: Path) -> None:
    saved = save_complete(site, tmp_path / "saved")
    ws = Workspace.open(tmp_path / "archive", FAST)
    with ws.archive.run_lock(), pytest.raises(ArchiveBusy):
        ws.import_pages([saved])
    assert ws.tasks() == []


def test_the_mhtml_parts_decode_quoted_printable_and_base64(tmp_path: Path) -> None:
    """An MHTML file as IE and the clipping tools wrote it: the page quoted-printable in
    GB18030 with its charset in the part's header, an image in base64 by its address."""
    text = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    body = (f"<html><head><title>旧文章</title></head><body><article><h1>旧文章</h1>{text}"
            f'<img src="http://old.example.cn/pic/a.jpg"></article></body></html>')
    import quopri

    qp = quopri.encodestring(body.encode("gb18030")).decode("ascii")
    image = base64.encodebytes(IMAGE_A).decode("ascii")
    mht = ("From: <Saved by Windows Internet Explorer 8>\r\nSubject: old\r\n"
           "Date: Tue, 3 Mar 2009 10:00:00 +0800\r\nMIME-Version: 1.0\r\n"
           'Content-Type: multipart/related; type="text/html"; boundary="----=_NextPart_01"\r\n'
           "\r\nThis is a multi-part message in MIME format.\r\n\r\n------=_NextPart_01\r\n"
           'Content-Type: text/html; charset="gb18030"\r\nContent-Transfer-Encoding:'
           " quoted-printable\r\nContent-Location: http://old.example.cn/a/1.html\r\n\r\n"
           f"{qp}\r\n------=_NextPart_01\r\nContent-Type: image/jpeg\r\n"
           "Content-Transfer-Encoding: base64\r\nContent-Location:"
           f" http://old.example.cn/pic/a.jpg\r\n\r\n{image}\r\n------=_NextPart_01--\r\n")
    path = tmp_path / "old.mht"
    path.write_bytes(mht.encode("ascii"))
    ws, summary = imported([path], tmp_path / "archive")
    [task] = summary.imported
    assert task.url == "http://old.example.cn/a/1.html" and task.images_ok == 1
    assert task.fetched_at == "2009-03-03T10:00:00+08:00"
    article = ws.archive.read_article(task.id)
    assert article is not None and article.title == "旧文章" and PARAGRAPHS[3] in article.text
    assert re.search(r"[^\x00-\x7f]", ws.archive.raw_html(task.id).read_bytes().decode(
        "gb18030"))
