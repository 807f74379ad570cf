"""Saved HTML files: "Web page, complete" (``name.html`` + ``name_files/``) and SingleFile.

Chrome, Edge and Firefox save a page as its HTML with the resources in a folder beside it,
every reference rewritten to ``name_files/…``; Chrome and Edge (and IE before them) mark the
original address in a ``<!-- saved from url=(NNNN)… -->`` comment. SingleFile puts every
resource inside the page as a ``data:`` URI and the address in its header comment. Either way
the page's own URL is what its references are resolved against, so a reference to a saved
file reads back as ``<page's folder URL>name_files/a.png``; ``resources`` maps such a URL to
the file beside the page, read only inside the page's folder (``Folder``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from lxml import etree, html

from pipeline.intake.confined import Folder
from pipeline.intake.saved_page import Found, ImportLimits, Refusal, Refused, SavedPage, read_whole

# Where the marks are: a page's head, never its whole body (a quoted comment in an article
# must not name the page).
HEAD_BYTES = 64 * 1024
_SAVED_FROM = re.compile(rb"<!--\s*saved from url=\(\s*\d+\s*\)\s*([^\s>]+?)\s*-->", re.I)
_SINGLEFILE = re.compile(rb"<!--\s*Page saved with SingleFile\s+url:\s*(\S+)"
                         rb"(?:\s+saved date:\s*([^\r\n]*))?", re.I)
# SingleFile writes JavaScript's Date.toString(): "Thu Dec 03 2026 13:27:00 GMT+0000 (…)"
_JS_DATE = re.compile(r"\w{3} (\w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2}) GMT([+-]\d{4})")
# The attributes that load a resource (not links to other pages): what a reference that
# climbs out of the page's folder is looked for in.
_LOADING = ("src", "srcset", "data-src", "data-srcset", "poster", "background")


def web_url(candidate: str | None) -> str | None:
    """``candidate`` when it is an absolute http(s) URL with a host, else None."""
    if not candidate:
        return None
    parts = urlsplit(candidate.strip())
    return candidate.strip() if parts.scheme in ("http", "https") and parts.hostname else None


def saved_mark(head: bytes) -> bool:
    """Whether a page's head says it was saved: the ``saved from url`` mark or SingleFile's."""
    return bool(_SAVED_FROM.search(head) or _SINGLEFILE.search(head))


def declared_url(raw: bytes) -> str | None:
    """The page's original URL as the page declares it: the ``saved from url`` mark, else
    ``<link rel=canonical>``, else ``og:url``; None when it names none."""
    head = raw[:HEAD_BYTES]
    mark = _SAVED_FROM.search(head)
    if mark and (url := web_url(mark.group(1).decode("utf-8", "replace"))):
        return url
    root = _parse(raw)
    if root is None:
        return None
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split():
            if url := web_url(link.get("href")):
                return url
    for meta in root.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:url":
            if url := web_url(meta.get("content")):
                return url
    return None


def _parse(raw: bytes) -> etree._Element | None:
    try:
        return html.fromstring(raw)
    except (etree.ParserError, ValueError):
        return None


def read_saved_html(path: Path, limits: ImportLimits) -> Iterator[Found]:
    """An HTML file as saved: a SingleFile page, else a "complete" page (with or without its
    ``_files`` folder)."""
    origin = str(path)
    raw = read_whole(path, limits)
    if isinstance(raw, Refused):
        yield raw
        return
    singlefile = _SINGLEFILE.search(raw[:HEAD_BYTES])
    if singlefile is None and len(raw) > limits.page_bytes:
        yield Refused(origin, Refusal.TOO_LARGE, f"{len(raw)} bytes")
        return
    if singlefile is not None:
        url = web_url(singlefile.group(1).decode("utf-8", "replace"))
        source = "singlefile"
        saved = _js_date((singlefile.group(2) or b"").decode("ascii", "replace"))
    else:
        url = declared_url(raw)
        source, saved = "complete", ""
    folder = Folder(path.parent)
    climbing = _climbing_reference(raw, path, folder, url is not None)
    if climbing is not None:
        yield Refused(origin, *climbing)
        return
    page_url = url or path.resolve().as_uri()
    yield SavedPage(url=page_url, url_known=url is not None, raw=raw, source=source,
                    origin=origin, fetched_at=saved or _modified(path),
                    resources=beside_page(page_url, path, folder, limits.resource_bytes,
                                          _base_href(raw)))


def beside_page(page_url: str, path: Path, folder: Folder, limit: int,
                base_href: str | None = None) -> Callable[[str], bytes | None]:
    """A saved page's resources: a URL under the page's own folder (how a rewritten
    ``name_files/a.png`` reads once resolved), or a file: URL, read from the page's folder.
    Only the path is compared: the page's task URL is its link's canonical form (a host in
    Punycode, escapes in one spelling), which its references are resolved against. A page
    that kept its ``<base href>`` to the original site has its references resolved against
    that instead: a URL under the base's folder is read from the page's folder too."""
    bases = [unquote(urlsplit(urljoin(page_url, ".")).path)]
    if base_href:
        bases.append(unquote(urlsplit(urljoin(urljoin(page_url, base_href), ".")).path))
    here = path.parent.resolve()

    def resource(url: str) -> bytes | None:
        parts = urlsplit(url)
        if parts.scheme == "file":
            return folder.read(_file_path(parts.path), limit)
        if parts.scheme not in ("http", "https"):
            return None
        wanted = unquote(parts.path)
        for base in bases:
            relative = wanted[len(base):] if wanted.startswith(base) else ""
            if relative and (found := folder.read(here / relative, limit)) is not None:
                return found
        return None

    return resource


def _base_href(raw: bytes) -> str | None:
    """The page's ``<base href>`` (the first, as a browser takes it), or None."""
    root = _parse(raw)
    if root is None:
        return None
    for base in root.iter("base"):
        if href := (base.get("href") or "").strip():
            return href
    return None


def _file_path(url_path: str) -> Path:
    """A file: URL's path on this disk (``/C:/x`` a Windows drive's)."""
    path = unquote(url_path)
    return Path(path[1:] if re.match(r"/[A-Za-z]:", path) else path)


def _climbing_reference(raw: bytes, path: Path, folder: Folder,
                        url_known: bool) -> tuple[Refusal, str] | None:
    """The first resource reference of the page that leads out of its folder (``../..``),
    or through a symbolic link, with which it is; None when none does. A path from the root
    (``/img/a.png``) is the site's when the page's URL is known, and the disk's otherwise."""
    root = _parse(raw)
    if root is None:
        return None
    here = path.parent.resolve()
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        values = [el.get(name) for name in _LOADING]
        if el.tag == "link":
            values.append(el.get("href"))
        for value in values:
            for ref in _references(value or ""):
                parts = urlsplit(ref)
                if parts.scheme or parts.netloc or not parts.path:
                    continue
                target = Path(unquote(parts.path))
                if target.is_absolute() and url_known or folder.holds(here / target):
                    continue
                inside = Path(os.path.normpath(here / target)).is_relative_to(folder.root)
                return (Refusal.SYMLINK if inside else Refusal.CLIMBS_OUT), ref
    return None


def _references(value: str) -> list[str]:
    """The URLs of an attribute: itself, or each candidate of a srcset."""
    if "," not in value or " " not in value.strip():
        return [value.strip()] if value.strip() else []
    return [c.strip().split()[0] for c in value.split(",") if c.strip()]


def _js_date(text: str) -> str:
    """SingleFile's saved date as an ISO time, "" when it does not read."""
    found = _JS_DATE.search(text)
    if not found:
        return ""
    try:
        moment = datetime.strptime(f"{found.group(1)} {found.group(2)}", "%b %d %Y %H:%M:%S %z")
    except ValueError:
        return ""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _modified(path: Path) -> str:
    """When the file was saved, as far as the disk tells: its modification time."""
    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")
