"""GUI responsiveness during a run: the gaps between 10 ms QTimer heartbeats on the GUI thread.

A 300-page run of the demo site on 127.0.0.1 (each article served under 25 query variants, so
every page is fetched, decoded and extracted) in the real window, offscreen. The site runs in
its own process, as a real server would. Target (issue 7): longest gap < 50 ms, median < 15 ms.
    python -m bench.gui_latency [--pages 300]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gui.main_window.window import MainWindow  # noqa: E402
from pipeline.demo_site.catalog import ARTICLES  # noqa: E402
from pipeline.records.settings import Settings  # noqa: E402


def gaps_ms(beats: list[float]) -> list[float]:
    return [(b - a) * 1000 for a, b in zip(beats, beats[1:], strict=False)]


@contextmanager
def demo_site_process() -> Iterator[str]:
    """``python -m pipeline.demo_site.server`` in a child process; yields its base URL."""
    server = subprocess.Popen([sys.executable, "-m", "pipeline.demo_site.server"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # "Demo site at http://127.0.0.1:PORT/  (list page: …)"
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", first)
        if match is None:
            raise RuntimeError(f"the demo site did not start: {first!r}")
        yield match.group(1)
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--baseline", type=float, default=3.0,
                        help="seconds of heartbeats with the window idle, before the run")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    # one local host stands in for many: no politeness wait, the default global concurrency
    settings = Settings().with_overrides(host_delay_ms=0, per_host_connections=8)
    with demo_site_process() as base, tempfile.TemporaryDirectory() as tmp:
        urls = [f"{base}{a.path}?copy={n}" for n in range(args.pages // len(ARTICLES) + 1)
                for a in ARTICLES][:args.pages]
        prefs = QSettings(str(Path(tmp) / "prefs.ini"), QSettings.Format.IniFormat)
        window = MainWindow(Path(tmp) / "archive", prefs, settings)
        window.resize(1280, 800)
        window.show()
        loop = QEventLoop()
        window.archive_loaded.connect(loop.quit)
        loop.exec()
        window.intake.paste.setPlainText("\n".join(urls))
        reports: list[object] = []
        window.intake_done.connect(lambda r: (reports.append(r), loop.quit()))
        window.add_pasted()
        loop.exec()
        report = reports[0]
        assert report is not None and len(report.added) == args.pages, report

        beats: list[float] = []
        heartbeat = QTimer()
        heartbeat.setInterval(10)
        heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
        heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
        heartbeat.start()
        # the same window idle first: what the machine alone does to the heartbeat
        QTimer.singleShot(int(args.baseline * 1000), loop.quit)
        loop.exec()
        baseline, beats[:] = gaps_ms(beats), []
        finished: list[object] = []
        window.run_finished.connect(lambda p: (finished.append(p), loop.quit()))
        started = time.perf_counter()
        window.start_run()
        loop.exec()
        elapsed = time.perf_counter() - started
        heartbeat.stop()
        window.close()
    progress = finished[0]
    gaps = gaps_ms(beats)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores (load average {load}); {args.pages} pages on 127.0.0.1"
          f" in {elapsed:.1f} s ({args.pages / elapsed:.1f} pages/s); {progress}")
    print(f"heartbeats: {len(beats)} (10 ms timer)")
    print(f"longest gap: {max(gaps):.1f} ms (target < 50)")
    print(f"median gap:  {statistics.median(gaps):.1f} ms (target < 15)")
    print(f"99th pct:    {statistics.quantiles(gaps, n=100)[98]:.1f} ms")
    print(f"idle window, same machine, {args.baseline:.0f} s before the run: longest gap"
          f" {max(baseline):.1f} ms, median {statistics.median(baseline):.1f} ms")
    worst = sorted(range(len(gaps)), key=gaps.__getitem__)[-5:][::-1]
    print("worst gaps:  " + ", ".join(f"{gaps[i]:.0f} ms at {beats[i] - started:+.2f} s"
                                      for i in worst))
    app.processEvents()


if __name__ == "__main__":
    main()
