import csv
import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

from pipeline.errors import TaskFileError
from pipeline.tasks import COLUMNS, TaskStore


def make_store(path: Path, n: int) -> TaskStore:
    store = TaskStore(path)
    for i in range(n):
        store.add(f"https://example.com/{i}", cat1="01_茶", cat2="历史")
    store.save()
    return store


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = make_store(path, 3)
    store.update(2, status="cleaned", title="用户的标题, with a comma", extracted_title="x",
                 chars=1234, images_total=5, images_ok=4, confidence=0.875,
                 error='said "no"\nthen yes', content_hash="ab" * 32)
    store.save()
    again = TaskStore(path)
    assert again.tasks() == store.tasks()
    t = again.get(2)
    assert (t.title, t.chars, t.images_ok) == ("用户的标题, with a comma", 1234, 4)
    assert t.status == "cleaned"
    assert t.error == 'said "no"\nthen yes'
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM for Excel on Chinese Windows


def test_columns_and_rows_a_person_added_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    make_store(path, 2)
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    rows[0].append("我的备注")
    rows[1].append("读过")
    rows[2].append("")
    # a person types a row at the end with only a URL (and a note)
    new_row = [""] * len(rows[0])
    new_row[rows[0].index("url")] = "HTTPS://Example.com/new?utm_source=x"
    new_row[-1] = "待读"
    dup_row = [""] * len(rows[0])
    dup_row[rows[0].index("url")] = "https://example.com/1"
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows([*rows, new_row, dup_row])

    store = TaskStore(path)
    store.save()
    again = TaskStore(path)
    assert again.columns[-1] == "我的备注"
    assert again.get(1).extra == {"我的备注": "读过"}
    new = again.get(3)
    assert (new.url, new.status) == ("https://example.com/new", "pending")
    assert new.extra["我的备注"] == "待读"
    assert new.original_url == "HTTPS://Example.com/new?utm_source=x"
    dup = again.get(4)
    assert (dup.status, dup.duplicate_of) == ("duplicate", 2)


def test_gbk_file_saved_by_excel_is_read(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_bytes("id,url,cat1\n1,https://a.com/,科技\n".encode("gbk"))
    assert TaskStore(path).get(1).cat1 == "科技"


@pytest.mark.parametrize(
    "body, message",
    [
        ("id,url,status\n1,https://a.com/,pending\nx,https://b.com/,pending\n", "line 3.*'id'"),
        ("id,url,status\n1,https://a.com/,finished\n", "line 2.*unknown status 'finished'"),
        ("id,url,status\n1,https://a.com/,pending,extra\n", "line 2.*4 cells"),
        ("id,url\n1,https://a.com/\n1,https://b.com/\n", "line 3.*id 1 appears twice"),
        ("id,link\n1,https://a.com/\n", "line 1.*no 'url' column"),
    ],
)
def test_malformed_file_names_the_line(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(TaskFileError, match=message):
        TaskStore(path)
    assert path.read_text(encoding="utf-8") == body  # nothing rewritten, nothing lost


def test_concurrent_updates_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = make_store(path, 20)
    per_thread = 250

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for i in range(per_thread):
            task_id = rng.randint(1, 20)
            store.mutate(task_id, lambda t: setattr(t, "attempts", t.attempts + 1))
            store.update(rng.randint(1, 20), error=f"thread {seed}")
            if i % 50 == 0:
                store.save()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.save()
    assert sum(t.attempts for t in store.tasks()) == 8 * per_thread
    assert sum(t.attempts for t in TaskStore(path).tasks()) == 8 * per_thread


def test_reconcile_reclaims_running_and_restores_lost_statuses(tmp_path: Path) -> None:
    store = make_store(tmp_path / "tasks.csv", 5)
    store.update(1, status="running")  # crashed mid-fetch: no output
    store.update(2, status="running")  # crashed mid-clean: raw exists
    store.update(3, status="pending")  # a lost batch of status words: clean exists
    store.update(4, status="failed", error="HTTP 404")
    store.update(5, status="cleaned")  # claims more than the archive has
    reached = {1: "pending", 2: "fetched", 3: "cleaned", 4: "fetched", 5: "fetched"}
    assert store.reconcile(reached.__getitem__) == 4
    statuses = [t.status for t in store.tasks()]
    assert statuses == ["pending", "fetched", "cleaned", "failed", "fetched"]


def test_save_if_due_batches_writes(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    store = TaskStore(path, flush_seconds=3600)
    store.add("https://a.com/")
    assert store.save_if_due()  # first save is due at once
    store.update(1, status="fetched")
    assert not store.save_if_due()
    assert TaskStore(path).get(1).status == "pending"
    store.save()
    assert TaskStore(path).get(1).status == "fetched"


_WRITER_TASKS = 400


def _writer_loop(path: Path) -> None:
    """Child process: rewrite tasks.csv as fast as it can until killed."""
    store = TaskStore(path)
    n = 0
    while True:
        n += 1
        store.update(1 + n % _WRITER_TASKS, attempts=n, error="x" * (n % 97))
        store.save()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="kill -9 test needs fork (POSIX)")
def test_kill_9_never_leaves_a_torn_file(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    make_store(path, _WRITER_TASKS)
    rng = random.Random(7)
    killed_mid_write = 0
    for _ in range(60):
        before = path.stat().st_mtime_ns
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                _writer_loop(path)
            finally:
                os._exit(1)
        deadline = time.monotonic() + 5
        while path.stat().st_mtime_ns == before and time.monotonic() < deadline:
            time.sleep(0.001)  # until the child has written at least once
        time.sleep(rng.uniform(0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        killed_mid_write += any(tmp_path.glob(".tasks.csv.*.tmp"))
        store = TaskStore(path)  # must parse: old file or new, never torn
        assert len(store) == _WRITER_TASKS
        assert list(store.columns) == list(COLUMNS)
        assert not any(tmp_path.glob(".tasks.csv.*.tmp"))  # the leftover was cleaned up
    assert killed_mid_write > 0, "no kill landed inside a write; the test proved nothing"


def test_a_slow_save_spaces_the_next_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 100,000 tasks a save takes about a second: batching must not rewrite non-stop."""
    import pipeline.tasks

    store = TaskStore(tmp_path / "tasks.csv", flush_seconds=0)
    store.add("https://a.com/")
    assert store.save_if_due()

    real_write = pipeline.tasks.write_atomic

    def slow_write(path: Path, data: bytes) -> None:
        time.sleep(0.05)
        real_write(path, data)

    monkeypatch.setattr(pipeline.tasks, "write_atomic", slow_write)
    store.update(1, status="cleaned")
    time.sleep(store.save_interval)
    assert store.save_if_due()
    assert store.save_interval >= 0.5
    store.update(1, status="localized")
    assert not store.save_if_due()  # the last save took ≥ 0.05 s: the next waits ≥ 0.5 s
    assert TaskStore(tmp_path / "tasks.csv").get(1).status == "cleaned"
    time.sleep(store.save_interval)
    assert store.save_if_due()
    assert TaskStore(tmp_path / "tasks.csv").get(1).status == "localized"
