"""What a run tells its face (terminal or window): plain records through one callback.

The GUI turns these into Qt signals; the CLI draws a progress bar. A listener is called from
worker threads and must not block.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from pipeline.records.task import Task


@dataclass(frozen=True)
class TaskChanged:
    task: Task


@dataclass(frozen=True)
class LogLine:
    text: str


class Count(StrEnum):
    """What a run counts. A run passes tasks through fetched, cleaned and localized; a check
    for updates finds each article changed, unchanged or not checked; either way a task ends
    finished (failed ones too). Each value names the ``Progress`` field that holds its count."""

    FINISHED = "finished"
    FAILED = "failed"
    KEPT = "kept"
    FETCHED = "fetched"
    CLEANED = "cleaned"
    LOCALIZED = "localized"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class Progress:
    """A run's counters so far, one field each: a face reads ``p.cleaned``, so a misspelt
    counter is an error, not a silent 0."""

    total: int
    elapsed: float
    finished: int = 0  # tasks that reached the last stage of this run or failed
    failed: int = 0
    kept: int = 0  # a re-clean's tasks that kept their article: the new rules found none
    fetched: int = 0
    cleaned: int = 0
    localized: int = 0
    changed: int = 0
    unchanged: int = 0
    unchecked: int = 0  # a check for updates could not reach the article's page

    @classmethod
    def of(cls, total: int, elapsed: float, counts: Mapping[Count, int]) -> Progress:
        """The record of a runner's tally."""
        return cls(total=total, elapsed=elapsed, **{c.value: n for c, n in counts.items()})

    @property
    def is_check(self) -> bool:
        """A check for updates (which counts changed/unchanged/unchecked, not stages), as far
        as its counts show: a check whose every task so far failed reads as a run."""
        return bool(self.changed or self.unchanged or self.unchecked)

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
