"""Work off the GUI thread: jobs on a QThreadPool, results and pipeline events back as signals.

The pipeline calls its listener from worker threads; ``RunController`` re-emits each event as a
Qt signal, which Qt queues to the GUI thread because the controller lives there (Picard's
``run_task``, Anki's "don't call UI routines in op").
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from pipeline.errors import KuaibuError
from pipeline.events import Event, LogLine, Progress, TaskChanged
from pipeline.runner import Runner


class _JobSignals(QObject):
    done = Signal(object)
    failed = Signal(str)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], signals: _JobSignals) -> None:
        super().__init__()
        self._fn = fn
        self._signals = signals

    def run(self) -> None:
        try:
            result = self._fn()
        except KuaibuError as e:  # a message written for the user
            self._signals.failed.emit(str(e))
        except Exception as e:  # a bug: say what broke rather than lose it in a thread
            traceback.print_exc()
            self._signals.failed.emit(f"{type(e).__name__}: {e}")
        else:
            self._signals.done.emit(result)


class Jobs(QObject):
    """A private thread pool. Slots should be bound methods of GUI-thread QObjects, so Qt
    delivers the result on the GUI thread."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 4) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._live: set[_JobSignals] = set()  # signal objects must outlive their queued events

    def start(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
              on_error: Callable[[str], None] | None = None) -> None:
        signals = _JobSignals(self)
        if on_done is not None:
            signals.done.connect(on_done)
        if on_error is not None:
            signals.failed.connect(on_error)
        signals.done.connect(lambda _result: self._forget(signals))
        signals.failed.connect(lambda _message: self._forget(signals))
        self._live.add(signals)
        self.pool.start(_Job(fn, signals))

    def _forget(self, signals: _JobSignals) -> None:
        self._live.discard(signals)
        signals.deleteLater()

    def wait(self, msecs: int = -1) -> bool:
        """Block until every job has finished (on quit; a stopped run ends within a second)."""
        return self.pool.waitForDone(msecs)


class RunController(QObject):
    """One Runner at a time: start, pause, resume, stop, and its events as signals."""

    task_changed = Signal(object)  # Task
    log_line = Signal(str)
    progress = Signal(object)  # Progress
    finished = Signal(object)  # the final Progress
    failed = Signal(str)

    def __init__(self, jobs: Jobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._runner: Runner | None = None

    @property
    def running(self) -> bool:
        return self._runner is not None

    @property
    def paused(self) -> bool:
        return self._runner is not None and self._runner.paused

    def listen(self, event: Event) -> None:
        """The Runner's listener: called on its worker threads, so it only emits."""
        if isinstance(event, TaskChanged):
            self.task_changed.emit(event.task)
        elif isinstance(event, LogLine):
            self.log_line.emit(event.text)
        elif isinstance(event, Progress):
            self.progress.emit(event)

    def run(self, runner: Runner, task_ids: Iterable[int] | None = None,
            retry_failed: bool = False) -> None:
        """Fetch and clean (``Runner.run``) in the pool."""
        ids = list(task_ids) if task_ids is not None else None
        self._start(runner, lambda: runner.run(ids, retry_failed))

    def reclean(self, runner: Runner, task_ids: Iterable[int]) -> None:
        """Clean stored pages again with the runner's rules (``Runner.reclean``), no network."""
        ids = list(task_ids)
        self._start(runner, lambda: runner.reclean(ids))

    def _start(self, runner: Runner, work: Callable[[], Progress]) -> None:
        if self._runner is not None:
            raise RuntimeError("a run is already going")
        self._runner = runner
        self._jobs.start(work, self._done, self._failed)

    def pause(self) -> None:
        if self._runner is not None:
            self._runner.pause()

    def resume(self) -> None:
        if self._runner is not None:
            self._runner.resume()

    def stop(self) -> None:
        if self._runner is not None:
            self._runner.stop()

    def _done(self, progress: Progress) -> None:
        self._runner = None
        self.finished.emit(progress)

    def _failed(self, message: str) -> None:
        self._runner = None
        self.failed.emit(message)
