"""What every importer yields: a page found in what a person gave to import, or a refusal.

Saved pages ("Web page, complete", MHTML, SingleFile) and web archives (WARC, WACZ) are read
by different importers, but the use case that makes tasks of them (``Workspace.import_pages``)
sees one record: the page's HTML as saved, where it came from, and a way to its saved
resources. A file (or a record inside one) that cannot be imported is a ``Refused`` with a
``Refusal`` code, so the summary, the CLI and the window say why in their own words, and the
rest of the import goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pipeline.records.settings import Settings

SOURCES = ("complete", "mhtml", "singlefile", "warc", "wacz")


def no_resources(url: str) -> bytes | None:
    """The resources of a page saved without any: every image is missing."""
    return None


@dataclass(frozen=True)
class SavedPage:
    """One page found in what a person gave to import: its HTML as saved, and where it came
    from."""

    url: str  # the page's original URL (http/https), or a file: URL when unknown
    url_known: bool  # False: the URL is the file's path (recorded as such in 00_raw/<id>.json)
    raw: bytes  # the page as saved (HTML bytes, undecoded)
    source: str  # what it came from: one of SOURCES
    origin: str  # the file (and record) it was read from, for the summary and 00_raw/<id>.json
    headers: dict[str, str] = field(default_factory=dict)  # the HTTP response headers when known
    fetched_at: str = ""  # ISO time of the capture when known
    # an absolute URL → its saved bytes, or None when the save does not hold it
    resources: Callable[[str], bytes | None] = no_resources


class Refusal(StrEnum):
    """Why a file, or a record in one, is not imported; the value is what the summary and
    the window's reasons are keyed by."""

    UNREADABLE = "unreadable"  # the file cannot be read (permissions, vanished, not a file)
    UNKNOWN_FORMAT = "unknown-format"  # no importer knows what this file is
    SYMLINK = "symlink"  # a symbolic link inside what was given: never followed
    TOO_LARGE = "too-large"  # a page (or a file, or a part) over its size limit
    CLIMBS_OUT = "climbs-out"  # a saved page's resource reference leaves the given folder
    BROKEN_MHTML = "broken-mhtml"  # an MHTML file whose MIME structure does not parse
    NO_HTML = "no-html"  # an archive or MHTML file holding no HTML page
    NOT_HTML = "not-html"  # a record whose payload is not an HTML page
    HTTP_ERROR = "http-error"  # a response record with an error status
    REVISIT = "revisit"  # a WARC revisit record: a page captured again, its payload elsewhere
    TRUNCATED = "truncated"  # a record or a gzip member cut short
    DIGEST_MISMATCH = "digest-mismatch"  # a record whose payload digest does not match
    COMPRESSION_BOMB = "compression-bomb"  # a body that inflates past every sane bound
    DAMAGED = "damaged"  # a record or container that does not parse


# The English sentence of each refusal (the terminal's); the window says them in its
# language by the code.
REFUSALS: dict[Refusal, str] = {
    Refusal.UNREADABLE: "cannot be read",
    Refusal.UNKNOWN_FORMAT: "not a saved page or web archive Kuaibu reads",
    Refusal.SYMLINK: "a symbolic link: never followed",
    Refusal.TOO_LARGE: "larger than the size limit",
    Refusal.CLIMBS_OUT: "a reference leads out of the saved page's folder",
    Refusal.BROKEN_MHTML: "a broken MHTML file: its MIME parts do not parse",
    Refusal.NO_HTML: "holds no HTML page",
    Refusal.NOT_HTML: "not an HTML page",
    Refusal.HTTP_ERROR: "an HTTP error response",
    Refusal.REVISIT: "a revisit record: no page of its own, the same as an earlier capture",
    Refusal.TRUNCATED: "cut short",
    Refusal.DIGEST_MISMATCH: "its payload digest does not match",
    Refusal.COMPRESSION_BOMB: "inflates past every sane size",
    Refusal.DAMAGED: "damaged: it does not parse",
}


@dataclass(frozen=True)
class Refused:
    """A file, or a record in one, that is not imported, and why."""

    origin: str  # the file (and record) refused
    reason: Refusal
    detail: str = ""  # what a person can check: the part, the size, the reference

    @property
    def text(self) -> str:
        """Why, in English, with the detail."""
        return REFUSALS[self.reason] + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class ImportLimits:
    """The bounds every importer keeps: nothing read whole past them, so a huge or hostile
    file is refused, never a memory spike."""

    page_bytes: int  # a page's HTML, as for a fetch (``max_page_bytes``)
    resource_bytes: int  # one saved resource (``max_image_bytes``)
    file_bytes: int  # one file read whole (an MHTML or SingleFile page with its resources)

    @classmethod
    def from_settings(cls, settings: Settings) -> ImportLimits:
        # a single-file save carries its images inside: room for the page and a few of the
        # largest images (85 MB by default), read whole and parsed, so not more
        return cls(page_bytes=settings.max_page_bytes, resource_bytes=settings.max_image_bytes,
                   file_bytes=settings.max_page_bytes + 4 * settings.max_image_bytes)


Found = SavedPage | Refused


def read_whole(path: Path, limits: ImportLimits) -> bytes | Refused:
    """A file an importer reads whole (a saved page, an MHTML file): its bytes, or why not —
    over ``limits.file_bytes`` (looked at before reading), or unreadable."""
    origin = str(path)
    try:
        size = path.stat().st_size
        if size > limits.file_bytes:
            return Refused(origin, Refusal.TOO_LARGE, f"{size} bytes")
        return path.read_bytes()
    except OSError as e:
        return Refused(origin, Refusal.UNREADABLE, e.strerror or str(e))
# An importer: a file (as given, or found walking a folder) → what it holds, one by one; it
# never raises for a bad file (it yields ``Refused``), reads nothing outside what it was given
# and keeps the limits.
Importer = Callable[[Path, ImportLimits], Iterator[Found]]
