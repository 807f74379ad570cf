"""The task table at scale, as a person meets it: the window shown, opened on an archive of
N tasks, a filter typed key by key, each column sorted (ascending, then again descending: a
header clicked twice, "sort again"), the table scrolled.

A heartbeat timer on the GUI thread runs through it all; the longest gap between two beats is
the longest freeze (what a person feels as a hung window). "first paint" is the window's
first paint of the archive being opened (the line saying it reads about N tasks), "rows
painted" when the table first paints rows, "loaded" when the open was handed over. Wall-clock
figures on a shared machine grow with its load, so the GUI thread's own CPU time is printed
beside them ("cpu"): the window made and shown, the opened archive handed over (the reading
itself is a job's), one filter pass and one sort. Prints medians over the runs, the core
count, the load, and the window's memory (RSS and its peak, after the first open; the
archive is made in a child process, so the figure is the window's).
    python -m bench.gui_table [--tasks 1000|10000|100000] [--runs 3] [--archive DIR]
``--archive`` opens an archive made before (``bench.make_library``: real articles, 300 hosts,
categories in two languages) instead of a list of links made here.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from gui.main_window.window import MainWindow  # noqa: E402
from gui.task_model import COLUMNS  # noqa: E402
from pipeline.store.tasks import TaskStore  # noqa: E402

BEAT_MS = 5  # the heartbeat's interval: a gap much longer than this is the window frozen
TYPED = "site7."  # typed into the filter one key at a time
KEY_GAP_MS = 400  # between keys: longer than the filter's pause, so each key applies
SETTLE_MS = 1000  # after the archive is shown: the tree and the filters catch up


def make_archive(root: Path, n: int) -> None:
    store = TaskStore(root / "tasks.csv")
    for i in range(n):
        task = store.add(f"https://site{i % 37}.example.com/post/{i}", cat1=f"cat{i % 5}")
        if i % 3 == 0:
            store.update(task.id, status="localized", chars=1000 + i, confidence=(i % 10) / 10,
                         extracted_title=f"标题 {i}", images_total=3, images_ok=2)
    store.save()


def memory_mb() -> tuple[float, float]:
    """This process's resident memory now and at its peak (Linux's /proc), in MB."""
    fields = dict(line.split(":", 1) for line in
                  Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


class Heartbeat(QObject):
    """Beats every BEAT_MS on the GUI thread; ``longest`` is the longest gap since ``reset``."""

    def __init__(self) -> None:
        super().__init__()
        self.clock = QElapsedTimer()
        self.clock.start()
        self.last = 0
        self.longest = 0
        self.timer = QTimer(self)
        self.timer.setInterval(BEAT_MS)
        self.timer.timeout.connect(self._beat)
        self.timer.start()

    def _beat(self) -> None:
        now = self.clock.elapsed()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def reset(self) -> None:
        self.last = self.clock.elapsed()
        self.longest = 0


class FirstPaint(QObject):
    """The time ``widget`` first paints once ``ready`` says so: the window's line saying the
    archive is being read, the table's first rows."""

    def __init__(self, widget: QWidget, clock: QElapsedTimer,
                 ready: Callable[[], bool] = lambda: True) -> None:
        super().__init__()
        self.clock, self.ready = clock, ready
        self.at: float | None = None
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.at is None and event.type() == QEvent.Type.Paint and self.ready():
            self.at = self.clock.elapsed()
        return False


def wait_until(app: QApplication, done: Callable[[], bool], limit_s: float = 600) -> None:
    end = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there")
        app.processEvents()
        time.sleep(0.001)


def wait_ms(app: QApplication, ms: int) -> None:
    end = time.monotonic() + ms / 1000
    wait_until(app, lambda: time.monotonic() >= end)


def cpu_ms(step: Callable[[], object]) -> float:
    """The GUI thread's CPU time for one step, in ms (the load of other processes aside)."""
    t0 = time.thread_time()
    step()
    return (time.thread_time() - t0) * 1000


HANDED: list[float] = []  # the GUI thread's CPU for each opened archive's hand-over


def _timed_hand_over(ready: Callable[[MainWindow, object], None]) -> Callable[..., None]:
    def timed(window: MainWindow, opening: object) -> None:
        HANDED.append(cpu_ms(lambda: ready(window, opening)))
    return timed


def one_run(app: QApplication, root: Path, prefs: QSettings) -> dict[str, float]:
    figures: dict[str, float] = {}
    beat = Heartbeat()
    loaded: list[bool] = []
    start = beat.clock.elapsed()
    shown_cpu = time.thread_time()
    window = MainWindow(root, prefs)
    said = FirstPaint(window.opening_hint, beat.clock)  # "reading about N tasks"
    rows = FirstPaint(window.table.viewport(), beat.clock, lambda: window.proxy.rowCount() > 0)
    window.archive_loaded.connect(lambda: loaded.append(True))
    window.show()
    app.processEvents()  # the window made and shown (empty): a fixed cost, apart
    figures["window shown"] = beat.clock.elapsed() - start
    figures["shown cpu"] = (time.thread_time() - shown_cpu) * 1000
    beat.reset()  # the freezes of the open from here: the archive read and handed over
    wait_until(app, lambda: bool(loaded) and rows.at is not None)
    # the window's first paint: the line saying the archive is read, or the rows if the open
    # was done before that line was ever painted
    figures["first paint"] = min(at for at in (said.at, rows.at) if at is not None) - start
    figures["rows painted"] = (rows.at or 0) - start
    figures["loaded"] = beat.clock.elapsed() - start
    wait_ms(app, SETTLE_MS)
    figures["open freeze"] = beat.longest
    figures["hand-over cpu"] = HANDED[-1]
    figures["rss MB"], figures["peak MB"] = memory_mb()

    freezes, latencies = [], []
    for at in range(1, len(TYPED) + 1):
        beat.reset()
        t0 = time.perf_counter()
        QTest.keyClick(window.search, TYPED[at - 1])
        wait_until(app, lambda a=at: window.proxy.text() == TYPED[:a])  # after the pause
        latencies.append((time.perf_counter() - t0) * 1000)
        wait_ms(app, KEY_GAP_MS)
        freezes.append(beat.longest)
    figures["key freeze"] = statistics.median(freezes)
    figures["key freeze max"] = max(freezes)
    figures["typed→shown"] = statistics.median(latencies)  # the pause included
    beat.reset()
    window.search.clear()
    wait_until(app, lambda: window.proxy.rowCount() == window.model.rowCount())
    wait_ms(app, KEY_GAP_MS)
    figures["unfilter freeze"] = beat.longest
    figures["filter cpu"] = statistics.median(
        cpu_ms(lambda t=TYPED[:at]: window.proxy.set_text(t)) for at in range(1, len(TYPED) + 1))
    window.proxy.set_text("")

    for again, order in (("", Qt.SortOrder.AscendingOrder),
                         (" again", Qt.SortOrder.DescendingOrder)):  # a header clicked twice
        sorts, cpus = [], []
        for column in ("title", "domain", "chars", "status", "id"):
            beat.reset()
            cpus.append(cpu_ms(lambda c=column, o=order: window.table.sortByColumn(
                COLUMNS.index(c), o)))
            wait_ms(app, 100)
            sorts.append(beat.longest)
        figures[f"sort{again} freeze"] = statistics.median(sorts)
        figures[f"sort{again} max"] = max(sorts)
        figures[f"sort{again} cpu"] = statistics.median(cpus)

    bar = window.table.verticalScrollBar()
    steps = []
    for value in range(0, bar.maximum() + 1, max(1, bar.maximum() // 100)):
        t0 = time.perf_counter()
        bar.setValue(value)
        window.table.viewport().repaint()
        steps.append((time.perf_counter() - t0) * 1000)
    figures["scroll max"] = max(steps)
    window.close()
    window.deleteLater()
    beat.timer.stop()
    app.processEvents()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--archive", type=Path, help="an archive made before (make_library)")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    MainWindow._archive_ready = _timed_hand_over(MainWindow._archive_ready)  # type: ignore
    with tempfile.TemporaryDirectory() as tmp:
        root = args.archive or Path(tmp) / "archive"
        if args.archive is None:
            root.mkdir()
            maker = multiprocessing.get_context("spawn").Process(
                target=make_archive, args=(root, args.tasks))
            maker.start()
            maker.join()
        prefs = QSettings(str(Path(tmp) / "prefs.ini"), QSettings.Format.IniFormat)
        runs = [one_run(app, root, prefs) for _ in range(args.runs)]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    what = f"{root} as made" if args.archive else f"{args.tasks} tasks"
    print(f"{os.cpu_count()} cores, load {load}; {what}; median of {args.runs} runs (ms, MB;"
          " rss after the first open)")
    for name in runs[0]:
        value = runs[0][name] if name.endswith("MB") else statistics.median(r[name] for r in runs)
        print(f"{name:<16} {value:9.1f}")


if __name__ == "__main__":
    main()
