"""Reconcile's check that each task's stored page is its own reads a record only when it, or the
task's link, is not as last read (``.record_urls``); anything else is read as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.records.errors import DiskFull
from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store import record_urls
from pipeline.store.archive import STAGE_LISTING, Archive, write_atomic
from pipeline.store.record_urls import RECORD_URLS
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace

URLS = [f"https://a.example/{i}" for i in (1, 2, 3)]


def _fetched_archive(root: Path) -> None:
    """Three tasks whose pages 00_raw holds, each record naming its task's link."""
    archive = Archive.open(root)
    store = TaskStore(archive.tasks_path, ids=archive)
    for url in URLS:
        task = store.add(url)
        store.update(task.id, status=Status.FETCHED)
        archive.store_raw(task.id, b"<html>page</html>", json.dumps({"url": url}))
    store.save()


@pytest.fixture(autouse=True)
def note_every_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    """Archives of any size get the note (in use only from a thousand records)."""
    monkeypatch.setattr(record_urls, "NOTED_FROM_RECORDS", 0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids whose record reconcile read."""
    read: list[int] = []
    fetched_url = Archive.fetched_url

    def counted(self: Archive, task_id: int) -> str | None:
        read.append(task_id)
        return fetched_url(self, task_id)

    monkeypatch.setattr(Archive, "fetched_url", counted)
    return read


def _open(root: Path) -> Workspace:
    ws = Workspace.open(root, Settings())
    ws.close()
    return ws


def test_records_read_once_are_not_read_again_until_a_link_changes(tmp_path: Path,
                                                                   reads: list[int]) -> None:
    _fetched_archive(tmp_path)
    _open(tmp_path)
    assert sorted(reads) == [1, 2, 3]
    reads.clear()
    _open(tmp_path)
    assert reads == []
    path = tmp_path / "tasks.csv"
    path.write_text(path.read_text(encoding="utf-8-sig").replace(URLS[1], URLS[1] + "-moved"),
                    encoding="utf-8-sig")
    ws = _open(tmp_path)
    assert reads == [2]  # the task whose link a person changed
    assert ws.task(2).status == Status.PENDING  # its record names the old link: set aside
    assert (tmp_path / "00_raw" / "history" / "2").is_dir()
    assert [ws.task(i).status for i in (1, 3)] == [Status.FETCHED, Status.FETCHED]


def test_a_record_replaced_under_an_unchanged_link_is_read_again(tmp_path: Path,
                                                                 reads: list[int]) -> None:
    """Another page's record put under task 3's id (as an older version giving an id again
    left it): a new file, so the noted URL is not trusted for it."""
    _fetched_archive(tmp_path)
    _open(tmp_path)
    reads.clear()
    archive = Archive(tmp_path)
    write_atomic(archive.raw_meta(3), json.dumps({"url": "https://b.example/else"}).encode(),
                 readonly=True)
    ws = _open(tmp_path)
    assert reads == [3]
    assert ws.task(3).status == Status.PENDING
    assert ws.task(2).status == Status.FETCHED


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05\x95"])
def test_a_missing_or_damaged_note_reads_every_record(tmp_path: Path, reads: list[int],
                                                      damage: bytes) -> None:
    _fetched_archive(tmp_path)
    _open(tmp_path)
    reads.clear()
    (tmp_path / RECORD_URLS).write_bytes(damage)
    ws = _open(tmp_path)
    assert sorted(reads) == [1, 2, 3]
    assert [t.status for t in ws.tasks()] == [Status.FETCHED] * 3
    reads.clear()
    _open(tmp_path)
    assert reads == []  # noted again


def test_a_small_archive_is_left_without_the_note(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A command on it writes nothing it did not have to (tests/test_hostile_inputs.py)."""
    monkeypatch.setattr(record_urls, "NOTED_FROM_RECORDS", len(URLS) + 1)
    _fetched_archive(tmp_path)
    _open(tmp_path)
    assert not (tmp_path / RECORD_URLS).exists()
    assert not (tmp_path / STAGE_LISTING).exists()


def test_a_full_disk_leaves_the_records_unnoted(tmp_path: Path, reads: list[int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _fetched_archive(tmp_path)

    def full(path: Path, data: bytes, **kwargs: object) -> None:
        raise DiskFull(f"disk full writing {path.name}")

    monkeypatch.setattr(record_urls, "write_atomic", full)
    ws = _open(tmp_path)
    assert [t.status for t in ws.tasks()] == [Status.FETCHED] * 3
    assert not (tmp_path / RECORD_URLS).exists()
