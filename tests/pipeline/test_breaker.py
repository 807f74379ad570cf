"""A host's circuit breaker: a few failures in a row open it; an answer resets the count."""

from __future__ import annotations

import pytest

from pipeline.net.breaker import HostBreakers, HostTripped


def test_the_breaker_opens_at_the_threshold_and_says_so_once() -> None:
    trips: list[tuple[str, str]] = []
    breakers = HostBreakers(3, lambda host, reason: trips.append((host, reason)),
                            clock=lambda: 0.0)
    for _ in range(2):
        breakers.failed("CDN.example")
        breakers.check("cdn.example")  # still closed
    breakers.failed("cdn.example")
    with pytest.raises(HostTripped, match=r"host unreachable \(3 failures since "):
        breakers.check("cdn.example")
    breakers.failed("cdn.example")  # an in-flight one failing afterwards: no second notice
    assert [host for host, _ in trips] == ["cdn.example"]
    breakers.check("other.example")  # other hosts are not touched


def test_an_answer_between_failures_starts_the_count_again() -> None:
    breakers = HostBreakers(2)
    for _ in range(5):
        breakers.failed("flaky.example")
        breakers.succeeded("flaky.example")
    breakers.check("flaky.example")  # still closed: an answer came between every failure
    breakers.failed("flaky.example")
    breakers.failed("flaky.example")
    with pytest.raises(HostTripped):  # two in a row now: open
        breakers.check("flaky.example")
