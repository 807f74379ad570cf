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
2. **Pages** (``_page``): each page's record is read again from its offset, its payload read
   within the page limit, its digest checked, its transfer coding and content coding undone
   within the limit (a gzip bomb is refused, not inflated), and yielded; a response that an
   HTML ``conversion`` record refers to (Kuaibu's export of a page its browser rendered) is
   yielded as that DOM, what its article was read from. Its ``resources``
   read a resource's record from its offset when asked: payloads are never held.

A WARC compressed as a whole (one gzip member, not one a record) cannot be read from an
offset; it is refused with what fixes it (``warcio recompress``).
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import brotli
from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import ChunkedDataReader, DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed

from pipeline.assets.sniff import looks_like_html
from pipeline.intake.saved_page import Found, ImportLimits, Refusal, Refused, SavedPage
from pipeline.warc.http_block import WIRE_HEADERS, declared_type, media_type

WARC_SUFFIXES = (".warc", ".warc.gz", ".wacz")
HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))
# what a page asks for beside itself: indexed quietly, never refused as "not HTML"
RESOURCE_TYPES = ("image/", "text/css", "font/", "application/font", "application/x-font",
                  "text/javascript", "application/javascript", "application/x-javascript",
                  "application/ecmascript", "audio/", "video/", "application/octet-stream")
# a body that inflates more than this many times over is a bomb, not a page too large
BOMB_RATIO = 100
# a record's header lines (WARC and HTTP) past these are damage (or a bomb), never read whole
LINE_BYTES = 1 << 20
HEADER_BYTES = 4 << 20
_CHUNK = 1 << 16
_PARSE_ERRORS = (ArchiveLoadFailed, zlib.error, EOFError, ValueError, IndexError, KeyError,
                 OSError, brotli.error)
_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."


class _Unreadable(Exception):
    """A record's payload that cannot be imported: its refusal."""

    def __init__(self, reason: Refusal, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


class _Window(io.RawIOBase):
    """A byte range of a file as a file of its own (a WARC stored inside a WACZ), so that
    reading past the WARC's end never reads the zip's next member."""

    def __init__(self, path: Path, start: int, length: int) -> None:
        self._file = open(path, "rb")  # noqa: SIM115 - closed with the window
        self._start, self._length, self._pos = start, length, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._length}[whence]
        self._pos = max(0, min(self._length, base + offset))
        return self._pos

    def readinto(self, buffer: Any) -> int:
        want = min(len(buffer), self._length - self._pos)
        if want <= 0:
            return 0
        self._file.seek(self._start + self._pos)
        data = self._file.read(want)
        buffer[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()


class _BoundedReader(DecompressingBufferedReader):  # type: ignore[misc]
    """warcio's reader with every line cut at ``LINE_BYTES`` and a record's lines together
    at ``HEADER_BYTES``: a gzip member that inflates to gigabytes without a line break would
    otherwise be read into memory as one line."""

    lines_read = 0

    def readline(self, length: int | None = None) -> bytes:
        line: bytes = super().readline(LINE_BYTES if length is None
                                       else min(length, LINE_BYTES))
        self.lines_read += len(line)
        if self.lines_read > HEADER_BYTES:
            raise ValueError(f"header lines over {HEADER_BYTES:,} bytes")
        return line


class _Records(ArchiveIterator):  # type: ignore[misc]
    """warcio's record iterator over ``_BoundedReader``, quiet: it would write a damaged
    record's bytes to stderr, where the refusal says what is wrong."""

    INC_RECORD = ""

    def __init__(self, fileobj: io.RawIOBase) -> None:
        super().__init__(fileobj)
        self.reader = _BoundedReader(self.fh)

    def __iter__(self) -> _Records:  # warcio's own hands out its generator, skipping this
        return self

    def __next__(self) -> Any:
        self.reader.lines_read = 0
        return super().__next__()


@dataclass(frozen=True)
class _Warc:
    """One WARC to read: a file, or a stored member of a WACZ (its byte range)."""

    path: Path
    start: int
    length: int
    origin: str  # how a person finds it: the file, or "file.wacz!archive/data.warc.gz"
    source: str  # "warc" or "wacz"
    gzipped: bool

    def open(self) -> _Window:
        return _Window(self.path, self.start, self.length)


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
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as e:
        yield Refused(str(path), Refusal.DAMAGED, str(e)[:200])
        return
    # every WARC of the file indexed first: a crawl rolls over to a new WARC where it will,
    # and a page's images may lie in the next one (Browsertrix's WACZ of several WARCs)
    indexed: list[tuple[_Warc, _Index]] = []
    resources: dict[str, tuple[_Warc, int]] = {}
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


def _warcs_in(path: Path) -> Iterator[_Warc | Refused]:
    """The WARCs in a file: itself, or the WARCs a WACZ stores under ``archive/``."""
    name = path.name.lower()
    if not name.endswith(".wacz"):
        with open(path, "rb") as f:
            gzipped = f.read(3) == _GZIP_MAGIC
        yield _Warc(path, 0, path.stat().st_size, str(path), "warc", gzipped)
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
            gzipped = raw.read(3) == _GZIP_MAGIC
            yield _Warc(path, start, info.compress_size, origin, "wacz", gzipped)


@dataclass
class _Index:
    pages: list[_Entry]
    # an address → its record's offset; the first capture of an address wins
    resources: dict[str, int]
    # a response's record id → the offset of the HTML a browser made of it (a ``conversion``
    # record that refers to it: Kuaibu's export of a rendered page)
    rendered: dict[str, int] = field(default_factory=dict)


def _pages(warc: _Warc, index: _Index, resources: Callable[[str], bytes | None],
           limits: ImportLimits) -> Iterator[Found]:
    """The pages ``index`` found in ``warc``, each read from its offset."""
    for entry in index.pages:
        origin = _at(warc.origin, entry.offset)
        try:
            raw, headers = _payload(warc, entry.offset, limits.page_bytes)
            if (dom := index.rendered.get(entry.record_id)) is not None:
                # the page as its scripts built it, what the article was read from: UTF-8
                raw = _payload(warc, dom, limits.page_bytes)[0]
                headers = {**{k: v for k, v in headers.items()
                              if k.lower() != "content-type"},
                           "Content-Type": "text/html; charset=utf-8"}
        except _Unreadable as e:
            yield Refused(origin, e.reason, e.detail)
            continue
        if declared_type(headers) not in HTML_TYPES and not looks_like_html(raw):
            yield Refused(origin, Refusal.NOT_HTML, entry.url)
            continue
        yield SavedPage(url=entry.url, url_known=True, raw=raw, source=warc.source,
                        origin=origin, headers=headers, fetched_at=entry.date,
                        resources=resources)


def _index(warc: _Warc, limits: ImportLimits, index: _Index) -> Iterator[Refused]:
    """One pass over the records (see the module's docstring), picking up after damage at
    the next record start found; the refusals as found."""
    digests: dict[str, int] = {}
    position = 0
    with warc.open() as f:
        while position < warc.length:
            f.seek(position)
            records = _Records(f)
            current = position
            whole = -1  # the last record read to its payload's end
            try:
                for record in records:
                    current = records.offset
                    refused = _note(record, current, limits, index, digests, warc.origin)
                    while record.raw_stream.read(_CHUNK):
                        pass
                    whole = current
                    records.read_to_end()  # the blank lines after it, to the next record
                    if refused is not None:
                        yield refused
                return
            except _PARSE_ERRORS as e:
                if "non-chunked" in str(e).lower():
                    # gzipped as a whole, not record by record: warcio's tool makes it readable
                    yield Refused(warc.origin, Refusal.DAMAGED, f"warcio recompress"
                                  f" {warc.path.name} {_fixed_name(warc.path.name)}")
                    return
                # the record being read: warcio moves its offset on once one is whole (and
                # may misplace it in a damaged member: never behind the last record read)
                current = max(records.offset, current)
                reason = Refusal.TRUNCATED if _cut_short(e) else Refusal.DAMAGED
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


def _cut_short(error: Exception) -> bool:
    text = str(error).lower()
    return isinstance(error, EOFError) or "truncated" in text or "incomplete" in text


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
    magic = _GZIP_MAGIC if gzipped else b"\n" + _WARC_MAGIC
    skip = 0 if gzipped else 1
    position = after
    tail = b""
    while position < end:
        f.seek(position)
        chunk = f.read(_CHUNK)
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
        if record.length is not None and record.length > limits.page_bytes + _CHUNK:
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


def _resolver(resources: dict[str, tuple[_Warc, int]],
              limits: ImportLimits) -> Callable[[str], bytes | None]:
    """A page's ``resources``: an address → the payload of its record in the same file, read
    from its offset when asked; None when the file does not hold it, or it cannot be read."""

    def resource(url: str) -> bytes | None:
        place = resources.get(url, resources.get(url.split("#", 1)[0]))
        if place is None:
            return None
        try:
            return _payload(*place, limits.resource_bytes)[0]
        except (_Unreadable, OSError):
            return None

    return resource


def _payload(warc: _Warc, offset: int, limit: int) -> tuple[bytes, dict[str, str]]:
    """The record at ``offset``: its payload as the server meant it (transfer and content
    codings undone) within ``limit`` bytes, and its HTTP headers (those of the wire form
    left out); raises _Unreadable with the refusal."""
    with warc.open() as f:
        f.seek(offset)
        try:
            record = next(_Records(f))
            raw = record.raw_stream.read(limit + 1)
            if len(raw) > limit:
                raise _Unreadable(Refusal.TOO_LARGE, f"> {limit:,} bytes")
            if record.length is not None:
                expected = record.length - (record.http_headers.total_len
                                            if record.http_headers else 0)
                if len(raw) < expected:
                    raise _Unreadable(Refusal.TRUNCATED, f"{len(raw):,} / {expected:,} bytes")
        except StopIteration:
            raise _Unreadable(Refusal.DAMAGED, "") from None
        except _PARSE_ERRORS as e:
            reason = Refusal.TRUNCATED if _cut_short(e) else Refusal.DAMAGED
            raise _Unreadable(reason, "") from None
    _check_digest(record.rec_headers.get_header("WARC-Payload-Digest"), raw)
    http = record.http_headers if record.rec_type != "resource" else None
    headers = {k: v for k, v in (http.headers if http else [])}
    if http is None and (mime := record.rec_headers.get_header("Content-Type")):
        headers["Content-Type"] = mime
    coding = {k.lower(): v.strip().lower() for k, v in headers.items()
              if k.lower() in ("transfer-encoding", "content-encoding")}
    if "chunked" in coding.get("transfer-encoding", ""):
        raw = _dechunk(raw)
    raw = _decode(raw, coding.get("content-encoding", ""), limit)
    return raw, {k: v for k, v in headers.items() if k.lower() not in WIRE_HEADERS}


def _check_digest(declared: str | None, payload: bytes) -> None:
    """The record's ``WARC-Payload-Digest`` against its payload (SHA-1 or SHA-256, base32 or
    hex); a digest of another algorithm is not checked."""
    if not declared or ":" not in declared:
        return
    algorithm, _, value = declared.partition(":")
    try:
        digest = hashlib.new(algorithm.strip().lower().replace("-", ""), payload).digest()
    except ValueError:
        return
    value = value.strip()
    if value.upper() not in (base64.b32encode(digest).decode(), digest.hex().upper()):
        raise _Unreadable(Refusal.DIGEST_MISMATCH, declared)


def _dechunk(raw: bytes) -> bytes:
    """A chunked body's content (as a crawler that keeps the wire form stored it)."""
    reader = ChunkedDataReader(io.BytesIO(raw))
    return reader.read() if raw else raw


def _decode(raw: bytes, coding: str, limit: int) -> bytes:
    """Undo a content coding within ``limit`` bytes of output: more is too large, and more
    than ``BOMB_RATIO`` times the input it took a bomb."""
    if coding in ("", "identity"):
        return raw
    if coding in ("gzip", "x-gzip", "deflate"):
        wbits = 47 if coding != "deflate" else (15 if raw[:1] == b"\x78" else -15)
        inflater = zlib.decompressobj(wbits)
        out = inflater.decompress(raw, limit + 1)
        if not inflater.eof and len(out) <= limit:
            raise _Unreadable(Refusal.TRUNCATED, f"Content-Encoding: {coding}")
        taken = len(raw) - len(inflater.unconsumed_tail)
    elif coding == "br":
        out = brotli.Decompressor().process(raw, output_buffer_limit=limit + 1)
        taken = len(raw)
    else:
        raise _Unreadable(Refusal.DAMAGED, f"Content-Encoding: {coding}")
    if len(out) > limit:
        if len(out) > BOMB_RATIO * max(taken, 1):
            raise _Unreadable(Refusal.COMPRESSION_BOMB, f"{taken:,} {coding} bytes →"
                              f" > {limit:,}")
        raise _Unreadable(Refusal.TOO_LARGE, f"{coding} → > {limit:,} bytes")
    return out
