"""What the archive fetched, written as WARC/1.1 (issue 31, "WARC out").

The archive's own format stays as it is; this is an export any web archive can take in and
pywb or ReplayWeb.page can replay. For each task whose page 00_raw holds, in the list's order:

- a ``request`` record (made again: the archive keeps no request headers; see ``http_block``)
  and the ``response`` record: the stored bytes with the final response's status and headers,
  dated by the fetch (``WARC-Date`` from the record's ``fetched_at``), at the address the
  bytes came from (``final_url``);
- a page imported from a save (``import``: a saved page, MHTML, a WARC) had no response this
  archive saw: a ``resource`` record of its bytes (``Kuaibu-Imported-From``), at its address;
  one saved without an address (a ``file:`` URL) stands for nothing on the web and is left out;
- for a rendered page, a ``conversion`` record holding the DOM the browser produced, which
  ``WARC-Refers-To`` the response it was made from;
- each image the article's map names, once per address: a ``resource`` record, because the
  archive keeps the image as it stores it for books (oriented, at most 1600 px, maybe
  re-encoded) and not the response it came in: claiming a response would be a lie.

warcio computes the block and payload digests (SHA-1, base32) as it writes each record, one
gzip member a record, so any record can be read on its own from its offset.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from io import BytesIO
from typing import BinaryIO

from warcio.warcwriter import WARCWriter

from pipeline.net.fetcher import PAGE_ACCEPT
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.rules.model import Rules
from pipeline.store.archive import Archive
from pipeline.warc.cdxj import Capture
from pipeline.warc.http_block import declared_type, request_headers, response_headers
from pipeline.web.urls import host_of

SOFTWARE = "Kuaibu 0.1 (快捕)"
# the media type of each kind of file 02_assets holds (pipeline.assets.images writes these)
IMAGE_TYPES = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif"}
RENDERED_TYPE = "text/html; charset=utf-8"
# the fields that mark what Kuaibu made, beside the standard ones (WARC 1.1 §5: named fields
# a reader does not know it ignores)
MADE_AGAIN = "Kuaibu-Made-Again"
RENDERED_BY = "Kuaibu-Rendered"
STORED_AS = "Kuaibu-Stored-As"
IMPORTED_FROM = "Kuaibu-Imported-From"


@dataclass
class Exported:
    """What an export wrote: the captures (for a WACZ's index) and the pages among them with
    their titles (its pages.jsonl)."""

    captures: list[Capture] = field(default_factory=list)
    pages: list[tuple[Capture, str]] = field(default_factory=list)
    images: int = 0
    # tasks whose record in 00_raw cannot be read (a file a person could edit): left out
    unreadable: list[int] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return len(self.pages)


def warc_date(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _fetched(record: dict[str, object], fallback: float) -> datetime:
    """When the page was fetched (its record's ``fetched_at``), else the record file's time."""
    value = record.get("fetched_at")
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return datetime.fromtimestamp(fallback, UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


class _Writer:
    """One WARC being written: each record as its own gzip member, its place noted."""

    def __init__(self, out: BinaryIO, filename: str) -> None:
        self.out = out
        self.filename = filename
        self.warc = WARCWriter(out, gzip=True, warc_version="1.1")

    def write(self, record: object) -> tuple[int, int]:
        start = self.out.tell()
        self.warc.write_record(record)
        return start, self.out.tell() - start

    def capture(self, record: object, url: str, when: datetime, mime: str,
                status: int | None) -> Capture:
        start, length = self.write(record)
        digest = str(record.rec_headers.get_header("WARC-Payload-Digest"))  # type: ignore[attr-defined]
        return Capture(url, when.astimezone(UTC).strftime("%Y%m%d%H%M%S"), mime, status,
                       digest, start, length, self.filename)


def write_warc(out: BinaryIO, filename: str, archive: Archive, tasks: Iterable[Task],
               settings: Settings, rules: Rules,
               progress: Callable[[int], None] | None = None) -> Exported:
    """Write the WARC of ``tasks`` (those whose page 00_raw holds) to ``out``, seekable, named
    ``filename`` in its warcinfo; ``progress`` is told each task done."""
    writer = _Writer(out, filename)
    writer.write(writer.warc.create_warcinfo_record(filename, {
        "software": SOFTWARE,
        "format": "WARC File Format 1.1",
        "conformsTo": "https://iipc.github.io/warc-specifications/specifications/"
                      "warc-format/warc-1.1/",
        "description": (
            f"Exported from the Kuaibu archive {archive.name!r}. Bodies as the fetch"
            " decompressed them (Content-Encoding and Transfer-Encoding dropped,"
            " Content-Length the stored body's); request records made again from what a"
            f" fetch sends ({MADE_AGAIN}); a browser-rendered page's DOM as a conversion"
            f" record ({RENDERED_BY}); images as resource records, as the archive stores"
            f" them for books ({STORED_AS}); pages imported from a save as resource"
            f" records ({IMPORTED_FROM})."),
    }))
    exported = Exported()
    written_images: set[tuple[str, str]] = set()
    for done, task in enumerate(tasks, start=1):
        if archive.has_raw(task.id):
            _write_task(writer, archive, task, settings, rules, exported, written_images)
        if progress is not None:
            progress(done)
    return exported


def _write_task(writer: _Writer, archive: Archive, task: Task, settings: Settings,
                rules: Rules, exported: Exported,
                written_images: set[tuple[str, str]]) -> None:
    meta_path = archive.raw_meta(task.id)
    try:
        record = json.loads(meta_path.read_bytes())
    except ValueError:
        record = None
    # the fetch stage stores only the pages it took: a record without a status is one of them
    status = record.get("status", 200) if isinstance(record, dict) else None
    if not isinstance(record, dict) or not isinstance(status, int) or not 100 <= status <= 599:
        exported.unreadable.append(task.id)
        return
    body = archive.raw_html(task.id).read_bytes()
    when = _fetched(record, meta_path.stat().st_mtime)
    url = str(record.get("final_url") or record.get("url") or task.url)
    if not url.startswith(("http://", "https://")):
        return  # a saved file imported without its address: nothing on the web to stand for
    stored = record.get("headers")
    headers: dict[str, object] = stored if isinstance(stored, dict) else {}
    mime = declared_type(headers) or "text/html"
    build = writer.warc
    imported = record.get("imported") if isinstance(record.get("imported"), dict) else None
    if imported is not None and "status" not in record:
        # imported from a save: no response to claim, the page as a resource of its own
        saved = build.create_warc_record(
            url, "resource", payload=BytesIO(body), length=len(body),
            warc_headers_dict={"WARC-Date": warc_date(when), "Content-Type": mime,
                               IMPORTED_FROM: str(imported.get("source") or "a save")})
        page = writer.capture(saved, url, when, mime, None)
        record_id = saved.rec_headers.get_header("WARC-Record-ID")
    else:
        page, record_id = _write_exchange(writer, url, when, status, headers, body, mime,
                                          settings, rules)
    exported.captures.append(page)
    article = archive.read_article(task.id)
    exported.pages.append((page, task.title or (article.title if article else "") or url))
    rendered = archive.raw_rendered(task.id)
    if record.get("rendered") and rendered.exists():
        dom = rendered.read_bytes()
        render = record.get("render") if isinstance(record.get("render"), dict) else {}
        dom_url = str(render.get("final_url") or url)  # type: ignore[union-attr]
        conversion = build.create_warc_record(
            dom_url, "conversion", payload=BytesIO(dom), length=len(dom),
            warc_headers_dict={"WARC-Date": warc_date(when), "WARC-Refers-To": record_id,
                               "Content-Type": RENDERED_TYPE,
                               RENDERED_BY: "the DOM after the page's scripts ran (Chromium)"})
        writer.capture(conversion, dom_url, when, "text/html", None)
    for image_url, path in _images(archive, task.id):
        if (image_url, path) in written_images:
            continue
        written_images.add((image_url, path))
        exported.captures.append(_write_image(writer, archive, image_url, path))
        exported.images += 1


def _write_exchange(writer: _Writer, url: str, when: datetime, status: int,
                    headers: dict[str, object], body: bytes, mime: str, settings: Settings,
                    rules: Rules) -> tuple[Capture, str]:
    """A fetched page's response record and the request made again beside it; the response's
    capture and record id."""
    build = writer.warc
    response = build.create_warc_record(
        url, "response", payload=BytesIO(body), length=len(body),
        warc_headers_dict={"WARC-Date": warc_date(when)},
        http_headers=response_headers(status, headers, len(body)))
    response_id = str(response.rec_headers.get_header("WARC-Record-ID"))
    sent = {"User-Agent": rules.for_host(host_of(url)).user_agent or settings.user_agent,
            "Accept": PAGE_ACCEPT, "Accept-Language": settings.accept_language}
    request = build.create_warc_record(
        url, "request", payload=BytesIO(b""), length=0,
        warc_headers_dict={"WARC-Date": warc_date(when), "WARC-Concurrent-To": response_id,
                           MADE_AGAIN: "request headers as this archive's fetch sends them"},
        http_headers=request_headers(url, sent))
    page = writer.capture(response, url, when, mime, status)
    writer.write(request)
    return page, response_id


def _images(archive: Archive, task_id: int) -> Iterator[tuple[str, str]]:
    """The article's images that 02_assets holds: (address, path from the archive root)."""
    assets = archive.read_assets(task_id)
    if assets is None:
        return
    for entry in assets.entries.values():
        if entry.path and entry.url.startswith(("http://", "https://")):
            yield entry.url, entry.path


def _write_image(writer: _Writer, archive: Archive, url: str, path: str) -> Capture:
    """An image as a resource record, dated when its article's images were stored."""
    file = archive.root / path
    data = file.read_bytes()
    when = datetime.fromtimestamp(os.stat(file).st_mtime, UTC)
    mime = IMAGE_TYPES.get(file.suffix.lstrip(".").lower(), "application/octet-stream")
    record = writer.warc.create_warc_record(
        url, "resource", payload=BytesIO(data), length=len(data),
        warc_headers_dict={"WARC-Date": warc_date(when), "Content-Type": mime,
                           STORED_AS: path})
    return writer.capture(record, url, when, mime, None)

