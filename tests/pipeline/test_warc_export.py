"""WARC out (issue 31): an archive fetched from the demo site by a real run, exported as WARC
and WACZ, checked by warcio's own command line, and read back record by record against what
the archive holds."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.records.settings import Settings
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from pipeline.warc.cdxj import surt
from tests.small_archive import make_small_archive, run_main
from tests.waiting import PATIENCE

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)
WARCIO = Path(sys.executable).with_name("warcio")


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """The demo site fetched, cleaned and localized by a real run; its images included."""
    archive = Archive.open(tmp_path_factory.mktemp("warc") / "archive")
    store = TaskStore(archive.tasks_path)
    with DemoSite() as site:
        add_links(store, site.paste_text(), cat1="01_demo")
        Runner(archive, store, FAST).run()
    return archive


def warcio(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(WARCIO), *map(str, args)], capture_output=True, text=True,
                          timeout=PATIENCE)


def records(path: Path) -> list[tuple[dict[str, str], bytes, int | None]]:
    """Each record's WARC headers, payload (as stored: no HTTP headers) and HTTP status."""
    found = []
    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            headers = dict(record.rec_headers.headers)
            status = int(record.http_headers.get_statuscode()) if (
                record.rec_type == "response") else None
            found.append((headers, record.content_stream().read(), status))
    return found


def test_export_passes_warcio_and_holds_what_the_archive_holds(fetched: Archive,
                                                                tmp_path: Path) -> None:
    out = tmp_path / "demo.warc.gz"
    proc = run_main("--archive", fetched.root, "export", "--warc", out)
    assert proc.returncode == 0, proc.stderr
    assert str(out) in proc.stdout and "image" in proc.stdout
    check = warcio("check", "-v", out)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "digest pass" in check.stdout and "fail" not in check.stdout
    index = warcio("index", out)
    assert index.returncode == 0, index.stderr
    assert len(index.stdout.splitlines()) == len(records(out))

    found = records(out)
    assert found[0][0]["WARC-Type"] == "warcinfo" and found[0][0]["WARC-Filename"] == out.name
    assert all(h["WARC-Record-ID"] and h.get("WARC-Block-Digest") for h, _, _ in found)
    responses = {h["WARC-Target-URI"]: (h, body, status) for h, body, status in found
                 if h["WARC-Type"] == "response"}
    requests = [h for h, _, _ in found if h["WARC-Type"] == "request"]
    tasks = [t for t in TaskStore(fetched.tasks_path).tasks() if fetched.has_raw(t.id)]
    assert tasks and len(responses) == len(tasks) == len(requests)
    for task in tasks:
        meta = json.loads(fetched.raw_meta(task.id).read_bytes())
        headers, body, status = responses[meta["final_url"]]
        assert body == fetched.raw_html(task.id).read_bytes()  # the bytes as fetched
        assert status == meta["status"]
        when = datetime.fromisoformat(meta["fetched_at"]).astimezone(UTC)
        assert headers["WARC-Date"] == when.strftime("%Y-%m-%dT%H:%M:%SZ")
        digest = headers["WARC-Payload-Digest"]
        assert digest.startswith("sha1:")
    concurrent = {h["WARC-Concurrent-To"] for h in requests}
    assert concurrent == {h["WARC-Record-ID"] for h, _, _ in responses.values()}

    images = {h["WARC-Target-URI"]: (h, body) for h, body, _ in found
              if h["WARC-Type"] == "resource"}
    stored = {e.url: e.path for t in tasks if (m := fetched.read_assets(t.id))
              for e in m.entries.values() if e.path}
    assert stored and set(images) == set(stored)
    for url, path in stored.items():
        headers, body = images[url]
        assert body == (fetched.root / path).read_bytes()
        assert headers["Content-Type"].startswith("image/")
        assert headers["Kuaibu-Stored-As"] == path


def test_a_category_alone(fetched: Archive, tmp_path: Path) -> None:
    out = tmp_path / "none.warc.gz"
    proc = run_main("--archive", fetched.root, "export", "--warc", out, "--cat1", "nothing")
    assert proc.returncode == 1 and "no fetched pages in that category" in proc.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []
    proc = run_main("--archive", fetched.root, "export", "--warc", out, "--cat1", "demo")
    assert proc.returncode == 0, proc.stderr


def test_wacz_package(fetched: Archive, tmp_path: Path) -> None:
    out = tmp_path / "demo.wacz"
    proc = run_main("--archive", fetched.root, "export", "--wacz", out)
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        assert {"archive/data.warc.gz", "indexes/index.cdxj", "pages/pages.jsonl",
                "datapackage.json", "datapackage-digest.json"} <= names
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
        package = json.loads(z.read("datapackage.json"))
        assert package["profile"] == "data-package" and package["wacz_version"] == "1.1.1"
        for resource in package["resources"]:
            data = z.read(resource["path"])
            assert resource["hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
            assert resource["bytes"] == len(data)
        digest = json.loads(z.read("datapackage-digest.json"))
        assert digest["hash"] == "sha256:" + hashlib.sha256(z.read("datapackage.json")).hexdigest()
        warc = z.read("archive/data.warc.gz")
        pages = [json.loads(line) for line in z.read("pages/pages.jsonl").splitlines()]
        lines = z.read("indexes/index.cdxj").decode().splitlines()
    assert pages[0]["format"] == "json-pages-1.0" and len(pages) > 1
    assert lines == sorted(lines)
    warc_path = tmp_path / "data.warc.gz"
    warc_path.write_bytes(warc)
    assert warcio("check", warc_path).returncode == 0
    # each index line leads to its record: the offset, the length, the URL and the digest
    for line in lines:
        key, _, fields = line.split(" ", 2)
        entry = json.loads(fields)
        assert key == surt(entry["url"])
        start, length = int(entry["offset"]), int(entry["length"])
        record = next(iter(ArchiveIterator(io.BytesIO(warc[start:start + length]))))
        assert record.rec_headers.get_header("WARC-Target-URI") == entry["url"]
        assert record.rec_headers.get_header("WARC-Payload-Digest") == entry["digest"]
    page_urls = {p["url"] for p in pages[1:]}
    assert page_urls <= {json.loads(line.split(" ", 2)[2])["url"] for line in lines}


def test_surt() -> None:
    assert surt("https://www.Example.com/a/B?z=1&a=2") == "com,example)/a/b?a=2&z=1"
    assert surt("http://127.0.0.1:8080/x") == "1,0,0,127:8080)/x"
    assert surt("http://example.com") == "com,example)/"


def test_a_rendered_page_goes_in_as_a_conversion_record(tmp_path: Path) -> None:
    """The DOM the browser produced, marked as such and tied to the response it came from;
    the headers that described the wire form (gzip, chunks) are not claimed for the stored
    body."""
    from pipeline.usecases.workspace import Workspace

    ws = Workspace.open(tmp_path / "archive")
    with ws.store.transaction() as store:
        task = store.add("https://spa.example/app?id=7")
    shell = b"<html><body><div id=root></div><script src=app.js></script></body></html>"
    dom = "<html><body><div id=root><article><p>脚本写出的正文。</p></article></div></body></html>"
    record = {"url": task.url, "final_url": task.url, "status": 200,
              "headers": {"Content-Type": "text/html", "Content-Encoding": "gzip",
                          "Transfer-Encoding": "chunked", "Content-Length": "12",
                          "X-Served-By": "cache-1"},
              "fetched_at": "2025-02-03T04:05:06+00:00", "rendered": True,
              "render": {"final_url": task.url + "#/", "elapsed": 1.0}}
    ws.archive.store_raw(task.id, shell, json.dumps(record), dom.encode("utf-8"))
    out = ws.export_warc(tmp_path / "spa.warc.gz").path
    ws.close()
    found = {h["WARC-Type"]: (h, body) for h, body, _ in records(out)}
    response, body = found["response"]
    assert body == shell
    conversion, converted = found["conversion"]
    assert converted == dom.encode("utf-8")
    assert conversion["WARC-Refers-To"] == response["WARC-Record-ID"]
    assert conversion["WARC-Target-URI"] == task.url + "#/"
    assert conversion["Content-Type"] == "text/html; charset=utf-8"
    assert conversion["Kuaibu-Rendered"] and conversion["WARC-Date"] == "2025-02-03T04:05:06Z"
    with open(out, "rb") as f:
        http = next(r for r in ArchiveIterator(f) if r.rec_type == "response").http_headers
        assert http.get_header("X-Served-By") == "cache-1"
        assert http.get_header("Content-Length") == str(len(shell))
        assert http.get_header("Content-Encoding") is None
        assert http.get_header("Transfer-Encoding") is None
    assert warcio("check", out).returncode == 0


def test_imported_pages_go_in_as_resources_and_saved_files_stay_out(tmp_path: Path) -> None:
    """A page imported from a save had no response this archive saw: a resource record of
    its bytes; one saved without an address is left out."""
    from pipeline.usecases.workspace import Workspace

    ws = Workspace.open(tmp_path / "archive")
    pages = {"https://saved.example/story": b"<html><body><p>saved</p></body></html>",
             (tmp_path / "note.html").as_uri(): b"<html><body><p>a file</p></body></html>"}
    for url, body in pages.items():
        with ws.store.transaction() as store:
            task = store.add(url)
        record = {"url": url, "final_url": url, "headers": {"content-type": "text/html"},
                  "fetched_at": "2023-03-03T03:03:03+00:00",
                  "imported": {"source": "mhtml", "origin": "story.mhtml"}}
        ws.archive.store_raw(task.id, body, json.dumps(record))
    result = ws.export_warc(tmp_path / "saved.warc.gz")
    ws.close()
    assert result.pages == 1
    found = [(h, body) for h, body, _ in records(result.path) if h["WARC-Type"] != "warcinfo"]
    assert [(h["WARC-Type"], h["WARC-Target-URI"]) for h, _ in found] == [
        ("resource", "https://saved.example/story")]
    headers, body = found[0]
    assert body == pages["https://saved.example/story"]
    assert headers["Content-Type"] == "text/html" and headers["Kuaibu-Imported-From"] == "mhtml"
    assert warcio("check", result.path).returncode == 0


def test_a_record_that_cannot_be_read_is_left_out_and_named(tmp_path: Path) -> None:
    root = make_small_archive(tmp_path / "archive")
    meta = Archive(root).raw_meta(2)
    meta.chmod(0o644)
    meta.write_text("{not json", encoding="utf-8")
    out = tmp_path / "out.warc.gz"
    proc = run_main("--archive", root, "export", "--warc", out)
    assert proc.returncode == 0, proc.stderr
    assert "(2 pages, 0 images)" in proc.stdout
    assert "left out #2: its record in 00_raw cannot be read" in proc.stdout
    assert warcio("check", out).returncode == 0
