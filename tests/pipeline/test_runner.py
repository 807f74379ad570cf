import csv
import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest

from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.records.article import Article
from pipeline.records.events import Event, LogLine, Progress, TaskChanged
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive, ArchiveBusy
from pipeline.store.tasks import TaskStore
from pipeline.text.dedup import NEAR_DUPLICATE_BITS, hamming
from tests.sites.faults import FaultServer
from tests.sites.images import ImageServer, jpeg_bytes
from tests.waiting import PATIENCE, holds_for, settled, wait_until

REPO = Path(__file__).resolve().parents[2]
FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)


def page_url(server: FaultServer, n: int, latency: float = 0.0) -> str:
    text = quote(f"第{n}篇：一段足够长的正文，写着它自己的编号 {n}，所以每页内容都不一样。" * 3)
    return server.url(f"/ok?n={n}&latency={latency}&text={text}")


def fresh_archive(tmp_path: Path, rules: str = "") -> Archive:
    archive = Archive.open(tmp_path / "archive")
    if rules:
        archive.rules_path.write_text(rules, encoding="utf-8")
    return archive


def test_demo_site_end_to_end(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    events: list[Event] = []
    with DemoSite() as site:
        add_links(store, site.paste_text(), cat1="01_demo")
        progress = Runner(archive, store, FAST, listener=events.append).run()
        article_ids = [store.find_url(u) for u in site.article_urls]
        interstitial = store.find_url(site.interstitial_url)
        near_dup = store.find_url(site.near_duplicate_url)
    tasks = {t.id: t for t in TaskStore(archive.tasks_path).tasks()}  # what reached the disk
    for task_id in article_ids:
        assert task_id is not None
        task = tasks[task_id]
        assert task.status == "localized", (task.url, task.error)
        assert task.extracted_title and task.chars and task.content_hash
        assert archive.has_raw(task_id) and archive.has_clean(task_id)
        # every image came home, the hotlink-protected ones included (Referer = the page)
        assert task.images_total and task.images_ok == task.images_total, task.url
        clean_page = archive.clean_html(task_id).read_text(encoding="utf-8")
        assert "../02_assets/" in clean_page and "<img" in clean_page
    assert tasks[interstitial].status == "failed"
    assert "interstitial" in tasks[interstitial].error
    assert progress.total == len(tasks) and progress.finished == len(tasks)
    assert any(isinstance(e, TaskChanged) for e in events)
    assert isinstance(events[-1], Progress)
    # the GBK portal page, served with no charset at all, comes out as Chinese text
    titles = " ".join(t.extracted_title for t in tasks.values())
    assert "\ufffd" not in titles
    with open(archive.logs_dir / "failures.csv", encoding="utf-8-sig", newline="") as f:
        failures = list(csv.DictReader(f))
    assert [int(r["id"]) for r in failures] == [interstitial]
    log = (archive.logs_dir / "fetch.log").read_text(encoding="utf-8").splitlines()
    assert len(log) >= len(article_ids)
    # raw files are read-only, and a second run has nothing to do
    assert not os.access(archive.raw_html(article_ids[0]), os.W_OK) or os.geteuid() == 0
    assert oct(archive.raw_html(article_ids[0]).stat().st_mode & 0o222) == "0o0"
    again = Runner(archive, TaskStore(archive.tasks_path), FAST).run()
    assert again.fetched == 0
    # the repost with one sentence changed is a near duplicate of its original, not merged
    original, repost = tasks[article_ids[1]], tasks[near_dup]
    assert repost.status == "localized" and repost.content_hash != original.content_hash
    distance = hamming(int(repost.fingerprint, 16), int(original.fingerprint, 16))
    assert distance <= NEAR_DUPLICATE_BITS


def test_failed_page_is_retried_later(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    with FaultServer() as server:
        url = server.url("/status?code=404&fail=1")
        add_links(store, url)
        Runner(archive, store, FAST).run()
        task = store.get(1)
        assert (task.status, task.error, task.attempts) == ("failed", "HTTP 404 Not Found", 1)
        Runner(archive, store, FAST).run()  # a plain run leaves failed tasks alone
        assert server.count("/status?code=404&fail=1") == 1
        Runner(archive, store, FAST).run(retry_failed=True)
    task = store.get(1)
    assert (task.status, task.error, task.attempts) == ("localized", "", 2)


def test_same_text_twice_is_a_duplicate(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    with FaultServer() as server:
        body = quote("同一篇文章，被两个地址转载，一字不差，只是网址不同而已。" * 12)
        links = [server.url(f"/ok?a={n}&text={body}") for n in (1, 2)]
        add_links(store, "\n".join(links))
        Runner(archive, store, FAST).run()
    first, second = store.tasks()
    assert {first.status, second.status} == {"localized", "duplicate"}
    dup, original = (second, first) if second.status == "duplicate" else (first, second)
    assert dup.duplicate_of == original.id


def test_pause_holds_every_request_and_stop_ends_the_run_early(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path, "127.0.0.1:\n  delay_ms: 50\n")
    store = TaskStore(archive.tasks_path)
    with FaultServer() as server:
        add_links(store, "\n".join(page_url(server, n, latency=0.05) for n in range(60)))
        runner = Runner(archive, store, FAST)
        done = threading.Event()
        thread = threading.Thread(target=lambda: (runner.run(), done.set()))
        thread.start()
        wait_until(lambda: len(server.hits) >= 5, "the run's first 5 requests")
        runner.pause()
        # the stages in flight finish (late, on a loaded machine), then nothing moves
        statuses = lambda: tuple(t.status for t in store.tasks())  # noqa: E731
        still = settled(lambda: (len(server.hits), statuses()), 0.5)
        wait_until(lambda: still() and server.open_now == 0 and Status.RUNNING not in statuses(),
                   "the run to settle after the pause")
        paused_at = len(server.hits)
        holds_for(lambda: len(server.hits) == paused_at, 1.0, "no request while paused")
        runner.resume()
        wait_until(lambda: len(server.hits) >= paused_at + 5, "5 more requests after resuming")
        runner.stop()
        wait_until(done.is_set, "the run to end after stop")
        thread.join()
    saved = TaskStore(archive.tasks_path).tasks()
    assert {t.status for t in saved} <= {"pending", "fetched", "cleaned", "localized"}
    assert 5 < sum(t.status == "localized" for t in saved) < 60  # it stopped, and early


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_kill_9_mid_run_resumes_without_refetching(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path, "127.0.0.1:\n  delay_ms: 5\n")
    n_pages, answered = 100, 30
    with FaultServer() as server:
        # the server answers 30 requests and holds the others until after the kill: the kill
        # lands mid-run, with exactly those 30 pages stored, however fast or loaded the machine
        server.hold_after = answered
        urls = [page_url(server, n) for n in range(n_pages)]
        store = TaskStore(archive.tasks_path)
        add_links(store, "\n".join(urls))
        store.save()
        proc = subprocess.Popen(
            [sys.executable, str(REPO / "main.py"), "run", "--archive", str(archive.root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        # a whole process starting and storing 30 pages: at load 15 that alone passed 60 s
        wait_until(lambda: len(list(archive.raw_dir.glob("*.json"))) == answered
                   and server.held > 0, f"the run to store the {answered} pages answered",
                   timeout=3 * PATIENCE)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        server.release()
        stored = {int(p.stem) for p in archive.raw_dir.glob("*.json")}
        assert len(stored) == answered

        store = TaskStore(archive.tasks_path)  # must load: never torn
        progress = Runner(archive, store, FAST).run()
        tasks = store.tasks()
        assert [t.status for t in tasks] == ["localized"] * n_pages
        for task in tasks:
            path = task.url.split(f":{server.port}", 1)[1]
            if task.id in stored:
                assert server.count(path) == 1, f"#{task.id} was stored, then fetched again"
            assert server.count(path) >= 1
        assert progress.fetched == n_pages - len(stored)
    assert not list(archive.root.glob(".tasks.csv.*.tmp"))


def test_rules_change_then_clean_again_without_refetching(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pipeline.cli.main import main

    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    two_parts = quote(
        '<div class="lead">' + "导语部分，介绍这篇文章要讲的内容，并不是正文本身。" * 4 + "</div>"
        '<div class="body">' + "真正的正文在这里，规则选中它以后，导语就不再出现。" * 8 + "</div>"
    )
    with FaultServer() as server:
        add_links(store, server.url(f"/ok?text={two_parts}"))
        Runner(archive, store, FAST).run()
        before = store.get(1)
        assert "导语部分" in Article.from_json(archive.clean_meta(1).read_text("utf-8")).text
        archive.rules_path.write_text("127.0.0.1:\n  content_selector: div.body\n", "utf-8")
        assert main(["clean", "--domain", "127.0.0.1", "--archive", str(archive.root)]) == 0
        assert server.count(server.hits[0].path) == 1  # stored raw page reused, no request
    assert capsys.readouterr().out.strip() == "cleaned 1, failed 0 of 1 stored page"
    article = Article.from_json(archive.clean_meta(1).read_text("utf-8"))
    assert "导语部分" not in article.text and "真正的正文" in article.text
    after = TaskStore(archive.tasks_path).get(1)
    assert after.chars < before.chars and after.content_hash != before.content_hash
    assert main(["clean", "--id", "99", "--archive", str(archive.root)]) == 1


class _Versioned(BaseHTTPRequestHandler):
    """Serves whatever ``body`` the test sets; a page whose author edits it."""

    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _versioned_page(words: str) -> bytes:
    return (f"<html><head><title>改过的文章</title></head><body><article><h1>改过的文章</h1>"
            f"<p>{words * 10}</p></article></body></html>").encode()


def test_refetch_keeps_history_and_cleans_the_new_version(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    handler = type("Handler", (_Versioned,), {"body": _versioned_page("第一版的结论是肯定的。")})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        add_links(store, f"http://127.0.0.1:{server.server_address[1]}/post/1")
        Runner(archive, store, FAST).run()
        first_hash = store.get(1).content_hash
        unchanged = Runner(archive, store, FAST).run(refetch=True)
        assert unchanged.fetched == 1 and unchanged.cleaned == 0
        assert not (archive.raw_dir / "history").exists()
        handler.body = _versioned_page("第二版悄悄改成了否定的结论。")
        Runner(archive, store, FAST).run(refetch=True)
    finally:
        server.shutdown()
        server.server_close()
    task = store.get(1)
    assert task.status == "localized" and task.content_hash != first_hash
    assert "第二版" in Article.from_json(archive.clean_meta(1).read_text("utf-8")).text
    history = sorted((archive.raw_dir / "history" / "1").iterdir())
    assert [p.suffix for p in history] == [".html", ".json"]
    assert "第一版".encode() in history[0].read_bytes()


def test_lost_images_are_retried_alone_and_survive_a_reclean(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    store = TaskStore(archive.tasks_path)
    prose = "".join(f"<p>第{n}段：修桥的人最怕的不是木头烂，而是记不住它原来在哪儿。</p>" * 3
                    for n in range(4))
    page = (f'<html><head><meta charset="utf-8"><title>廊桥</title></head><body><article>'
            f'<h1>廊桥</h1>{prose}<img src="/a.jpg" alt="桥"><img src="/b.jpg" alt="木拱">'
            f"{prose}</article></body></html>").encode()
    with ImageServer() as server:
        url = server.put("/post.html", page, "text/html; charset=utf-8")
        server.put("/a.jpg", jpeg_bytes(seed=1), "image/jpeg")
        add_links(store, url)
        Runner(archive, store, FAST).run()
        task = store.get(1)
        assert (task.status, task.images_total, task.images_ok) == ("localized", 2, 1)
        assert "图片未能保存: 木拱" in archive.clean_html(1).read_text(encoding="utf-8")
        assert "/b.jpg" in (archive.logs_dir / "assets.csv").read_text(encoding="utf-8")

        server.put("/b.jpg", jpeg_bytes(seed=2), "image/jpeg")
        Runner(archive, store, FAST).run()  # a plain run leaves lost images alone
        assert len(server.requests_for("/b.jpg")) == 1  # the 404, not retried
        Runner(archive, store, FAST).run(retry_failed=True)
        assert len(server.requests_for("/a.jpg")) == 1  # kept, not fetched again
        assert store.get(1).images_ok == 2

        before = len(server.hits)
        Runner(archive, store, FAST).reclean([1])  # same rules, same images: the map stays
        assert len(server.hits) == before
    task = store.get(1)
    assert (task.status, task.images_ok) == ("localized", 2)
    assert archive.has_assets(1)
    assert archive.clean_html(1).read_text(encoding="utf-8").count("../02_assets/") == 2


def test_one_run_at_a_time_per_archive(tmp_path: Path) -> None:
    archive = fresh_archive(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path;"
         "from pipeline.store.archive import Archive;"
         f"lock = Archive(Path({str(archive.root)!r})).run_lock(); lock.__enter__();"
         "print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(ArchiveBusy, match="another run is working on"):
            Runner(archive, TaskStore(archive.tasks_path), FAST).run()
    finally:
        holder.kill()  # kill -9: the kernel releases the lock with the process
        holder.communicate()
    assert Runner(archive, TaskStore(archive.tasks_path), FAST).run().total == 0


def test_a_retry_waits_in_the_queue_not_in_a_worker(tmp_path: Path) -> None:
    """One worker: a page that answers 503 once is put back for 1.5 s, and the worker fetches
    the other host's pages meanwhile instead of sleeping on the retry (all of them within the
    1.5 s on an idle machine; at least the next one, however loaded)."""
    archive = fresh_archive(tmp_path)
    settings = FAST.with_overrides(global_connections=1, retries=1, retry_waits=(1.5,),
                                   host_delay_ms=0)
    with FaultServer() as flaky, FaultServer("127.0.0.2") as quick:
        store = TaskStore(archive.tasks_path)
        add_links(store, "\n".join([flaky.url("/status?code=503&fail=1"),
                                    *(page_url(quick, n) for n in range(5))]))
        Runner(archive, store, settings).run()
        first, second = flaky.starts("/status")
        quick_starts = quick.starts("/ok")
    assert second - first >= 1.4
    assert len(quick_starts) == 5 and min(quick_starts) < second  # taken while #1 waited
    assert all(t.status == "localized" for t in store.tasks()), store.tasks()


def test_images_on_a_dead_host_cost_a_few_requests_not_one_each(tmp_path: Path) -> None:
    """An article with 12 images on a host that refuses connections: the breaker opens after
    host_failures_to_trip failures, the rest fail at once, the article is still localized."""
    archive = fresh_archive(tmp_path)
    with FaultServer("127.0.0.3") as gone:
        dead = gone.url("/")  # nothing listens there once the block ends
    images = "".join(f'<img src="{dead}img{n}.jpg" alt="{n}">' for n in range(12))
    with FaultServer() as server:
        store = TaskStore(archive.tasks_path)
        add_links(store, server.url("/ok?text=" + quote("正文，一段足够长的文字。" * 20 + images)))
        events: list[Event] = []
        Runner(archive, store, FAST, listener=events.append).run()
    task = store.tasks()[0]
    assert (task.status, task.images_total, task.images_ok) == ("localized", 12, 0)
    log = (archive.logs_dir / "fetch.log").read_text(encoding="utf-8").splitlines()
    dead_host = dead.split("//")[1].split(":")[0]
    tries = [line for line in log if f"//{dead_host}:" in line]
    assert len(tries) <= FAST.host_failures_to_trip * (FAST.retries + 1)
    trips = [line for line in log if "host unreachable" in line]
    assert len(trips) == 1 and dead_host in trips[0]  # the rest failed at once, untried
    assert any(isinstance(e, LogLine) and "host unreachable" in e.text for e in events)


def test_new_rules_that_fail_keep_the_article_a_task_had(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """A re-clean never loses a good article: rules that find none leave the old one, its
    status and its place in the book; the error says the new rules failed."""
    from pipeline.book import build_books
    from pipeline.cli.main import main

    archive = fresh_archive(tmp_path)
    with FaultServer() as server:
        store = TaskStore(archive.tasks_path)
        add_links(store, "\n".join(page_url(server, n) for n in range(3)))
        Runner(archive, store, FAST).run()
    before = {t.id: (t.status, t.chars) for t in TaskStore(archive.tasks_path).tasks()}
    assert {status for status, _ in before.values()} == {"localized"}
    archive.rules_path.write_text("127.0.0.1:\n  min_chars: 100000\n", encoding="utf-8")
    assert main(["clean", "--domain", "127.0.0.1", "--archive", str(archive.root)]) == 0
    assert "kept 3 (the new rules found no article), failed 0 of 3" in capsys.readouterr().out
    after = TaskStore(archive.tasks_path).tasks()
    assert {t.id: (t.status, t.chars) for t in after} == before
    assert all(t.error.startswith("new rules failed: ") for t in after)
    assert build_books(archive, after, FAST).articles == 3  # the old articles still bind
