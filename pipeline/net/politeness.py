"""Per-host politeness: how many requests may be open to a host, and how often one may start.

The seed's limits (003 §3.2): at most 2 connections per host, 8 in all, and at least 300 ms
between request starts to one host, with per-domain overrides from rules.yaml. Every request —
retries and redirect hops included — passes through one shared ``HostGate``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pipeline.records.errors import StopRequested
from pipeline.records.settings import Settings

# How often a waiter looks at its cancel event: stop must take effect within a second.
_CANCEL_POLL_S = 0.1


class Slot:
    """A granted slot. The next start to its host is spaced from the grant, or from
    ``started()`` when the caller reports the moment its request really went out — after a
    TCP connect or TLS handshake that could otherwise eat most of the delay."""

    def __init__(self, gate: HostGate, host: str, delay: float) -> None:
        self._gate, self._host, self._delay = gate, host, delay

    def started(self) -> None:
        self._gate._started(self._host, self._delay)


class HostGate:
    """Thread-safe slots per host and overall, with a minimum spacing between starts per host."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._clock = clock
        self._cond = threading.Condition()
        self._open: dict[str, int] = {}
        self._open_total = 0
        self._next_start: dict[str, float] = {}

    @contextmanager
    def slot(
        self,
        host: str,
        concurrency: int | None = None,
        delay_ms: int | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[Slot]:
        """Hold one connection slot to ``host`` for the duration of the ``with`` block.

        ``concurrency`` and ``delay_ms`` override the settings for this host (rules.yaml).
        Raises StopRequested if ``cancel`` is set while waiting.
        """
        host = host.lower()
        limit = concurrency or self._settings.per_host_connections
        delay = (self._settings.host_delay_ms if delay_ms is None else delay_ms) / 1000
        self._acquire(host, limit, delay, cancel)
        try:
            yield Slot(self, host, delay)
        finally:
            self._release(host)

    def _acquire(
        self, host: str, limit: int, delay: float, cancel: threading.Event | None
    ) -> None:
        with self._cond:
            while True:
                if cancel is not None and cancel.is_set():
                    raise StopRequested()
                now = self._clock()
                timeout: float | None = None
                if (
                    self._open.get(host, 0) < limit
                    and self._open_total < self._settings.global_connections
                ):
                    not_before = self._next_start.get(host, now)
                    if not_before <= now:
                        break
                    timeout = not_before - now
                if cancel is not None:
                    timeout = _CANCEL_POLL_S if timeout is None else min(timeout, _CANCEL_POLL_S)
                self._cond.wait(timeout)
            self._open[host] = self._open.get(host, 0) + 1
            self._open_total += 1
            self._next_start[host] = now + delay

    def _started(self, host: str, delay: float) -> None:
        with self._cond:
            not_before = self._clock() + delay
            self._next_start[host] = max(self._next_start.get(host, 0.0), not_before)

    def _release(self, host: str) -> None:
        with self._cond:
            self._open[host] -= 1
            if not self._open[host]:
                del self._open[host]
            self._open_total -= 1
            self._cond.notify_all()
