"""The run's work queue: task ids with a not-before time, so a retry waits in the queue and
not in a worker (a worker takes other work meanwhile)."""

from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable, Iterable

# How often a waiting worker looks at the stop flag: a stop takes effect within a second.
_POLL_S = 0.2


class WorkQueue:
    """Thread-safe. ``take`` gives the next task that is due, waiting while only later ones
    are queued; it returns None once nothing is queued and no taken task is still being
    worked on (that one might come back with ``put``), or when ``stop`` is set."""

    def __init__(self, task_ids: Iterable[int], clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self._clock = clock
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, int]] = []
        self._seq = 0
        self._busy = 0
        for task_id in task_ids:
            self.put(task_id)

    def put(self, task_id: int, wait: float = 0.0) -> None:
        """Queue a task, due in ``wait`` seconds (queue order among those due now)."""
        with self._cond:
            self._seq += 1
            heapq.heappush(self._heap, (self._clock() + wait, self._seq, task_id))
            self._cond.notify()

    def take(self, stop: threading.Event) -> int | None:
        with self._cond:
            while not stop.is_set():
                now = self._clock()
                if self._heap and self._heap[0][0] <= now:
                    self._busy += 1
                    return heapq.heappop(self._heap)[2]
                if not self._heap and self._busy == 0:
                    self._cond.notify_all()  # the others are waiting for the same answer
                    return None
                due = self._heap[0][0] - now if self._heap else _POLL_S
                self._cond.wait(min(due, _POLL_S))
            return None

    def done(self) -> None:
        """The task last taken by this worker is finished, or was put back."""
        with self._cond:
            self._busy -= 1
            self._cond.notify_all()

    def leftover(self) -> list[int]:
        """The tasks still queued (after a stop): their order does not matter."""
        with self._cond:
            return [task_id for _, _, task_id in self._heap]
