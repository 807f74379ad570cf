"""The HTTP parts of a WARC record made from what the archive keeps of a fetch.

The archive keeps a page's body as the fetch decompressed it (``RawPage.body``) and the final
response's headers beside it, not the bytes on the wire. A response record says what its body
is, so the headers that described the wire form go (``Content-Encoding``,
``Transfer-Encoding``) and ``Content-Length`` is the stored body's; every other header is
written as the server sent it. The archive keeps no request headers: the request record holds
what a fetch of this archive sends (method, target, Host, User-Agent, Accept,
Accept-Language), and says it was made again.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders

# headers that describe the bytes on the wire, which the archive does not keep
WIRE_HEADERS = frozenset(("content-encoding", "transfer-encoding", "content-length"))


def media_type(content_type: object) -> str:
    """The media type a Content-Type value names (``text/html``), lowercased; "" for none."""
    return str(content_type or "").split(";", 1)[0].strip().lower()


def declared_type(headers: Mapping[str, object]) -> str:
    """The media type a header set declares (its Content-Type, named in any case)."""
    return media_type(next((v for k, v in headers.items() if k.lower() == "content-type"), ""))


def _clean(text: object) -> str:
    """A header name or value on one line (a stored record is a file a person could edit)."""
    return " ".join(str(text).split())


def response_headers(status: int, headers: Mapping[str, object],
                     body_length: int) -> StatusAndHeaders:
    """The status line and headers of a response record whose payload is the stored body."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Unknown"
    kept = [(_clean(name), _clean(value)) for name, value in headers.items()
            if name.lower() not in WIRE_HEADERS and _clean(name)]
    kept.append(("Content-Length", str(body_length)))
    return StatusAndHeaders(f"{status} {phrase}", kept, protocol="HTTP/1.1")


def request_headers(url: str, headers: Mapping[str, str]) -> StatusAndHeaders:
    """A GET for ``url`` as this archive's fetch sends it (``headers``: User-Agent, Accept,
    Accept-Language)."""
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    fields = [("Host", parts.netloc.rsplit("@", 1)[-1])]
    fields += [(_clean(name), _clean(value)) for name, value in headers.items()]
    return StatusAndHeaders(f"GET {target} HTTP/1.1", fields, protocol="",
                            is_http_request=True)
