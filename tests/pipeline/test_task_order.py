"""The list's order (issue 29): the file's row order, arranged by ``move`` and by a person in
Excel, merged by what each writer moved while the other cells merge as ever."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from pipeline.records.settings import Settings
from pipeline.records.task import Status
from pipeline.store.tasks import TaskStore
from pipeline.usecases.workspace import Workspace


def _store_with(path: Path, n: int) -> TaskStore:
    store = TaskStore(path)
    for i in range(1, n + 1):
        store.add(f"https://example.com/{i}")
    store.save()
    return store


def _file_ids(path: Path) -> list[int]:
    return [int(row["id"]) for row in csv.DictReader(
        io.StringIO(path.read_text(encoding="utf-8-sig")))]


def _rows_as_excel_sorts_them(path: Path, order: list[int], typed: str = "") -> None:
    """The rows moved as a person drags them in a spreadsheet (and a link typed in a row)."""
    text = path.read_text(encoding="utf-8-sig")
    header, *rows = text.splitlines()
    by_id = {int(row.split(",", 1)[0]): row for row in rows}
    lines = [by_id[i] for i in order]
    if typed:
        lines.insert(1, f",{typed}")
    path.write_text("\r\n".join([header, *lines]) + "\r\n", encoding="utf-8")


def test_an_arrangement_is_the_files_row_order_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = _store_with(path, 5)
    store.arrange([4, 2], before=1)
    store.arrange([1], before=None)
    assert store.order() == [4, 2, 3, 5, 1]
    store.save()
    assert _file_ids(path) == [4, 2, 3, 5, 1]
    assert [t.id for t in TaskStore(path).tasks()] == [4, 2, 3, 5, 1]
    assert TaskStore(path).add("https://example.com/6").id == 6  # ids still above every id


def test_two_writers_arrangements_and_edits_all_survive(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 5)
    window, terminal = TaskStore(path), TaskStore(path)
    window.arrange([5], before=1)  # 5 to the top
    window.update(2, title="kept")
    terminal.arrange([1], before=None)  # 1 to the bottom
    terminal.update(3, status=Status.FETCHED)
    window.save()
    terminal.save()  # merged onto the window's arrangement, not over it
    assert _file_ids(path) == [5, 2, 3, 4, 1]
    again = TaskStore(path)
    assert (again.get(2).title, again.get(3).status) == ("kept", Status.FETCHED)
    window.update(4, title="later")
    window.save()  # a save that moved nothing keeps the file's order
    assert _file_ids(path) == [5, 2, 3, 4, 1]


def test_a_moved_task_lands_before_its_neighbour_even_when_others_moved_meanwhile(
        tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 5)
    mine, theirs = TaskStore(path), TaskStore(path)
    mine.arrange([5], before=3)  # 1 2 5 3 4
    theirs.arrange([3], before=1)  # 3 1 2 4 5
    theirs.remove([4])
    theirs.save()
    mine.save()
    assert _file_ids(path) == [5, 3, 1, 2]  # 5 right before 3, wherever 3 went
    assert mine.order() == [5, 3, 1, 2]


def test_rows_a_person_reordered_in_excel_are_the_order(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    running = _store_with(path, 4)
    _rows_as_excel_sorts_them(path, [3, 1, 4, 2], typed="https://example.com/typed")
    running.update(1, status=Status.FETCHED)
    running.save()  # a run's save keeps the person's order (and their typed-in row's place)
    assert _file_ids(path) == [3, 5, 1, 4, 2]
    ws = Workspace.open(tmp_path, Settings())
    assert [t.id for t in ws.tasks()] == [3, 5, 1, 4, 2]


def test_undo_puts_moved_tasks_back_where_they_stood(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    _store_with(path, 6)
    ws = Workspace.open(tmp_path, Settings())
    first = ws.move([2, 5], "top")
    assert [t.id for t in ws.tasks()] == [2, 5, 1, 3, 4, 6]
    second = ws.move([6], "after", 2)
    assert [t.id for t in ws.tasks()] == [2, 6, 5, 1, 3, 4]
    ws.put_back(second)
    assert [t.id for t in ws.tasks()] == [2, 5, 1, 3, 4, 6]
    ws.put_back(first)
    assert [t.id for t in ws.tasks()] == [1, 2, 3, 4, 5, 6]
    ws.move([1], "bottom")
    ws.move([4, 3], "before", 2)
    assert [t.id for t in ws.tasks()] == [4, 3, 2, 5, 6, 1]
