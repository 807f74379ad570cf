"""index.html kept up to date row by row (issue 30): a build of one article reads and renders
only what changed, and the pages it writes are the pages a build from nothing writes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from lxml import html

from pipeline.book import BookError, build_books
from pipeline.book.entry_cache import CACHE_NAME, EntryCache
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.store.archive import Archive
from tests.pipeline.book.index_reading import category_pages, index_files, index_rows, index_text
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

ENGLISH = "<p>" + "Plain words make a sentence long enough to count. " * 6 + "</p>"
CHINESE = "<p>" + "这是一段足够长的中文文字，用来数字数。" * 6 + "</p>"


def library(archive: Archive) -> list[Task]:
    """Twelve articles in two categories and none, Chinese the most, some with images."""
    picture = store_image(archive, jpeg())
    tasks = []
    for i in range(1, 13):
        tasks.append(add_article(
            archive, i, url=f"https://site{i % 3}.example/post/{i}", title=f"Article {i} 文章",
            content_html=CHINESE if i % 4 else ENGLISH, lang="zh" if i % 4 else "en",
            cat1=("01_Alpha", "02_Beta", "")[i % 3], cat2="Sub" if i % 5 == 0 else "",
            published=f"2023-0{1 + i % 9}-1{i % 10}T08:00:00+00:00",
            images={f"https://img.example/{i}.jpg": picture} if i % 2 else None))
    return tasks


class Asked:
    """Which ids a build asked the cache to read, and which rows it rendered again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.summaries: list[int] = []
        self.images: list[int] = []
        self.rendered: list[int] = []
        for name, into in (("summaries", self.summaries), ("images", self.images)):
            monkeypatch.setattr(EntryCache, name, self._spy(getattr(EntryCache, name), into))
        put = getattr(EntryCache, "put_index_rows", None)

        def put_rows(cache: EntryCache, rows: Iterable[tuple[int, object]]) -> None:
            rows = list(rows)
            self.rendered += [task_id for task_id, _ in rows]
            if put is not None:
                put(cache, rows)

        monkeypatch.setattr(EntryCache, "put_index_rows", put_rows, raising=False)

    @staticmethod
    def _spy(method: Callable[..., dict[int, object]], into: list[int]
             ) -> Callable[..., dict[int, object]]:
        def spy(cache: EntryCache, task_ids: Iterable[int]) -> dict[int, object]:
            ids = list(task_ids)
            into.extend(ids)
            return method(cache, ids)

        return spy

    def clear(self) -> None:
        for seen in (self.summaries, self.images, self.rendered):
            seen.clear()


def from_nothing(archive: Archive, tasks: list[Task], settings: Settings) -> dict[str, bytes]:
    """The index a build writes with no entries.db: every row made from the files."""
    for path in archive.root.glob(CACHE_NAME + "*"):
        path.unlink()
    return index_files(build_books(archive, tasks, settings).index)


def rows(index: Path) -> dict[str, str]:
    """Each row's clean-page link and title."""
    return {a.get("href"): a.text_content()
            for row in index_rows(index) for a in row.xpath("td[1]/a[1]")}


def test_a_one_article_build_lists_every_article_and_reads_only_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = library(archive)
    build_books(archive, tasks, Settings())  # fills entries.db, as the stages would have
    asked = Asked(monkeypatch)
    tasks[4] = replace(tasks[4], title="A title given by hand 手改的标题")
    result = build_books(archive, tasks, Settings(), task_ids={5})
    listed = rows(result.index)
    assert len(listed) == 12
    assert listed["../../01_clean/5.html"] == "A title given by hand 手改的标题"
    assert "Article 5 文章" not in index_text(result.index)
    # the book and its row read article 5 and nothing else; the other rows are kept as made
    assert set(asked.summaries) == {5} and set(asked.images) <= {5}
    assert asked.rendered == [5]
    assert index_files(result.index) == from_nothing(archive, tasks, Settings())


def test_a_build_that_changes_nothing_renders_no_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = library(archive)
    first = build_books(archive, tasks, Settings()).index.read_bytes()
    asked = Asked(monkeypatch)
    again = build_books(archive, tasks, Settings(), task_ids={2})
    assert asked.rendered == [] and set(asked.summaries) == {2} and asked.images == []
    tables = again.index.read_bytes()
    assert tables[tables.index(b"<h2"):] == first[first.index(b"<h2"):]  # the shelf grew


def _hand_edit(archive: Archive, tasks: list[Task]) -> list[Task]:
    # the clean record rewritten by hand, not by a stage: the row follows the file
    add_article(archive, 7, url="https://site1.example/post/7", title="Edited by hand",
                content_html=ENGLISH + ENGLISH, lang="en")
    return tasks


def _new_images(archive: Archive, tasks: list[Task]) -> list[Task]:
    second = store_image(archive, jpeg(seed=3))
    add_article(archive, 8, url="https://site2.example/post/8", title="Article 8 文章",
                content_html=CHINESE, lang="zh",
                images={"https://img.example/a.jpg": second, "https://img.example/b.jpg": None})
    return tasks


def _moved(archive: Archive, tasks: list[Task]) -> list[Task]:
    return [replace(t, cat1="03_Gamma") if t.id == 9 else t for t in tasks]


def _reordered(archive: Archive, tasks: list[Task]) -> list[Task]:
    return list(reversed(tasks))


def _gone(archive: Archive, tasks: list[Task]) -> list[Task]:
    return [replace(t, status="pending") if t.id == 10 else t for t in tasks if t.id != 11]


def _added(archive: Archive, tasks: list[Task]) -> list[Task]:
    return [*tasks, add_article(archive, 13, url="https://new.example/13", title="Newcomer",
                                content_html=ENGLISH, lang="en", cat1="01_Alpha")]


@pytest.mark.parametrize(("change", "rendered"), [
    (_hand_edit, [7]), (_new_images, [8]), (_moved, []), (_reordered, []), (_gone, []),
    (_added, [13])])
def test_each_change_renders_its_row_again_and_the_page_is_as_made_from_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        change: Callable[[Archive, list[Task]], list[Task]], rendered: list[int]) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = library(archive)
    build_books(archive, tasks, Settings())
    asked = Asked(monkeypatch)
    tasks = change(archive, tasks)
    index = index_files(build_books(archive, tasks, Settings(), task_ids={1}).index)
    assert sorted(asked.rendered) == rendered
    assert index == from_nothing(archive, tasks, Settings())


def test_rows_are_made_again_for_another_language_place_or_row_template(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = library(archive)
    build_books(archive, tasks, Settings())
    asked = Asked(monkeypatch)
    english = Settings().with_overrides(book_language="en")
    index = build_books(archive, tasks, english, task_ids={1}).index
    assert len(asked.rendered) == 12 and "characters</td>" in index_text(index)
    assert index_files(index) == from_nothing(archive, tasks, english)

    asked.clear()
    elsewhere = tmp_path / "out"
    moved = build_books(archive.with_output(elsewhere), tasks, english, task_ids={1}).index
    assert len(rows(moved)) == 12
    for page in category_pages(moved):  # the links lead from the other folder to the archive
        for href in html.fromstring(page.read_bytes()).xpath("//tbody/tr/td[1]/a[1]/@href"):
            assert (page.parent / href).resolve() == archive.clean_dir / Path(href).name
    # rows made for another folder are not kept: 03_output's stay as they were
    assert asked.rendered == []
    build_books(archive, tasks, english, task_ids={1})
    assert asked.rendered == []

    asked.clear()
    (archive.root / "templates").mkdir()
    (archive.root / "templates" / "index_row.html.j2").write_text(
        '{% macro row(e, labels) %}<tr class="mine"><td><a href="{{ e["href"] }}">'
        '{{ e["title"] }}</a></td></tr>{% endmacro %}', encoding="utf-8")
    index = build_books(archive, tasks, english, task_ids={1}).index
    assert len(asked.rendered) == 12
    assert sum(html.fromstring(page.read_bytes()).xpath("count(//tr[@class='mine'])")
               for page in category_pages(index)) == 12


def test_a_row_template_of_the_archive_that_breaks_is_named(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    tasks = library(archive)
    (archive.root / "templates").mkdir()
    own = archive.root / "templates" / "index_row.html.j2"
    for broken in ("<tr>{{ e.title }}</tr>",  # no row macro
                   '{% macro row(e, labels) %}<tr>{{ e["nope"] }}</tr>{% endmacro %}'):
        own.write_text(broken, encoding="utf-8")
        with pytest.raises(BookError, match="template index_row.html.j2"):
            build_books(archive, tasks, Settings())
