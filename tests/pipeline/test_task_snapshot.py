"""The snapshot beside tasks.csv: used only for the bytes it was made from, never trusted over
a hand edit, ignored when damaged, and a kill in the middle of writing it leaves a list that
reads."""

from __future__ import annotations

import os
import pickle
import signal
import sys
from pathlib import Path

import pytest

import pipeline.store.task_snapshot as snapshot_module
import pipeline.store.tasks as tasks_module
from pipeline.records.errors import DiskFull, TaskFileError
from pipeline.records.task import Status, Task
from pipeline.store.task_csv import COLUMNS, get_texts
from pipeline.store.task_snapshot import (
    file_key,
    records_read_back,
    snapshot_path,
    stale_writes,
)
from pipeline.store.tasks import TaskStore


@pytest.fixture(autouse=True)
def snapshot_every_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lists of any length keep a snapshot (in use only from a megabyte)."""
    monkeypatch.setattr(tasks_module, "SNAPSHOT_FROM_BYTES", 0)


def _saved(path: Path, n: int = 5) -> TaskStore:
    store = TaskStore(path)
    for i in range(n):
        store.add(f"https://example.com/{i}", title=f"标题 {i}", cat1="01_新")
    store.update(2, status=Status.FAILED, error="HTTP 404", error_kind="http-4xx",
                 confidence=0.5)
    store.save()
    return store


def _parsed(path: Path) -> TaskStore:
    """The list as parsing the file gives it (no snapshot read)."""
    snapshot_path(path).unlink(missing_ok=True)
    return TaskStore(path)


def _same(a: TaskStore, b: TaskStore) -> None:
    assert a.tasks() == b.tasks()
    assert a.order() == b.order()
    assert a.columns == b.columns
    assert [type(t.status) for t in a.tasks()] == [type(t.status) for t in b.tasks()]


def _same_size_same_time(path: Path, old: bytes, new: bytes) -> None:
    """Replace the file's bytes as an editor may: same length, the old mtime put back."""
    data = path.read_bytes()
    assert data.count(old) == 1 and len(old) == len(new)
    stat = path.stat()
    path.write_bytes(data.replace(old, new))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns


def test_a_saved_list_reads_back_from_its_snapshot(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tasks.csv"
    saved = _saved(path)
    assert snapshot_path(path).exists()
    with monkeypatch.context() as m:
        m.setattr(tasks_module, "parse_rows", lambda *a: pytest.fail("tasks.csv was parsed"))
        read = TaskStore(path)
        read.get(1)  # the records are the store's usual read-only ones
        with pytest.raises(AttributeError):
            read.tasks()[0].title = "x"
    _same(read, _parsed(path))
    _same(read, saved)
    assert read.find_url("https://example.com/3") == 4


def test_a_list_a_person_wrote_keeps_a_snapshot_the_next_read_uses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text("url,id,status,title,note\nhttps://example.com/a,1,fetched, A ,mine\n"
                    "https://example.com/b,2,pending,B,\n", encoding="utf-8")
    parsed = TaskStore(path)
    assert snapshot_path(path).exists()
    monkeypatch.setattr(tasks_module, "parse_rows", lambda *a: pytest.fail("parsed"))
    read = TaskStore(path)
    _same(read, parsed)
    assert read.get(1).title == "A" and read.get(1).extra == {"note": "mine"}


def test_a_hand_edit_of_the_same_size_and_time_is_read_from_the_file(tmp_path: Path) -> None:
    """Size and mtime alone would trust the snapshot here: an edit within the clock's tick
    that kept the length (a status word for another, one letter of a title)."""
    path = tmp_path / "tasks.csv"
    _saved(path)
    _same_size_same_time(path, "标题 3".encode(), "标题 9".encode())
    assert TaskStore(path).get(4).title == "标题 9"


def test_a_file_broken_by_hand_is_refused_though_a_snapshot_is_there(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _saved(path)
    _same_size_same_time(path, "标题 3".encode(), b'"title 3')
    with pytest.raises(TaskFileError):
        TaskStore(path)


def _with_payload(snapshot: Path, payload: bytes) -> None:
    """The snapshot with another payload under its header."""
    magic, header, _ = snapshot.read_bytes().split(b"\n", 2)
    snapshot.write_bytes(b"\n".join((magic, header, payload)))


@pytest.mark.parametrize("damage", ["cut short", "garbage", "other fields", "a field missing",
                                    "lists of the names", "a status as text", "a class"])
def test_a_damaged_or_foreign_snapshot_is_ignored(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "tasks.csv"
    saved = _saved(path)
    snapshot = snapshot_path(path)
    data = snapshot.read_bytes()
    payload = data.split(b"\n", 2)[2]
    marker = tmp_path / "ran"
    if damage == "cut short":
        snapshot.write_bytes(data[: len(data) * 2 // 3])
    elif damage == "garbage":
        _with_payload(snapshot, bytes(len(payload)))
    elif damage == "other fields":  # another version's records: keys not as this one's
        rows = pickle.loads(payload)
        for row in rows:
            row["retired"] = row.pop("title")
        _with_payload(snapshot, pickle.dumps(rows))
    elif damage == "a field missing":
        rows = pickle.loads(payload)
        del rows[1]["title"]
        _with_payload(snapshot, pickle.dumps(rows))
    elif damage == "lists of the names":  # as many, every one a field's
        rows = pickle.loads(payload)
        _with_payload(snapshot, pickle.dumps([list(row) for row in rows]))
    elif damage == "a status as text":
        rows = pickle.loads(payload)
        rows[2]["status"] = "cleaned"
        _with_payload(snapshot, pickle.dumps(rows))
    else:  # data that would run code when unpickled: refused, nothing runs

        class Touch:
            def __reduce__(self) -> tuple[object, tuple[()]]:
                return marker.touch, ()

        _with_payload(snapshot, pickle.dumps([Touch()]))
    read = TaskStore(path)
    _same(read, saved)
    assert not marker.exists()


def test_rows_typed_in_without_ids_keep_no_snapshot(tmp_path: Path) -> None:
    """Their ids are given on reading from the archive's record, which another writer may
    have raised since: a snapshot would hand out the ids of the first read again."""
    path = tmp_path / "tasks.csv"
    path.write_text("url,id,title\nhttps://example.com/a,5,A\nhttps://example.com/typed,,\n",
                    encoding="utf-8")
    store = TaskStore(path)
    assert store.find_url("https://example.com/typed") == 6
    assert not snapshot_path(path).exists()


@pytest.mark.parametrize(("change", "read_back"), [
    ({"title": "  padded  "}, {"title": "padded"}),
    ({"confidence": 0.123456}, {"confidence": 0.123}),
    ({"extra": {"note": "mine"}}, {"extra": {}}),  # a column the file does not have
])
def test_a_save_keeps_no_snapshot_of_records_the_file_reads_back_otherwise(
        tmp_path: Path, change: dict[str, object], read_back: dict[str, object]) -> None:
    """The store holds a title with spaces at its ends, a confidence with more places than
    the file has, a cell of a column the file lacks: the file reads back stripped, rounded,
    without it. The next read gives what the file says, not what the saver held."""
    path = tmp_path / "tasks.csv"
    store = _saved(path)
    store.update(1, **change)
    store.save()
    read = TaskStore(path)
    assert {name: getattr(read.get(1), name) for name in read_back} == read_back
    _same(read, _parsed(path))


def _reads_back(task: Task) -> bool:
    return records_read_back([task], [get_texts(task)], list(COLUMNS))


def test_a_text_with_any_space_a_read_strips_at_an_end_is_not_what_reads_back() -> None:
    spaces = [c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()]
    assert len(spaces) > 20
    for text in [f"{c}x" for c in spaces] + [f"x{c}" for c in spaces]:
        assert not _reads_back(Task(id=1, url="https://a.example/", title=text)), repr(text)
    for text in ("x", "\u200bx\u200b", "a b", ""):  # a zero-width space is no space to strip
        assert _reads_back(Task(id=1, url="https://a.example/", title=text)), repr(text)


def test_the_key_names_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_bytes(b"abc")
    stat = path.stat()
    assert file_key(b"abc", stat) != file_key(b"abd", stat)


def _blocked_snapshot_writer(path: Path, ready: int) -> None:
    """Child process: a save whose snapshot write stops before its fsync (written, not yet
    renamed) and says so on ``ready``."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).startswith(
                f".{snapshot_path(path).name}."):
            os.write(ready, b"x")
            signal.pause()  # killed here
        real_fsync(fd)

    os.fsync = fsync  # this child's own
    store = TaskStore(path)
    store.update(1, title="after the kill")
    store.save()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs fork and /proc")
def test_a_kill_while_the_snapshot_is_written_leaves_a_list_that_reads(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _saved(path)
    read, ready = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child is killed
        try:
            os.close(read)
            _blocked_snapshot_writer(path, ready)
        finally:
            os._exit(1)
    os.close(ready)
    assert os.read(read, 1) == b"x"  # the child is inside the snapshot's write
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(read)
    assert stale_writes(path), "the kill did not land inside the snapshot's write"
    store = TaskStore(path)
    assert store.get(2).title == "标题 1"
    assert store.get(1).title == "after the kill"  # the file was written before the snapshot
    _same(store, _parsed(path))
    store.update(3, title="later")
    store.save()  # the next writer of a snapshot (a read or a save) sweeps what it left
    assert not stale_writes(path)
    assert TaskStore(path).get(3).title == "later"


def test_a_runs_batched_save_keeps_no_snapshot_and_its_last_save_does(tmp_path: Path) -> None:
    """A batch is made old by the next one: the snapshot is the next parsing read's, or the
    run's last save's (``save``)."""
    path = tmp_path / "tasks.csv"
    _saved(path)
    kept = snapshot_path(path).read_bytes()
    store = TaskStore(path)  # a run's, not saved yet: its first batch is due
    store.update(1, attempts=1)
    assert store.save_if_due()
    assert snapshot_path(path).read_bytes() == kept  # the file's earlier version's: unused
    assert TaskStore(path).get(1).attempts == 1
    store.update(1, attempts=2)
    store.save()
    read = TaskStore(path)
    assert read.get(1).attempts == 2
    _same(read, _parsed(path))


def test_a_full_disk_leaves_the_list_read_and_saved(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The snapshot is a cache: no room for it is no failure of a read or a save."""
    path = tmp_path / "tasks.csv"
    _saved(path)
    snapshot_path(path).unlink()

    def full(path: Path, data: bytes, **kwargs: object) -> None:
        raise DiskFull(f"disk full writing {path.name}")

    monkeypatch.setattr(snapshot_module, "write_atomic", full)
    store = TaskStore(path)  # parsed, its snapshot not kept
    store.update(1, title="saved")
    store.save()
    assert not snapshot_path(path).exists()
    assert TaskStore(path).get(1).title == "saved"


def test_a_lists_repeated_categories_and_empty_cells_are_held_once(tmp_path: Path) -> None:
    """A 100k list has a handful of category names: each is one string in memory, read from
    the file or from its snapshot, and a task without a person's cells shares one empty
    mapping (issue 30: the window's memory at 100k)."""
    path = tmp_path / "tasks.csv"
    _saved(path)
    for store in (_parsed(path), TaskStore(path)):  # parsed, then from the snapshot it wrote
        first, *others = store.tasks()
        assert first.cat1 == "01_新"
        assert all(t.cat1 is first.cat1 and t.cat2 is first.cat2 for t in others)
        assert all(t.extra is first.extra for t in others) and first.extra == {}
    assert snapshot_path(path).exists()


def test_a_link_is_looked_up_from_a_snapshot_as_from_the_file(tmp_path: Path) -> None:
    """The links' index is made when first asked after a snapshot's read: the first task of
    a link in the list's order that is not a duplicate, as parsing makes it."""
    path = tmp_path / "tasks.csv"
    path.write_text("id,url,status\n7,https://a.example/x,duplicate\n3,https://a.example/x,"
                    "fetched\n5,https://a.example/x,pending\n9,https://a.example/y,failed\n",
                    encoding="utf-8")
    parsed = _parsed(path)
    assert snapshot_path(path).exists()
    read = TaskStore(path)
    _same(read, parsed)
    for store in (parsed, read):
        assert store.find_url("https://a.example/x") == 3
        assert store.find_url("https://a.example/y") == 9
        with pytest.raises(ValueError, match="#3"):
            store.add("https://a.example/x")


def test_how_many_tasks_a_long_list_holds_is_said_without_reading_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the window says while it opens an archive comes from the snapshot's header; the
    list is counted a megabyte at a time only when no snapshot is of it."""
    from pipeline.usecases import workspace

    path = tmp_path / "tasks.csv"
    _saved(path, n=7)
    monkeypatch.setattr(workspace, "LINE_COUNT_CHUNK", 0)  # a read of the list counts none
    assert workspace.tasks_on_file(tmp_path) == 7
    path.write_bytes(path.read_bytes() + b"8,https://example.com/8\r\n")  # edited by hand
    assert workspace.tasks_on_file(tmp_path) == 0
    monkeypatch.setattr(workspace, "LINE_COUNT_CHUNK", 1 << 20)
    assert workspace.tasks_on_file(tmp_path) == 8
