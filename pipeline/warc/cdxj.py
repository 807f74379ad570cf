"""The CDXJ index a WACZ carries (``indexes/index.cdxj``): one line a capture, sorted, so a
replay tool (pywb, ReplayWeb.page) finds a URL's records without reading the WARC through.

A line is ``<SURT> <14-digit timestamp> <JSON>``. The SURT is the URL as the field sorts it:
scheme and ``www.`` dropped, the host's labels reversed and joined by commas, ``)`` before
the path, all lowercased, the query's parameters sorted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit


def surt(url: str) -> str:
    """``https://www.Example.com/a/B?z=1&a=2`` → ``com,example)/a/b?a=2&z=1``."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower().rstrip(".")
    if host.startswith("www."):
        host = host[4:]
    labels = host.split(".") if host else []
    key = ",".join(reversed(labels))
    if parts.port and parts.port != {"http": 80, "https": 443}.get(parts.scheme.lower()):
        key += f":{parts.port}"
    path = parts.path or "/"
    query = "&".join(sorted(parts.query.split("&"))) if parts.query else ""
    return (key + ")" + path + (f"?{query}" if query else "")).lower()


@dataclass(frozen=True)
class Capture:
    """One record the export wrote, where it lies in its WARC."""

    url: str
    timestamp: str  # 14 digits, UTC
    mime: str
    status: int | None  # the HTTP status (None: a resource record, which has none)
    digest: str  # the payload digest as written: "sha1:<base32>"
    offset: int
    length: int
    filename: str

    def cdxj_line(self) -> str:
        fields: dict[str, object] = {"url": self.url, "mime": self.mime}
        if self.status is not None:
            fields["status"] = str(self.status)
        fields.update(digest=self.digest, length=str(self.length), offset=str(self.offset),
                      filename=self.filename)
        return f"{surt(self.url)} {self.timestamp} {json.dumps(fields, ensure_ascii=False)}"


def cdxj(captures: list[Capture]) -> str:
    """The index of ``captures``, sorted as a binary search over it expects."""
    return "".join(line + "\n" for line in sorted(c.cdxj_line() for c in captures))
