"""Issue 29: what a reader sees in the EPUB. One contents list before the articles, a cover
that fits the screen, each chapter's labels in its own language, the archive's index named by
the archive, dates that never wrap, footnotes a reader can open as notes."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree, html

from pipeline.book import build_books
from pipeline.net.render import find_browser
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from tests.pipeline.book.index_reading import index_rows
from tests.pipeline.book.synthetic import add_article
from tests.pipeline.book.validator import assert_valid
from tests.pipeline.test_language import CHINESE, ENGLISH

X = {"x": "http://www.w3.org/1999/xhtml", "epub": "http://www.idpf.org/2007/ops"}
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# cat1, cat2 of the demo site's twelve articles: three sections, one with two subsections
SECTIONS = [("01_Blog", ""), ("01_Blog", ""), ("01_Blog", "Bikes"), ("01_Blog", "Bikes"),
            ("01_Blog", "Coffee"), ("02_News", ""), ("02_News", ""), ("02_News", ""),
            ("03_Photo", ""), ("03_Photo", ""), ("03_Photo", ""), ("03_Photo", "")]
FOOTNOTED = ('<p>The stone arch carries its load in compression<sup id="fnref1">'
             '<a href="#fn1">1</a></sup> and has stood for eight centuries.</p>'
             '<ol><li id="fn1"><p>Every voussoir pushes on the next. '
             '<a href="#fnref1">↩</a></p></li></ol>')


def make_archive(root: Path, english: set[int]) -> tuple[Archive, list[Task]]:
    """Twelve articles in three sections, Chinese but for ``english``; the first has a note."""
    archive = Archive.open(root)
    tasks = []
    for i, (cat1, cat2) in enumerate(SECTIONS, 1):
        en = i in english
        paragraphs = ENGLISH if en else CHINESE
        body = "".join(f"<p>{p}</p>" for p in paragraphs)
        tasks.append(add_article(
            archive, i, url=f"https://demo.example/{i}",
            title=f"Article {i}" if en else f"文章 {i}",
            content_html=(FOOTNOTED if i == 1 else "") + body, text="\n".join(paragraphs),
            cat1=cat1, cat2=cat2, published=f"2019-11-{i + 10:02d}",
            lang="en" if en else "zh"))
    return archive, tasks


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Archive, list[Task], Path]:
    archive, tasks = make_archive(tmp_path_factory.mktemp("mixed") / "archive", {1, 6, 9})
    [book] = build_books(archive, tasks, Settings()).epubs
    return archive, tasks, book


def parts(book: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(book) as z:
        return {n.removeprefix("EPUB/"): z.read(n) for n in z.namelist()}


def spine(files: dict[str, bytes]) -> list[str]:
    opf = etree.fromstring(files["content.opf"])
    ns = {"o": "http://www.idpf.org/2007/opf"}
    href = {i.get("id"): i.get("href") for i in opf.iterfind(".//o:manifest/o:item", ns)}
    return [href[r.get("idref")] for r in opf.iterfind(".//o:spine/o:itemref", ns)]


def test_the_book_lists_its_articles_once_before_them(mixed: tuple[Archive, list[Task], Path]
                                                      ) -> None:
    files = parts(mixed[2])
    order = spine(files)
    first_chapter = next(k for k, name in enumerate(order) if name.startswith("text/"))
    listed: dict[str, int] = {}
    for k, name in enumerate(order):
        if name.startswith("text/"):
            continue
        links = etree.fromstring(files[name]).xpath("//x:a/@href", namespaces=X)
        for href in links:
            if href.startswith("text/"):
                assert k < first_chapter, f"{name} lists articles among the chapters"
                listed[href] = listed.get(href, 0) + 1
        # a category page opens its section: its name and count, no second table
        if re.fullmatch(r"c[\d-]+\.xhtml", name):
            page = etree.fromstring(files[name])
            assert not page.xpath("//x:table", namespaces=X) and not links
            assert page.xpath("//x:section[@epub:type='part']/x:h1", namespaces=X)
    assert listed == {f"text/a{i}.xhtml": 1 for i in range(1, 13)}
    assert_valid(mixed[2])


def test_each_chapter_speaks_its_own_language(mixed: tuple[Archive, list[Task], Path]) -> None:
    files = parts(mixed[2])
    for i in range(1, 13):
        page = files[f"text/a{i}.xhtml"].decode("utf-8")
        root = etree.fromstring(page.encode("utf-8"))
        lang = "en" if i in (1, 6, 9) else "zh"
        assert root.get("lang") == root.get(XML_LANG) == lang
        [source] = root.xpath("//x:p[@class='chapter-source']", namespaces=X)
        assert source.get("lang") == lang
        if lang == "en":
            assert "Original: " in page and "Published: 2019-11-" in page
            assert "Fetched: " in page
            assert not any(w in page for w in ("发布", "原文链接", "抓取"))
        else:
            assert "原文链接：" in page and "发布：" in page and "抓取：" in page


def test_footnotes_are_notes_to_a_reader(mixed: tuple[Archive, list[Task], Path]) -> None:
    root = etree.fromstring(parts(mixed[2])["text/a1.xhtml"])
    [mark] = root.xpath("//x:a[@epub:type='noteref']", namespaces=X)
    assert mark.get("role") == "doc-noteref" and mark.text == "1"
    [note] = root.xpath("//x:aside[@epub:type='footnote']", namespaces=X)
    assert note.get("role") == "doc-footnote" and note.getparent().tag == f"{{{X['x']}}}li"
    assert mark.get("href") == "#" + note.get("id")
    assert "Every voussoir" in "".join(note.itertext())
    # the back link is no note mark of its own
    assert len(root.xpath("//*[@epub:type='noteref']", namespaces=X)) == 1


def test_the_archive_index_is_named_by_the_archive(tmp_path: Path) -> None:
    archive, tasks = make_archive(tmp_path / "archive", set())
    archive.set_name("我的归档")
    [book] = build_books(archive, tasks, Settings(), cat1="Blog", title="脚注测试 Custom").epubs
    page = html.fromstring(archive.output_dir.joinpath("index.html").read_bytes())
    assert page.findtext(".//title").startswith("我的归档 · ")
    assert page.findtext(".//h1") == "我的归档"
    rows = index_rows(archive.output_dir / "index.html")  # dates never broken
    assert sum(len(row.xpath("td[@class='date']")) for row in rows) == 2 * len(tasks)
    with zipfile.ZipFile(book) as z:  # the book keeps its own name
        assert "<dc:title>脚注测试 Custom · Blog</dc:title>" in z.read(
            "EPUB/content.opf").decode("utf-8")


@pytest.mark.parametrize("size", [(600, 800), (900, 1200)])
def test_cover_and_index_fit_a_reader_screen(mixed: tuple[Archive, list[Task], Path],
                                             tmp_path: Path, size: tuple[int, int]) -> None:
    """The cover page in Chromium (the engine calibre's viewer and many readers use) fits the
    screen; the index's dates stay on one line."""
    browser_path = find_browser(Settings())
    if browser_path is None:
        pytest.skip("no system Chromium")
    from playwright.sync_api import sync_playwright

    with zipfile.ZipFile(mixed[2]) as z:
        z.extractall(tmp_path)
    width, height = size
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path,
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto((tmp_path / "EPUB" / "cover.xhtml").as_uri())
            page.wait_for_function("document.querySelector('img').complete")
            shown = page.evaluate("""() => { const r = document.querySelector('img')
                .getBoundingClientRect(); return [r.height, r.bottom, r.right,
                document.documentElement.scrollHeight]; }""")
            assert shown[0] > height / 2  # the cover is shown, not shrunk away
            assert shown[1] <= height and shown[2] <= width and shown[3] <= height, shown
            page.goto((tmp_path / "EPUB" / "index.xhtml").as_uri())
            lines = page.evaluate("""() => [...document.querySelectorAll('td.date')]
                .filter(td => td.textContent.trim())
                .map(td => td.getClientRects().length && Math.round(
                    td.getBoundingClientRect().height / parseFloat(
                        getComputedStyle(td).lineHeight)))""")
            assert lines and all(n == 1 for n in lines), lines
        finally:
            browser.close()


def test_a_date_shared_by_every_row_is_said_once(mixed: tuple[Archive, list[Task], Path]
                                                 ) -> None:
    page = etree.fromstring(parts(mixed[2])["index.xhtml"])
    headers = page.xpath("//x:table[1]//x:th/text()", namespaces=X)
    assert "抓取" not in headers and "发布" in headers
    assert page.xpath("//x:p[@class='index-fetched']/text()", namespaces=X)[0] == \
        "抓取：2024-05-01"
