"""Reading an EPUB back: its table of contents, its chapters in reading order, and the files
they use — for a reader (the window's own, when the system has none), and any EPUB, not only
the ones Kuaibu binds.

The way every reading system goes: ``META-INF/container.xml`` names the package document
(the OPF); its manifest and spine give the chapters in order; the table of contents is the
EPUB 3 navigation document, else the EPUB 2 NCX, else the spine itself. Pure over an open
zip: a file that lies about its sizes, nests without end or declares entities gets no further
than ``ReadingLimits`` allows, and any damage is one ``BookUnreadable`` line (what was wrong,
in which file), never a traceback.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from pipeline.records.errors import KuaibuError
from pipeline.records.failures import Code, Failure, failure

_CONTAINER = "META-INF/container.xml"
_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
_OPS_TYPE = "{http://www.idpf.org/2007/ops}type"
_XHTML = "{http://www.w3.org/1999/xhtml}"
_CHAPTER_TYPES = frozenset(("application/xhtml+xml", "text/html", "application/x-dtbook+xml"))
_MB = 1024 * 1024
# Entities off (no billion laughs, no files read through them), no network, no DTD.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                          huge_tree=False, remove_comments=True, remove_pis=True)


@dataclass(frozen=True)
class ReadingLimits:
    """What a reader takes from one book; a book past them is refused with the limit named."""

    part_bytes: int = 32 * _MB  # one chapter, picture or stylesheet, as it unpacks
    package_bytes: int = 4 * _MB  # container.xml, the OPF, the navigation document or NCX
    parts: int = 50_000  # files in the zip
    toc_entries: int = 20_000
    toc_depth: int = 12  # deeper entries are listed at this depth


class BookUnreadable(KuaibuError):
    """A book that cannot be read: not a zip, a part missing, damaged or too large, XML that
    does not parse. The message is one line naming the book and what is wrong."""


@dataclass(frozen=True)
class TocEntry:
    """One line of the table of contents: its title, the chapter it opens (an index into
    ``BookContents.spine``), the place in it (an id, or "") and how deep it is nested."""

    title: str
    chapter: int
    fragment: str
    depth: int


@dataclass(frozen=True)
class BookContents:
    """A book as a reader walks it: ``spine`` is the zip names of its chapters in reading
    order, ``start`` the one a reader opens at (where the book says its text begins — past
    the cover and the index — else the first); ``toc`` what its contents list shows."""

    title: str
    language: str
    spine: tuple[str, ...]
    toc: tuple[TocEntry, ...]
    start: int = 0


def unreadable(book: str, why: Failure) -> BookUnreadable:
    return BookUnreadable(failure(Code.BOOK_UNREADABLE, book, why))


@contextmanager
def open_book(path: Path) -> Iterator[zipfile.ZipFile]:
    """The book at ``path`` as an open zip; BookUnreadable when it is none or cannot be read."""
    try:
        book = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as e:
        raise unreadable(path.name, failure(Code.BOOK_NOT_ZIP, _first_line(e))) from None
    except OSError as e:
        raise unreadable(path.name, failure(Code.BOOK_FILE, e.strerror or _first_line(e))) \
            from None
    with book:
        yield book


def read_contents(book: zipfile.ZipFile, name: str,
                  limits: ReadingLimits = ReadingLimits()) -> BookContents:
    """The contents of the open ``book`` (``name``: how the message calls it)."""
    try:
        if len(book.infolist()) > limits.parts:
            raise _Damage(failure(Code.BOOK_TOO_MANY_PARTS, f"{limits.parts:,}"))
        container = _xml(book, _CONTAINER, limits.package_bytes)
        rootfile = next((el.get("full-path", "") for el in container.iter()
                         if isinstance(el.tag, str) and el.tag.endswith("rootfile")), "")
        opf_name = part_named("", rootfile)
        if not opf_name:
            raise _Damage(failure(Code.BOOK_NO_PACKAGE, _CONTAINER))
        opf = _xml(book, opf_name, limits.package_bytes)
        return _contents(book, opf_name, opf, limits)
    except _Damage as e:
        raise unreadable(name, e.why) from None


def read_part(book: zipfile.ZipFile, name: str, part: str,
              limits: ReadingLimits = ReadingLimits()) -> bytes:
    """The bytes of one file of the open ``book`` (a picture, a stylesheet), within
    ``limits.part_bytes``."""
    try:
        return _read(book, part, limits.part_bytes)
    except _Damage as e:
        raise unreadable(name, e.why) from None


def read_chapter(book: zipfile.ZipFile, name: str, part: str,
                 limits: ReadingLimits = ReadingLimits()) -> str:
    """One chapter's XHTML as text (EPUB allows UTF-8 and UTF-16; a wrong byte is shown as
    U+FFFD rather than refusing the chapter)."""
    data = read_part(book, name, part, limits)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


class _Damage(Exception):
    """What is wrong with the book, before it is named (``unreadable``)."""

    def __init__(self, why: Failure) -> None:
        super().__init__(str(why))
        self.why = why


def _read(book: zipfile.ZipFile, part: str, limit: int) -> bytes:
    try:
        info = book.getinfo(part)
    except KeyError:
        raise _Damage(failure(Code.BOOK_PART_MISSING, part)) from None
    too_large = failure(Code.BOOK_PART_TOO_LARGE, part, f"{limit / _MB:g}")
    if info.file_size > limit:
        raise _Damage(too_large)
    try:
        with book.open(info) as stream:
            data = stream.read(limit + 1)  # the size the zip declares may be a lie
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
            ValueError, OSError) as e:
        raise _Damage(failure(Code.BOOK_PART_DAMAGED, part, _first_line(e))) from None
    if len(data) > limit:
        raise _Damage(too_large)
    return data


def _xml(book: zipfile.ZipFile, part: str, limit: int) -> etree._Element:
    data = _read(book, part, limit)
    try:
        return etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as e:
        raise _Damage(failure(Code.BOOK_BAD_XML, part, _first_line(e))) from None


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def part_named(base: str, href: str) -> str:
    """The zip name ``href`` (a URL relative to the book's file ``base``) points to; "" for
    a link out of the book or above its root."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return ""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(base), unquote(parts.path)))
    return "" if path.startswith(("../", "/")) or path in (".", "..") else path


def _text(el: etree._Element | None) -> str:
    return " ".join("".join(el.itertext()).split()) if el is not None else ""


def _contents(book: zipfile.ZipFile, opf_name: str, opf: etree._Element,
              limits: ReadingLimits) -> BookContents:
    manifest: dict[str, etree._Element] = {
        item.get("id", ""): item for item in opf.iter(f"{_OPF}item")}
    spine_el = opf.find(f"{_OPF}spine")
    spine: list[str] = []
    for ref in spine_el.iter(f"{_OPF}itemref") if spine_el is not None else ():
        item = manifest.get(ref.get("idref", ""))
        if item is None or item.get("media-type", "") not in _CHAPTER_TYPES:
            continue
        part = part_named(opf_name, item.get("href", ""))
        if part and part not in spine:
            spine.append(part)
    if not spine:
        raise _Damage(failure(Code.BOOK_EMPTY_SPINE, opf_name))
    toc: list[TocEntry] = []
    # where the text begins: the EPUB 2 guide's "text", else the EPUB 3 landmarks' bodymatter
    begins = [part_named(opf_name, ref.get("href", "")) for ref in opf.iter(f"{_OPF}reference")
              if ref.get("type") == "text"]
    nav = next((i for i in manifest.values() if "nav" in i.get("properties", "").split()), None)
    ncx = manifest.get(spine_el.get("toc", "") if spine_el is not None else "")
    if nav is not None and (part := part_named(opf_name, nav.get("href", ""))):
        nav_doc = _xml(book, part, limits.package_bytes)
        toc = _nav_toc(nav_doc, part, spine, limits)
        begins += [part_named(part, a.get("href", "")) for a in nav_doc.iter(f"{_XHTML}a")
                   if "bodymatter" in (a.get(_OPS_TYPE) or "").split()]
    if not toc and ncx is not None and (part := part_named(opf_name, ncx.get("href", ""))):
        toc = _ncx_toc(_xml(book, part, limits.package_bytes), part, spine, limits)
    if not toc:  # no contents list: the chapters themselves, by file name
        toc = [TocEntry(posixpath.basename(p), n, "", 0) for n, p in enumerate(spine)]
    metadata = opf.find(f"{_OPF}metadata")
    return BookContents(
        title=_text(metadata.find(f"{_DC}title")) if metadata is not None else "",
        language=_text(metadata.find(f"{_DC}language")) if metadata is not None else "",
        spine=tuple(spine), toc=tuple(toc),
        start=next((spine.index(p) for p in begins if p in spine), 0))


class _TocWalk:
    """Entries gathered from a nested list, within the limits; each must open a chapter."""

    def __init__(self, base: str, spine: list[str], limits: ReadingLimits) -> None:
        self.base, self.limits = base, limits
        self.chapters = {part: n for n, part in enumerate(spine)}
        self.entries: list[TocEntry] = []

    @property
    def full(self) -> bool:
        return len(self.entries) >= self.limits.toc_entries

    def add(self, title: str, href: str, depth: int) -> None:
        part = part_named(self.base, href)
        if part not in self.chapters or self.full:
            return
        fragment = urlsplit(href).fragment
        self.entries.append(TocEntry(title or posixpath.basename(part), self.chapters[part],
                                     unquote(fragment), min(depth, self.limits.toc_depth)))


def _nav_toc(nav: etree._Element, part: str, spine: list[str],
             limits: ReadingLimits) -> list[TocEntry]:
    """The EPUB 3 navigation document's ``<nav epub:type="toc">`` (the first ``<nav>`` when
    none says so): each ``<li>``'s link, its nested ``<ol>`` one deeper."""
    navs = list(nav.iter(f"{_XHTML}nav"))
    toc = next((n for n in navs if "toc" in (n.get(_OPS_TYPE) or "").split()),
               navs[0] if navs else None)
    walk = _TocWalk(part, spine, limits)
    if toc is None:
        return []
    for link in toc.iter(f"{_XHTML}a"):
        if walk.full:
            break
        depth = sum(1 for a in link.iterancestors(f"{_XHTML}ol")) - 1
        walk.add(_text(link), link.get("href", ""), max(depth, 0))
    return walk.entries


def _ncx_toc(ncx: etree._Element, part: str, spine: list[str],
             limits: ReadingLimits) -> list[TocEntry]:
    """The EPUB 2 NCX's ``navMap``: each ``navPoint``'s label and content, nested ones
    deeper."""
    walk = _TocWalk(part, spine, limits)
    for point in ncx.iter(f"{_NCX}navPoint"):
        if walk.full:
            break
        depth = sum(1 for p in point.iterancestors(f"{_NCX}navPoint"))
        content = point.find(f"{_NCX}content")
        walk.add(_text(point.find(f"{_NCX}navLabel")),
                 content.get("src", "") if content is not None else "", depth)
    return walk.entries
