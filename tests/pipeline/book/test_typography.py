"""Issue 15 item 6: what the book's code decides about typography, checked in real EPUBs.

The style sheet's choices are the reader's to apply; what is tested here is what the code
writes: image sizes, the pictures the style sheet centres, the language's punctuation, and
that an article's own inline styles never reach the book.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

from pipeline.book import build_books
from pipeline.book.labels import LABELS, labels_for
from pipeline.book.xhtml import to_xhtml
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive, write_atomic
from pipeline.store.asset_map import AssetEntry, AssetMap
from tests.pipeline.book.synthetic import add_article, jpeg, store_image
from tests.pipeline.book.validator import assert_valid

X = {"x": "http://www.w3.org/1999/xhtml"}
PHOTO = "https://img.example/photo.jpg"


def convert(html: str, sizes: dict[str, tuple[int, int]] | None = None) -> etree._Element:
    """The whitelisted body of ``html``, every image local at ``../images/<name>``."""
    body = to_xhtml(html, image_href=lambda src: "../images/" + src.rsplit("/", 1)[-1],
                    link_href=lambda _url: None, lang="zh",
                    image_size=(sizes or {}).get)
    return etree.fromstring(f"<div>{body.xhtml}</div>")


def localized_article(archive: Archive, task_id: int, *, width: int, height: int,
                      **fields: str) -> Task:
    """An article showing one stored image whose asset map records its pixel size, as the
    localize stage writes it."""
    path = store_image(archive, jpeg(width, height, seed=task_id))
    task = add_article(archive, task_id, images={PHOTO: path},
                       content_html=f'<p>正文第一段。</p><p><img src="{PHOTO}" alt="照片"/></p>'
                                    f'<p>文字 <img src="{PHOTO}" alt=""/> 之间</p>', **fields)
    amap = AssetMap({PHOTO: AssetEntry(PHOTO, path=path, width=width, height=height)})
    write_atomic(archive.assets_map(task_id), amap.to_json().encode("utf-8"))
    return task


def chapter(book: Path, task_id: int) -> etree._Element:
    with zipfile.ZipFile(book) as z:
        return etree.fromstring(z.read(f"EPUB/text/a{task_id}.xhtml"))


def test_the_stored_size_wins_over_the_page_and_the_page_is_kept_otherwise() -> None:
    tree = convert('<p><img src="https://i.example/a.jpg" width="300" height="300"/></p>'
                   '<p><img src="https://i.example/b.jpg" width="120" height="80"/></p>'
                   '<p><img src="https://i.example/c.jpg" width="50%"/></p>',
                   sizes={"https://i.example/a.jpg": (640, 427)})
    a, b, c = tree.iter("img")
    assert (a.get("width"), a.get("height")) == ("640", "427")  # the file, not the page
    assert (b.get("width"), b.get("height")) == ("120", "80")  # nothing known: the page's
    assert c.get("width") is None and c.get("height") is None  # not a pixel count


def test_a_paragraph_of_images_is_a_picture_and_a_sentence_is_not() -> None:
    tree = convert('<p><img src="https://i.example/a.jpg"/></p>'
                   '<p> <a href="https://x.example/big"><img src="https://i.example/b.jpg"/></a>'
                   '<br/><img src="https://i.example/c.jpg"/> </p>'
                   '<p>见下图 <img src="https://i.example/d.jpg"/></p>'
                   '<p class="lone-image">一段文字</p>')
    classes = [p.get("class") for p in tree.iter("p")]
    assert classes == ["lone-image", "lone-image", None, None]


def test_inline_styles_never_reach_the_book() -> None:
    """Indents are the style sheet's, by language: the source's own never come through."""
    tree = convert('<p style="text-indent: 4em; font-family: SimSun">第一段</p>'
                   '<pre style="white-space: nowrap">code</pre>'
                   '<p><img src="https://i.example/a.jpg" style="width: 10px"/></p>')
    assert not [el for el in tree.iter() if el.get("style") is not None]


def test_labels_carry_their_languages_punctuation() -> None:
    assert set(LABELS["zh"]) == set(LABELS["en"])  # every word in both languages
    zh, en = labels_for("zh-CN"), labels_for("en-GB")
    assert (zh["colon"], zh["comma"], zh["list"]) == ("：", "，", "、")
    assert (en["colon"], en["comma"], en["list"]) == (": ", ", ", ", ")
    assert labels_for("ja") is LABELS["en"] and labels_for(None) is LABELS["en"]


def test_a_chinese_book_sizes_its_images_and_writes_full_width_punctuation(
        tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = [localized_article(archive, 1, width=320, height=200, url="https://a.example/1",
                               title="第一篇", cat1="01_技术", lang="zh",
                               published="2023-03-01T08:00:00+08:00"),
             localized_article(archive, 2, width=90, height=160, url="https://a.example/2",
                               title="第二篇", cat1="02_生活", lang="zh",
                               published="2024-01-05T08:00:00+08:00")]
    result = build_books(archive, tasks, Settings())
    [book] = result.epubs
    for task_id, size in ((1, ("320", "200")), (2, ("90", "160"))):
        page = chapter(book, task_id)
        images = page.xpath("//x:div[@class='chapter-body']//x:img", namespaces=X)
        assert [(i.get("width"), i.get("height")) for i in images] == [size, size]
        pictures = page.xpath("//x:p[@class='lone-image']/x:img", namespaces=X)
        assert len(pictures) == 1  # the image alone; the one inside a sentence stays inline
        source = page.xpath("//x:p[@class='chapter-source']", namespaces=X)[0]
        assert source.text == "原文链接："  # full-width, and no space after it
    with zipfile.ZipFile(book) as z:
        opf = z.read("EPUB/content.opf").decode("utf-8")
    assert "2 篇文章，2023-03-01" in opf and "篇文章," not in opf
    index = result.index.read_text(encoding="utf-8")
    assert "电子书：<a " in index and "电子书:" not in index
    assert_valid(book)


def test_an_english_book_keeps_its_own_punctuation(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    task = localized_article(archive, 1, width=64, height=48, url="https://a.example/1",
                             title="First", lang="en", published="2023-03-01T08:00:00+00:00")
    result = build_books(archive, [task], Settings())
    [book] = result.epubs
    source = chapter(book, 1).xpath("//x:p[@class='chapter-source']", namespaces=X)[0]
    assert source.text == "Original: "
    assert "Books: <a " in result.index.read_text(encoding="utf-8")
