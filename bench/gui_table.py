"""The task table at scale: load, filter, sort and scroll 10,000 tasks in the real window.

Prints medians of each step over the runs, and the longest scroll step (one repaint).
    python -m bench.gui_table [--tasks 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gui.main_window.window import MainWindow  # noqa: E402
from gui.task_model import COLUMNS  # noqa: E402
from pipeline.store.tasks import TaskStore  # noqa: E402


def make_archive(root: Path, n: int) -> None:
    store = TaskStore(root / "tasks.csv")
    for i in range(n):
        task = store.add(f"https://site{i % 37}.example.com/post/{i}", cat1=f"cat{i % 5}")
        if i % 3 == 0:
            store.update(task.id, status="localized", chars=1000 + i, confidence=(i % 10) / 10,
                         extracted_title=f"标题 {i}", images_total=3, images_ok=2)
    store.save()


def timed(step) -> float:  # noqa: ANN001
    t0 = time.perf_counter()
    step()
    return (time.perf_counter() - t0) * 1000


def one_run(app: QApplication, root: Path, prefs: QSettings) -> dict[str, float]:
    figures: dict[str, float] = {}
    t0 = time.perf_counter()
    window = MainWindow(root, prefs)
    loop = QEventLoop()
    window.archive_loaded.connect(loop.quit)
    loop.exec()
    figures["load"] = (time.perf_counter() - t0) * 1000
    window.show()
    app.processEvents()
    figures["filter"] = timed(lambda: window.search.setText("site7."))
    figures["unfilter"] = timed(lambda: window.search.setText(""))
    figures["sort"] = timed(lambda: window.table.sortByColumn(COLUMNS.index("title"),
                                                              Qt.SortOrder.AscendingOrder))
    bar = window.table.verticalScrollBar()
    steps = []
    for value in range(0, bar.maximum() + 1, max(1, bar.maximum() // 100)):
        steps.append(timed(lambda v=value: (bar.setValue(v), window.table.viewport().repaint())))
    figures["scroll max"] = max(steps)
    figures["scroll median"] = statistics.median(steps)
    window.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    print(f"{os.cpu_count()} cores, {args.tasks} tasks, median of {args.runs} runs (ms)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "archive"
        root.mkdir()
        make_archive(root, args.tasks)
        prefs = QSettings(str(Path(tmp) / "prefs.ini"), QSettings.Format.IniFormat)
        runs = [one_run(app, root, prefs) for _ in range(args.runs)]
    for name in runs[0]:
        print(f"{name:<14} {statistics.median(r[name] for r in runs):8.1f}")


if __name__ == "__main__":
    main()
