"""The use cases say what they changed (``Workspace.listen``): each route that changes the
archive is heard, reads are not, and another writer's save is heard when this workspace takes
it in — by a look at the file or by its own save that merges it."""

from __future__ import annotations

from pathlib import Path

from pipeline.store.tasks import TaskStore
from pipeline.usecases.changed import Changed
from pipeline.usecases.workspace import Workspace


def _heard(root: Path) -> tuple[Workspace, list[Changed]]:
    workspace = Workspace.open(root)
    heard: list[Changed] = []
    workspace.listen(heard.append)
    return workspace, heard


def test_each_change_is_heard_and_a_read_is_not(tmp_path: Path) -> None:
    workspace, heard = _heard(tmp_path / "archive")
    report = workspace.add_links("https://a.example/1\nhttps://a.example/2")
    first, second = (t.id for t in report.added)
    assert heard == [Changed.TASKS]
    workspace.add_links("https://a.example/1")  # a duplicate adds nothing
    workspace.tasks(), workspace.trash(), workspace.failures(), workspace.last_report()
    assert heard == [Changed.TASKS]
    workspace.edit([first], title="桥")
    workspace.remove([second])
    workspace.restore([second])
    workspace.remove([second])
    workspace.save()  # its own edits: nothing new to hear
    assert workspace.empty_trash() == 1
    assert heard == [Changed.TASKS] * 6
    generation = workspace.generation
    workspace.report()
    assert heard[-1] == Changed.REPORT and workspace.generation == generation + 1
    workspace.set_rules("a.example", {"min_chars": 10})
    workspace.undo_rules()
    assert heard[-2:] == [Changed.RULES, Changed.RULES]


def test_another_writers_save_is_heard_when_taken_in(tmp_path: Path) -> None:
    workspace, heard = _heard(tmp_path / "archive")
    task = workspace.add_links("https://a.example/1").added[0]
    heard.clear()
    assert not workspace.refresh() and heard == []  # the file is as it saw it

    other = TaskStore(workspace.archive.tasks_path)
    other.update(task.id, title="在 Excel 里改的")
    other.save()
    assert workspace.refresh() and heard == [Changed.TASKS]

    # a hand edit landing while this workspace's own edit waits to be saved: the save takes
    # it in, so nothing looking at the file afterwards sees it change — the save says so
    workspace.edit([task.id], cat1="窗口")
    heard.clear()
    other.merge_file()
    other.update(task.id, cat2="手工")
    other.save()
    workspace.save()
    assert heard == [Changed.TASKS]
    assert workspace.task(task.id).cat2 == "手工" and workspace.task(task.id).cat1 == "窗口"
