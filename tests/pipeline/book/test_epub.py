"""Whole books: the hostile archive, volumes, stable identifiers — each checked by EPUBCheck."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from lxml import etree

from pipeline.book import build_books
from pipeline.book.epub import COVER_IMAGE
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from tests.pipeline.book.conftest import Built
from tests.pipeline.book.hostile import BIG_CATEGORY, url_of
from tests.pipeline.book.synthetic import add_article, jpeg, store_image
from tests.pipeline.book.validator import assert_valid

NS = {"x": "http://www.w3.org/1999/xhtml", "epub": "http://www.idpf.org/2007/ops",
      "opf": "http://www.idpf.org/2007/opf", "dc": "http://purl.org/dc/elements/1.1/",
      "ncx": "http://www.daisy.org/z3986/2005/ncx/"}


def read(book: Path, name: str) -> etree._Element:
    with zipfile.ZipFile(book) as z:
        return etree.fromstring(z.read(f"EPUB/{name}"))


def chapters(book: Path) -> dict[str, str]:
    with zipfile.ZipFile(book) as z:
        return {n: z.read(n).decode("utf-8") for n in z.namelist() if n.startswith("EPUB/text/")}


def test_hostile_archive_gives_a_valid_book(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    assert hostile_book.result.articles == 300
    assert_valid(book)


def test_nothing_hostile_reaches_the_book(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    pages = chapters(book)
    assert len(pages) == 300
    with zipfile.ZipFile(book) as z:
        names = set(z.namelist())
    for name, page in pages.items():
        tree = etree.fromstring(page.encode("utf-8"))
        for bad in ("script", "iframe", "object", "embed", "form", "input", "style", "video",
                    "audio", "svg", "center", "font"):
            assert not tree.xpath(f"//x:{bad}", namespaces=NS), (name, bad)
        for el in tree.iter():
            for attr, value in el.attrib.items():
                assert not attr.lower().startswith("on"), (name, attr)
                assert "javascript:" not in value.lower(), (name, value)
        for img in tree.xpath("//x:img/@src", namespaces=NS):
            assert not img.startswith(("http", "//", "data:")), (name, img)
            assert f"EPUB/{img.removeprefix('../')}" in names, (name, img)
        # a table never sits inside a table: inner ones are laid out as blocks
        assert not tree.xpath("//x:table//x:table", namespaces=NS), name
    excluded = [t for t in hostile_book.tasks if t.title.startswith("EXCLUDED")
                or t.extracted_title.startswith("EXCLUDED")]
    assert excluded and not any(f"a{t.id}.xhtml" in " ".join(pages) for t in excluded)


def test_placeholders_and_local_images(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    page = chapters(book)["EPUB/text/a6.xhtml"]  # body 5: local, failed, corrupt, escaping
    tree = etree.fromstring(page.encode("utf-8"))
    [img] = tree.xpath("//x:img", namespaces=NS)
    assert img.get("alt") == "local" and img.get("width") is None  # "100%" is not a width
    missing = tree.xpath("//x:span[@class='missing-image']/x:a/@href", namespaces=NS)
    assert missing == ["https://img.example/failed.jpg", "https://img.example/corrupt.jpg",
                       "https://img.example/escape.jpg"]
    with zipfile.ZipFile(book) as z:
        images = [n for n in z.namelist() if n.startswith("EPUB/images/")]
        stored = {n: z.getinfo(n).compress_type for n in images}
    assert sorted(images) == sorted([f"EPUB/{COVER_IMAGE}", f"EPUB/{img.get('src')[3:]}"])
    assert stored[f"EPUB/{img.get('src')[3:]}"] == zipfile.ZIP_STORED


def test_toc_is_two_levels_in_category_order(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    nav = read(book, "nav.xhtml")
    [toc] = nav.xpath("//x:nav[@epub:type='toc']/x:ol", namespaces=NS)
    tops = [li.xpath("string(x:a)", namespaces=NS) for li in toc.xpath("x:li", namespaces=NS)]
    assert tops == ["文章索引", "大类", "Nine", "Later", "未分类"]  # 9_ before 10_ by number
    big = toc.xpath("x:li[2]", namespaces=NS)[0]
    subs = [li.xpath("string(x:a)", namespaces=NS) for li in big.xpath("x:ol/x:li[x:ol]",
                                                                         namespaces=NS)]
    assert subs == ["子类A", "子类B"]
    assert len(big.xpath(".//x:li[not(x:ol)]", namespaces=NS)) == 200
    ncx = read(book, "toc.ncx")
    assert len(ncx.xpath("//ncx:navPoint[not(ncx:navPoint)]", namespaces=NS)) == 301
    # cat1 → cat2 → article: three levels, and the NCX says so (ebooklib alone writes 0)
    assert ncx.xpath("string(//ncx:meta[@name='dtb:depth']/@content)", namespaces=NS) == "3"
    spine = [i.get("idref") for i in read(book, "content.opf").xpath(
        "//opf:spine/opf:itemref", namespaces=NS)]
    assert spine[:2] == ["cover", "index"]
    toc_order = [a.get("href") for a in toc.xpath(".//x:li[not(x:ol)]/x:a", namespaces=NS)]
    pages = [s for s in spine[2:] if s.startswith("c")]
    assert [f"text/{s}.xhtml" for s in spine[2:] if s not in pages] == toc_order[1:]
    # each category links to its own page, its part of the index, just before its chapters
    categories = [a.get("href") for a in toc.xpath(".//x:li[x:ol]/x:a", namespaces=NS)]
    assert categories == [f"{p}.xhtml" for p in pages] and pages[:3] == ["c1", "c1-1", "c1-2"]
    # a category's page opens its section; the articles are listed once, in index.xhtml
    part = read(book, "c1-1.xhtml")
    assert part.xpath("string(//x:h1)", namespaces=NS) == "子类A"
    assert not part.xpath("//x:table | //x:a", namespaces=NS)


def test_titles_and_metadata(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    opf = read(book, "content.opf")
    assert opf.xpath("string(//dc:language)", namespaces=NS) == "zh-CN"
    assert opf.xpath("string(//dc:creator)", namespaces=NS) == "Kuaibu"
    assert opf.xpath("string(//dc:title)", namespaces=NS) == "archive"  # several categories
    assert opf.xpath("string(//dc:identifier)", namespaces=NS).startswith("urn:uuid:")
    pages = chapters(book)
    title = etree.fromstring(pages["EPUB/text/a1.xhtml"].encode()).xpath(
        "string(//x:h1)", namespaces=NS)
    assert title == url_of(0)  # no title anywhere: the URL stands in
    escaped = etree.fromstring(pages["EPUB/text/a5.xhtml"].encode()).xpath(
        "string(//x:h1)", namespaces=NS)
    assert escaped == '<script>alert("t")</script> & "quotes" 4'
    assert "🚀 发射 Launch 🎉 2" in pages["EPUB/text/a3.xhtml"]


def test_links_between_archived_articles_stay_in_the_book(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    page = etree.fromstring(chapters(book)["EPUB/text/a7.xhtml"].encode())  # body 6, i = 6
    hrefs = {a.text: a.get("href") for a in page.xpath("//x:a", namespaces=NS)}
    assert hrefs["sibling"] == "a14.xhtml"  # i + 7 = 13 → task 14, tracking and fragment gone
    assert hrefs["elsewhere"] == "https://elsewhere.example/page?a=1&b=2"
    # ids are namespaced by chapter (issue 15): the first "dup" is the one linked
    assert hrefs["dup"] == "#a7-dup" and hrefs["missing"] is None and hrefs["relative"] is None
    assert hrefs["bad host"] is None and hrefs["spaces"] == "https://x.example/a%20b%25zz"


def _image_article(archive: Archive, i: int, link_to: int | None = None) -> Task:
    src = f"https://img.example/{i}.jpg"
    path = store_image(archive, jpeg(160, 120, noise=True))
    link = (f' <a href="https://blog.example/{link_to}">see {link_to}</a>'
            if link_to is not None else "")
    return add_article(archive, i, url=f"https://blog.example/{i}", title=f"Post {i}",
                       cat1="01_Blog", published=f"2022-03-{i:02d}", lang="en",
                       content_html=f'<p>Post {i}.{link}</p><p><img src="{src}" alt="{i}"></p>',
                       images={src: path})


def test_over_budget_collection_splits_into_valid_volumes(empty_archive: Archive) -> None:
    archive = empty_archive
    tasks = [_image_article(archive, i, link_to=1 if i == 9 else i + 1) for i in range(1, 10)]
    one = max(p.stat().st_size for p in archive.assets_dir.rglob("*.jpg"))
    budget = 512 * 1024 + 3 * (one + 8 * 1024)
    settings = Settings().with_overrides(epub_budget_bytes=budget)
    result = build_books(archive, tasks, settings)
    assert [p.name for p in result.epubs] == ["archive.vol1.epub", "archive.vol2.epub",
                                              "archive.vol3.epub"]
    assert_valid(*result.epubs)
    ids = set()
    for k, book in enumerate(result.epubs, 1):
        assert book.stat().st_size <= budget
        opf = read(book, "content.opf")
        ids.add(opf.xpath("string(//dc:identifier)", namespaces=NS))
        assert opf.xpath("string(//dc:title)", namespaces=NS) == f"archive · Volume {k} of 3"
    assert len(ids) == 3
    # volumes hold posts 1–3, 4–6, 7–9: 2 → 3 stays in the book, 3 → 4 and 9 → 1 go out
    first, last = chapters(result.epubs[0]), chapters(result.epubs[2])
    assert 'href="a3.xhtml"' in first["EPUB/text/a2.xhtml"]
    assert 'href="https://blog.example/4"' in first["EPUB/text/a3.xhtml"]
    assert 'href="https://blog.example/1"' in last["EPUB/text/a9.xhtml"]
    # a rebuild with a bigger budget is one book again: the volumes it replaces are removed
    again = build_books(archive, tasks, Settings())
    assert [p.name for p in again.epubs] == ["archive.epub"]
    assert sorted(p.name for p in archive.output_dir.glob("*.epub")) == ["archive.epub"]


def test_identifier_is_stable_per_collection(empty_archive: Archive) -> None:
    archive = empty_archive
    tasks = [_image_article(archive, i) for i in range(1, 4)]
    tasks[2].cat1 = "02_Other"

    def identifier(book: Path) -> str:
        return str(read(book, "content.opf").xpath("string(//dc:identifier)", namespaces=NS))

    whole = identifier(build_books(archive, tasks, Settings()).epubs[0])
    assert identifier(build_books(archive, tasks, Settings()).epubs[0]) == whole
    [blog] = build_books(archive, tasks, Settings(), cat1="Blog").epubs
    assert blog.name == "Blog.epub" and identifier(blog) != whole
    assert identifier(build_books(archive, tasks, Settings(), cat1="01_Blog").epubs[0]) \
        == identifier(blog)
    split = build_books(archive, tasks, Settings(), split_by="cat1").epubs
    assert [p.name for p in split] == ["Blog.epub", "Other.epub"]
    assert identifier(split[0]) == identifier(blog)
    ids = build_books(archive, tasks, Settings(), task_ids={1, 3})
    assert ids.articles == 2 and identifier(ids.epubs[0]) not in (whole, identifier(blog))
    opf = read(ids.epubs[0], "content.opf")
    spine = [i.get("idref") for i in opf.xpath("//opf:spine/opf:itemref", namespaces=NS)]
    assert spine == ["cover", "index", "c1", "a1", "c2", "a3"]


def test_cover_index_and_chapter_header(hostile_book: Built) -> None:
    [book] = hostile_book.result.epubs
    index = read(book, "index.xhtml")
    rows = index.xpath("//x:tbody/x:tr", namespaces=NS)
    assert len(rows) == 300
    [row] = [r for r in rows if r.xpath("string(x:td/x:a/@href)", namespaces=NS) == "text/a1.xhtml"]
    first = [td.xpath("string(.)", namespaces=NS) for td in row.xpath("x:td", namespaces=NS)]
    assert first[0] == url_of(0)
    # every article was fetched the same day: the date is said once, not in a column
    assert first[1:3] == ["site0.example", "2023-01-01"]
    assert index.xpath("string(//x:p[@class='index-fetched'])", namespaces=NS) == \
        "抓取：2024-05-01"
    count, unit = first[3].split()  # a Chinese book counts this Latin text in words
    assert int(count.replace(",", "")) > 0 and unit == "词"
    headings = [h.text for h in index.xpath("//x:h2", namespaces=NS)]
    assert headings == ["大类", "Nine", "Later", "未分类"]
    assert BIG_CATEGORY.endswith(headings[0])
    with zipfile.ZipFile(book) as z:
        assert z.read(f"EPUB/{COVER_IMAGE}")[:3] == b"\xff\xd8\xff"
    header = chapters(book)["EPUB/text/a1.xhtml"]
    # the whole source URL, for a reader on paper or e-ink; the dates, labelled
    # (the labels are the chapter's language's words, marked as such)
    assert re.search(r'<p class="chapter-source" lang="zh" xml:lang="zh">原文链接：<a href="https:'
                     r'//site0.example/post/0.html">https://site0.example/post/0.html</a></p>',
                     header)
    assert ('<span class="published" lang="zh" xml:lang="zh">发布：2023-01-01</span>'
            in header)
    assert '<span class="fetched">抓取：2024-05-01</span>' in header
    assert '<span class="author">作者 &lt;b&gt;&amp;</span>' in header
