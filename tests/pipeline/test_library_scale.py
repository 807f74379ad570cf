"""What keeps a library of 100,000 articles quick (issue 30), as behaviour: the task list's
records are shared, not copied, and no caller can change them; a one-article build reads
only its article (what index.html lists of the others is kept as the stages write it) and
still lists every book and article; near-duplicate pairs can be asked about some tasks."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from lxml import html

from pipeline.records.article import Article
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.store.archive import Archive
from pipeline.store.tasks import TaskStore
from pipeline.text.dedup import hamming, near_duplicate_pairs
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.index_reading import index_rows
from tests.sites.articles import ArticleSite, article

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)


def test_tasks_handed_out_cannot_change_the_store(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.csv")
    store.add("https://a.example/1", cat1="x")
    store.update(1, extra={"note": "n"})
    [task] = store.tasks()
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.status = Status.DONE
    with pytest.raises(TypeError):
        task.extra["note"] = "changed"
    store.tasks().clear()  # the list is the caller's own
    assert len(store.tasks()) == 1
    mine = dataclasses.replace(task, title="mine")  # a copy is the way to change one
    mine.cat1 = "y"
    mine.extra["note"] = "mine"
    assert (store.get(1).title, store.get(1).cat1, store.get(1).extra) == ("", "x", {"note": "n"})
    assert task == store.get(1) and store.get(1) == task
    assert store.tasks()[0] is store.tasks()[0]  # shared between looks, not copied per look
    store.update(1, title="T")
    assert task.title == "" and store.tasks()[0].title == "T"  # what was handed out stays
    store.save()
    assert TaskStore(tmp_path / "tasks.csv").get(1).title == "T"


def test_pairs_involving_some_tasks_are_those_of_all_pairs() -> None:
    rng = random.Random(5)
    values = [rng.getrandbits(64) for _ in range(400)]
    for _ in range(400):
        values.append(rng.choice(values) ^ sum(1 << b for b in rng.sample(range(64), 4)))
    items = [(3 * n + 1, v) for n, v in enumerate(values)]
    ids, hashes = [i for i, _ in items], [v for _, v in items]
    every = near_duplicate_pairs(ids, hashes)
    assert every == sorted((a, b, hamming(x, y)) for a, x in items for b, y in items
                           if a < b and hamming(x, y) <= 6)
    chosen = {items[7][0], items[500][0]}
    assert near_duplicate_pairs(ids, hashes, involving=chosen) == [
        p for p in every if p[0] in chosen or p[1] in chosen]


def _titles(archive: Archive) -> list[str]:
    """The titles index.html's pages list, in order."""
    return [row.xpath("td[1]/a[1]")[0].text
            for row in index_rows(archive.output_dir / "index.html")]


def test_one_article_build_reads_its_article_alone_and_lists_every_book_and_article(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    titles = ("廊桥修缮笔记", "The tea harvest", "老窑的青瓦")
    with ArticleSite() as site:
        ws = Workspace.open(tmp_path / "archive", FAST)
        links = [site.put(f"/{n}.html", article(title, [f"{title}：第{n}段，" * 40 + "完。",
                                                         f"Paragraph {n} of {title}. " * 30]))
                 for n, title in enumerate(titles, 1)]
        ws.add_links("\n".join(links))
        ws.run()
        ws.store.merge_file()
    assert {t.status for t in ws.tasks()} == {Status.LOCALIZED}
    whole = ws.build()  # a book of all three
    read: list[int] = []
    reader = Archive.read_article
    monkeypatch.setattr(Archive, "read_article",
                        lambda self, task_id: read.append(task_id) or reader(self, task_id))
    one = ws.build(task_ids=[2])
    assert read == [2]  # what index.html shows of the others came from what the stages kept
    books = {p.name for p in ws.archive.output_dir.glob("*.epub")}
    assert len(books) == 2 and {p.name for p in whole.epubs + one.epubs} == books
    page = html.fromstring((ws.archive.output_dir / "index.html").read_bytes())
    assert set(page.xpath("//a[contains(@href, '.epub')]/@href")) == books
    assert _titles(ws.archive) == list(titles)

    # an article changed behind the archive's back (a hand edit, saved as editors and copies
    # do: written aside and renamed over, so 01_clean's mtime moves with nothing journaled):
    # read again, not trusted
    path = ws.archive.clean_meta(3)
    record = json.loads(path.read_text(encoding="utf-8"))
    path.with_suffix(".edit").write_text(
        json.dumps({**record, "title": "新的标题"}, ensure_ascii=False), encoding="utf-8")
    path.with_suffix(".edit").replace(path)
    read.clear()
    ws.build(task_ids=[2])
    assert sorted(read) == [2, 3]
    assert _titles(ws.archive) == [titles[0], titles[1], "新的标题"]


def test_clean_pages_share_one_template_environment(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.run import stages

    made: list[Path | None] = []
    real = stages.environment
    monkeypatch.setattr(stages, "environment",
                        lambda root=None: made.append(root) or real(root))
    archive = Archive.open(tmp_path / "archive")

    def clean(n: int) -> None:
        url = f"https://x.example/{n}"
        stages.write_clean_page(archive, Task(n, url),
                                Article(url=url, title=f"#{n}", content_html="<p>x</p>",
                                        text="x"))

    for n in (1, 2, 3):
        clean(n)
    assert len(made) == 1
    (archive.root / "templates").mkdir()  # a person's override: taken up at the next page
    (archive.root / "templates" / "style.css").write_text("body { color: #123456; }",
                                                         encoding="utf-8")
    clean(4)
    assert len(made) == 2
    assert "#123456" in (archive.clean_dir / "style.css").read_text(encoding="utf-8")
