"""MHTML / MHT files: a page and its resources as one MIME message (RFC 2557).

Chrome's "Webpage, single file" (and Playwright's ``Page.captureSnapshot``), IE's "Web
Archive" and the Chinese web-clipping tools of its era write one ``multipart/related``
message: the page is a ``text/html`` part, each resource a part named by its
``Content-Location`` (or ``Content-ID``), in quoted-printable or base64. The standard library's
email parser reads it; a message whose boundary never comes, or never closes, is refused as
broken rather than imported half-read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from email import errors, policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path

from pipeline.intake.saved_html import declared_url, web_url
from pipeline.intake.saved_page import Found, ImportLimits, Refusal, Refused, SavedPage, read_whole

# A multipart message with one of these is not what its writer wrote: a boundary lost
# (the file cut short, or edited) leaves the parts unknowable.
_BROKEN = (errors.StartBoundaryNotFoundDefect, errors.CloseBoundaryNotFoundDefect,
           errors.NoBoundaryInMultipartDefect, errors.MultipartInvariantViolationDefect,
           errors.MisplacedEnvelopeHeaderDefect)


def read_mhtml(path: Path, limits: ImportLimits) -> Iterator[Found]:
    """The page an MHTML file holds, its resources read from its parts."""
    origin = str(path)
    data = read_whole(path, limits)
    if isinstance(data, Refused):
        yield data
        return
    message = BytesParser(policy=policy.default).parsebytes(data)
    broken = _broken(message)
    if broken:
        yield Refused(origin, Refusal.BROKEN_MHTML, broken)
        return
    parts = [p for p in message.walk() if not p.is_multipart()]
    snapshot = str(message.get("Snapshot-Content-Location", "")).strip()
    pages = [p for p in parts if p.get_content_type() in ("text/html", "application/xhtml+xml")]
    page = next((p for p in pages if _location(p) == snapshot), pages[0] if pages else None)
    if page is None:
        yield Refused(origin, Refusal.NO_HTML, message.get_content_type())
        return
    raw = _payload(page)
    if raw is None:
        yield Refused(origin, Refusal.BROKEN_MHTML, "the page's part does not decode")
        return
    if len(raw) > limits.page_bytes:
        yield Refused(origin, Refusal.TOO_LARGE, f"the page is {len(raw)} bytes")
        return
    url = (web_url(snapshot) or web_url(_location(page)) or web_url(message.get("Content-Location"))
           or declared_url(raw))
    content_type = page.get("Content-Type")
    yield SavedPage(url=url or path.resolve().as_uri(), url_known=url is not None, raw=raw,
                    source="mhtml", origin=origin,
                    headers={"Content-Type": str(content_type)} if content_type else {},
                    fetched_at=_date(message),
                    resources=_parts_by_address(parts, page, limits.resource_bytes))


def _broken(message: Message) -> str:
    """What breaks the message's MIME structure, "" when nothing does."""
    for part in message.walk():
        for defect in part.defects:
            if isinstance(defect, _BROKEN):
                return type(defect).__name__.removesuffix("Defect")
    if message.get_content_maintype() == "multipart" and not message.get_payload():
        return "NoParts"
    return ""


def _location(part: Message) -> str:
    return str(part.get("Content-Location", "")).strip()


def _payload(part: Message) -> bytes | None:
    """A part's body with its transfer encoding (quoted-printable, base64) undone."""
    try:
        body = part.get_payload(decode=True)
    except (ValueError, LookupError):
        return None
    return body if isinstance(body, bytes) else None


def _parts_by_address(parts: list[EmailMessage], page: Message,
                      limit: int) -> Callable[[str], bytes | None]:
    """A resource by its address: a part's Content-Location, or ``cid:`` and its Content-ID;
    a part over ``limit`` reads as missing (the image stage would refuse it anyway)."""
    by_address: dict[str, Message] = {}
    for part in parts:
        if part is page:
            continue
        if location := _location(part):
            by_address.setdefault(location, part)
        if cid := str(part.get("Content-ID", "")).strip().strip("<>"):
            by_address.setdefault(f"cid:{cid}", part)

    def resource(url: str) -> bytes | None:
        part = by_address.get(url)
        body = _payload(part) if part is not None else None
        return body if body is not None and len(body) <= limit else None

    return resource


def _date(message: Message) -> str:
    """The snapshot's time from its Date header, "" when it has none that reads."""
    try:
        return parsedate_to_datetime(str(message.get("Date", ""))).isoformat(timespec="seconds")
    except (TypeError, ValueError):
        return ""
