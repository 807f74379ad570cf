"""The run in a child process, speaking JSON lines: the window's GIL stays the window's.

Fetching, decoding and extracting are CPU-bound Python; in the window's process their threads
hold the GIL for long stretches and the event loop stalls (measured by bench/gui_latency.py).
The window starts ``python -m gui.run_process`` with a JSON job on the command line; the child
runs the ordinary ``Runner`` and writes one JSON object a line to stdout (``task``, ``log``,
``progress``, then ``done`` or ``error``); it reads ``pause``, ``resume`` and ``stop`` on stdin,
and stops when stdin closes (the window went away). No Qt here: this is a pipeline process.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol, TextIO

from pipeline.records.errors import KuaibuError
from pipeline.records.events import Event, LogLine, Progress, TaskChanged
from pipeline.records.settings import Settings
from pipeline.records.task import Task
from pipeline.usecases.workspace import Workspace

RUN_NICENESS = 10
# The task fields a run changes; a person's fields (title, categories) stay the window's.
RUN_FIELDS = ("status", "attempts", "error", "error_kind", "duplicate_of", "fetched_at",
              "extracted_title", "content_hash", "fingerprint", "chars", "images_total",
              "images_ok", "confidence", "last_checked", "revised_at", "refresh_error")


@dataclass
class Job:
    archive: str
    settings: dict[str, Any]
    mode: str = "run"  # or "reclean", or "refresh" (check archived articles for updates)
    task_ids: list[int] | None = None
    retry_failed: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Job:
        return cls(**json.loads(text))


def settings_to_json(settings: Settings) -> dict[str, Any]:
    return asdict(settings)


def settings_from_json(data: dict[str, Any]) -> Settings:
    """JSON has no tuples: give tuple fields their type back."""
    default = Settings()
    return default.with_overrides(**{
        k: tuple(v) if isinstance(getattr(default, k), tuple) else v
        for k, v in data.items()})


def progress_to_json(p: Progress) -> dict[str, Any]:
    return asdict(p)


def progress_from_json(data: dict[str, Any]) -> Progress:
    return Progress(**data)


def run_changes(data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a task line the window takes over."""
    return {k: data[k] for k in RUN_FIELDS if k in data}


class _Writer:
    """One JSON object a line, from any worker thread."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._lock = threading.Lock()

    def __call__(self, **message: Any) -> None:
        line = json.dumps(message, ensure_ascii=False)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def event(self, event: Event) -> None:
        if isinstance(event, TaskChanged):
            task = {f.name: getattr(event.task, f.name) for f in fields(Task)
                    if f.name in RUN_FIELDS or f.name == "id"}
            self(task=task)
        elif isinstance(event, LogLine):
            self(log=event.text)
        elif isinstance(event, Progress):
            self(progress=progress_to_json(event))


class _Controls(Protocol):
    """What the window's commands reach: the Runner's controls."""

    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def stop(self) -> None: ...


def _obey(runner: _Controls, commands: TextIO) -> None:
    for line in commands:
        command = line.strip()
        if command == "pause":
            runner.pause()
        elif command == "resume":
            runner.resume()
        elif command == "stop":
            runner.stop()
    runner.stop()  # stdin closed: the window is gone


def run_job(job: Job, out: TextIO, commands: TextIO) -> int:
    write = _Writer(out)
    try:
        workspace = Workspace.open(Path(job.archive), settings_from_json(job.settings))
        runner = workspace.runner(listener=write.event)
        threading.Thread(target=_obey, args=(runner, commands), daemon=True).start()
        if job.mode == "reclean":
            progress = runner.reclean(job.task_ids or [])
        elif job.mode == "refresh":
            progress = runner.refresh(job.task_ids or [])
        else:
            progress = runner.run(job.task_ids, job.retry_failed)
    except KuaibuError as e:
        write(error=str(e))
        return 1
    write(done=progress_to_json(progress))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if hasattr(os, "nice"):
        os.nice(RUN_NICENESS)  # the window, not the batch, gets the CPU when both want it
    return run_job(Job.from_json(args[0]), sys.stdout, sys.stdin)


if __name__ == "__main__":
    sys.exit(main())
