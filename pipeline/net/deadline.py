"""One request in flight (a ``Hop``) and the time it may take: its ``Deadline``, the watcher
that shuts its socket when a stop comes or the deadline passes, and the pace check on a body
whose length was announced.

Apart from the request itself (``hops``) because a hop in flight is reached from three
places — the connection that sends it (``session``), the read loop (``response``) and the
watcher's thread — which together keep one promise: no body of any shape holds a worker past
its deadline.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

from pipeline.net.politeness import Slot
from pipeline.records.errors import ErrorKind, FetchError, StopRequested
from pipeline.records.failures import Code, failure
from pipeline.web.addresses import AddressPolicy

# A body is judged on its pace after this long, and given up when, at that pace, it would
# end this many times past its deadline (a pace that varies is not cut too soon).
PACE_GRACE_S = 2.0
PACE_MARGIN = 2.0
_STOP_POLL_S = 0.1  # how soon an in-flight request notices a stop


class Deadline:
    """The time one request may take, connect to last byte (``Want.deadline``), asked in
    every place the request can wait: each socket wait is cut to the time left, the read loop
    checks it between reads, and the watcher aborts the socket when it passes."""

    # A cut wait ends this long after the deadline: the watcher's abort (at the deadline)
    # comes first, and a timeout that still fires is seen after the deadline has passed, so
    # either way the failure is read as the deadline's, not as "no answer within 20 s".
    _CUT_PAST_S = 0.05

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        return self.ends - time.monotonic()

    def passed(self) -> bool:
        return self.left() <= 0

    def cut(self, timeout: float) -> float:
        """``timeout`` (one socket wait's) shortened to the time left (never to 0, which
        would make the socket non-blocking)."""
        return min(timeout, max(0.0, self.left()) + self._CUT_PAST_S)

    def error(self) -> FetchError:
        # unreachable: a host that cannot answer in time counts on its breaker
        return FetchError(failure(Code.DEADLINE, f"{self.seconds:g}"),
                          kind=ErrorKind.NETWORK, unreachable=True)

    def check(self) -> None:
        if self.passed():
            raise self.error()


class Hop:
    """One request in flight: its gate slot, its address policy, its deadline, the stop it
    heeds, the longest one socket read may wait, and the socket it was sent on.

    The hop holds the socket itself: http.client hands the socket of a response without a
    length (read to the close) to the response and clears the connection's ``sock``, so an
    abort that went through the connection would find nothing to shut."""

    def __init__(self, slot: Slot | None, addresses: AddressPolicy | None, deadline: Deadline,
                 cancel: threading.Event, read_timeout: float) -> None:
        self.slot = slot
        self.addresses = addresses  # None: connected through a proxy, checked by name
        self.deadline = deadline
        self.cancel = cancel
        self.read_timeout = read_timeout
        self.sock: socket.socket | None = None
        self.aborted = False  # by the watcher: a stop, or the deadline passed

    def before_read(self) -> None:
        """Raise the deadline's error once it has passed, else give the next socket read at
        most the time left (the read timeout, when more is left)."""
        self.deadline.check()
        if self.sock is not None:
            with contextlib.suppress(OSError):  # closed by http.client at the body's end
                self.sock.settimeout(self.deadline.cut(self.read_timeout))

    def abort(self) -> None:
        """Unblock a read that waits on the server: a stop or a deadline must not wait for
        a read timeout, nor for a server that keeps sending."""
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def watched(hop: Hop) -> Iterator[None]:
    """While the block runs, a watcher shuts the hop's socket as soon as its stop is set or
    the hop's deadline passes (a read inside http.client — a chunk-size line, a header line —
    is not the read loop's to check). The failure that follows is reported as StopRequested,
    or as the deadline's FetchError, not as whatever the abort broke; and a body that merely
    seemed to end because its socket was shut is not taken as complete.

    The block does not wait for the watcher to notice it ended (that would add up to a poll
    interval to every request); the lock makes sure a late watcher never aborts a connection
    that has gone back to the pool."""
    lock = threading.Lock()
    done = threading.Event()
    deadline, cancel = hop.deadline, hop.cancel

    def watch() -> None:
        while True:
            stopping = cancel.wait(max(0.0, min(_STOP_POLL_S, deadline.left())))
            with lock:
                if done.is_set():
                    return
                if stopping or deadline.passed():
                    hop.aborted = True
                    hop.abort()
                    return

    threading.Thread(target=watch, name="fetch-watcher", daemon=True).start()
    try:
        yield
    except (FetchError, StopRequested) as e:
        if cancel.is_set():
            raise StopRequested() from e
        if hop.aborted or deadline.passed():
            raise deadline.error() from None
        raise
    finally:
        with lock:
            done.set()
    if hop.aborted:  # read after ``done``: no watcher can set it any more
        if cancel.is_set():
            raise StopRequested()
        raise deadline.error()


def check_pace(received: int, expected: int, elapsed: float, deadline: float) -> None:
    """Give up on a body whose announced length cannot arrive by the deadline at the pace it
    comes (a server trickling bytes): said once it is clear (after PACE_GRACE_S), rather than
    holding a worker until the deadline. Bodies without a length wait for the deadline."""
    if elapsed < PACE_GRACE_S or received <= 0 or received >= expected:
        return
    finish = elapsed * expected / received
    if finish > deadline * PACE_MARGIN:
        raise FetchError(failure(Code.TOO_SLOW, f"{deadline:g}", f"{received:,}", f"{expected:,}",
                                 f"{elapsed:.0f}", f"{finish:.0f}"),
                         kind=ErrorKind.NETWORK, unreachable=True)
