"""Many writers on one tasks.csv: each save puts only its own changes into the file as it is."""

from __future__ import annotations

import csv
import io
import threading
from pathlib import Path

import pytest

import pipeline.store.tasks as tasks_module
from pipeline.records.errors import TaskFileError
from pipeline.records.task import Status
from pipeline.store.tasks import TaskStore
from tests.waiting import PATIENCE_MS


def _store_with(path: Path, n: int) -> TaskStore:
    store = TaskStore(path)
    for i in range(n):
        store.add(f"https://example.com/{i}")
    store.save()
    return store


def _hand_edit(path: Path, edit: dict[int, dict[str, str]], new_column: str = "") -> None:
    """Rewrite the file as a person in a spreadsheet would: cells changed, maybe a column."""
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    columns = list(rows[0].keys()) + ([new_column] if new_column else [])
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        row.update(edit.get(int(row["id"]), {}))
        writer.writerow(row)
    path.write_text(out.getvalue(), encoding="utf-8")


def test_two_writers_keep_each_others_changes(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 3)
    run, person = TaskStore(path), TaskStore(path)
    run.update(1, status=Status.FETCHED, attempts=1)
    person.update(1, title="我的标题")
    person.add("https://example.com/new", cat1="01_新")
    run.save()
    person.save()
    run.update(2, status=Status.FAILED, error="HTTP 404", error_kind="http-4xx")
    run.save()  # the run saves last: the person's title and task survive it
    again = TaskStore(path)
    t1 = again.get(1)
    assert (t1.status, t1.attempts, t1.title) == (Status.FETCHED, 1, "我的标题")
    assert again.get(2).error_kind == "http-4xx"
    assert again.find_url("https://example.com/new") == 4
    assert run.get(1).title == "我的标题"  # a save also brings the others' changes in


def test_a_hand_edit_and_a_new_column_survive_a_save(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = _store_with(path, 3)
    store.update(2, status=Status.CLEANED, chars=1200)
    _hand_edit(path, {2: {"title": "edited in Excel", "cat1": "02_手"}, 3: {"note": "keep"}},
               new_column="note")
    store.save()
    again = TaskStore(path)
    t2 = again.get(2)
    assert (t2.title, t2.cat1, t2.status, t2.chars) == ("edited in Excel", "02_手",
                                                          Status.CLEANED, 1200)
    assert again.get(3).extra == {"note": "keep"}
    assert "note" in again.columns


def test_a_file_broken_meanwhile_is_not_rewritten_and_the_changes_wait(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = _store_with(path, 2)
    store.update(1, status=Status.FETCHED)
    good = path.read_bytes()
    broken = good.replace(b"https://example.com/1", b'"https://example.com/1', 1)
    path.write_bytes(broken)
    with pytest.raises(TaskFileError, match="line 3"):
        store.save()
    assert path.read_bytes() == broken
    assert store.dirty
    path.write_bytes(good)  # the person fixes it
    store.save()
    assert TaskStore(path).get(1).status == Status.FETCHED


def test_a_removal_stands_against_anothers_changes(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 3)
    window, run = TaskStore(path), TaskStore(path)
    window.remove([2])
    window.save()
    run.update(2, status=Status.FETCHED)
    run.update(3, status=Status.FETCHED)
    run.save()
    again = TaskStore(path)
    assert [t.id for t in again.tasks()] == [1, 3]
    assert again.get(3).status == Status.FETCHED


def test_adds_racing_get_their_own_ids_and_one_task_per_page(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 1)
    a, b = TaskStore(path), TaskStore(path)
    a.add("https://a.example/x")
    a.add("https://same.example/")
    b.add("https://b.example/y")  # takes id 2 in b's view too
    b.add("https://same.example/")
    a.save()
    b.save()
    again = TaskStore(path)
    urls = {t.url: t.id for t in again.tasks()}
    assert set(urls) == {"https://example.com/0", "https://a.example/x", "https://same.example/",
                         "https://b.example/y"}
    assert len(set(urls.values())) == 4
    assert urls["https://same.example/"] == 3  # a's, saved first


def test_a_transaction_decides_on_the_file_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 1)
    stale = TaskStore(path)
    other = TaskStore(path)
    other.add("https://example.com/other")
    other.save()
    with stale.transaction() as store:
        assert store.find_url("https://example.com/other") == 2
        task = store.add("https://example.com/mine")
    assert task.id == 3
    assert TaskStore(path).get(3).url == "https://example.com/mine"


def test_merge_file_brings_changes_in_and_keeps_unsaved_ones(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    window = _store_with(path, 2)
    window.update(1, cat1="01_未存")
    assert not window.merge_file()  # nobody wrote: nothing to read
    run = TaskStore(path)
    run.update(1, status=Status.LOCALIZED)
    run.update(2, status=Status.FAILED, error="x", error_kind="network")
    run.save()
    assert window.merge_file()
    t1 = window.get(1)
    assert (t1.status, t1.cat1) == (Status.LOCALIZED, "01_未存")
    assert window.dirty  # the category is still the window's to save


def test_a_save_with_nothing_to_say_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = _store_with(path, 2)
    before = path.stat().st_mtime_ns, path.stat().st_ino
    store.save()
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == before


def test_a_file_read_while_a_save_is_writing_never_undoes_the_save_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window saves in one thread and looks at the file in another. A look that read the
    file while a save had cleared its changes and not yet put its file in place undid them in
    memory, and the file then said what memory did not, for good (CI: a task restored by Undo
    stayed in the Trash tab). A look waits for the save in flight."""
    path = tmp_path / "tasks.csv"
    window = _store_with(path, 2)
    window.update(1, deleted_at="2026-12-01T00:00:00Z")
    window.save()
    window.update(1, deleted_at="")  # Undo: restored, to be saved
    writing, release = threading.Event(), threading.Event()
    write = tasks_module.write_atomic

    def held_write(*args: object, **kwargs: object) -> object:
        writing.set()
        assert release.wait(PATIENCE_MS / 1000), "the test never let the save finish"
        return write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tasks_module, "write_atomic", held_write)
    save = threading.Thread(target=window.save)
    save.start()
    assert writing.wait(PATIENCE_MS / 1000), "the save never reached its write"
    # meanwhile the file changes under the window (as the last save, or a hand edit, left it)
    _hand_edit(path, {1: {"deleted_at": "2026-12-01T00:00:00Z"}})
    look = threading.Thread(target=window.merge_file)
    look.start()
    look.join(timeout=1.0)  # the old code merged here, while the save was held
    release.set()
    save.join()
    look.join()
    assert window.get(1).deleted_at == TaskStore(path).get(1).deleted_at == ""
