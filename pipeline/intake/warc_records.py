"""One record of a WARC read from its offset, within limits (issue 31; ``warc_reader``'s
second step, and each resource a page asks for).

A WARC is a file, or a WARC stored inside a WACZ, read as a byte range of the zip
(``Warc``, ``_Window``). warcio parses the records, over a reader whose lines are bounded
(``Records``: a gzip member inflating to one endless line is damage, not a memory spike).
``payload`` reads one record's payload within a limit, checks its ``WARC-Payload-Digest``,
and undoes the transfer and content codings within the limit (a gzip bomb is refused, not
inflated); what cannot be read is ``Unreadable`` with its ``Refusal``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brotli
from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import ChunkedDataReader, DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed

from pipeline.intake.saved_page import Refusal
from pipeline.warc.http_block import WIRE_HEADERS

# a body that inflates more than this many times over is a bomb, not a page too large
BOMB_RATIO = 100
# a record's header lines (WARC and HTTP) past these are damage (or a bomb), never read whole
LINE_BYTES = 1 << 20
HEADER_BYTES = 4 << 20
CHUNK = 1 << 16
# what warcio and the decoders raise on a damaged record (warcio reads a header a damaged
# record lacks as None, and raises AttributeError or TypeError there)
PARSE_ERRORS = (ArchiveLoadFailed, zlib.error, EOFError, ValueError, IndexError, KeyError,
                OSError, brotli.error, AttributeError, TypeError)
GZIP_MAGIC = b"\x1f\x8b\x08"
_DIGESTS = frozenset(("sha1", "sha256", "sha512", "md5"))


class Unreadable(Exception):
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


class Records(ArchiveIterator):  # type: ignore[misc]
    """warcio's record iterator over ``_BoundedReader``, quiet: it would write a damaged
    record's bytes to stderr, where the refusal says what is wrong."""

    INC_RECORD = ""

    def __init__(self, fileobj: io.RawIOBase) -> None:
        super().__init__(fileobj)
        self.reader = _BoundedReader(self.fh)

    def __iter__(self) -> Records:  # warcio's own hands out its generator, skipping this
        return self

    def __next__(self) -> Any:
        self.reader.lines_read = 0
        return super().__next__()


@dataclass(frozen=True)
class Warc:
    """One WARC to read: a file, or a stored member of a WACZ (its byte range)."""

    path: Path
    start: int
    length: int
    origin: str  # how a person finds it: the file, or "file.wacz!archive/data.warc.gz"
    source: str  # "warc" or "wacz"
    gzipped: bool

    def open(self) -> _Window:
        return _Window(self.path, self.start, self.length)


def cut_short(error: Exception) -> bool:
    text = str(error).lower()
    return isinstance(error, EOFError) or "truncated" in text or "incomplete" in text


def payload(warc: Warc, offset: int, limit: int) -> tuple[bytes, dict[str, str]]:
    """The record at ``offset``: its payload as the server meant it (transfer and content
    codings undone) within ``limit`` bytes, and its HTTP headers (those of the wire form
    left out); raises Unreadable with the refusal."""
    with warc.open() as f:
        f.seek(offset)
        try:
            record = next(Records(f))
            raw = record.raw_stream.read(limit + 1)
            if len(raw) > limit:
                raise Unreadable(Refusal.TOO_LARGE, f"> {limit:,} bytes")
            if record.length is not None:
                expected = record.length - (record.http_headers.total_len
                                            if record.http_headers else 0)
                if len(raw) < expected:
                    raise Unreadable(Refusal.TRUNCATED, f"{len(raw):,} / {expected:,} bytes")
        except StopIteration:
            raise Unreadable(Refusal.DAMAGED, "") from None
        except PARSE_ERRORS as e:
            reason = Refusal.TRUNCATED if cut_short(e) else Refusal.DAMAGED
            raise Unreadable(reason, "") from None
    _check_digest(record.rec_headers.get_header("WARC-Payload-Digest"), raw)
    http = record.http_headers if record.rec_type != "resource" else None
    headers = {k: v for k, v in (http.headers if http else [])}
    if http is None and (mime := record.rec_headers.get_header("Content-Type")):
        headers["Content-Type"] = mime
    coding = {k.lower(): v.strip().lower() for k, v in headers.items()
              if k.lower() in ("transfer-encoding", "content-encoding")}
    content_coding = coding.get("content-encoding", "")
    try:
        if "chunked" in coding.get("transfer-encoding", ""):
            raw = _dechunk(raw)
        raw = _decode(raw, content_coding, limit)
    except PARSE_ERRORS:  # a body its coding does not describe
        raise Unreadable(Refusal.DAMAGED, f"Content-Encoding: {content_coding}") from None
    return raw, {k: v for k, v in headers.items() if k.lower() not in WIRE_HEADERS}


def _check_digest(declared: str | None, body: bytes) -> None:
    """The record's ``WARC-Payload-Digest`` against its payload (SHA-1, SHA-256, SHA-512 or
    MD5, base32 or hex); a digest of another algorithm is not checked."""
    if not declared or ":" not in declared:
        return
    algorithm, _, value = declared.partition(":")
    name = algorithm.strip().lower().replace("-", "")
    if name not in _DIGESTS:  # a name from the file: only the fixed-length digests warcs use
        return
    digest = hashlib.new(name, body).digest()
    value = value.strip()
    if value.upper() not in (base64.b32encode(digest).decode(), digest.hex().upper()):
        raise Unreadable(Refusal.DIGEST_MISMATCH, declared)


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
            raise Unreadable(Refusal.TRUNCATED, f"Content-Encoding: {coding}")
        taken = len(raw) - len(inflater.unconsumed_tail)
    elif coding == "br":
        out = brotli.Decompressor().process(raw, output_buffer_limit=limit + 1)
        taken = len(raw)
    else:
        raise Unreadable(Refusal.DAMAGED, f"Content-Encoding: {coding}")
    if len(out) > limit:
        if len(out) > BOMB_RATIO * max(taken, 1):
            raise Unreadable(Refusal.COMPRESSION_BOMB, f"{taken:,} {coding} bytes →"
                              f" > {limit:,}")
        raise Unreadable(Refusal.TOO_LARGE, f"{coding} → > {limit:,} bytes")
    return out
