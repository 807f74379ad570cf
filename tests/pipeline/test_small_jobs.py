"""The small jobs of a big library (issue 30): what a one-article build asks of the others is
their fingerprints, compared in builtins without numpy; it reads its task by id through the
list's mirror, and marks it done in the journal beside tasks.csv, not by rewriting the list."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task
from pipeline.run import reconcile as reconcile_module
from pipeline.store import archive as archive_module
from pipeline.store import record_urls
from pipeline.store import tasks as tasks_module
from pipeline.store.archive import Archive
from pipeline.store.duplicates import near_pairs
from pipeline.store.task_journal import journal_path
from pipeline.store.task_mirror import mirror_path
from pipeline.store.tasks import SNAPSHOT_FROM_BYTES, TaskStore
from pipeline.usecases.workspace import Workspace
from tests.pipeline.book.synthetic import add_article
from tests.waiting import PATIENCE

REPO = Path(__file__).resolve().parents[2]


def _quiet_process(code: str) -> None:
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=PATIENCE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pairs_involving_one_task_need_no_numpy() -> None:
    """A one-article build asks about one task: its hash is compared with the others' in
    builtins, without the import of numpy (longer than the comparison at 100,000 tasks)."""
    _quiet_process("import sys; from pipeline.text.dedup import near_duplicate_pairs;"
                   "pairs = near_duplicate_pairs([1, 2, 3], [0b1011, 0b0011, 0xFFFF << 40],"
                   " involving={2});"
                   "assert pairs == [(1, 2, 1)], pairs;"
                   "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'numpy');"
                   "print(bad); sys.exit(1 if bad else 0)")


def test_pairs_of_one_task_are_the_pairs_all_tasks_have_with_it() -> None:
    """Asked of one task, the tasks close to it that may not be proposed (not cleaned, a
    duplicate no one decided) are left out as in the search over all."""
    close = {3: Status.LOCALIZED, 5: Status.PENDING, 7: Status.CLEANED, 9: Status.DUPLICATE,
             11: Status.DONE}
    tasks = [Task(n, f"https://a.example/{n}", status=close.get(n, Status.LOCALIZED),
                  fingerprint=f"{(0xFF if n in close else n << 20):016x}")
             for n in range(1, 41)]

    def pairs(involving: set[int] | None) -> list[tuple[int, int]]:
        return [(p.first.id, p.second.id)
                for p in near_pairs(tasks, {}, lambda task_id: None, involving=involving)]

    assert pairs({3}) == [(3, 7), (3, 11)]
    assert pairs({3}) == [p for p in pairs(None) if 3 in p]


# -- a one-article build of a long list (issue 30): its task read by id, tasks.csv left alone --

FILLERS = 3_200  # pending tasks with long titles: a list over SNAPSHOT_FROM_BYTES (1 MB)
FINGERPRINTS = {1: "0123456789abcdef", 2: "0123456789abcde8",  # 3 bits from #1
                3: "123456789abcdef",  # #1's, written without its leading 0: not indexed
                4: "fedcba9876543210"}  # far from every other


@pytest.fixture(autouse=True)
def note_every_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    """The open's reconcile is noted for archives of any size (from 1,000 records when run)."""
    for module in (archive_module, reconcile_module, record_urls):
        monkeypatch.setattr(module, "NOTED_FROM_RECORDS", 0)


def _left_alone(root: Path) -> None:
    """As if nothing had touched the list or the stage folders for a minute."""
    then = time.time_ns() - 60 * 10**9
    for path in (root / "00_raw", root / "01_clean", root / "tasks.csv"):
        os.utime(path, ns=(then, then))


def _library(root: Path) -> Archive:
    """Four localized articles (#1–#4, fingerprinted as ``FINGERPRINTS``) and thousands of
    pending tasks: a list of more than a megabyte, left alone a minute."""
    archive = Archive.open(root)
    store = TaskStore(archive.tasks_path, ids=archive)
    for n, fingerprint in FINGERPRINTS.items():
        url = f"https://site{n}.example/a"
        task = store.add(url)
        archive.store_raw(task.id, b"<html>page</html>", json.dumps({"url": url}))
        add_article(archive, task.id, url=url, title=f"Article {n}", lang="en", images={},
                    content_html=f"<p>Words of article {n}, enough to count.</p>")
        store.update(task.id, status=Status.LOCALIZED, fingerprint=fingerprint)
    for n in range(FILLERS):
        store.add(f"https://filler.example/{n}", title=f"{n} " + "long title " * 30)
    store.save()
    assert archive.tasks_path.stat().st_size > SNAPSHOT_FROM_BYTES
    _left_alone(root)
    Workspace.open(root, Settings()).close()  # the open's reconcile, noted
    return archive


@pytest.fixture
def whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each read of tasks.csv whole: parsed, or from its snapshot."""
    reads: list[str] = []
    parse, snapshot = TaskStore._parse, tasks_module.read_snapshot

    def parsed(self: TaskStore, data: bytes) -> bool:
        reads.append("parsed")
        return parse(self, data)

    def from_snapshot(path: Path, key: str) -> object:
        reads.append("snapshot")
        return snapshot(path, key)

    monkeypatch.setattr(TaskStore, "_parse", parsed)
    monkeypatch.setattr(tasks_module, "read_snapshot", from_snapshot)
    return reads


def _file(archive: Archive) -> tuple[int, int, bytes]:
    stat = archive.tasks_path.stat()
    return stat.st_ino, stat.st_mtime_ns, archive.tasks_path.read_bytes()


def test_a_one_article_build_leaves_tasks_csv_alone_and_its_task_reads_done(
        tmp_path: Path) -> None:
    archive = _library(tmp_path / "archive")
    before = _file(archive)
    ws = Workspace.open(archive.root, Settings())
    result = ws.build(task_ids={4})
    ws.close()
    assert result.task_ids == [4]
    assert _file(archive) == before  # not rewritten: the mark is journaled beside it
    assert journal_path(archive.tasks_path).exists()
    assert TaskStore(archive.tasks_path).get(4).status == Status.DONE
    assert Workspace.open(archive.root, Settings()).task(4).status == Status.DONE

    # the next save of the list, by any writer, writes the mark in and drops the journal
    store = TaskStore(archive.tasks_path, ids=archive)
    store.update(10, title="edited")
    store.save()
    assert not journal_path(archive.tasks_path).exists()
    rows = {row["id"]: row for row in csv.DictReader(
        archive.tasks_path.read_text("utf-8-sig").splitlines())}
    assert rows["4"]["status"] == "done" and rows["10"]["title"] == "edited"
    assert rows["1"]["status"] == "localized"


def test_a_second_one_article_build_reads_no_task_list_whole(
        tmp_path: Path, whole_reads: list[str]) -> None:
    """The first build by id keeps the list's mirror; the next reads its task and the tasks
    whose fingerprints are near it by id, and index.html stays as it was kept."""
    archive = _library(tmp_path / "archive")
    ws = Workspace.open(archive.root, Settings())
    ws.build(task_ids={1})
    ws.close()
    pages = sorted((p.name, p.read_bytes()) for p in (archive.output_dir / "index").iterdir())
    whole_reads.clear()

    ws = Workspace.open(archive.root, Settings())
    result = ws.build(task_ids={1})
    assert ws.left_out({1}) == {2: 1, 3: 1}  # its near duplicates, found by id
    ws.close()
    assert whole_reads == []
    assert mirror_path(archive.tasks_path).exists()
    assert result.task_ids == [1]
    assert TaskStore(archive.tasks_path).get(1).status == Status.DONE
    assert sorted((p.name, p.read_bytes())
                  for p in (archive.output_dir / "index").iterdir()) == pages


def test_near_duplicates_read_by_id_are_those_of_the_whole_list(tmp_path: Path) -> None:
    archive = _library(tmp_path / "archive")
    ws = Workspace.open(archive.root, Settings())
    ws.build(task_ids={4})
    ws.close()
    whole = Workspace.open(archive.root, Settings())
    every = [(p.first.id, p.second.id, p.distance) for p in whole.near_duplicates()]
    assert every == [(1, 3, 0), (1, 2, 3), (2, 3, 3)]  # #3: #1's, written unindexed
    for n in FINGERPRINTS:
        ws = Workspace.open(archive.root, Settings())
        assert ws.store.some([n])  # read through the mirror
        mine = [(p.first.id, p.second.id, p.distance) for p in ws.near_duplicates({n})]
        assert mine == [pair for pair in every if n in pair[:2]], n


def test_a_list_edited_by_hand_is_read_as_it_is_not_as_its_mirror(tmp_path: Path) -> None:
    """Even an edit put back to the old size and mtime: the mirror is of another ctime."""
    archive = _library(tmp_path / "archive")
    ws = Workspace.open(archive.root, Settings())
    ws.build(task_ids={4})
    ws.close()
    path = archive.tasks_path
    stat = path.stat()
    text = path.read_bytes()
    edited = text.replace(b"https://filler.example/7,", b"https://filler.example/X,", 1)
    assert edited != text and len(edited) == len(text)
    path.write_bytes(edited)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    ws = Workspace.open(archive.root, Settings(), create=False)
    assert ws.task(len(FINGERPRINTS) + 8).url == "https://filler.example/X"


def test_a_save_killed_before_it_dropped_the_journal_resumes_cleanly(tmp_path: Path) -> None:
    """A real process killed right after it wrote tasks.csv with the journal's marks in it,
    before it removed the journal: nothing is lost, a line a killed append cut short is no
    entry, a status a person typed since wins over its mark (a compare-and-set), and the
    next save finishes the job."""
    archive = _library(tmp_path / "archive")
    ws = Workspace.open(archive.root, Settings())
    ws.build(task_ids={4})
    ws.close()
    journal = journal_path(archive.tasks_path)
    # a line a killed append cut short, then a mark of #2
    with open(journal, "ab") as f:
        f.write(b"3\tlocali")
    store = TaskStore(archive.tasks_path)
    assert store.mark_bound([2]) == [2]
    code = ("import os, signal; from pathlib import Path;"
            "from pipeline.store import tasks;"
            "tasks.remove_journal = lambda path: os.kill(os.getpid(), signal.SIGKILL);"
            f"store = tasks.TaskStore(Path({str(archive.tasks_path)!r}));"
            "store.update(11, title='saved before the kill');"
            "store.save()")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=PATIENCE,
                          capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert journal.exists()
    rows = {row["id"]: row for row in csv.DictReader(
        archive.tasks_path.read_text("utf-8-sig").splitlines())}
    assert (rows["4"]["status"], rows["2"]["status"]) == ("done", "done")
    assert rows["3"]["status"] == "localized"
    # a person types another status for #2 in the file: the journal's mark of it is spent
    text = archive.tasks_path.read_text("utf-8-sig")
    line = next(n for n in text.splitlines() if n.startswith("2,"))
    archive.tasks_path.write_text(text.replace(line, line.replace(",done,", ",pending,")),
                                  "utf-8-sig")
    store = TaskStore(archive.tasks_path)
    assert [store.get(n).status for n in (2, 3, 4)] == [
        Status.PENDING, Status.LOCALIZED, Status.DONE]
    assert store.get(11).title == "saved before the kill"
    store.update(12, title="next save")
    store.save()
    assert not journal.exists()
    assert [TaskStore(archive.tasks_path).get(n).status for n in (2, 3, 4)] == [
        Status.PENDING, Status.LOCALIZED, Status.DONE]


def test_a_title_edited_by_hand_shows_in_the_next_one_article_build_of_another(
        tmp_path: Path) -> None:
    """index.html kept as it was only for the very list it was made of: a hand edit of
    another task's title is in the next build's index."""
    archive = _library(tmp_path / "archive")
    for _ in range(2):
        ws = Workspace.open(archive.root, Settings())
        ws.build(task_ids={4})
        ws.close()
    text = archive.tasks_path.read_text("utf-8-sig")
    archive.tasks_path.write_text(text.replace("https://site1.example/a,https://site1.example/a,,",
                                               "https://site1.example/a,https://site1.example/a,"
                                               "Retitled by hand,", 1), "utf-8-sig")
    ws = Workspace.open(archive.root, Settings())
    assert ws.task(1).title == "Retitled by hand"
    ws.build(task_ids={4})
    ws.close()
    pages = "".join(p.read_text("utf-8") for p in (archive.output_dir / "index").iterdir())
    assert "Retitled by hand" in pages


def test_a_mirror_write_killed_halfway_leaves_no_mirror_and_is_swept(tmp_path: Path) -> None:
    """A real process killed while it wrote the list's mirror (before the rename): no mirror
    is used, the list is read whole, and the next build by id sweeps the temp file and keeps
    a whole mirror."""
    archive = _library(tmp_path / "archive")
    code = ("import os, signal; from pathlib import Path;"
            "from pipeline.store import task_mirror;"
            "from pipeline.records.settings import Settings;"
            "from pipeline.usecases.workspace import Workspace;"
            "row = task_mirror._row;"
            "rows = iter(range(1000));"  # killed at the thousandth row
            "task_mirror._row = lambda *a: row(*a) if next(rows, None) is not None"
            " else os.kill(os.getpid(), signal.SIGKILL);"
            f"Workspace.open(Path({str(archive.root)!r}), Settings()).build(task_ids={{4}})")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, timeout=PATIENCE,
                          capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    [temp] = archive.root.glob(".tasks.csv.byid.*.tmp")
    assert not mirror_path(archive.tasks_path).exists()
    ws = Workspace.open(archive.root, Settings())
    assert ws.task(4).status == Status.DONE  # the mark was journaled before the kill
    ws.build(task_ids={1})
    ws.close()
    assert not temp.exists() and mirror_path(archive.tasks_path).exists()
    ws = Workspace.open(archive.root, Settings())
    assert [t.id for t in ws.store.some([1, 4])] == [1, 4]
    assert ws.store._records is None  # read through the mirror
