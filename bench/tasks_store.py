"""TaskStore at scale: add, save, load and snapshot 100,000 tasks; prints medians of 3 runs.

Target (ARCHITECTURE.md): 100,000 tasks load in about a second.
    python -m bench.tasks_store [--tasks N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from pipeline.store.tasks import TaskStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, {args.tasks} tasks, median of {args.runs} runs")
    figures: dict[str, list[float]] = {"add": [], "save": [], "load": [], "snapshot": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tasks.csv"
        for run in range(args.runs):
            path.unlink(missing_ok=True)
            store = TaskStore(path)
            t = time.perf_counter()
            for i in range(args.tasks):
                store.add(f"https://news{i % 500}.example.com/2026/{i}.html", cat1="01_新闻",
                          cat2=f"{i % 12:02d}_月")
            figures["add"].append(time.perf_counter() - t)
            t = time.perf_counter()
            store.save()
            figures["save"].append(time.perf_counter() - t)
            if run == 0:
                tracemalloc.start()
            t = time.perf_counter()
            loaded = TaskStore(path)
            figures["load"].append(time.perf_counter() - t)
            if run == 0:
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
            t = time.perf_counter()
            loaded.tasks()
            figures["snapshot"].append(time.perf_counter() - t)
        size = path.stat().st_size
    for name, values in figures.items():
        print(f"{name:<9} median {statistics.median(values):6.2f} s")
    print(f"tasks.csv {size / 1e6:.1f} MB; peak Python memory while loading {peak / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
