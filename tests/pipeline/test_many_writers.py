"""Many writers on one archive, as real processes: a run, and beside it ``add``, ``edit``,
``build`` and a person's hand edit. Every change reaches tasks.csv, kill -9 or not."""

from __future__ import annotations

import csv
import io
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from pipeline.intake.links import add_links
from pipeline.records.task import Status
from pipeline.store.archive import Archive, file_lock
from pipeline.store.tasks import LOCK_WAIT_SECONDS, TaskStore
from tests.pipeline.test_runner import page_url
from tests.sites.faults import FaultServer
from tests.waiting import PATIENCE, wait_until

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
# one local host, polite but quick; the store saves often so the writers overlap for real
RUN_SET = ["--set", "host_delay_ms=5", "--set", "retries=0", "--set", "tasks_flush_seconds=0.1"]


def kuaibu(archive: Archive, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "main.py"), *args, "--archive",
                           str(archive.root)], capture_output=True, text=True,
                          timeout=2 * PATIENCE)


def start(archive: Archive, *args: str) -> subprocess.Popen[str]:
    """A command started, not awaited: it writes while the test does something else."""
    return subprocess.Popen([sys.executable, str(REPO / "main.py"), *args, "--archive",
                             str(archive.root)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def start_run(archive: Archive, *settings: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(REPO / "main.py"), "run", "--archive",
                             str(archive.root), *RUN_SET, *settings],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _statuses(archive: Archive) -> list[str]:
    """The status column as the file says it now (read as a person's tool would: no store)."""
    text = archive.tasks_path.read_text(encoding="utf-8-sig")
    return [row["status"] for row in csv.DictReader(io.StringIO(text))]


@contextmanager
def hand_edit(archive: Archive) -> Iterator[list[dict[str, str]]]:
    """A person's edit of the file, as a spreadsheet saves it: the rows read, changed and
    written back whole. (It holds the writers' lock for the moment it takes, as an editor
    that saves at once would; an editor saving a copy opened minutes ago cannot be merged.)"""
    path = archive.tasks_path
    with file_lock(path.with_name(f".{path.name}.lock"), LOCK_WAIT_SECONDS, "busy"):
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
        yield rows
        columns = list(dict.fromkeys(k for row in rows for k in row))
        out = io.StringIO()
        writer = csv.DictWriter(out, columns, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(out.getvalue(), encoding="utf-8")


def _seed(archive: Archive, server: FaultServer, n: int, latency: float) -> None:
    store = TaskStore(archive.tasks_path)
    add_links(store, "\n".join(page_url(server, k, latency) for k in range(n)), cat1="01_first")
    store.save()


def _has_reached(server: FaultServer, run: subprocess.Popen[bytes], request: int) -> bool:
    """The run has made its request number ``request``, or ended before it."""
    return len(server.hits) >= request or run.poll() is not None


def test_a_run_and_every_other_writer_keep_each_others_changes(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    with FaultServer() as server:
        _seed(archive, server, 40, latency=0.15)
        run = start_run(archive)
        # what the build binds is what the file says (the run saves its statuses in batches,
        # after the pages' files): eight localized there
        wait_until(lambda: _statuses(archive).count(Status.LOCALIZED.value) >= 8,
                   "the run to mark 8 pages localized in the task file")
        new = tmp_path / "new.txt"
        new.write_text("\n".join(page_url(server, 100 + k) for k in range(3)), encoding="utf-8")
        added = kuaibu(archive, "add", str(new), "--cat1", "02_later")
        assert added.returncode == 0 and "added 3" in added.stdout, added.stderr
        edited = kuaibu(archive, "edit", "--id", "30", "--title", "命令行改的标题")
        assert edited.returncode == 0, edited.stderr
        built = kuaibu(archive, "build")
        assert built.returncode == 0, built.stderr
        bound = int(next(line for line in built.stdout.splitlines()
                         if line.endswith("articles bound")).split()[0])
        with hand_edit(archive) as rows:
            for row in rows:
                row["note"] = f"note {row['id']}" if row["id"] in ("2", "35") else ""
                if row["id"] == "36":
                    row["title"] = "手工改的标题"
        assert run.wait(2 * PATIENCE) == 0
    tasks = {t.id: t for t in TaskStore(archive.tasks_path).tasks()}
    assert len(tasks) == 43
    assert [tasks[i].cat1 for i in (41, 42, 43)] == ["02_later"] * 3
    assert {tasks[i].status for i in (41, 42, 43)} == {Status.PENDING}  # after the run's pick
    assert tasks[30].title == "命令行改的标题" and tasks[36].title == "手工改的标题"
    assert tasks[2].extra == {"note": "note 2"} and tasks[35].extra == {"note": "note 35"}
    statuses = [tasks[i].status for i in range(1, 41)]
    assert set(statuses) <= {Status.LOCALIZED, Status.DONE}  # the run's work, all of it
    assert 8 <= bound == statuses.count(Status.DONE)  # build's marks survived the run's saves
    assert all(tasks[i].chars for i in range(1, 41))


def test_kill_9_of_the_run_at_random_moments_loses_no_ones_changes(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path / "archive")
    rng = random.Random(11)
    kills = 10
    with FaultServer() as server:
        _seed(archive, server, 60, latency=0.05)
        for k in range(kills):
            link = tmp_path / "link.txt"
            link.write_text(page_url(server, 1000 + k), encoding="utf-8")
            run = start_run(archive)
            # the others write while the run goes on, and the run is killed at a random point
            # of its progress, from start-up to mid-batch: the server's count of requests says
            # where it is, whatever the load
            others = [start(archive, "edit", "--id", str(1 + k), "--cat2", f"第{k}次"),
                      start(archive, "add", str(link))]
            reached = len(server.hits) + rng.randint(0, 6)
            wait_until(partial(_has_reached, server, run, reached),
                       f"the run's request #{reached}")
            run.kill()  # SIGKILL, unless it has ended already
            run.wait()
            for other in others:
                _, stderr = other.communicate(timeout=2 * PATIENCE)
                assert other.returncode == 0, stderr
            store = TaskStore(archive.tasks_path)  # never torn: it parses
            assert len(store) == 60 + k + 1
            assert [store.get(1 + j).cat2 for j in range(k + 1)] == [f"第{j}次"
                                                                     for j in range(k + 1)]
        final = kuaibu(archive, "run", *RUN_SET)
        assert final.returncode == 0, final.stderr
    tasks = TaskStore(archive.tasks_path).tasks()
    assert len(tasks) == 60 + kills and len({t.url for t in tasks}) == 60 + kills
    assert {t.status for t in tasks} == {Status.LOCALIZED}
    assert [t.cat2 for t in tasks[:kills]] == [f"第{j}次" for j in range(kills)]
    assert not list(archive.root.glob(".tasks.csv.*.tmp"))
