"""The run row above the task table: Run, Pause/Resume, Stop, Retry failed, and the run's
progress (a bar, the counts per stage, the rate and ETA).

The counts and the rate have a line of their own under the buttons and the bar: beside them
they took the width of a 1024-pixel window (issue 28), and a changing number would relay the
row. Under them they have the whole width and never push the buttons.

Progress events arrive as fast as the run's child process reports them; a progress bar
repaints on every new value, so the bar shows the latest one at most four times a second.
The window decides what the buttons do and when they are enabled.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QWidget,
)

from pipeline.records.events import Progress

REPAINT_MS = 250  # the most often a run's progress is drawn


class RunBar(QWidget):
    """The run's buttons and its progress. ``counts_text`` says a progress's counts (the
    window puts a check for updates' own words there while one runs)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run_button = QPushButton(self.tr("Run"))
        self.pause_button = QPushButton(self.tr("Pause"))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.retry_button = QPushButton(self.tr("Retry failed"))
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m")
        self.stage_counts = QLabel()
        self.rate = QLabel()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        for column, w in enumerate((self.run_button, self.pause_button, self.stop_button,
                                    self.retry_button, self.progress)):
            grid.addWidget(w, 0, column)
        grid.setColumnStretch(4, 1)
        counts = QHBoxLayout()  # the counts from the left edge, the rate at the right
        counts.addWidget(self.stage_counts)
        counts.addStretch(1)
        counts.addWidget(self.rate)
        grid.addLayout(counts, 1, 0, 1, 5)
        self.counts_text: Callable[[Progress], str] = self.stage_text
        self._timer = QTimer(self)
        self._timer.setInterval(REPAINT_MS)
        self._timer.timeout.connect(self._show_latest)
        self._latest: Progress | None = None
        self._paused = False

    def stage_text(self, p: Progress) -> str:
        return (self.tr("fetched %1 · cleaned %2 · localized %3 · failed %4")
                .replace("%1", str(p.fetched))
                .replace("%2", str(p.cleaned))
                .replace("%3", str(p.localized))
                .replace("%4", str(p.failed)))

    def starting(self) -> None:
        """A run is about to start: nothing of the last run shown (its total, counts, rate),
        the bar busy until this run says its own total with its first progress."""
        self._timer.stop()
        self._latest = None
        self.progress.setRange(0, 0)
        self.stage_counts.setText("")
        self.rate.setText("")

    def arrived(self, p: Progress) -> None:
        """A progress event: shown now if none was shown in the last quarter second, else
        with the next tick (only the latest)."""
        self._latest = p
        if not self._timer.isActive():
            self._show_latest()
            self._timer.start()

    def _show_latest(self) -> None:
        if self._latest is None:
            self._timer.stop()  # nothing new for a quarter second: idle until there is
            return
        self.display(self._latest)
        self._latest = None

    def display(self, p: Progress) -> None:
        self.progress.setMaximum(max(p.total, 1))
        self.progress.setValue(p.finished)
        self.stage_counts.setText(self.counts_text(p))
        if self._paused:  # a rate falling while nothing runs foretells nothing
            self.rate.setText("")
            return
        eta = "–" if p.eta is None else f"{int(p.eta) // 60}:{int(p.eta) % 60:02d}"
        self.rate.setText(self.tr("%1/s, ETA %2").replace("%1", f"{p.rate:.1f}")
                          .replace("%2", eta))

    def ended(self, p: Progress | None) -> str:
        """The run is over: its last progress shown (None: it failed to run), no ETA, and
        what to say of it (empty for a failed run: its error says it)."""
        self._timer.stop()
        self._latest = None
        if p is None:
            self.progress.setRange(0, 1)  # not busy any more: a run that never said a total
            self.progress.reset()
            return ""
        self.display(p)
        self.rate.setText("")  # no ETA for a run that has ended
        if p.finished < p.total:
            return (self.tr("Stopped: %1 of %2 done, %3 failed, %4 left for the next run")
                    .replace("%1", str(p.finished)).replace("%2", str(p.total))
                    .replace("%3", str(p.failed)).replace("%4", str(p.total - p.finished)))
        if p.kept:  # a re-clean whose new rules found no article in some pages
            return (self.tr("Finished %1 of %2, %3 failed, %4 kept their article"
                            " (the new rules found none)")
                    .replace("%1", str(p.finished)).replace("%2", str(p.total))
                    .replace("%3", str(p.failed)).replace("%4", str(p.kept)))
        return (self.tr("Finished %1 of %2, %3 failed").replace("%1", str(p.finished))
                .replace("%2", str(p.total)).replace("%3", str(p.failed)))

    def set_state(self, loaded: bool, running: bool, paused: bool) -> None:
        if paused and not self._paused:
            self.rate.setText("")  # no ETA while paused: the run's next progress says anew
        self._paused = paused
        self.run_button.setEnabled(loaded and not running)
        self.retry_button.setEnabled(loaded and not running)
        self.pause_button.setEnabled(running)
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))
        self.stop_button.setEnabled(running)
