"""Checking archived articles for updates: a local site whose pages change between runs."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest

from pipeline.cli.main import main
from pipeline.records.events import Progress
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace
from tests.pipeline.test_duplicates import BRIDGE, TEA
from tests.sites.articles import ArticleSite, article

FAST = Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=2.0)
# what a log of requests adds to on every run; everything else must stay as it was
REQUEST_LOGS = {"04_logs/fetch.log"}


# the task list, and the build's marks journaled beside it until its next save writes them in
LIST = {"tasks.csv", ".tasks.csv.journal"}


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and str(p.relative_to(root)) not in REQUEST_LOGS | LIST}


def rows(root: Path) -> list[dict[str, object]]:
    """The list as every reader reads it: tasks.csv with the marks journaled beside it."""
    return [dict(t.__dict__) for t in TaskStore(root / "tasks.csv").tasks()]


def archived(tmp_path: Path, site: ArticleSite) -> Workspace:
    ws = Workspace.open(tmp_path / "archive", FAST)
    bridge = site.put("/bridge.html", article("廊桥修缮笔记", BRIDGE))
    tea = site.put("/tea.html", article("Firing tea", TEA, lang="en"))
    ws.add_links(f"{bridge}\n{tea}", cat1="01_Notes")
    ws.run()
    ws.build()  # both done: bound into a book
    ws.store.merge_file()
    assert [t.status for t in ws.tasks()] == [Status.DONE, Status.DONE]
    return ws


def test_nothing_changed_writes_nothing_but_last_checked(tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = archived(tmp_path, site)
        root = ws.archive.root
        # the tea page comes back in other bytes around the same words (a new ad, a time stamp)
        site.put("/tea.html", article("Firing tea", TEA, lang="en").replace(
            "<footer>", "<!-- served 2026-12-01 --><aside class='ad'>Sale!</aside><footer>"))
        files, before = snapshot(root), rows(root)
        progress = ws.check_updates(ws.refresh_ids())
    assert progress == Progress(total=2, elapsed=progress.elapsed, finished=2, unchanged=2)
    assert snapshot(root) == files
    after = rows(root)
    assert [r["last_checked"] for r in after] != ["", ""] and all(r["last_checked"] for r in after)
    for old, new in zip(before, after, strict=True):
        assert {k for k in old if old[k] != new[k]} == {"last_checked"}


def test_a_changed_page_is_archived_again_and_its_book_says_updated(tmp_path: Path) -> None:
    with ArticleSite() as site:
        ws = archived(tmp_path, site)
        root = ws.archive.root
        old_raw = ws.archive.raw_html(1).read_bytes()
        old_hash = ws.task(1).content_hash
        edited = BRIDGE[:3] + ["屋顶后来又漏了一次雨，我们第二年春天回去补了三片瓦。"] + BRIDGE[4:]
        site.put("/bridge.html", article("廊桥修缮笔记", edited))
        progress = ws.check_updates(ws.refresh_ids())
        ws.store.merge_file()
        assert progress.changed == 1 and progress.unchanged == 1
        task = ws.task(1)
        assert task.status == Status.LOCALIZED  # bound again by the next build
        assert task.revised_at and task.last_checked == task.revised_at
        assert task.content_hash != old_hash and task.refresh_error == ""
        history = sorted((root / "00_raw" / "history" / "1").iterdir())
        assert [p.suffix for p in history] == [".html", ".json"]
        assert history[0].read_bytes() == old_raw
        assert "第二年春天" in ws.archive.raw_html(1).read_text(encoding="utf-8")
        assert "第二年春天" in ws.article(1).text
        log = ws.archive.logs_dir / "changes.csv"
        assert log.read_bytes().startswith(b"\xef\xbb\xbfid,")  # a BOM: Excel reads UTF-8
        with open(log, encoding="utf-8-sig", newline="") as f:
            [change] = list(csv.DictReader(f))
        assert (change["id"], change["old_hash"], change["new_hash"]) == (
            "1", old_hash, task.content_hash)
        assert int(change["chars_after"]) == task.chars
        assert int(change["chars_before"]) != task.chars
        assert "1 place changed" in change["summary"] and "第二年春天" in change["summary"]
        assert [c.task_id for c in ws.changes()] == [1]
        result = ws.build()
    with zipfile.ZipFile(result.epubs[0]) as book:
        chapter = book.read("EPUB/text/a1.xhtml").decode("utf-8")
    assert "第二年春天" in chapter
    # in the book's language: a Chinese article's book says it in Chinese
    assert f"更新于 {task.revised_at[:10]}" in chapter


@pytest.mark.parametrize("now", ["gone", "no article"])
def test_a_page_that_fails_now_leaves_the_archived_version_bindable(
        tmp_path: Path, now: str) -> None:
    with ArticleSite() as site:
        ws = archived(tmp_path, site)
        root = ws.archive.root
        if now == "gone":
            site.put("/bridge.html", "<h1>Not found</h1>", status=404)
        else:
            links = "".join(f"<li><a href='/n{i}'>新闻标题第{i}条</a></li>" for i in range(30))
            site.put("/bridge.html", f"<html><body><ul>{links}</ul></body></html>")
        files = snapshot(root)
        progress = ws.check_updates([1])
        ws.store.merge_file()
    assert progress == Progress(total=1, elapsed=progress.elapsed, finished=1, unchecked=1)
    assert snapshot(root) == files  # the archived page, article and images as they were
    task = ws.task(1)
    assert task.status == Status.DONE and task.error == ""
    assert task.refresh_error == ("HTTP 404 Not Found" if now == "gone" else "no article found")
    assert task.last_checked
    assert 1 in ws.build().task_ids


def test_refresh_from_the_command_line_chooses_by_age_category_and_id(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ArticleSite() as site:
        ws = archived(tmp_path, site)
        archive = str(ws.archive.root)
        site.put("/tea.html", article("Firing tea", TEA[:-1], lang="en"))
        assert main(["run", "--refresh", "--id", "1", "--archive", archive]) == 0
        out = capsys.readouterr().out
        assert "checked 1 of 1 article in" in out and "changed 0, unchanged 1" in out
        assert main(["run", "--refresh", "--older-than", "30d", "--archive", archive]) == 0
        out = capsys.readouterr().out  # #1 was checked just now; #2 was fetched just now too
        assert "no archived articles to check" in out
        assert main(["run", "--refresh", "--cat1", "Notes", "--archive", archive]) == 0
        out = capsys.readouterr().out
        assert "changed 1, unchanged 1, could not check 0" in out
        assert "changed #2: " in out and "/tea.html" in out
        with pytest.raises(SystemExit) as usage:
            main(["run", "--older-than", "3x", "--refresh", "--archive", archive])
        assert usage.value.code == 2
        assert main(["run", "--cat1", "Notes", "--archive", archive]) == 1
    assert "add --refresh" in capsys.readouterr().err
    assert TaskStore(ws.archive.tasks_path).get(2).revised_at
