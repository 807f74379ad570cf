"""Issue 27 §9: each chapter is in its own article's language, never the book's. An English
article in a Chinese book was tagged ``zh`` and so set in a CJK face with Chinese indents."""

from __future__ import annotations

import zipfile
from pathlib import Path

from lxml import etree

from pipeline.book import build_books
from pipeline.extract import extract
from pipeline.records.settings import Settings
from pipeline.store.archive import Archive
from tests.pipeline.book.synthetic import add_article
from tests.pipeline.book.validator import assert_valid
from tests.pipeline.test_language import CHINESE, ENGLISH, JAPANESE, page

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
X = {"x": "http://www.w3.org/1999/xhtml"}


def chapter(book: Path, task_id: int) -> etree._Element:
    with zipfile.ZipFile(book) as z:
        return etree.fromstring(z.read(f"EPUB/text/a{task_id}.xhtml"))


def test_a_mixed_batch_binds_each_chapter_in_its_own_language(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    pages = {1: page(CHINESE, html='<html lang="en">'),  # a site-wide English template
             2: page(CHINESE, head='<meta http-equiv="Content-Language" content="utf-8">'),
             3: page(ENGLISH),  # declares nothing
             4: page(JAPANESE, html='<html lang="zh-CN">')}
    tasks = []
    for task_id, html in pages.items():
        url = f"https://news.example/{task_id}"
        a = extract(html, url)
        tasks.append(add_article(archive, task_id, url=url, title=f"Harbour {task_id}",
                                 content_html=a.content_html, text=a.text, lang=a.lang))
    # an article cleaned before languages were decided: no lang stored, English text
    tasks.append(add_article(archive, 5, url="https://news.example/5", title="Pier closed",
                             content_html="".join(f"<p>{p}</p>" for p in ENGLISH),
                             text="\n".join(ENGLISH), lang=None))

    [book] = build_books(archive, tasks, Settings()).epubs

    langs, labels = {}, {}
    for task_id in range(1, 6):
        root = chapter(book, task_id)
        assert root.get("lang") == root.get(XML_LANG)
        langs[task_id] = root.get("lang")
        [source] = root.xpath("//x:p[@class='chapter-source']", namespaces=X)
        labels[task_id] = source.get("lang")
        assert source.get("lang") == source.get(XML_LANG)
    assert langs == {1: "zh", 2: "zh", 3: "en", 4: "ja", 5: "en"}
    # the header speaks the chapter's language where its words are written in it (issue 29);
    # Japanese has none, and keeps the book's (Chinese, the majority), marked as such
    assert labels == {1: "zh", 2: "zh", 3: "en", 4: "zh", 5: "en"}
    with zipfile.ZipFile(book) as z:
        assert "<dc:language>zh</dc:language>" in z.read("EPUB/content.opf").decode("utf-8")
    assert_valid(book)
