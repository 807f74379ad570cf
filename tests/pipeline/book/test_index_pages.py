"""index.html as a hub and category pages (issue 30): a one-article build looks at no other
article's files and writes no page whose rows did not change, and whatever changed in the
archive since (an article cleaned or localized again, a task's cells edited in the list, a
task gone, a book added) is in what the build writes."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from pipeline.book import build_books, index
from pipeline.records.article import Article
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.run.stages import save_clean, save_localized
from pipeline.store import clean_journal
from pipeline.store.archive import Archive
from pipeline.store.asset_map import AssetEntry, AssetMap
from tests.pipeline.book.index_reading import category_pages, index_rows
from tests.pipeline.book.synthetic import add_article, jpeg, store_image

CATEGORIES = ("01_Alpha", "02_Beta", "03_Gamma")
ARTICLES = 300


@dataclass
class Library:
    archive: Archive
    tasks: list[Task]

    def build(self, *ids: int) -> Path:
        return build_books(self.archive, self.tasks, Settings(), task_ids=set(ids)).index

    def task(self, task_id: int) -> Task:
        return next(t for t in self.tasks if t.id == task_id)

    def settle(self) -> None:
        """01_clean as it is a while after its last write: a build notes it then (one noted
        while still changing is looked at whole next time)."""
        past = time.time() - 60
        os.utime(self.archive.clean_dir, (past, past))


@pytest.fixture
def library(tmp_path: Path) -> Library:
    """300 small articles in three categories, built once, 01_clean settled."""
    archive = Archive.open(tmp_path / "archive")
    tasks = [add_article(archive, i, url=f"https://site{i % 7}.example/{i}",
                         title=f"Article {i}", lang="en", cat1=CATEGORIES[i % 3],
                         content_html=f"<p>Words of article {i}, enough to count.</p>")
             for i in range(1, ARTICLES + 1)]
    lib = Library(archive, tasks)
    lib.settle()
    lib.build(1)
    return lib


def titles(hub: Path) -> dict[int, str]:
    """Each listed article's title by its id (from its clean page's link)."""
    return {int(Path(a.get("href")).stem): a.text
            for row in index_rows(hub) for a in row.xpath("td[1]/a[1]")}


def identities(hub: Path) -> dict[str, tuple[int, int]]:
    """Each index file's inode and mtime: a write (temp file renamed over) changes both."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in [hub, *hub.parent.joinpath("index").iterdir()]}


@pytest.fixture
def looked_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[int]]:
    """The ids whose files in 01_clean a build stat'ed or read."""
    seen: set[int] = set()
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        name = os.fspath(path)  # type: ignore[call-overload]
        if isinstance(name, str) and f"{os.sep}01_clean{os.sep}" in name:
            head = os.path.basename(name).split(".", 1)[0]
            if head.isdigit():
                seen.add(int(head))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    for name in ("read_article", "read_assets"):
        real = getattr(Archive, name)
        monkeypatch.setattr(Archive, name, lambda self, task_id, real=real:
                            seen.add(task_id) or real(self, task_id))
    yield seen


def test_a_one_article_build_looks_at_its_article_alone_and_writes_only_the_hub(
        library: Library, looked_at: set[int]) -> None:
    hub = library.archive.output_dir / "index.html"
    before = identities(hub)
    assert len(before) == 1 + len(CATEGORIES)
    looked_at.clear()
    assert library.build(5) == hub
    assert looked_at == {5}  # the book's article, read for its chapter
    after = identities(hub)
    assert {name for name in after if after[name] != before[name]} == {"index.html"}
    assert len(titles(hub)) == ARTICLES


def test_an_article_cleaned_again_shows_in_the_next_build_of_another(
        library: Library, looked_at: set[int]) -> None:
    hub = library.archive.output_dir / "index.html"
    task = library.task(7)
    article = Article(url=task.url, title="Cleaned again", lang="en",
                      content_html="<p>New words.</p>", text="New words.")
    save_clean(library.archive, task, article)  # as the clean stage writes it
    before = identities(hub)
    looked_at.clear()
    library.build(5)
    assert looked_at == {5, 7}  # the journal named 7: its files alone are looked at
    assert titles(hub)[7] == "Cleaned again"
    after = identities(hub)
    changed = {name for name in after if after[name] != before[name]}
    [page] = [p for p in category_pages(hub) if "Cleaned again" in p.read_text("utf-8")]
    assert changed == {"index.html", page.name}

    # localized again: its images show
    picture = store_image(library.archive, jpeg())
    assets = AssetMap({"https://img.example/7.jpg": AssetEntry("https://img.example/7.jpg",
                                                               path=picture)})
    save_localized(library.archive, task, replace(article, images=["https://img.example/7.jpg"]),
                   assets)
    library.settle()
    library.build(5)
    [row] = [r for r in index_rows(hub) if r.xpath("td[1]/a[1]")[0].text == "Cleaned again"]
    assert row.xpath(".//img/@src") == [f"../../{picture}"]


def test_cells_edited_in_the_list_a_task_gone_and_a_book_added_show(
        library: Library, looked_at: set[int]) -> None:
    hub = library.archive.output_dir / "index.html"
    library.tasks = [replace(t, title="Retitled in Excel") if t.id == 10 else
                     replace(t, cat1="04_Delta") if t.id == 11 else t
                     for t in library.tasks if t.id != 12]
    (library.archive.output_dir / "another.epub").write_bytes(b"PK")
    looked_at.clear()
    library.build(5)
    # 10's row is made again (its entry read); 11's moves with it, as made
    assert looked_at == {5, 10}
    listed = titles(hub)
    assert listed[10] == "Retitled in Excel" and 12 not in listed and len(listed) == ARTICLES - 1
    delta = [p for p in category_pages(hub) if ">Article 11<" in p.read_text("utf-8")]
    assert len(delta) == 1 and "Delta" in delta[0].read_text("utf-8")
    assert "another.epub" in hub.read_text("utf-8")
    assert f"{ARTICLES - 1} " in hub.read_text("utf-8")

    # the category emptied: its page is gone
    library.tasks = [t for t in library.tasks if t.id != 11]
    library.build(5)
    assert not any("Delta" in p.read_text("utf-8")
                   for p in hub.parent.joinpath("index").iterdir())


def test_pages_removed_by_hand_are_written_again(library: Library) -> None:
    hub = library.archive.output_dir / "index.html"
    pages = hub.parent / "index"
    next(pages.iterdir()).unlink()
    library.build(5)
    assert len(titles(hub)) == ARTICLES
    shutil.rmtree(pages)
    library.build(5)
    assert len(titles(hub)) == ARTICLES


def test_a_big_category_is_pages_and_a_change_writes_its_page_alone(
        library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index, "PAGE_ROWS", 30)  # 100 articles a category: 4 pages each
    hub = library.archive.output_dir / "index.html"
    library.build(5)
    pages = category_pages(hub)
    assert len(pages) == 4 * len(CATEGORIES)
    assert [int(Path(a.get("href")).stem) for a in
            [row.xpath("td[1]/a[1]")[0] for row in index_rows(hub)]][:31] == [
                *range(3, 3 * 30 + 1, 3), 93]
    before = identities(hub)
    library.tasks = [replace(t, title="Moved by hand") if t.id == 60 else t
                     for t in library.tasks]
    library.build(5)
    after = identities(hub)
    changed = {name for name in after if after[name] != before[name]}
    [page] = [p for p in pages if "Moved by hand" in p.read_text("utf-8")]
    assert changed == {"index.html", page.name}


def test_a_change_not_journaled_is_found_by_one_listing(
        library: Library, looked_at: set[int]) -> None:
    """A record put in 01_clean by another way (a backup restored, a copy): the folder moved
    with nothing journaled, so 01_clean is listed, and the article that is another file
    than its row was made from is read again; a record removed goes from the index."""
    add_article(library.archive, 9, url=library.task(9).url, title="Restored from a backup",
                content_html="<p>Old words.</p>", lang="en", cat1=CATEGORIES[0])
    library.archive.clean_meta(12).unlink()
    looked_at.clear()
    library.build(5)
    assert looked_at == {5, 9, 12}
    listed = titles(library.archive.output_dir / "index.html")
    assert listed[9] == "Restored from a backup" and 12 not in listed

    # noted while it was still changing: listed again next time, nothing read but the book's
    looked_at.clear()
    library.build(5)
    assert looked_at == {5}


def test_the_journal_is_read_from_where_its_reader_left_it(tmp_path: Path) -> None:
    clean_journal.note_changed(tmp_path, [3, 5])
    ids, mark = clean_journal.changed_since(tmp_path, None)
    assert ids == {3, 5}
    clean_journal.note_changed(tmp_path, [8])
    assert clean_journal.changed_since(tmp_path, mark)[0] == {8}
    with open(tmp_path / clean_journal.JOURNAL, "a", encoding="ascii") as f:
        f.write("13")  # an append under way: read once whole
    ids, end = clean_journal.changed_since(tmp_path, mark)
    assert ids == {8}
    assert clean_journal.forget_read(tmp_path, end) == end  # short: kept


def test_a_long_journal_read_to_its_end_is_emptied(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clean_journal, "FORGET_FROM_BYTES", 8)
    clean_journal.note_changed(tmp_path, range(1, 6))
    ids, end = clean_journal.changed_since(tmp_path, None)
    clean_journal.note_changed(tmp_path, [6])  # appended after the read: kept
    assert clean_journal.forget_read(tmp_path, end) == end
    ids, end = clean_journal.changed_since(tmp_path, end)
    assert ids == {6}
    emptied = clean_journal.forget_read(tmp_path, end)
    assert emptied != end and (tmp_path / clean_journal.JOURNAL).read_bytes() == b""
    clean_journal.note_changed(tmp_path, [7])
    # the mark of the file replaced reads the new one from its start
    assert clean_journal.changed_since(tmp_path, end)[0] == {7}
    assert clean_journal.changed_since(tmp_path, emptied)[0] == {7}
