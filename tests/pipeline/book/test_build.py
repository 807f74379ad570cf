"""build_books end to end: the demo site through the real Runner, options and errors."""

from __future__ import annotations

import os
import time
import zipfile
from pathlib import Path

import pytest

from pipeline.book import BookError, build_books, sweep_leftovers
from pipeline.demo_site.server import DemoSite
from pipeline.intake.links import add_links
from pipeline.records.settings import Settings
from pipeline.run.runner import Runner
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from tests.pipeline.book.synthetic import add_article
from tests.pipeline.book.validator import assert_valid

FAST = Settings().with_overrides(host_delay_ms=0, retry_waits=(0.05, 0.1), read_timeout=2.0)


def test_demo_site_book_is_valid(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    store = TaskStore(archive.tasks_path)
    with DemoSite() as site:
        add_links(store, site.paste_text(), cat1="01_Demo 示例")
        Runner(archive, store, FAST).run()
    tasks = store.tasks()
    cleaned = [t for t in tasks if t.status in ("cleaned", "localized")]
    assert len(cleaned) >= 10
    calls: list[tuple[int, int]] = []
    result = build_books(archive, tasks, FAST, progress=lambda done, total: calls.append(
        (done, total)))
    assert result.articles == len(cleaned)
    assert calls[-1] == (2 * len(cleaned), 2 * len(cleaned))
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    [book] = result.epubs
    assert book == archive.output_dir / "archive.epub"
    reports = assert_valid(book)
    assert "No errors or warnings detected" in reports[0].output
    with zipfile.ZipFile(book) as z:
        # the whole archive's book is called by the archive's name, as its file is
        assert b"<dc:title>archive</dc:title>" in z.read("EPUB/content.opf")
        text = " ".join(z.read(n).decode("utf-8") for n in z.namelist()
                        if n.startswith("EPUB/text/"))
        pictures = [n for n in z.namelist() if n.startswith("EPUB/images/")]
    for task in cleaned:
        assert task.extracted_title.replace("&", "&amp;") in text
    # the Runner localized the site's images: they are in the book, not on the web
    assert len(pictures) > 1 and '<img src="../images/' in text and 'src="http' not in text
    assert result.index.exists()


def test_errors_say_what_to_do(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    with pytest.raises(BookError, match="no article is cleaned yet"):
        build_books(archive, [], Settings())
    task = add_article(archive, 1, url="https://x.example/1", title="t", cat1="01_A",
                       content_html="<p>x</p>")
    with pytest.raises(BookError, match="in category 'B'; categories: 01_A"):
        build_books(archive, [task], Settings(), cat1="B")
    with pytest.raises(BookError, match="--split-by takes cat1"):
        build_books(archive, [task], Settings(), split_by="cat2")


def test_templates_can_be_overridden_and_a_broken_one_is_named(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    task = add_article(archive, 1, url="https://x.example/1", title="Hello", lang="en",
                       content_html="<p>x</p>")
    (archive.root / "templates").mkdir()
    (archive.root / "templates" / "style.css").write_text("body { color: #123456; }",
                                                          encoding="utf-8")
    [book] = build_books(archive, [task], Settings()).epubs
    with zipfile.ZipFile(book) as z:
        assert z.read("EPUB/style.css") == b"body { color: #123456; }"
    (archive.root / "templates" / "chapter.xhtml.j2").write_text(
        "<html><body><p>{{ article.title }}</body></html>", encoding="utf-8")
    with pytest.raises(BookError, match="chapter.xhtml.j2 does not give well-formed XHTML"):
        build_books(archive, [task], Settings())
    assert book.exists()  # the last good book is kept


def test_leftovers_of_a_killed_build_are_swept(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    old_stage, old_book = archive.output_dir / ".build-x1", archive.output_dir / ".a.epub.tmp"
    fresh_stage = archive.output_dir / ".build-running"
    for folder in (old_stage, fresh_stage):
        folder.mkdir()
        (folder / "a1.xhtml").write_bytes(b"x")
    old_book.write_bytes(b"PK")
    hour_ago = time.time() - 7200
    for path in (old_stage, old_book):
        os.utime(path, (hour_ago, hour_ago))
    sweep_leftovers(archive.output_dir)
    assert not old_stage.exists() and not old_book.exists()
    assert fresh_stage.exists()  # maybe another build's: left alone
