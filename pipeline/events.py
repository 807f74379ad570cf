"""What a run tells its face (terminal or window): plain records through one callback.

The GUI turns these into Qt signals; the CLI draws a progress bar. A listener is called from
worker threads and must not block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.tasks import Task


@dataclass(frozen=True)
class TaskChanged:
    task: Task


@dataclass(frozen=True)
class LogLine:
    text: str


@dataclass(frozen=True)
class Progress:
    total: int
    finished: int  # tasks that reached the last stage of this run or failed
    failed: int
    counts: dict[str, int]  # stage name → tasks that passed it in this run
    elapsed: float

    @property
    def rate(self) -> float:
        """Tasks per second so far."""
        return self.finished / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate; None before anything finished."""
        if not self.finished:
            return None
        return (self.total - self.finished) / self.rate


Event = TaskChanged | LogLine | Progress
Listener = Callable[[Event], None]
