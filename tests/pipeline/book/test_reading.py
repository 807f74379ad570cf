"""Reading a book back (``pipeline.book.reading`` through ``pipeline.usecases.reading``): a
book Kuaibu binds, EPUB 2 and bare ones, and damaged ones, each refused in one line."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pipeline.book import build_books
from pipeline.book.reading import ReadingLimits, open_book, part_named, read_contents
from pipeline.records.failures import Code, Failure
from pipeline.records.settings import Settings
from pipeline.store.archive import Archive
from pipeline.usecases.reading import (
    BookUnreadable,
    book_chapter,
    book_contents,
    book_file,
    chapter_of,
)
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

CONTAINER = ('<?xml version="1.0"?><container version="1.0"'
             ' xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/>'
             '</rootfiles></container>')


def opf(manifest: str, spine: str, toc: str = "ncx") -> str:
    return ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Old book'
            f'</dc:title><dc:language>en</dc:language></metadata><manifest>{manifest}'
            f'</manifest><spine toc="{toc}">{spine}</spine></package>')


def chapter(text: str) -> str:
    return (f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{text}</p></body></html>')


def write_zip(path: Path, files: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def epub2(path: Path, **extra: str | bytes) -> Path:
    """An EPUB 2 book: two chapters and an NCX (nested), no navigation document."""
    ncx = ('<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"'
           ' version="2005-1"><navMap>'
           '<navPoint id="p1"><navLabel><text>Part one</text></navLabel>'
           '<content src="text/one.xhtml"/>'
           '<navPoint id="p2"><navLabel><text>Section two</text></navLabel>'
           '<content src="text/two%20b.xhtml#s2"/></navPoint></navPoint>'
           '<navPoint id="p3"><navLabel><text>Elsewhere</text></navLabel>'
           '<content src="../../etc/passwd"/></navPoint>'
           '</navMap></ncx>')
    files: dict[str, str | bytes] = {
        "mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
        "OPS/book.opf": opf('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
                            '<item id="one" href="text/one.xhtml"'
                            ' media-type="application/xhtml+xml"/>'
                            '<item id="two" href="text/two%20b.xhtml"'
                            ' media-type="application/xhtml+xml"/>',
                            '<itemref idref="one"/><itemref idref="two"/>'),
        "OPS/toc.ncx": ncx, "OPS/text/one.xhtml": chapter("First words."),
        "OPS/text/two b.xhtml": chapter("Second words.")}
    files.update(extra)
    return write_zip(path, files)


@pytest.fixture(scope="module")
def kuaibu_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = Archive.open(tmp_path_factory.mktemp("reading") / "archive")
    picture = store_image(archive, jpeg(120, 80))
    tasks = [add_article(archive, 1, url="https://example.com/a", title="第一章 开始", cat1="甲",
                         content_html="<p>第一章的正文。</p><p><img src='https://example.com/i.jpg'/></p>",
                         images={"https://example.com/i.jpg": picture}),
             add_article(archive, 2, url="https://example.com/b", title="Second", cat1="甲",
                         content_html="<p>Second chapter text.</p>"),
             add_article(archive, 3, url="https://example.com/c", title="Third", cat1="乙",
                         content_html="<p>Third chapter text.</p>")]
    [book] = build_books(archive, tasks, Settings()).epubs
    return book


def test_a_kuaibu_book_reads_in_order_with_its_contents(kuaibu_book: Path) -> None:
    contents = book_contents(kuaibu_book)
    assert contents.language == "en"  # the articles vote by their own text: two of three English
    titles = [(e.title, e.depth) for e in contents.toc]
    assert ("甲", 0) in titles and ("第一章 开始", 1) in titles and ("Third", 1) in titles
    # the book opens where its text begins: the first article, past the cover and the index
    first = book_chapter(kuaibu_book, contents.spine[contents.start])
    assert contents.start > 0 and "chapter-title" in first
    texts = [book_chapter(kuaibu_book, part) for part in contents.spine]
    for entry in contents.toc:
        assert entry.title in texts[entry.chapter]
    # a chapter's picture is read from the zip, as its <img> names it
    [with_picture] = [p for p, t in zip(contents.spine, texts, strict=True) if "第一章的正文" in t]
    src = texts[contents.spine.index(with_picture)].split('<img src="')[1].split('"')[0]
    picture = book_file(kuaibu_book, part_named(with_picture, src))
    assert picture.startswith(b"\xff\xd8")  # a JPEG


def test_an_epub2_book_reads_its_ncx(tmp_path: Path) -> None:
    book = epub2(tmp_path / "old.epub")
    contents = book_contents(book)
    assert contents.title == "Old book" and contents.start == 0
    assert contents.spine == ("OPS/text/one.xhtml", "OPS/text/two b.xhtml")
    # nested one deeper; the fragment kept; a link out of the book left out
    assert [(e.title, e.chapter, e.fragment, e.depth) for e in contents.toc] == [
        ("Part one", 0, "", 0), ("Section two", 1, "s2", 1)]
    assert "Second words." in book_chapter(book, contents.spine[1])


def test_a_book_without_a_contents_list_lists_its_chapters(tmp_path: Path) -> None:
    book = epub2(tmp_path / "bare.epub", **{"OPS/book.opf": opf(
        '<item id="one" href="text/one.xhtml" media-type="application/xhtml+xml"/>',
        '<itemref idref="one"/>', toc="")})
    assert [e.title for e in book_contents(book).toc] == ["one.xhtml"]


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaaaaaaaa">'
                  + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">'
                            for a, b in zip("abcdefgh", "bcdefghi", strict=True))
                  + ']><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                    '<rootfiles>&i;</rootfiles></container>')


@pytest.mark.parametrize(("files", "code", "says"), [
    ({"x": "not a zip"}, Code.BOOK_NOT_ZIP, "not an EPUB"),
    ({"mimetype": "application/epub+zip"}, Code.BOOK_PART_MISSING,
     "META-INF/container.xml is missing"),
    ({"META-INF/container.xml": "<container><rootfiles>"}, Code.BOOK_BAD_XML,
     "is not well-formed XML"),
    # entities are never expanded: libxml2 refuses the amplification, the line says where
    ({"META-INF/container.xml": BILLION_LAUGHS}, Code.BOOK_BAD_XML,
     "container.xml is not well-formed XML"),
    ({"META-INF/container.xml": "<container/>"}, Code.BOOK_NO_PACKAGE,
     "names no package document"),
    ({"META-INF/container.xml": CONTAINER}, Code.BOOK_PART_MISSING, "OPS/book.opf is missing"),
    ({"META-INF/container.xml": CONTAINER, "OPS/book.opf": opf("", "")},
     Code.BOOK_EMPTY_SPINE, "OPS/book.opf lists no chapter to read"),
])
def test_a_damaged_book_is_one_line(tmp_path: Path, files: dict[str, str], code: Code,
                                    says: str) -> None:
    path = tmp_path / "damaged.epub"
    if "x" in files:
        path.write_text(files["x"])
    else:
        write_zip(path, files)
    with pytest.raises(BookUnreadable) as caught:
        book_contents(path)
    assert _why(caught.value) is code
    message = str(caught.value)
    assert message.startswith("cannot read the book damaged.epub: ") and says in message
    assert "\n" not in message


def _why(error: BookUnreadable) -> Code:
    """The code of what made the book unreadable (Code.BOOK_UNREADABLE wraps it)."""
    assert error.failure is not None and error.failure.code is Code.BOOK_UNREADABLE
    why = error.failure.args[1]
    assert isinstance(why, Failure)
    return why.code


def test_a_book_cut_short_or_missing_a_chapter_is_one_line(tmp_path: Path,
                                                          kuaibu_book: Path) -> None:
    cut = tmp_path / "cut.epub"
    cut.write_bytes(kuaibu_book.read_bytes()[: kuaibu_book.stat().st_size // 2])
    with pytest.raises(BookUnreadable, match="^cannot read the book cut.epub: not an EPUB") as e:
        book_contents(cut)
    assert _why(e.value) is Code.BOOK_NOT_ZIP
    book = epub2(tmp_path / "gone.epub")
    with pytest.raises(BookUnreadable, match="OPS/text/three.xhtml is missing$") as e:
        book_chapter(book, "OPS/text/three.xhtml")
    assert _why(e.value) is Code.BOOK_PART_MISSING
    with pytest.raises(BookUnreadable, match="the file cannot be read") as e:
        book_contents(tmp_path / "nowhere.epub")
    assert _why(e.value) is Code.BOOK_FILE


def test_a_chapter_whose_bytes_were_damaged_is_one_line(tmp_path: Path) -> None:
    """A bit flipped inside a compressed chapter: the zip's listing is whole, the chapter's
    data is not (zlib or the CRC says so)."""
    text = "".join(f"<p>Paragraph {n}, long enough to compress.</p>" for n in range(400))
    book = epub2(tmp_path / "flipped.epub", **{"OPS/text/one.xhtml": chapter(text)})
    with zipfile.ZipFile(book) as z:
        info = z.getinfo("OPS/text/one.xhtml")
    data = bytearray(book.read_bytes())
    middle = info.header_offset + 30 + len(info.filename) + info.compress_size // 2
    data[middle] ^= 0xFF
    book.write_bytes(bytes(data))
    with pytest.raises(BookUnreadable, match="OPS/text/one.xhtml is damaged") as e:
        book_chapter(book, "OPS/text/one.xhtml")
    assert _why(e.value) is Code.BOOK_PART_DAMAGED


def test_a_part_is_read_within_its_limit_whatever_the_zip_declares(tmp_path: Path) -> None:
    """A chapter that unpacks past the limit (a zip bomb: 64 MB of zeros in a few KB) is
    refused, named, without being unpacked whole."""
    book = epub2(tmp_path / "bomb.epub", **{"OPS/text/one.xhtml": b"\0" * (64 * 1024 * 1024)})
    assert book.stat().st_size < 200_000
    with pytest.raises(BookUnreadable, match="OPS/text/one.xhtml is larger than 32 MB$") as e:
        book_chapter(book, "OPS/text/one.xhtml")
    assert _why(e.value) is Code.BOOK_PART_TOO_LARGE
    with open_book(book) as z, pytest.raises(BookUnreadable, match="more than 3 files in it") as e:
        read_contents(z, "bomb.epub", ReadingLimits(parts=3))
    assert _why(e.value) is Code.BOOK_TOO_MANY_PARTS


def _volume(path: Path, task_ids: list[int]) -> Path:
    """A volume as Kuaibu binds one: each article its chapter ``text/a<id>.xhtml``."""
    items = "".join(f'<item id="a{n}" href="text/a{n}.xhtml" media-type="application/xhtml+xml"/>'
                    for n in task_ids)
    spine = "".join(f'<itemref idref="a{n}"/>' for n in task_ids)
    files: dict[str, str | bytes] = {
        "mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
        "OPS/book.opf": opf(items, spine, toc="")}
    files.update({f"OPS/text/a{n}.xhtml": chapter(f"Article {n}.") for n in task_ids})
    return write_zip(path, files)


def test_a_tasks_chapter_is_found_in_the_volume_that_binds_it(tmp_path: Path,
                                                              kuaibu_book: Path) -> None:
    """A book over the size budget is split in volumes; the task's article is in one of them,
    not always the first. A volume that cannot be read is passed over."""
    one = _volume(tmp_path / "one.epub", [1, 2])
    two = _volume(tmp_path / "two.epub", [3, 12])
    broken = tmp_path / "broken.epub"
    broken.write_text("not a zip")
    assert chapter_of([broken, one, two], 12) == (two, "OPS/text/a12.xhtml")
    assert chapter_of([one, two], 1) == (one, "OPS/text/a1.xhtml")
    assert chapter_of([one, two], 4) is None  # bound in neither
    assert chapter_of([one, two], 2) == (one, "OPS/text/a2.xhtml")
    part = chapter_of([kuaibu_book], 3)
    assert part is not None and "Third chapter text." in book_chapter(kuaibu_book, part[1])
