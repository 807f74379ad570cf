"""What a person waits for in a big archive (issue 30): status, one search, a one-article build,
dupes, loading and saving tasks.csv, and the share of a run spent saving it.

    .venv/bin/python -m bench.make_library /tmp/lib10k --articles 10000     # once per size
    .venv/bin/python -m bench.library_scale /tmp/lib1k /tmp/lib10k /tmp/lib100k [--runs 3]
                                            [--run-seconds 60] [--only status,search,...]

Each figure is the whole wait: ``status``, ``build --id N`` and ``dupes`` are the command
line in a fresh process (imports, opening the archive and its reconcile included); a search
is ``Workspace.search`` (what the window and the ``search`` command call) on an open
workspace; tasks.csv is loaded and saved from a copy, loaded both parsed (no snapshot beside
it) and from the snapshot kept beside it (``store.task_snapshot``: what every read but the
first after a change by hand finds). Each prints the median wall time of
``--runs`` and the CPU time it took (user + system: on a loaded machine the wall time
stretches, the CPU time much less), the core count and the load average before and after.

The run's save share: a copy of tasks.csv, a thread changing one task every 20 ms (a run's
workers finishing pages) and the runner's loop asking ``save_if_due`` every 0.2 s, for
``--run-seconds``; the share is the time spent in saves over the time run. With it the
share the pacing allows in a long run, the last save's cost over that cost plus the interval.

The archive is changed as a person's commands change it: the one-article build binds the
first localized task (marked done in the journal beside tasks.csv), writes 03_output, and the
first build or dupes after the archive was made fills what they keep (entries.db, and for a
build by id the list's mirror ``.tasks.csv.byid``; the figure of that first run is printed
apart).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pipeline.records.task import Status
from pipeline.store.task_snapshot import snapshot_path
from pipeline.store.tasks import TaskStore

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ("中国", "people", "时间 工作", "bridge")
STEPS = ("status", "search", "build", "dupes", "tasks.csv", "save share")


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def command(archive: Path, *args: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``main.py --archive ARCHIVE ARGS`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "main.py"), "--archive", str(archive), *args],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_process(step: Callable[[], object]) -> tuple[float, float]:
    cpu, started = time.process_time(), time.perf_counter()
    step()
    return time.perf_counter() - started, time.process_time() - cpu


def report(name: str, figures: list[tuple[float, float]], note: str = "") -> None:
    walls = [w for w, _ in figures]
    cpus = [c for _, c in figures]
    print(f"  {name:<24} median {statistics.median(walls):7.2f} s wall,"
          f" {statistics.median(cpus):6.2f} s CPU  (slowest {max(walls):.2f} s of"
          f" {len(figures)}){note}", flush=True)


def first_localized(archive: Path) -> int:
    store = TaskStore(archive / "tasks.csv")
    return next(t.id for t in store.tasks() if t.status in (Status.LOCALIZED, Status.DONE))


def save_share(path: Path, seconds: float) -> None:
    """A run's pacing of tasks.csv saves, on a copy (see the module)."""
    store = TaskStore(path)
    ids = store.order()
    stop = threading.Event()

    def worker() -> None:
        n = 0
        while not stop.wait(0.02):
            n += 1
            store.update(ids[n % len(ids)], attempts=n % 7)

    thread = threading.Thread(target=worker, daemon=True)
    saving, saves = 0.0, []
    started = time.perf_counter()
    thread.start()
    try:
        while time.perf_counter() - started < seconds:
            t = time.perf_counter()
            if store.save_if_due():
                saves.append(time.perf_counter() - t)
                saving += saves[-1]
            time.sleep(0.2)
    finally:
        stop.set()
        thread.join()
    ran = time.perf_counter() - started
    last = saves[-1] if saves else 0.0
    steady = last / (last + store.save_interval) if saves else 0.0
    print(f"  {'run save share':<24} {saving / ran:6.1%} of {ran:.0f} s in {len(saves)} saves"
          f" (last {last:.2f} s, next after {store.save_interval:.1f} s: a long run"
          f" {steady:.1%})", flush=True)


def measure(archive: Path, runs: int, run_seconds: float, only: set[str]) -> None:
    tasks = len(TaskStore(archive / "tasks.csv"))
    print(f"{archive}: {tasks:,} tasks (load {load()})", flush=True)
    if "status" in only:
        first = command(archive, "status")  # notes each record's URL when not yet noted
        report("status", [command(archive, "status") for _ in range(runs)],
               f"  (first: {first[0]:.2f} s wall, {first[1]:.2f} s CPU)")
    if "search" in only:
        from pipeline.usecases.workspace import Workspace

        ws = Workspace.open(archive)
        figures = [in_process(partial(ws.search, q)) for q in QUERIES for _ in range(runs)]
        ws.close()
        report("search (use case)", figures, f"  queries {', '.join(QUERIES)}")
    if "build" in only:
        task_id = first_localized(archive)
        first = command(archive, "build", "--id", str(task_id))
        report(f"build --id {task_id}", [command(archive, "build", "--id", str(task_id))
                                         for _ in range(runs)],
               f"  (first after making: {first[0]:.2f} s wall, {first[1]:.2f} s CPU)")
    if "dupes" in only:
        report("dupes", [command(archive, "dupes") for _ in range(runs)])
    if "tasks.csv" in only or "save share" in only:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "tasks.csv"
            shutil.copyfile(archive / "tasks.csv", path)
            if "tasks.csv" in only:
                parses, loads, saves, batches = [], [], [], []
                for n in range(runs):
                    store: TaskStore | None = None

                    def read() -> None:
                        nonlocal store
                        store = TaskStore(path)

                    snapshot_path(path).unlink(missing_ok=True)
                    parses.append(in_process(read))  # parsed, and its snapshot kept
                    loads.append(in_process(read))  # read back from that snapshot
                    assert store is not None
                    store.update(store.order()[0], attempts=n + 1)
                    saves.append(in_process(store.save))
                    store.update(store.order()[0], attempts=n + 2)
                    batches.append(in_process(partial(store.save, snapshot=False)))
                report("tasks.csv load, parsed", parses)
                report("tasks.csv load, snapshot", loads)
                report("tasks.csv save", saves, "  (its snapshot kept)")
                report("tasks.csv save, batch", batches, "  (a run's: no snapshot)")
            if "save share" in only:
                save_share(path, run_seconds)
    print(f"  cores {os.cpu_count()}, load after {load()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archives", type=Path, nargs="+", help="made by bench.make_library")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--run-seconds", type=float, default=60.0)
    ap.add_argument("--only", default=",".join(STEPS),
                    help=f"comma-separated: {', '.join(STEPS)}")
    args = ap.parse_args()
    only = {s.strip() for s in args.only.split(",")}
    for archive in args.archives:
        measure(archive.resolve(), args.runs, args.run_seconds, only)


if __name__ == "__main__":
    main()
