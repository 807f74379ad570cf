"""Work off the GUI thread: short jobs on a QThreadPool, the run in a child process, results
and pipeline events brought back to the GUI thread as signals (Picard's ``run_task``, Anki's
"don't call UI routines in op").
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QObject,
    QProcess,
    QProcessEnvironment,
    QThreadPool,
    QTimer,
    Signal,
    SignalInstance,
)

from gui.run_process import Job, progress_from_json, settings_to_json
from pipeline.records.errors import KuaibuError
from pipeline.records.events import Progress
from pipeline.records.places import CHECKOUT
from pipeline.records.settings import Settings
from pipeline.store.archive import Archive

# The folder holding the window's own packages (a checkout, site-packages, a bundle's folder).
# The run's child works there: the working folder comes first on a ``-m`` child's path, so the
# child imports the window's code, never a same-named file of the folder the window started in.
CODE_ROOT = Path(__file__).resolve().parent.parent
DRAIN_MS = 50  # how often run events reach the window: 20 updates a second
STDERR_TAIL = 8192
STOP_WAIT_MS = 10_000  # a stopped run ends within about a second; this is a safety net


def _run(fn: Callable[[], Any], key: int, done: SignalInstance,
         failed: SignalInstance) -> None:
    """One job on a pool thread; its outcome goes back as a signal of ``Jobs`` (queued to the
    GUI thread, where ``Jobs`` lives)."""
    try:
        result = fn()
    except KuaibuError as e:  # a message written for the user
        failed.emit(key, str(e))
    except Exception as e:  # a bug: say what broke rather than lose it in a thread
        traceback.print_exc()
        failed.emit(key, f"{type(e).__name__}: {e}")
    else:
        done.emit(key, result)


class Jobs(QObject):
    """A private thread pool for short work (load, save, preview, build). A job's outcome
    comes back as one of this object's own signals, keyed by job, so no Qt object is made or
    destroyed per job: one a job, deleted on the GUI thread while the pool thread still held
    its wrapper, crashed a test run once (a use after free across threads)."""

    _done = Signal(int, object)
    _failed = Signal(int, str)

    def __init__(self, parent: QObject | None = None, max_threads: int = 4) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._waiting: dict[int, tuple[Callable[[Any], None] | None,
                                       Callable[[str], None] | None]] = {}
        self._keys = itertools.count()
        self._closed = False
        self._done.connect(self._finish_done)
        self._failed.connect(self._finish_failed)

    def start(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
              on_error: Callable[[str], None] | None = None) -> None:
        if self._closed:
            return  # the owner is going: nothing is there to answer to
        key = next(self._keys)
        self._waiting[key] = (on_done, on_error)
        self.pool.start(functools.partial(_run, fn, key, self._done, self._failed))

    def _finish_done(self, key: int, result: Any) -> None:
        on_done, _ = self._waiting.pop(key, (None, None))
        if on_done is not None and _alive(on_done):
            on_done(result)

    def _finish_failed(self, key: int, message: str) -> None:
        _, on_error = self._waiting.pop(key, (None, None))
        if on_error is not None and _alive(on_error):
            on_error(message)

    def wait(self, msecs: int = -1) -> bool:
        """Block until every job has finished (on quit; a stopped run ends within a second)."""
        return self.pool.waitForDone(msecs)

    def close(self) -> None:
        """The owner is going (the window closes): no job starts from now on, the answers of
        those still running are dropped, and this returns once they have ended.

        Why: an answer that arrives after closing (a run's end, settled in a job) went on to
        start more jobs (the report written again, a preview), and the window was deleted
        while they ran; the pool, deleted with it, waited for them, and each then emitted on
        the deleted ``Jobs`` — "RuntimeError: Signal source has been deleted" on quitting."""
        self._closed = True
        self._waiting.clear()
        self.pool.waitForDone()


class Latest:
    """One read a view makes again and again (its list after every change, a search as the
    person types): only the newest request's answer, or its error, is delivered; ``drop``
    makes the one in flight old too (the view changed what it would show)."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self._generation = 0

    def start(self, fn: Callable[[], Any], on_done: Callable[[Any], None],
              on_error: Callable[[str], None]) -> None:
        self._generation += 1
        generation = self._generation
        self.jobs.start(fn, lambda result: self._deliver(generation, on_done, result),
                        lambda message: self._deliver(generation, on_error, message))

    def drop(self) -> None:
        self._generation += 1

    def _deliver(self, generation: int, callback: Callable[[Any], None], value: Any) -> None:
        if generation == self._generation and _alive(callback):
            callback(value)


def _alive(callback: Callable[..., Any]) -> bool:
    """False for a method of a Qt object deleted meanwhile (a view closed while its job ran),
    which a signal connection would have dropped by itself."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)


class RunController(QObject):
    """One run at a time, in a child process (``gui.run_process``): start, pause, resume, stop,
    its events as signals.

    Output lines are read as the child writes them and handed on every ``DRAIN_MS``, keeping
    the latest copy of each task, so a fast run costs the window one repaint per changed row
    per tick rather than one call per event.
    """

    tasks_changed = Signal(list)  # list[dict]: "id" and the run's fields (RUN_FIELDS)
    log_lines = Signal(str)  # several lines, newline-separated
    progress = Signal(object)  # Progress
    finished = Signal(object)  # the final Progress
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._process: QProcess | None = None
        self._paused = False
        self._buffer = b""
        self._errors = b""  # the tail of the child's stderr, for a crash report
        self._tasks: dict[int, dict[str, Any]] = {}
        self._lines: list[str] = []
        self._progress: Progress | None = None
        self._outcome: Progress | str | None = None
        self._drain = QTimer(self)
        self._drain.setInterval(DRAIN_MS)
        self._drain.timeout.connect(self._deliver)

    @property
    def running(self) -> bool:
        return self._process is not None

    @property
    def paused(self) -> bool:
        return self._process is not None and self._paused

    def run(self, archive: Archive, settings: Settings, task_ids: Iterable[int] | None = None,
            retry_failed: bool = False) -> None:
        """Fetch and clean (``Runner.run``) the runnable tasks, or the given ones."""
        ids = sorted(task_ids) if task_ids is not None else None
        self._start(Job(str(archive.root), settings_to_json(settings), "run", ids, retry_failed))

    def reclean(self, archive: Archive, settings: Settings, task_ids: Iterable[int]) -> None:
        """Clean stored pages again with the saved rules (``Runner.reclean``), no network."""
        self._start(Job(str(archive.root), settings_to_json(settings), "reclean",
                        sorted(task_ids)))

    def refresh(self, archive: Archive, settings: Settings, task_ids: Iterable[int]) -> None:
        """Ask the sites again for archived articles (``Runner.refresh``): a changed one is
        cleaned and localized again, its old copy kept in the archive's history."""
        self._start(Job(str(archive.root), settings_to_json(settings), "refresh",
                        sorted(task_ids)))

    def _start(self, job: Job) -> None:
        if self._process is not None:
            raise RuntimeError("a run is already going")
        process = QProcess(self)
        env = QProcessEnvironment.systemEnvironment()
        if CHECKOUT is not None:  # installed, the packages are on the Python's own path
            env.insert("PYTHONPATH", os.pathsep.join(
                p for p in (str(CHECKOUT), env.value("PYTHONPATH")) if p))
        env.insert("PYTHONUNBUFFERED", "1")
        process.setProcessEnvironment(env)
        process.setWorkingDirectory(str(CODE_ROOT))
        process.readyReadStandardOutput.connect(self._read)
        process.readyReadStandardError.connect(self._read_errors)
        process.finished.connect(self._exited)
        process.errorOccurred.connect(self._process_error)
        self._process, self._paused, self._outcome = process, False, None
        self._buffer = self._errors = b""
        process.start(sys.executable, ["-m", "gui.run_process", job.to_json()])
        self._drain.start()

    def _command(self, word: str) -> None:
        if self._process is not None:
            self._process.write(f"{word}\n".encode())

    def pause(self) -> None:
        self._command("pause")
        self._paused = self._process is not None

    def resume(self) -> None:
        self._command("resume")
        self._paused = False

    def stop(self) -> None:
        self._command("stop")
        self._paused = False

    def wait(self) -> None:
        """Block until the child has ended (after ``stop``: within about a second) and every
        line it wrote has been handed on; used when the window closes."""
        process = self._process
        if process is None:
            return
        if not process.waitForFinished(STOP_WAIT_MS):
            process.kill()  # a child deaf to "stop": its outputs are temp-then-rename anyway
            process.waitForFinished(STOP_WAIT_MS)
        self._exited()

    # -- the child's output ------------------------------------------------------------------

    def _read(self) -> None:
        if self._process is None:
            return
        self._buffer += bytes(self._process.readAllStandardOutput().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            if line.strip():
                self._take(json.loads(line))

    def _read_errors(self) -> None:
        """Drain stderr as it comes (a full pipe would block the child); keep the tail."""
        if self._process is not None:
            data = bytes(self._process.readAllStandardError().data())
            self._errors = (self._errors + data)[-STDERR_TAIL:]

    def _take(self, message: dict[str, Any]) -> None:
        if "task" in message:
            task = message["task"]
            self._tasks.setdefault(task["id"], {}).update(task)
        elif "log" in message:
            self._lines.append(message["log"])
        elif "progress" in message:
            self._progress = progress_from_json(message["progress"])
        elif "done" in message:
            self._outcome = progress_from_json(message["done"])
        elif "error" in message:
            self._outcome = str(message["error"])

    def _deliver(self) -> None:
        if self._tasks:
            tasks, self._tasks = list(self._tasks.values()), {}
            self.tasks_changed.emit(tasks)
        if self._lines:
            lines, self._lines = "\n".join(self._lines), []
            self.log_lines.emit(lines)
        if self._progress is not None:
            progress, self._progress = self._progress, None
            self.progress.emit(progress)

    def _exited(self) -> None:
        process = self._process
        if process is None:
            return
        self._read()
        self._drain.stop()
        self._deliver()
        self._process = None
        outcome = self._outcome
        if outcome is None:  # the child died without a word: show what it printed last
            self._read_errors()
            errors = self._errors.decode("utf-8", "replace").strip()
            outcome = errors.splitlines()[-1] if errors else (
                f"the run stopped unexpectedly (exit code {process.exitCode()})")
        process.deleteLater()
        if isinstance(outcome, Progress):
            self.finished.emit(outcome)
        else:
            self.failed.emit(outcome)

    def _process_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._outcome = f"cannot start the run: {self._process.errorString()}"
            self._exited()
