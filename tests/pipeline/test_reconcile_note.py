"""Opening an archive reconciles its list only when the list or the stage folders changed since
a reconcile found them agreeing (``.reconciled``): a file removed or a status typed by hand is
still reconciled; an archive nothing touched is not judged task by task again."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.run import reconcile as reconcile_module
from pipeline.run.reconcile import RECONCILED
from pipeline.store import archive as archive_module
from pipeline.store import record_urls
from pipeline.store.archive import Archive, write_atomic
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace


@pytest.fixture(autouse=True)
def note_every_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    """Archives of any size get the notes (in use only from a thousand records)."""
    for module in (archive_module, reconcile_module, record_urls):
        monkeypatch.setattr(module, "NOTED_FROM_RECORDS", 0)


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many tasks each reconcile of a list judged."""
    counts: list[int] = []
    own = TaskStore.reconcile

    def counted(self: TaskStore, stage_reached: object) -> int:
        counts.append(len(self))
        return own(self, stage_reached)  # type: ignore[arg-type]

    monkeypatch.setattr(TaskStore, "reconcile", counted)
    return counts


def _archive(root: Path) -> None:
    """Three fetched tasks, the first cleaned too."""
    archive = Archive.open(root)
    store = TaskStore(archive.tasks_path, ids=archive)
    for n in (1, 2, 3):
        task = store.add(f"https://a.example/{n}")
        store.update(task.id, status=Status.FETCHED)
        archive.store_raw(task.id, b"<html>page</html>",
                          json.dumps({"url": f"https://a.example/{n}"}))
    archive.clean_dir.mkdir(exist_ok=True)
    write_atomic(archive.clean_meta(1), b"{}")
    store.update(1, status=Status.CLEANED)
    store.save()


def _left_alone(root: Path) -> None:
    """As if nothing had touched the list or the stage folders for a minute."""
    then = time.time_ns() - 60 * 10**9
    for path in (root / "00_raw", root / "01_clean", root / "tasks.csv"):
        os.utime(path, ns=(then, then))


def _statuses(root: Path) -> list[Status]:
    ws = Workspace.open(root, Settings())
    ws.close()
    return [ws.task(n).status for n in (1, 2, 3)]


AGREED = [Status.CLEANED, Status.FETCHED, Status.FETCHED]


def test_an_archive_nothing_touched_is_not_judged_again(tmp_path: Path,
                                                        judged: list[int]) -> None:
    _archive(tmp_path)
    _left_alone(tmp_path)
    assert _statuses(tmp_path) == AGREED
    assert judged == [3] and (tmp_path / RECONCILED).exists()
    assert _statuses(tmp_path) == AGREED
    assert _statuses(tmp_path) == AGREED
    assert judged == [3]


def test_a_clean_file_removed_by_hand_is_reconciled(tmp_path: Path, judged: list[int]) -> None:
    _archive(tmp_path)
    _left_alone(tmp_path)
    _statuses(tmp_path)
    (tmp_path / "01_clean" / "1.json").unlink()
    assert _statuses(tmp_path) == [Status.FETCHED, Status.FETCHED, Status.FETCHED]
    assert judged == [3, 3]


def test_a_record_put_in_by_hand_is_reconciled(tmp_path: Path, judged: list[int]) -> None:
    _archive(tmp_path)
    _left_alone(tmp_path)
    _statuses(tmp_path)
    write_atomic(tmp_path / "01_clean" / "2.json", b"{}")
    assert _statuses(tmp_path) == [Status.CLEANED, Status.CLEANED, Status.FETCHED]


def test_a_status_typed_by_hand_is_reconciled_even_under_the_old_size_and_mtime(
        tmp_path: Path, judged: list[int]) -> None:
    """"pending" is as long as "fetched", and the mtime put back: only the file's ctime
    (which no program can set) tells the edit."""
    _archive(tmp_path)
    _left_alone(tmp_path)
    _statuses(tmp_path)
    path = tmp_path / "tasks.csv"
    before = path.stat()
    text = path.read_bytes()
    row = text.index(b"https://a.example/2")
    edited = text[:row] + text[row:].replace(b"fetched", b"pending", 1)
    with open(path, "r+b") as f:  # in place: the same inode
        f.write(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino, before.st_size, before.st_mtime_ns)
    assert TaskStore(path).get(2).status == Status.PENDING
    assert _statuses(tmp_path) == AGREED
    assert judged == [3, 3]


def test_a_list_or_folder_changed_a_moment_ago_is_not_noted(tmp_path: Path,
                                                            judged: list[int]) -> None:
    """Their clock's tick may hold another change a stat would not show."""
    _archive(tmp_path)
    _statuses(tmp_path)
    assert not (tmp_path / RECONCILED).exists()
    _statuses(tmp_path)
    assert judged == [3, 3]


def test_a_list_a_reconcile_changed_is_noted_at_the_next_open(tmp_path: Path,
                                                              judged: list[int]) -> None:
    _archive(tmp_path)
    (tmp_path / "01_clean" / "1.json").unlink()
    _left_alone(tmp_path)
    assert _statuses(tmp_path)[0] == Status.FETCHED  # saved: the list changed a moment ago
    assert not (tmp_path / RECONCILED).exists()
    _left_alone(tmp_path)
    _statuses(tmp_path)
    _statuses(tmp_path)
    assert judged == [3, 3]


def test_unsaved_changes_in_the_store_are_reconciled(tmp_path: Path,
                                                     judged: list[int]) -> None:
    """The note stands for the list as the file holds it, not a store's changes on top."""
    _archive(tmp_path)
    _left_alone(tmp_path)
    ws = Workspace.open(tmp_path, Settings())
    try:
        ws.store.insert(Task(id=4, url="https://a.example/4", status=Status.CLEANED))
        assert ws.reconcile() == 1
        assert ws.task(4).status == Status.PENDING
    finally:
        ws.close()
