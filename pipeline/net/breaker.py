"""Per-host circuit breakers: a host that cannot be reached is not asked again in this run.

A page whose images sit on a dead or blocked CDN would otherwise try every image as hopefully
as the first, each costing connect timeouts and retry waits. After ``host_failures_to_trip``
failures in a row to reach a host (refused, no such name, connect timeout, a deadline that
passed), its breaker opens: the rest of that host's requests in the run fail at once, named
"host unreachable", and stay retryable for a later run. Any answer from the host, even an
error status, resets the count.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.records.errors import ErrorKind, FetchError
from pipeline.records.failures import Code, Failure, failure


class HostTripped(FetchError):
    """A request not made: its host's breaker is open (no attempt, so nothing is logged)."""


@dataclass
class _Host:
    failures: int = 0
    since: float = 0.0  # wall time of the first failure in the current run of failures
    tripped: bool = False


class HostBreakers:
    """Thread-safe breakers for every host of one run. ``on_trip(host, reason)`` is called
    once per host, when its breaker opens (the run logs it once, not per request)."""

    def __init__(self, threshold: int, on_trip: Callable[[str, str], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._threshold = threshold
        self._on_trip = on_trip or (lambda host, reason: None)
        self._clock = clock
        self._lock = threading.Lock()
        self._hosts: dict[str, _Host] = {}

    def check(self, host: str) -> None:
        """Raise the host's failure when its breaker is open."""
        with self._lock:
            state = self._hosts.get(host.lower())
            reason = self._reason(state) if state is not None and state.tripped else None
        if reason is not None:
            raise HostTripped(reason, kind=ErrorKind.NETWORK)

    def failed(self, host: str) -> None:
        """The host could not be reached once more; the breaker opens at the threshold."""
        with self._lock:
            state = self._hosts.setdefault(host.lower(), _Host())
            if state.failures == 0:
                state.since = self._clock()
            state.failures += 1
            tripping = not state.tripped and state.failures >= self._threshold
            if tripping:
                state.tripped = True
                reason = self._reason(state)
        if tripping:
            self._on_trip(host.lower(), reason.text)

    def succeeded(self, host: str) -> None:
        """The host answered: its count of failures in a row starts again."""
        with self._lock:
            state = self._hosts.get(host.lower())
            if state is not None and not state.tripped:
                state.failures = 0

    @staticmethod
    def _reason(state: _Host) -> Failure:
        since = time.strftime("%H:%M:%S", time.localtime(state.since))
        return failure(Code.HOST_UNREACHABLE, state.failures, since)
