"""A final response judged and its body read within limits: the status, the content type,
anti-bot pages and documents cut short for an HTML page; the body streamed and counted after
decompression (a gzip bomb stops at the size limit instead of filling memory), each read
within the hop's deadline, an announced body given up on when its pace cannot make it.

Apart from the request (``hops``) because what a body may be, and how much of it, is a
question of what was wanted, not of how the request was sent.
"""

from __future__ import annotations

import re
import time
from http import HTTPStatus

import requests
import urllib3.exceptions
from requests.structures import CaseInsensitiveDict

from pipeline.assets.sniff import looks_like_html
from pipeline.net.causes import root_cause
from pipeline.net.deadline import Hop, check_pace
from pipeline.net.fetcher import Want
from pipeline.records.errors import ErrorKind, FetchError, HttpStatusError, StopRequested
from pipeline.records.failures import Code, failure
from pipeline.records.settings import MB

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# Anti-bot pages often come with these codes; their body decides between "interstitial" and
# the plain status.
CHALLENGE_STATUSES = frozenset({403, 429, 503})

# Challenge pages are small; a real article page that merely mentions "captcha" is rarely
# this short, so only short bodies are searched for markers.
INTERSTITIAL_MAX_BYTES = 32 * 1024
INTERSTITIAL_MARKERS = (
    "正在验证", "请稍候", "安全验证", "人机验证",
    "just a moment", "checking your browser", "verify you are human", "captcha",
)
_CHUNK = 64 * 1024
# A document that opened <html> (or its doctype) and was sent until the connection closed must
# end in </html>: else the connection broke. Not ``looks_like_html``: a body that opens only
# <head> or <body> may end without </html> and be whole.
_HTML_OPEN = re.compile(rb"<html[\s>]|<!doctype\s+html", re.I)
_HTML_END = re.compile(rb"</html\s*>", re.I)


def looks_interstitial(body: bytes) -> bool:
    """A short page carrying an anti-bot marker, read as UTF-8 and as GB18030 alike."""
    if len(body) > INTERSTITIAL_MAX_BYTES:
        return False
    texts = (body.decode("utf-8", "replace").lower(), body.decode("gb18030", "replace").lower())
    return any(marker in text for text in texts for marker in INTERSTITIAL_MARKERS)


def judged_body(
    want: Want, hop: Hop, response: requests.Response, status: int,
    headers: CaseInsensitiveDict[str],
) -> bytes:
    """Read the body when it can matter, and raise for anything that is not what was wanted."""
    mime = headers.get("Content-Type", "").split(";")[0].strip().lower()
    ok = 200 <= status < 300
    if not want.html_page:
        if not ok:
            raise _status_error(status, headers)
        return _read_body(want, hop, response)
    if not ok and not (status in CHALLENGE_STATUSES and mime in HTML_TYPES):
        raise _status_error(status, headers)
    if ok and mime and mime not in HTML_TYPES:
        raise FetchError(failure(Code.NOT_HTML, mime), kind=ErrorKind.NOT_HTML)
    body = _read_body(want, hop, response)
    if looks_interstitial(body):
        raise FetchError(failure(Code.INTERSTITIAL), kind=ErrorKind.INTERSTITIAL,
                         retryable=True)
    if not ok:
        raise _status_error(status, headers)
    if not mime and not looks_like_html(body):
        raise FetchError(failure(Code.NOT_HTML_UNTYPED), kind=ErrorKind.NOT_HTML)
    close_delimited = "Content-Length" not in headers and "chunked" not in (
        headers.get("Transfer-Encoding", "").lower()
    )
    if close_delimited and _HTML_OPEN.search(body[:4096]) and not _HTML_END.search(body):
        raise FetchError(failure(Code.CUT_SHORT), kind=ErrorKind.TRUNCATED, retryable=True)
    return body


def _read_body(want: Want, hop: Hop, response: requests.Response) -> bytes:
    """Stream the body, counting decompressed bytes against the limit; an announced length
    over the limit fails before anything is read. Each read waits at most the time left of
    the hop's deadline, and the loop checks it, whatever the body's shape."""
    limit = want.max_bytes
    too_large = FetchError(failure(Code.TOO_LARGE, want.noun, f"{limit / MB:g}"),
                           kind=ErrorKind.TOO_LARGE)
    announced = response.headers.get("Content-Length", "")
    if announced.isdigit() and int(announced) > limit and not response.headers.get(
        "Content-Encoding"
    ):
        raise too_large
    body = bytearray()
    started = time.monotonic()
    expected = int(announced) if announced.isdigit() else None
    try:
        # read1: whatever has arrived (up to a chunk), so a slow body is seen as it comes
        while True:
            hop.before_read()
            if not (chunk := response.raw.read1(_CHUNK, decode_content=True)):
                break
            body += chunk
            if len(body) > limit:
                raise too_large
            if hop.cancel.is_set():
                raise StopRequested()
            if expected is not None:
                check_pace(response.raw.tell(), expected, time.monotonic() - started,
                           want.deadline)
    except urllib3.exceptions.ReadTimeoutError:
        raise FetchError(
            failure(Code.BODY_STALLED, f"{hop.read_timeout:g}"),
            kind=ErrorKind.NETWORK, retryable=True,
        ) from None
    except urllib3.exceptions.ProtocolError as e:
        incomplete = next(
            (a for a in e.args if isinstance(a, urllib3.exceptions.IncompleteRead)), None
        )
        if incomplete is not None:
            total = incomplete.partial + incomplete.expected
            raise FetchError(
                failure(Code.TRUNCATED, incomplete.partial, total),
                kind=ErrorKind.TRUNCATED, retryable=True,
            ) from None
        raise FetchError(
            failure(Code.CONNECTION_BROKEN, want.noun, root_cause(e)),
            kind=ErrorKind.NETWORK, retryable=True,
        ) from None
    except urllib3.exceptions.DecodeError as e:
        raise FetchError(failure(Code.CORRUPT, root_cause(e)),
                         kind=ErrorKind.TRUNCATED) from None
    return bytes(body)


def _status_error(status: int, headers: CaseInsensitiveDict[str]) -> HttpStatusError:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    return HttpStatusError(
        status,
        failure(Code.HTTP_STATUS, status, phrase) if phrase
        else failure(Code.HTTP_STATUS_UNNAMED, status),
        retryable=status in RETRY_STATUSES,
        retry_after=headers.get("Retry-After"),
    )
