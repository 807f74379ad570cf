"""Web archives in (issue 31): every HTML page a WARC or WACZ holds, as a ``SavedPage``.

What crawlers write (Browsertrix Crawler, Heritrix, ``wget --warc-file``, ArchiveBox,
Webrecorder, Kuaibu's own ``export``) is read as a stream, in two steps; memory holds an
offset and an address a record, never a payload past the one being read:

1. **Index** (one pass, ``_index``): warcio walks the records without the importer reading
   any payload; each record's place (offset) is noted by kind: the HTML pages, and the
   resources (images, stylesheets, scripts, fonts) by their address. What is not a page is
   refused with its reason (a PDF, an HTTP error, a revisit); what is damaged (a gzip member
   cut short, a record that does not parse) is refused and the walk picks up at the next
   record it finds, never giving up on the file.
2. **Pages** (``_pages``): each page's record is read again from its offset
   (``warc_records.payload``: within the page limit, its digest checked, its transfer and
   content codings undone within the limit, a gzip bomb refused, not inflated) and yielded;
   a response that an HTML ``conversion`` record refers to (Kuaibu's export of a page its
   browser rendered) is yielded as that DOM, what its article was read from. Its
   ``resources`` read a resource's record from its offset when asked: payloads are never
   held.

A WARC compressed as a whole (one gzip member, not one a record) cannot be read from an
offset; it is refused with what fixes it (``warcio recompress``).
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.assets.sniff import looks_like_html
from pipeline.intake.saved_page import Found, ImportLimits, Refusal, Refused, SavedPage
from pipeline.intake.warc_records import (
    CHUNK,
    GZIP_MAGIC,
    PARSE_ERRORS,
    Records,
    Unreadable,
    Warc,
    cut_short,
    payload,
)
from pipeline.warc.http_block import declared_type, media_type

WARC_SUFFIXES = (".warc", ".warc.gz", ".wacz")
# what zipfile raises on a damaged archive: BadZipFile, NotImplementedError ("zip file
# version 7.6"), struct.error, EOFError, ValueError
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError,
               NotImplementedError, struct.error)
HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))
# what a page asks for beside itself: indexed quietly, never refused as "not HTML"
RESOURCE_TYPES = ("image/", "text/css", "font/", "application/font", "application/x-font",
                  "text/javascript", "application/javascript", "application/x-javascript",
                  "application/ecmascript", "audio/", "video/", "application/octet-stream")
_WARC_MAGIC = b"WARC/1."


@dataclass(frozen=True)
class _Entry:
    """A record's place, and what the index knows of it."""

    offset: int
    url: str
    date: str
    record_id: str


def read_warc(path: Path, limits: ImportLimits) -> Iterator[Found]:
    """Every HTML page a ``.warc``, ``.warc.gz`` or ``.wacz`` holds, or why a record (or the
    file) is refused; never raises for a bad file."""
    try:
        warcs = list(_warcs_in(path))
    except OSError as e:
        yield Refused(str(path), Refusal.UNREADABLE, e.strerror or "")
        return
    except _ZIP_ERRORS:  # a WACZ whose zip does not parse
        yield Refused(str(path), Refusal.DAMAGED)
        return
    # every WARC of the file indexed first: a crawl rolls over to a new WARC where it will,
    # and a page's images may lie in the next one (Browsertrix's WACZ of several WARCs)
    indexed: list[tuple[Warc, _Index]] = []
    resources: dict[str, tuple[Warc, int]] = {}
    said = False
    for warc in warcs:
        if isinstance(warc, Refused):
            said = True
            yield warc
            continue
        index = _Index([], {})
        try:
            for refused in _index(warc, limits, index):
                said = True
                yield refused
        except OSError as e:
            said = True
            yield Refused(warc.origin, Refusal.UNREADABLE, str(e)[:200])
            continue
        indexed.append((warc, index))
        for url, offset in index.resources.items():
            resources.setdefault(url, (warc, offset))
    if not any(index.pages for _, index in indexed):
        if not said:  # an empty file, or a crawl of images alone: said, not passed over
            yield Refused(str(path), Refusal.NO_HTML)
        return
    resolve = _resolver(resources, limits)
    for warc, index in indexed:
        try:
            yield from _pages(warc, index, resolve, limits)
        except OSError as e:
            yield Refused(warc.origin, Refusal.UNREADABLE, str(e)[:200])


def _warcs_in(path: Path) -> Iterator[Warc | Refused]:
    """The WARCs in a file: itself, or the WARCs a WACZ stores under ``archive/``."""
    name = path.name.lower()
    if not name.endswith(".wacz"):
        with open(path, "rb") as f:
            gzipped = f.read(3) == GZIP_MAGIC
        yield Warc(path, 0, path.stat().st_size, str(path), "warc", gzipped)
        return
    with zipfile.ZipFile(path) as z, open(path, "rb") as raw:
        members = [i for i in z.infolist() if i.filename.startswith("archive/")
                   and i.filename.lower().endswith((".warc", ".warc.gz"))]
        if not members:
            yield Refused(str(path), Refusal.NO_HTML)
        for info in members:
            origin = f"{path}!{info.filename}"
            if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
                # a WACZ stores its WARCs as they are, to be read at their offsets
                yield Refused(origin, Refusal.DAMAGED,
                              "encrypted" if info.flag_bits & 0x1 else "deflated")
                continue
            raw.seek(info.header_offset)
            header = raw.read(30)
            if len(header) < 30 or header[:4] != b"PK\x03\x04":
                yield Refused(origin, Refusal.DAMAGED)
                continue
            start = (info.header_offset + 30 + int.from_bytes(header[26:28], "little")
                     + int.from_bytes(header[28:30], "little"))
            raw.seek(start)
            gzipped = raw.read(3) == GZIP_MAGIC
            yield Warc(path, start, info.compress_size, origin, "wacz", gzipped)


@dataclass
class _Index:
    pages: list[_Entry]
    # an address → its record's offset; the first capture of an address wins
    resources: dict[str, int]
    # a response's record id → the offset of the HTML a browser made of it (a ``conversion``
    # record that refers to it: Kuaibu's export of a rendered page)
    rendered: dict[str, int] = field(default_factory=dict)


def _pages(warc: Warc, index: _Index, resources: Callable[[str], bytes | None],
           limits: ImportLimits) -> Iterator[Found]:
    """The pages ``index`` found in ``warc``, each read from its offset."""
    for entry in index.pages:
        origin = _at(warc.origin, entry.offset)
        try:
            raw, headers = payload(warc, entry.offset, limits.page_bytes)
            if (dom := index.rendered.get(entry.record_id)) is not None:
                # the page as its scripts built it, what the article was read from: UTF-8
                raw = payload(warc, dom, limits.page_bytes)[0]
                headers = {**{k: v for k, v in headers.items()
                              if k.lower() != "content-type"},
                           "Content-Type": "text/html; charset=utf-8"}
        except Unreadable as e:
            yield Refused(origin, e.reason, e.detail)
            continue
        if declared_type(headers) not in HTML_TYPES and not looks_like_html(raw):
            yield Refused(origin, Refusal.NOT_HTML, entry.url)
            continue
        yield SavedPage(url=entry.url, url_known=True, raw=raw, source=warc.source,
                        origin=origin, headers=headers, fetched_at=entry.date,
                        resources=resources)


def _index(warc: Warc, limits: ImportLimits, index: _Index) -> Iterator[Refused]:
    """One pass over the records (see the module's docstring), picking up after damage at
    the next record start found; the refusals as found."""
    digests: dict[str, int] = {}
    position = 0
    with warc.open() as f:
        while position < warc.length:
            f.seek(position)
            records = Records(f)
            current = position
            whole = -1  # the last record read to its payload's end
            try:
                for record in records:
                    current = records.offset
                    refused = _note(record, current, limits, index, digests, warc.origin)
                    while record.raw_stream.read(CHUNK):
                        pass
                    whole = current
                    records.read_to_end()  # the blank lines after it, to the next record
                    if refused is not None:
                        yield refused
                return
            except PARSE_ERRORS as e:
                if "non-chunked" in str(e).lower():
                    # gzipped as a whole, not record by record: warcio's tool makes it readable
                    yield Refused(warc.origin, Refusal.DAMAGED, f"warcio recompress"
                                  f" {warc.path.name} {_fixed_name(warc.path.name)}")
                    return
                # the record being read: warcio moves its offset on once one is whole (and
                # may misplace it in a damaged member: never behind the last record read)
                current = max(records.offset, current)
                reason = Refusal.TRUNCATED if cut_short(e) else Refusal.DAMAGED
                yield Refused(_at(warc.origin, current), reason)
                _drop_entries_from(index, current + (current == whole))
                position = _next_start(f, current + 1, warc.gzipped, warc.length)


def _at(origin: str, offset: int) -> str:
    """A record as a person finds it: the file and the record's offset (``crawl.warc.gz@1868``,
    what ``warcio index`` lists and ``warcio extract FILE OFFSET`` reads)."""
    return f"{origin}@{offset}"


def _fixed_name(name: str) -> str:
    """Where ``warcio recompress`` may write a readable copy of ``name``."""
    stem = name[:-len(".warc.gz")] if name.lower().endswith(".warc.gz") else name
    return f"{stem}-recompressed.warc.gz"


def _drop_entries_from(index: _Index, offset: int) -> None:
    """A record that broke while being read is not indexed (it was noted before its end)."""
    index.pages[:] = [e for e in index.pages if e.offset < offset]
    for url in [u for u, o in index.resources.items() if o >= offset]:
        del index.resources[url]
    for record_id in [r for r, o in index.rendered.items() if o >= offset]:
        del index.rendered[record_id]


def _next_start(f: io.RawIOBase, after: int, gzipped: bool, end: int) -> int:
    """Where the next record may start at or after ``after``: a gzip member's magic bytes,
    or a ``WARC/1.`` line; ``end`` when there is none."""
    magic = GZIP_MAGIC if gzipped else b"\n" + _WARC_MAGIC
    skip = 0 if gzipped else 1
    position = after
    tail = b""
    while position < end:
        f.seek(position)
        chunk = f.read(CHUNK)
        if not chunk:
            break
        found = (tail + chunk).find(magic)
        if found >= 0:
            return position - len(tail) + found + skip
        tail = chunk[-(len(magic) - 1):]
        position += len(chunk)
    return end


def _note(record: Any, offset: int, limits: ImportLimits, index: _Index,
          digests: dict[str, int], origin: str) -> Refused | None:
    """Index one record; its refusal when it is a page that cannot be imported."""
    kind = record.rec_type
    url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip("<> ")
    if kind == "conversion" and media_type(
            record.rec_headers.get_header("Content-Type")) in HTML_TYPES:
        if refers_to := record.rec_headers.get_header("WARC-Refers-To"):
            index.rendered.setdefault(refers_to.strip(), offset)
        return None
    if kind not in ("response", "resource", "revisit") or not url.startswith(("http://",
                                                                              "https://")):
        return None
    where = _at(origin, offset)
    http = record.http_headers if kind != "resource" else None
    mime = media_type(http.get_header("Content-Type") if http else
                 record.rec_headers.get_header("Content-Type"))
    status = _status(http) if http is not None else 200
    digest = record.rec_headers.get_header("WARC-Payload-Digest") or ""
    if kind == "revisit":
        if mime in HTML_TYPES:
            return Refused(where, Refusal.REVISIT, url)
        if digest in digests:
            index.resources.setdefault(url, digests[digest])
        return None
    if status is None or not 200 <= status < 300:
        if 300 <= (status or 0) < 400 or mime not in HTML_TYPES:
            return None  # a redirect, or an error answering for an image: nobody's page
        return Refused(where, Refusal.HTTP_ERROR, f"{url}: HTTP {status}")
    if mime in HTML_TYPES or (mime == "" and kind == "response"):
        if record.length is not None and record.length > limits.page_bytes + CHUNK:
            return Refused(where, Refusal.TOO_LARGE, f"{url}: {record.length:,} >"
                           f" {limits.page_bytes:,} bytes")
        date = _iso_date(record.rec_headers.get_header("WARC-Date") or "")
        record_id = (record.rec_headers.get_header("WARC-Record-ID") or "").strip()
        index.pages.append(_Entry(offset, url, date, record_id))
        return None
    index.resources.setdefault(url, offset)
    if digest:
        digests.setdefault(digest, offset)
    if not mime.startswith(RESOURCE_TYPES):
        return Refused(where, Refusal.NOT_HTML, f"{url}: {mime}")
    return None


def _status(http: Any) -> int | None:
    try:
        return int(http.get_statuscode())
    except (TypeError, ValueError):
        return None


def _iso_date(warc_date: str) -> str:
    """``2024-05-01T08:00:00Z`` (or with a fraction) as the archive writes times."""
    try:
        when = datetime.fromisoformat(warc_date.strip().replace("Z", "+00:00"))
    except ValueError:
        return ""
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def _resolver(resources: dict[str, tuple[Warc, int]],
              limits: ImportLimits) -> Callable[[str], bytes | None]:
    """A page's ``resources``: an address → the payload of its record in the same file, read
    from its offset when asked; None when the file does not hold it, or it cannot be read."""

    def resource(url: str) -> bytes | None:
        place = resources.get(url, resources.get(url.split("#", 1)[0]))
        if place is None:
            return None
        try:
            return payload(*place, limits.resource_bytes)[0]
        except (Unreadable, OSError):
            return None

    return resource


