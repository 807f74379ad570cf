"""Work off the GUI thread: jobs on a QThreadPool and the Runner on its own thread, with
results and pipeline events brought back to the GUI thread as signals (Picard's ``run_task``,
Anki's "don't call UI routines in op").
"""

from __future__ import annotations

import os
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from pipeline.errors import KuaibuError
from pipeline.events import Event, LogLine, Progress, TaskChanged
from pipeline.runner import Runner
from pipeline.tasks import Task

DRAIN_MS = 50  # how often run events reach the window: 20 updates a second
RUN_NICENESS = 10  # the run's threads are niced so the window stays responsive on 2 cores


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


def lower_priority() -> None:
    """Nice the calling thread (Linux: per thread, inherited by the threads it starts), so the
    run's workers yield the CPU to the GUI thread; a no-op where that is not possible."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), RUN_NICENESS)
    except (AttributeError, OSError):  # not Linux/Unix, or not allowed
        pass


@dataclass
class _Outcome:
    progress: Progress | None = None
    error: str | None = None


class RunController(QObject):
    """One Runner at a time on its own thread: start, pause, resume, stop, events as signals.

    The Runner's listener only appends to a queue; a GUI-thread timer drains it every
    ``DRAIN_MS``, keeping the latest copy of each task, so a fast run costs the window one
    repaint per changed row per tick rather than one queued call per event.
    """

    tasks_changed = Signal(list)  # list[Task], the latest copy of each
    log_lines = Signal(str)  # several lines, newline-separated
    progress = Signal(object)  # Progress
    finished = Signal(object)  # the final Progress
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner: Runner | None = None
        self._thread: threading.Thread | None = None
        self._events: deque[Event] = deque()
        self._outcome: _Outcome | None = None
        self._drain = QTimer(self)
        self._drain.setInterval(DRAIN_MS)
        self._drain.timeout.connect(self._deliver)

    @property
    def running(self) -> bool:
        return self._runner is not None

    @property
    def paused(self) -> bool:
        return self._runner is not None and self._runner.paused

    def listen(self, event: Event) -> None:
        """The Runner's listener: called on its worker threads; must not block."""
        self._events.append(event)  # deque.append is atomic

    def run(self, runner: Runner, task_ids: Iterable[int] | None = None,
            retry_failed: bool = False) -> None:
        """Fetch and clean (``Runner.run``)."""
        ids = list(task_ids) if task_ids is not None else None
        self._start(runner, lambda: runner.run(ids, retry_failed))

    def reclean(self, runner: Runner, task_ids: Iterable[int]) -> None:
        """Clean stored pages again with the runner's rules (``Runner.reclean``), no network."""
        ids = list(task_ids)
        self._start(runner, lambda: runner.reclean(ids))

    def _start(self, runner: Runner, work: Callable[[], Progress]) -> None:
        if self._runner is not None:
            raise RuntimeError("a run is already going")
        self._runner, self._outcome = runner, None

        def body() -> None:
            lower_priority()
            try:
                outcome = _Outcome(progress=work())
            except KuaibuError as e:
                outcome = _Outcome(error=str(e))
            except Exception as e:  # a bug: say what broke rather than lose it in a thread
                traceback.print_exc()
                outcome = _Outcome(error=f"{type(e).__name__}: {e}")
            self._outcome = outcome

        self._thread = threading.Thread(target=body, name="kuaibu-run")
        self._thread.start()
        self._drain.start()

    def pause(self) -> None:
        if self._runner is not None:
            self._runner.pause()

    def resume(self) -> None:
        if self._runner is not None:
            self._runner.resume()

    def stop(self) -> None:
        if self._runner is not None:
            self._runner.stop()

    def wait(self) -> None:
        """Block until the run's thread has ended (after ``stop``: within about a second)."""
        if self._thread is not None:
            self._thread.join()

    def _deliver(self) -> None:
        outcome = self._outcome  # read first: events queued before the end are drained below
        tasks: dict[int, Task] = {}
        lines: list[str] = []
        progress: Progress | None = None
        while self._events:
            event = self._events.popleft()
            if isinstance(event, TaskChanged):
                tasks[event.task.id] = event.task
            elif isinstance(event, LogLine):
                lines.append(event.text)
            elif isinstance(event, Progress):
                progress = event
        if tasks:
            self.tasks_changed.emit(list(tasks.values()))
        if lines:
            self.log_lines.emit("\n".join(lines))
        if progress is not None:
            self.progress.emit(progress)
        if outcome is None:
            return
        self._drain.stop()
        if self._thread is not None:
            self._thread.join()
        self._runner = self._thread = None
        if outcome.progress is not None:
            self.finished.emit(outcome.progress)
        else:
            self.failed.emit(outcome.error or "")
