"""WARC and WACZ in (issue 31): a crawl written by Debian's wget from the demo site read back
with its images and no request to the site; Kuaibu's own export read back as the archive
holds it; and each bad record refused with its reason while the rest is read."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import random
import shutil
import subprocess
import tracemalloc
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pipeline.demo_site.server import DemoSite
from pipeline.extract import extract
from pipeline.intake.saved_page import ImportLimits, Refusal, Refused, SavedPage
from pipeline.intake.warc_reader import read_warc
from pipeline.records.errors import ExtractError
from pipeline.records.settings import Settings
from pipeline.usecases.workspace import Workspace
from tests.small_archive import make_small_archive
from tests.waiting import PATIENCE

LIMITS = ImportLimits(page_bytes=200_000, resource_bytes=200_000, file_bytes=10_000_000)
PAGE = "<!DOCTYPE html><html><head><title>{0}</title></head><body><p>{0}</p></body></html>"


def html(title: str) -> bytes:
    return PAGE.format(title).encode()


def response(writer: WARCWriter, url: str, body: bytes, *, status: str = "200 OK",
             mime: str = "text/html; charset=utf-8", headers: list[tuple[str, str]] = (),
             warc_headers: dict[str, str] | None = None, kind: str = "response") -> None:
    http = StatusAndHeaders(status, [("Content-Type", mime), *headers], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(
        url, kind, payload=io.BytesIO(body), length=len(body), http_headers=http,
        warc_headers_dict=warc_headers or {}))


def warc_file(path: Path, write: object, gzipped: bool = True) -> Path:
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=gzipped, warc_version="1.1")
        write(writer)  # type: ignore[operator]
    return path


def found(path: Path, limits: ImportLimits = LIMITS) -> tuple[list[SavedPage], list[Refused]]:
    everything = list(read_warc(path, limits))
    pages = [f for f in everything if isinstance(f, SavedPage)]
    refused = [f for f in everything if isinstance(f, Refused)]
    assert len(pages) + len(refused) == len(everything)
    return pages, refused


@pytest.fixture(scope="module")
def wget_crawl(tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[tuple[Path, list[str], DemoSite]]:
    """The demo site's articles crawled by Debian's wget with their page requisites into a
    WARC; the site stays up so a test can count requests made while reading."""
    if shutil.which("wget") is None:
        pytest.fail("wget is not installed: apt-get install wget (README's test command)")
    folder = tmp_path_factory.mktemp("wget")
    with DemoSite() as site:
        urls = site.article_urls
        proc = subprocess.run(["wget", "-q", "-p", "-e", "robots=off", "--warc-file=crawl",
                               "--no-warc-keep-log", "-P", str(folder / "files"), *urls],
                              cwd=folder, capture_output=True, text=True, timeout=PATIENCE)
        assert (folder / "crawl.warc.gz").exists(), proc.stderr
        yield folder / "crawl.warc.gz", urls, site


def test_a_wget_crawl_is_read_with_its_images_and_no_request(wget_crawl) -> None:
    path, urls, site = wget_crawl
    before = len(site.request_log)
    pages, refused = found(path, ImportLimits.from_settings(Settings()))
    assert [p.url for p in pages] == urls
    assert all(r.reason is not Refusal.DAMAGED for r in refused), refused
    resolved = 0
    for page in pages:
        assert page.source == "warc" and page.url_known and page.fetched_at
        assert "text/html" in page.headers["Content-Type"]
        try:
            article = extract(page.raw.decode("utf-8", "replace"), page.url)
        except ExtractError:
            continue
        for image in article.images:
            data = page.resources(image)
            if image.startswith("http") and data is not None:
                resolved += 1
                assert data[:4] in (b"\x89PNG", b"GIF8") or data[:3] == b"\xff\xd8\xff"
    assert resolved >= len(pages)
    assert len(site.request_log) == before  # read from the WARC alone


def test_an_export_reads_back_as_the_archive_holds_it(tmp_path: Path) -> None:
    root = make_small_archive(tmp_path / "archive")
    ws = Workspace.open(root)
    out = ws.export_warc(tmp_path / "out.wacz", wacz=True).path
    pages, refused = found(out)
    assert refused == []
    by_url = {p.url: p for p in pages}
    for task in ws.tasks():
        page = by_url[task.url]
        assert page.raw == ws.archive.raw_html(task.id).read_bytes()
        record = json.loads(ws.archive.raw_meta(task.id).read_bytes())
        assert page.fetched_at == record["fetched_at"] and page.source == "wacz"
    ws.close()


def test_wire_forms_are_undone(tmp_path: Path) -> None:
    """A crawler that keeps the body as sent (wget, Heritrix): chunked and gzipped."""
    body = html("Chunked and gzipped")
    packed = gzip.compress(body)
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(part), part)
                       for part in (packed[:10], packed[10:])) + b"0\r\n\r\n"
    path = warc_file(tmp_path / "wire.warc.gz", lambda w: response(
        w, "https://a.example/p", chunked,
        headers=[("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]))
    pages, refused = found(path)
    assert refused == [] and pages[0].raw == body
    assert set(pages[0].headers) == {"Content-Type"}


def bad_records(w: WARCWriter) -> None:
    response(w, "https://a.example/first", html("First"))
    response(w, "https://a.example/report.pdf", b"%PDF-1.4 ...", mime="application/pdf")
    response(w, "https://a.example/gone", html("Gone"), status="404 Not Found")
    response(w, "https://a.example/moved", b"", status="301 Moved Permanently",
             headers=[("Location", "https://a.example/first")])
    response(w, "https://a.example/huge", html("x" * 300_000))
    bomb = zlib.compress(b" " * 50_000_000, 9)
    gz = gzip.compress(b" " * 50_000_000, 9)
    assert len(bomb) < 100_000
    response(w, "https://a.example/bomb", gz, headers=[("Content-Encoding", "gzip")])
    response(w, "https://a.example/tampered", html("Tampered"),
             warc_headers={"WARC-Payload-Digest": "sha1:" + base64.b32encode(
                 hashlib.sha1(b"other").digest()).decode()})
    response(w, "https://a.example/not-gzip", html("Not gzip"),
             headers=[("Content-Encoding", "gzip")])
    response(w, "https://a.example/not-br", b"\xff" * 64, headers=[("Content-Encoding", "br")])
    response(w, "https://a.example/odd-digest", html("Odd digest"),
             warc_headers={"WARC-Payload-Digest": "shake_128:AAAA"})  # not checked, read
    w.write_record(w.create_revisit_record(
        "https://a.example/first", "sha1:AAAA", "https://a.example/first",
        "2024-01-01T00:00:00Z", http_headers=StatusAndHeaders(
            "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")))
    response(w, "https://a.example/last", html("Last"))


@pytest.mark.parametrize("gzipped", [True, False])
def test_each_bad_record_is_refused_and_the_rest_read(tmp_path: Path, gzipped: bool) -> None:
    name = "bad.warc.gz" if gzipped else "bad.warc"
    pages, refused = found(warc_file(tmp_path / name, bad_records, gzipped))
    assert [p.url for p in pages] == ["https://a.example/first", "https://a.example/odd-digest",
                                      "https://a.example/last"]
    reasons = {r.origin.rsplit("@", 1)[1]: r for r in refused}
    got = sorted(r.reason.value for r in reasons.values())
    assert got == sorted(["not-html", "http-error", "too-large", "compression-bomb",
                          "digest-mismatch", "revisit", "damaged", "damaged"]), refused
    assert all(r.detail for r in refused)


def test_a_truncated_member_is_refused_and_the_next_read(tmp_path: Path) -> None:
    """One gzip member cut short in the middle of the file, and the file's last member cut
    short: both named, every whole record read."""
    members: list[bytes] = []
    for title in ("One", "Two", "Three", "Four"):
        buffer = io.BytesIO()
        response(WARCWriter(buffer, gzip=True), f"https://a.example/{title}",
                 html(title) + b" " * 3000 + bytes(range(256)) * 20)
        members.append(buffer.getvalue())
    cut = members[1][: len(members[1]) // 2]
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(members[0] + cut + members[2] + members[3][:-40])
    pages, refused = found(path)
    assert [p.url for p in pages] == ["https://a.example/One", "https://a.example/Three"]
    assert len(refused) == 2, refused
    assert {r.reason for r in refused} <= {Refusal.TRUNCATED, Refusal.DAMAGED}
    assert refused[0].origin == f"{path}@{len(members[0])}"


def test_whole_file_gzip_and_junk_are_refused_in_one_line(tmp_path: Path) -> None:
    plain = warc_file(tmp_path / "plain.warc", lambda w: (
        response(w, "https://a.example/1", html("1")),
        response(w, "https://a.example/2", html("2"))), gzipped=False)
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    pages, refused = found(whole)
    assert [r.reason for r in refused] == [Refusal.DAMAGED]
    assert "warcio recompress" in refused[0].detail
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"")
    images = warc_file(tmp_path / "images.warc.gz", lambda w: response(
        w, "https://a.example/a.png", b"\x89PNG\r\n\x1a\n", mime="image/png"))
    for nothing in (empty, images):
        assert [(r.reason, r.detail) for r in found(nothing)[1]] == [
            (Refusal.NO_HTML, "")]
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"\x00not a warc\n" * 100)
    pages, refused = found(junk)
    assert pages == [] and [r.reason for r in refused] == [Refusal.DAMAGED]


def test_a_wacz_whose_warc_is_deflated_is_refused(tmp_path: Path) -> None:
    warc = warc_file(tmp_path / "data.warc.gz", lambda w: response(w, "https://a.example/",
                                                                    html("A")))
    wacz = tmp_path / "bad.wacz"
    with zipfile.ZipFile(wacz, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.write(warc, "archive/data.warc.gz")
    pages, refused = found(wacz)
    assert pages == [] and [r.reason for r in refused] == [Refusal.DAMAGED]
    broken = tmp_path / "broken.wacz"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    assert [r.reason for r in found(broken)[1]] == [Refusal.DAMAGED]


def test_a_member_inflating_to_one_endless_line_is_read_in_bounded_memory(
        tmp_path: Path) -> None:
    """A gzip member whose record is followed by 300 MB without a line break (a bomb at the
    WARC's own level): refused, in bounded memory, and the next record read."""
    first, last = io.BytesIO(), io.BytesIO()
    response(WARCWriter(first, gzip=True), "https://a.example/first", html("First"))
    response(WARCWriter(last, gzip=True), "https://a.example/last", html("Last"))
    member = zlib.decompress(first.getvalue(), 47)
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(member) + b"".join(
        packer.compress(b"x" * 1_000_000) for _ in range(300)) + packer.flush()
    path = tmp_path / "bomb.warc.gz"
    path.write_bytes(bomb + last.getvalue())
    tracemalloc.start()
    try:
        pages, refused = found(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [p.url for p in pages] == ["https://a.example/first", "https://a.example/last"]
    assert [r.reason for r in refused] == [Refusal.DAMAGED], refused
    assert peak < 64_000_000, f"{peak:,} bytes at the peak"


def test_a_wacz_of_several_warcs_finds_a_page_images_in_the_next(tmp_path: Path) -> None:
    """A crawl rolled over to a new WARC between a page and its image (Browsertrix writes a
    WACZ of several): the image is found all the same."""
    image = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    first = warc_file(tmp_path / "a.warc.gz", lambda w: response(
        w, "https://a.example/story", html("Story")))
    second = warc_file(tmp_path / "b.warc.gz", lambda w: response(
        w, "https://a.example/photo.png", image, mime="image/png"))
    wacz = tmp_path / "crawl.wacz"
    with zipfile.ZipFile(wacz, "w", compression=zipfile.ZIP_STORED) as z:
        z.write(first, "archive/rec-1.warc.gz")
        z.write(second, "archive/rec-2.warc.gz")
    pages, refused = found(wacz)
    assert refused == [] and [p.url for p in pages] == ["https://a.example/story"]
    assert pages[0].origin == f"{wacz}!archive/rec-1.warc.gz@0"
    assert pages[0].resources("https://a.example/photo.png") == image
    assert pages[0].resources("https://a.example/elsewhere.png") is None


def damaged(base: bytes, rng: random.Random) -> bytes:
    """``base`` with a few bytes changed, cut out or slipped in."""
    data = bytearray(base)
    for _ in range(rng.randint(1, 6)):
        at, roll = rng.randrange(len(data)), rng.random()
        if roll < 0.5:
            data[at] = rng.randrange(256)
        elif roll < 0.75:
            del data[at:at + rng.randint(1, 200)]
        else:
            data[at:at] = rng.randbytes(rng.randint(1, 50))
    return bytes(data)


@pytest.mark.parametrize("kind", ["warc.gz", "warc", "wacz"])
def test_damaged_bytes_anywhere_never_end_the_import(tmp_path: Path, kind: str) -> None:
    """Bytes changed, cut out or slipped in anywhere in a WARC or a WACZ (a disk, a download,
    a hostile file): every record is a page or a refusal, never an exception."""
    if kind == "wacz":
        ws = Workspace.open(make_small_archive(tmp_path / "archive"))
        base = ws.export_warc(tmp_path / "base.wacz", wacz=True).path.read_bytes()
        ws.close()
    else:
        base = warc_file(tmp_path / "base", bad_records, kind == "warc.gz").read_bytes()
    rng = random.Random(7)
    path = tmp_path / f"damaged.{kind}"
    for _ in range(200):
        path.write_bytes(damaged(base, rng))
        for item in read_warc(path, LIMITS):
            assert isinstance(item, SavedPage | Refused)
            if isinstance(item, SavedPage):
                item.resources("https://a.example/report.pdf")
