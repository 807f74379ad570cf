"""One name per book (file, dc:title, cover, index heading), its language and its people."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from pipeline.book import book_language, build_books, safe_stem
from pipeline.book.collect import Entry
from pipeline.book.pages import render_lines
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from pipeline.text.templating import environment
from tests.pipeline.book.synthetic import add_article
from tests.pipeline.book.validator import assert_valid

NS = {"x": "http://www.w3.org/1999/xhtml", "opf": "http://www.idpf.org/2007/opf",
      "dc": "http://purl.org/dc/elements/1.1/"}


def articles(archive: Archive) -> list[Task]:
    return [add_article(archive, 1, url="https://a.example/1", title="桥", cat1="01_Notes",
                        lang="zh-CN", content_html="<p>修桥的第一件事是认木头。</p>"),
            add_article(archive, 2, url="https://a.example/2", title="Tea", cat1="02_Food",
                        lang="en", content_html="<p>The wok is hot.</p>")]


def names_in(book: Path) -> dict[str, str]:
    with zipfile.ZipFile(book) as z:
        opf = etree.fromstring(z.read("EPUB/content.opf"))
        index = etree.fromstring(z.read("EPUB/index.xhtml"))
        cover = etree.fromstring(z.read("EPUB/cover.xhtml"))
    return {
        "file": book.stem,
        "dc:title": opf.xpath("string(//dc:title)", namespaces=NS),
        "index": index.xpath("string(//x:h1)", namespaces=NS),
        "cover": cover.xpath("string(//x:img/@alt)", namespaces=NS),
        "creator": opf.xpath("string(//dc:creator)", namespaces=NS),
        "publisher": opf.xpath("string(//dc:publisher)", namespaces=NS),
    }


def cover_title(archive: Archive, title: str) -> str:
    """The first line the cover draws, as the build renders it."""
    return render_lines(environment(archive.root), "cover.txt.j2", title=title, volume="",
                        date_range="", count=1, labels={"articles": "", "list": ", "})[0]


def test_the_archives_name_names_the_whole_book(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "folder", name="山居笔记")
    result = build_books(archive, articles(archive), Settings())
    [book] = result.epubs
    got = names_in(book)
    assert {got[k] for k in ("file", "dc:title", "index", "cover")} == {"山居笔记"}
    assert got["creator"] == "Kuaibu" and got["publisher"] == ""
    html = result.index.read_text(encoding="utf-8")
    assert "<h1>山居笔记</h1>" in html
    assert cover_title(archive, got["dc:title"]) == "山居笔记"
    assert_valid(book)


def test_a_title_and_the_settings_name_every_part_alike(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "folder")
    tasks = articles(archive)
    settings = Settings().with_overrides(book_title="Reading 2026", book_author="Li Hua",
                                         book_publisher="Home Press")
    [book] = build_books(archive, tasks, settings).epubs
    got = names_in(book)
    assert {got[k] for k in ("file", "dc:title", "index", "cover")} == {"Reading 2026"}
    assert (got["creator"], got["publisher"]) == ("Li Hua", "Home Press")
    # --title wins over the setting; a category's book is the title and its category
    [titled] = build_books(archive, tasks, settings, title="Summer: notes/1").epubs
    assert titled.name == "Summer_ notes_1.epub"
    assert names_in(titled)["dc:title"] == "Summer: notes/1"
    split = build_books(archive, tasks, Settings(), split_by="cat1").epubs
    assert [names_in(b)["dc:title"] for b in split] == ["Notes", "Food"]
    assert [b.name for b in split] == ["Notes.epub", "Food.epub"]
    assert_valid(book, titled, *split)


@pytest.mark.parametrize("title, stem", [
    ("aux", "aux_"), ("CON", "CON_"), ("nul.txt", "nul.txt_"), ("com3", "com3_"),
    ("report. ", "report"), ("a<b>:c", "a_b_c"), ("...", "kuaibu"), ("auxiliary", "auxiliary"),
])
def test_file_names_are_safe_on_every_system(title: str, stem: str) -> None:
    assert safe_stem(title) == stem


def entry(lang: str | None, title: str = "t") -> Entry:
    return Entry(task_id=1, url="https://x/1", title=title, cat1="", cat2="", published=None,
                 fetched=None, author=None, lang=lang, chars=1)


def test_the_language_vote_counts_primary_subtags() -> None:
    chinese = [entry("zh"), entry("zh-CN"), entry("zh-Hans")]
    english = [entry("en"), entry("en"), entry("en")]
    assert book_language(english + chinese) == "zh"  # a tie goes to the CJK language
    assert book_language(chinese + english[:2]) == "zh"  # zh-* counted as zh, said plainly
    assert book_language([entry("zh-CN"), entry("zh-CN"), entry("zh"), entry("en")]) == "zh-CN"
    assert book_language(english + chinese[:2]) == "en"
    assert book_language(chinese, chosen="en-GB") == "en-GB"  # the setting overrides
    # every article has its own language (collect.entry_of) unless it has no letters at all
    assert book_language([entry(None), entry(None)]) == "en"


def test_the_language_setting_makes_the_labels(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "folder")
    tasks = articles(archive)
    [book] = build_books(archive, tasks, Settings().with_overrides(book_language="zh-CN")).epubs
    with zipfile.ZipFile(book) as z:
        opf = z.read("EPUB/content.opf").decode("utf-8")
        index = z.read("EPUB/index.xhtml").decode("utf-8")
    assert "<dc:language>zh-CN</dc:language>" in opf and "文章索引" in index


def test_lengths_are_words_for_spaced_scripts_and_characters_for_cjk(tmp_path: Path) -> None:
    from pipeline.text.textdiff import reading_length

    english = "The tea harvest starts before dawn, when the leaves are cold. " * 10
    assert reading_length(english) == (110, "words")
    assert reading_length("修桥的第一件事是认木头。") == (11, "chars")
    assert reading_length("用 Python 写的脚本") == (6, "chars")  # 5 字 and one word
    archive = Archive.open(tmp_path / "folder")
    chinese = "修桥的第一件事是认木头。"
    tasks = [add_article(archive, 1, url="https://a.example/1", title="Tea", lang="en",
                         content_html=f"<p>{english}</p>", text=english),
             add_article(archive, 2, url="https://a.example/2", title="桥", lang="zh",
                         content_html=f"<p>{chinese}</p>", text=chinese)]
    [book] = build_books(archive, tasks, Settings().with_overrides(book_language="en")).epubs
    with zipfile.ZipFile(book) as z:
        index = z.read("EPUB/index.xhtml").decode("utf-8")
    assert ">110 words<" in index and ">11 characters<" in index and ">Length<" in index
