"""Waiting in tests: on a condition, never for a fixed time.

A test that sleeps a fixed time, or asserts that something took less than N seconds, passes on
an idle machine and fails on a loaded one. These wait for what the test needs, polling briefly,
and give up only after ``PATIENCE``: a deadline so generous that reaching it means the thing
will not happen, and the failure says what was awaited. The window's tests use pytest-qt's
``qtbot.waitUntil`` / ``waitSignal`` with ``PATIENCE_MS``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

import pytest

PATIENCE = 60.0  # seconds: what a slow, loaded machine (load 15 on 2 cores) still meets
PATIENCE_MS = int(PATIENCE * 1000)
# What the window awaits of a run: a child process (gui.run_process, at nice 10) fetching,
# cleaning and converting images gets a small share of a loaded machine; its first finished
# task took over PATIENCE at load 20 (13 busy processes beside the tests).
RUN_PATIENCE_MS = 3 * PATIENCE_MS
POLL = 0.01  # seconds between looks at the condition


def wait_until(condition: Callable[[], object], what: str, timeout: float = PATIENCE) -> None:
    """Return as soon as ``condition()`` is true; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}: it never happened")
        time.sleep(POLL)


def holds_for(condition: Callable[[], object], seconds: float, what: str) -> None:
    """Check that ``condition()`` stays true for a window of ``seconds``, looking throughout.

    For what must *not* happen (no request while paused): load can only make the window see
    less, never fail a run that behaves. Start it only once nothing can still legitimately
    happen (see ``settled``)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert condition(), f"{what} stopped holding"
        time.sleep(POLL)


def settled(state: Callable[[], object], seconds: float) -> Callable[[], bool]:
    """A condition for ``wait_until`` (or ``qtbot.waitUntil``): true once ``state()`` has
    not changed for ``seconds``.

    What was in flight when a test paused something (a stage already past its check, a line
    still in a pipe) lands when it lands, later on a loaded machine; a fixed wait after the
    pause guesses how late. This waits until nothing has moved for ``seconds`` (longer than
    one step in flight takes), so it ends as late as the stragglers come. A pause that does
    not hold never settles while work is left, and once the work is done nothing comes after
    a resume, which the test then sees."""
    last: list[object] = []
    since = 0.0

    def check() -> bool:
        nonlocal since
        now, current = time.monotonic(), state()
        if not last or current != last[0]:
            last[:] = [current]
            since = now
        return now - since >= seconds

    return check


def when(condition: Callable[[], object], action: Callable[[], object], what: str) -> None:
    """Do ``action`` on a thread as soon as ``condition()`` holds (a stop once the server has
    the request): the test acts on what happened, not after a delay guessed to be enough."""

    def watch() -> None:
        wait_until(condition, what)
        action()

    threading.Thread(target=watch, daemon=True).start()


T = TypeVar("T")


def outcome_of(call: Callable[[], T], what: str = "the call") -> T | BaseException:
    """What ``call`` returned or raised, run on a thread; fails the test if it has not ended
    after PATIENCE s. A test of a deadline or a stop checks *why* the call ended; how soon is
    a bench's figure, not a test's."""
    outcome: list[T | BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as e:  # noqa: BLE001 - handed to the test thread as a value
            outcome.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(PATIENCE)
    if thread.is_alive():
        pytest.fail(f"{what} still running {PATIENCE:g} s after the start")
    return outcome[0]
