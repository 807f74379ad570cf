"""Web archives imported into an archive (issue 31): a crawl made by Debian's wget from the
demo site becomes tasks with their images, without one request to the site; an archive's
export imported elsewhere gives byte-identical articles; a bad record is refused in the
summary while the rest of the file is imported."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.intake.saved_page import Refusal
from pipeline.records.settings import Settings
from pipeline.records.task import HAS_ARTICLE, Status
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from pipeline.usecases.importing import ImportProgress
from pipeline.usecases.workspace import Workspace
from tests.small_archive import run_main
from tests.waiting import PATIENCE

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)


@pytest.fixture(scope="module")
def demo() -> Iterator[DemoSite]:
    with DemoSite() as site:
        yield site


def test_a_wget_crawl_is_imported_with_its_images_and_no_request(demo: DemoSite,
                                                                  tmp_path: Path) -> None:
    if shutil.which("wget") is None:
        pytest.fail("wget is not installed: apt-get install wget (README's test command)")
    proc = subprocess.run(["wget", "-q", "-p", "-e", "robots=off", "--warc-file=crawl",
                           "--no-warc-keep-log", "-P", str(tmp_path / "files"),
                           *demo.article_urls], cwd=tmp_path, capture_output=True, text=True,
                          timeout=PATIENCE)
    warc = tmp_path / "crawl.warc.gz"
    assert warc.exists(), proc.stderr
    before = len(demo.request_log)
    proc = run_main("--archive", tmp_path / "archive", "import", warc, "--cat1", "Crawl")
    assert proc.returncode == 0, proc.stderr
    assert len(demo.request_log) == before  # not one request: all of it from the WARC
    assert "damaged" not in proc.stdout and "imported 12" in proc.stdout, proc.stdout
    ws = Workspace.open(tmp_path / "archive")
    tasks = {t.url: t for t in ws.tasks()}
    assert set(demo.article_urls) <= set(tasks)
    bound = [t for t in tasks.values() if t.status in HAS_ARTICLE]
    assert len(bound) == len(demo.article_urls)
    images = sum(t.images_ok for t in bound)
    assert images >= len(bound) and all(t.cat1 == "Crawl" for t in bound)
    for task in bound:
        record = ws.archive.raw_meta(task.id).read_text(encoding="utf-8")
        assert '"source": "warc"' in record and str(warc) in record
    ws.close()


def test_export_then_import_gives_byte_identical_articles(demo: DemoSite,
                                                          tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "fetched")
    store = TaskStore(archive.tasks_path)
    add_links(store, demo.paste_text())
    Runner(archive, store, FAST).run()
    out = tmp_path / "fetched.wacz"
    assert run_main("--archive", archive.root, "export", "--wacz", out).returncode == 0
    before = len(demo.request_log)
    ws = Workspace.open(tmp_path / "again")
    summary = ws.import_pages([out])
    ws.close()
    assert summary.refused == [] and len(demo.request_log) == before
    original = {t.url: t for t in TaskStore(archive.tasks_path).tasks()
                if t.status in HAS_ARTICLE}
    again = Archive.open(tmp_path / "again")
    imported = {t.url: t for t in TaskStore(again.tasks_path).tasks()}
    assert original and set(original) <= set(imported)
    for url, task in original.items():
        other = imported[url]
        assert other.status in HAS_ARTICLE, (url, other.error)
        assert (again.clean_meta(other.id).read_bytes()
                == archive.clean_meta(task.id).read_bytes()), url
        assert other.images_ok == task.images_ok, url
        assert other.fetched_at == task.fetched_at


def story_page(n: int = 0) -> bytes:
    """An article page, the ``n``-th of its kind (each with its own text)."""
    story = "<p>" + f"第{n}篇：一段足够长的正文，写在网页归档里，导入后成为一篇文章。" * 12 + "</p>"
    return (f"<!DOCTYPE html><html lang='zh-CN'><head><meta charset='utf-8'><title>好文章"
            f"</title></head><body><article><h1>好文章</h1>{story}</article></body></html>"
            ).encode()


def write_crawl(path: Path, records: list[tuple[str, bytes, str, str]]) -> Path:
    """A WARC of ``response`` records (url, body, HTTP status, Content-Type)."""
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True, warc_version="1.1")
        for url, body, status, mime in records:
            http = StatusAndHeaders(status, [("Content-Type", mime)], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), length=len(body), http_headers=http))
    return path


def crawl_of_stories(path: Path, count: int) -> Path:
    return write_crawl(path, [(f"https://a.example/{n}", story_page(n), "200 OK",
                               "text/html; charset=utf-8") for n in range(count)])


def test_one_archive_of_many_pages_says_each_page_read(tmp_path: Path) -> None:
    """A multi-gigabyte WARC is one file: the progress moves with its pages, not at its end."""
    path = crawl_of_stories(tmp_path / "crawl.warc.gz", 3)
    progress: list[ImportProgress] = []
    summary = Workspace.open(tmp_path / "archive").import_pages([path],
                                                                progress=progress.append)
    assert len(summary.imported) == 3
    assert [(p.files_done, p.files, p.pages) for p in progress] == [
        (0, 1, 1), (0, 1, 2), (0, 1, 3), (1, 1, 3)]
    proc = run_main("--archive", tmp_path / "again", "import", path)
    assert proc.returncode == 0 and "1/1  files, 3 pages read" in proc.stderr, proc.stderr


def test_bad_records_are_refused_and_the_rest_imported(tmp_path: Path) -> None:
    page = story_page()
    path = write_crawl(tmp_path / "mixed.warc.gz", [
        ("https://a.example/good", page, "200 OK", "text/html; charset=utf-8"),
        ("https://a.example/gone", page, "404 Not Found", "text/html"),
        ("https://a.example/paper.pdf", b"%PDF-1.7", "200 OK", "application/pdf")])
    ws = Workspace.open(tmp_path / "archive")
    summary = ws.import_pages([path])
    assert [t.url for t in summary.imported] == ["https://a.example/good"]
    assert summary.imported[0].status in HAS_ARTICLE
    assert sorted(r.reason for r in summary.refused) == sorted([Refusal.HTTP_ERROR,
                                                                Refusal.NOT_HTML])
    again = ws.import_pages([path])  # the same crawl again: its page is a duplicate
    assert again.imported == [] and [d[1] for d in again.duplicates] == [
        summary.imported[0].id]
    assert ws.task(summary.imported[0].id).status is not Status.FAILED
    ws.close()


def test_a_rendered_page_comes_back_as_the_article_its_browser_made(tmp_path: Path) -> None:
    """A page whose scripts build the article is exported with its DOM (a conversion record);
    imported elsewhere, the article is read from that DOM, as it was archived."""
    story = "".join(f"<p>第{n}段：脚本写出的正文，浏览器渲染后才有，导出再导入也一样。</p>"
                    for n in range(8))
    shell = (b"<!DOCTYPE html><html><head><meta charset='gbk'><title>App</title></head>"
             b"<body><div id='root'></div><script src='/app.js'></script></body></html>")
    dom = (f"<html><head><title>渲染的文章</title></head><body><div id='root'><article>"
           f"<h1>渲染的文章</h1>{story}</article></div></body></html>")
    ws = Workspace.open(tmp_path / "rendered")
    with ws.store.transaction() as store:
        task = store.add("https://spa.example/story/7")
    record = {"url": task.url, "final_url": task.url, "status": 200,
              "headers": {"Content-Type": "text/html; charset=gbk"},
              "fetched_at": "2025-02-03T04:05:06+00:00", "rendered": True,
              "render": {"final_url": task.url}}
    ws.archive.store_raw(task.id, shell, json.dumps(record), dom.encode("utf-8"))
    ws.close()
    Runner(ws.archive, TaskStore(ws.archive.tasks_path), FAST).run()  # cleans the DOM
    original = ws.archive.clean_meta(task.id).read_bytes()
    assert "脚本写出的正文" in json.loads(original)["text"]
    ws = Workspace.open(tmp_path / "rendered")
    out = ws.export_warc(tmp_path / "rendered.warc.gz").path
    ws.close()
    again = Workspace.open(tmp_path / "again")
    summary = again.import_pages([out])
    assert [t.url for t in summary.imported] == [task.url], (summary.failed, summary.refused)
    assert again.archive.clean_meta(summary.imported[0].id).read_bytes() == original
    again.close()
