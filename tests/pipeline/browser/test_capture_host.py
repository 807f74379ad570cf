"""The native messaging host as the browser runs it: a process started with the caller's
origin, one framed message on stdin, one framed answer on stdout. Whatever is refused is
refused with its reason and leaves the archive as it was, byte for byte."""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from pipeline.browser.framing import MAX_MESSAGE_BYTES
from pipeline.browser.identity import CHROMIUM_ORIGIN, FIREFOX_EXTENSION_ID
from pipeline.records.task import Status
from pipeline.usecases.workspace import Workspace
from tests.sites.images import ImageServer, jpeg_bytes
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[3]
PARAGRAPHS = [f"Paragraph {n} of a page the person read in their browser, long enough to be"
              " prose that the extractor keeps as the article's own words." for n in range(8)]


def page_html(image: str = "", words: list[str] = PARAGRAPHS) -> str:
    picture = f'<img src="{image}" alt="a picture">' if image else ""
    body = "".join(f"<p>{p}</p>" for p in words)
    return (f"<html><head><title>Read in the browser</title></head><body><nav>Home</nav>"
            f"<article><h1>Read in the browser</h1>{body}{picture}</article></body></html>")


def page(url: str, **fields: str) -> dict[str, str]:
    """A page message for ``url``, its words its own (pages of one text are duplicates)."""
    message = {"kind": "page", "url": url, "title": "Read in the browser",
               "html": page_html(words=[f"{p} ({url})" for p in PARAGRAPHS]),
               "selection": "", "browser": "Chromium 156", "category": "Reading"}
    message.update(fields)
    return message


def framed(message: object) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return struct.pack("=I", len(body)) + body


def host(archive: Path, data: bytes, *caller: str, run_wait: float = PATIENCE
         ) -> tuple[int, dict[str, Any]]:
    """Run the host as a browser does; its exit status and its answer. ``run_wait``: how
    long a saved page waits for another run to let go of the archive."""
    done = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "--archive", str(archive),
         "--set", f"capture_run_wait_seconds={run_wait:g}", "capture-host",
         *(caller or (CHROMIUM_ORIGIN,))],
        input=data, capture_output=True, timeout=120, cwd=REPO)
    (length,) = struct.unpack("=I", done.stdout[:4])
    assert len(done.stdout) == 4 + length, done.stdout  # nothing else on the browser's pipe
    return done.returncode, json.loads(done.stdout[4:])


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def images() -> Iterator[ImageServer]:
    with ImageServer() as server:
        server.put("/pic.jpg", jpeg_bytes((300, 200), seed=1), "image/jpeg")
        yield server


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """An archive holding one task already, so that "unchanged" means something."""
    root = tmp_path / "archive"
    ws = Workspace.open(root)
    ws.add_links("https://example.com/already-here", "Old")
    ws.close()
    return root


LONG = "x" * (MAX_MESSAGE_BYTES + 1)


@pytest.mark.parametrize(("data", "caller", "reason"), [
    (b"\x05\x00\x00\x00{oops", (), "not JSON"),
    (framed([1, 2]), (), "a JSON object, not list"),
    (framed({"kind": "steal"}), (), "unknown kind 'steal'"),
    (framed({"kind": "link", "url": "https://example.org/"}), (), "needs 'found_on' as text"),
    (framed({**page("https://example.org/a"), "html": 42}), (), "'html' as text, not int"),
    (framed({**page("https://example.org/a"), "cookies": "sid=1"}), (), "no field 'cookies'"),
    (framed(page("https://example.org/a", html=LONG)), (),
     f"at most {MAX_MESSAGE_BYTES:,} are taken"),
    (framed(page("https://example.org/a")), ("chrome-extension://abcdefghijklmnopabcdefghijklmnop/",),
     "not Kuaibu's extension"),
    (framed(page("https://example.org/a")), ("/path/app.kuaibu.capture.json", "evil@example.com"),
     "the extension evil@example.com, not Kuaibu's"),
    (framed(page("https://example.org/a")), ("",), "not Kuaibu's extension"),
    (framed(page("/relative/page.html")), (), "'url': not a link"),
    (framed(page("javascript:alert(1)")), (), "not javascript:"),
    (framed({"kind": "link", "url": "javascript:alert(1)", "found_on": "https://example.org/",
             "category": ""}), (), "not javascript:"),
    (framed({"kind": "link", "url": "page2.html", "found_on": "https://example.org/",
             "category": ""}), (), "'url': not a link"),
], ids=["not-json", "not-object", "unknown-kind", "missing-field", "wrong-type",
        "extra-field", "over-size", "other-chromium-extension", "other-firefox-extension",
        "no-caller", "relative-url", "javascript-url", "javascript-link", "relative-link"])
def test_refused_with_its_reason_and_the_archive_unchanged(
        archive: Path, data: bytes, caller: tuple[str, ...], reason: str) -> None:
    before = snapshot(archive)
    status, answer = host(archive, data, *caller)
    assert status == 1
    assert answer["ok"] is False and answer["refused"] is True
    assert reason in answer["error"], answer["error"]
    assert snapshot(archive) == before


def test_a_page_is_archived_as_the_browser_sent_it(archive: Path,
                                                   images: ImageServer) -> None:
    url = images.url("/story.html")  # 127.0.0.1: a local page, whose images may be local
    html = page_html(image="/pic.jpg")
    status, answer = host(archive, framed(page(url, html=html)))
    assert status == 0 and answer["ok"], answer
    assert (answer["added"], answer["status"], answer["waiting"]) == (True, "localized", False)
    task_id = answer["task"]
    raw = archive / "00_raw"
    assert (raw / f"{task_id}.rendered.html").read_text(encoding="utf-8") == html
    record = json.loads((raw / f"{task_id}.json").read_text(encoding="utf-8"))
    assert record["rendered"] is True and record["url"] == url
    assert record["capture"]["by"] == "browser"
    assert record["capture"]["browser"] == "Chromium 156" and record["capture"]["at"]
    ws = Workspace.open(archive)
    try:
        task = ws.task(task_id)
        assert (task.cat1, task.status) == ("Reading", Status.LOCALIZED)
        # never checked for updates: the site would show Kuaibu another page than the
        # person saw (no login, no clicks)
        assert ws.refresh_ids() == [] and ws.refresh_ids([task_id]) == []
        article = ws.article(task_id)
        assert article is not None and all(p in article.text for p in PARAGRAPHS)
        assets = ws.archive.read_assets(task_id)
        assert assets is not None and assets.ok == 1
        assert images.requests_for("/pic.jpg")  # fetched by Kuaibu, as any image
    finally:
        ws.close()


def test_a_link_is_added_as_a_task_remembering_its_page(archive: Path) -> None:
    status, answer = host(archive, framed({
        "kind": "link", "url": "https://example.org/next?utm_source=x",
        "found_on": "https://example.org/list", "category": "Later"}),
        "/home/me/.mozilla/native-messaging-hosts/app.kuaibu.capture.json",
        FIREFOX_EXTENSION_ID)
    assert status == 0 and answer["ok"] and answer["added"], answer
    ws = Workspace.open(archive)
    try:
        task = ws.task(answer["task"])
        assert (task.url, task.cat1, task.found_on, task.status) == (
            "https://example.org/next", "Later", "https://example.org/list", Status.PENDING)
    finally:
        ws.close()
    _, again = host(archive, framed({"kind": "link", "url": "https://example.org/next",
                                     "found_on": "", "category": ""}))
    assert again["ok"] and not again["added"] and again["task"] == answer["task"]
    # as Chromium on Windows calls it
    _, known = host(archive, framed({"kind": "categories"}), CHROMIUM_ORIGIN, "--parent-window=0")
    assert known == {"ok": True, "categories": ["Later", "Old"]}


def test_saves_at_once_each_wait_for_the_others_run(archive: Path) -> None:
    """Pages saved together (several tabs, one after another): each save's run waits for the
    run of the one before, so every page is archived at once, none left for later."""
    urls = [f"https://example.org/tab-{n}" for n in range(3)]
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda u: host(archive, framed(page(u)))[1], urls))
    assert [(a["ok"], a["status"], a["waiting"]) for a in answers] == [
        (True, "localized", False)] * 3, answers


def test_captures_while_a_run_holds_the_archive_lose_nothing(archive: Path,
                                                             images: ImageServer) -> None:
    urls = [images.url(f"/story-{n}.html") for n in range(3)]
    ws = Workspace.open(archive)
    try:
        with ws.archive.run_lock(), ThreadPoolExecutor(3) as pool:  # a run is going on
            answers = list(pool.map(lambda u: host(archive, framed(page(u)), run_wait=0)[1],
                                    urls))
        assert all(a["ok"] and a["waiting"] for a in answers), answers
        ws.refresh()
        by_url = {t.url: t for t in ws.tasks()}
        assert set(urls) <= by_url.keys() and "https://example.com/already-here" in by_url
        assert all(ws.archive.has_raw(by_url[u].id) for u in urls)
        ws.run()  # the next run cleans them
        ws.refresh()
        assert {ws.task(by_url[u].id).status for u in urls} == {Status.LOCALIZED}
    finally:
        ws.close()


def test_a_missing_archive_is_said_and_not_made(tmp_path: Path) -> None:
    status, answer = host(tmp_path / "unmounted", framed(page("https://example.org/a")))
    assert status == 1 and answer["ok"] is False and "no archive at" in answer["error"]
    assert not (tmp_path / "unmounted").exists()


def test_a_bug_is_one_line_for_the_extension_with_its_traceback_kept() -> None:
    """An exception no one named (injected: the archive cannot be opened for a reason no
    check foresaw) is answered in one line saying where its traceback went."""
    import io

    from pipeline.browser.host import serve

    def broken() -> Workspace:
        raise RuntimeError("a bug")

    out = io.BytesIO()
    status = serve(io.BytesIO(framed({"kind": "categories"})), out, [CHROMIUM_ORIGIN],
                   broken, lambda: "/kept/errors.log")
    answer = json.loads(out.getvalue()[4:])
    assert status == 1
    assert answer == {"ok": False, "error": "internal error (RuntimeError); the details are in"
                                            " /kept/errors.log"}


def test_a_page_a_run_is_fetching_now_is_not_written_under_it(archive: Path) -> None:
    ws = Workspace.open(archive)
    try:
        with ws.archive.run_lock():  # a run holds the task ("running" is reclaimed otherwise)
            [task] = ws.tasks()
            ws.store.update(task.id, status=Status.RUNNING)
            ws.save()
            before = snapshot(archive)
            status, answer = host(archive, framed(page(task.url)), run_wait=0)
            assert status == 1 and "a run is fetching task #1 now" in answer["error"]
            assert snapshot(archive) == before
    finally:
        ws.close()
