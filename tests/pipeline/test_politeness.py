"""HostGate limits, measured where they matter: at the servers, with the default settings."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest

from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.net.politeness import HostGate
from pipeline.net.session import new_session
from pipeline.records.errors import StopRequested
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules, SiteRules
from tests.sites.faults import FaultServer, fault_servers
from tests.waiting import PATIENCE


def fetch_all(
    servers: list[FaultServer], pages: int, latency: float, settings: Settings, rules: SiteRules
) -> None:
    """``pages`` pages from each server, through one gate, by global_connections workers;
    ``rules`` are every host's."""
    urls = [s.url(f"/ok?latency={latency}&n={i}") for i in range(pages) for s in servers]
    with new_session(settings) as session, ThreadPoolExecutor(settings.global_connections) as ex:
        fetcher = Fetcher(session, settings, Rules(rules), gate=HostGate(settings))
        for page in ex.map(lambda u: fetch_page(fetcher, u), urls):
            assert page.status == 200


def gaps(server: FaultServer) -> list[float]:
    return [b - a for a, b in pairwise(server.starts())]


def test_default_limits_hold_at_the_server():
    """Two per host and 300 ms between starts, though 8 workers would happily send more.

    Each page takes 0.7 s, so without the per-host limit a third request would be open."""
    settings = Settings()
    with fault_servers("127.0.0.1", "127.0.0.2") as servers:
        fetch_all(servers, pages=5, latency=0.7, settings=settings, rules=SiteRules())
    for server in servers:
        assert len(server.hits) == 5
        assert server.peak_open == 2  # reached, never passed
        assert min(gaps(server)) >= settings.host_delay_ms / 1000


def test_rules_raise_the_concurrency_of_one_host(fault_server):
    fetch_all([fault_server], pages=6, latency=0.3, settings=Settings(),
              rules=SiteRules(concurrency=3, delay_ms=0))
    assert fault_server.peak_open == 3


def test_rules_lengthen_the_delay_of_one_host(fault_server):
    fetch_all([fault_server], pages=3, latency=0, settings=Settings(),
              rules=SiteRules(delay_ms=500))
    assert min(gaps(fault_server)) >= 0.5


@pytest.mark.parametrize("path", ["/status?code=500&fail=2", "/chain?n=2"])
def test_retries_and_redirect_hops_pass_the_gate(fault_server, path):
    """Retry waits of 50 ms and instant redirects still keep 300 ms between starts."""
    settings = Settings().with_overrides(retry_waits=(0.05, 0.05))
    with new_session(settings) as session:
        fetch_page(Fetcher(session, settings, Rules(), gate=HostGate(settings)),
                   fault_server.url(path))
    assert len(fault_server.hits) == 3
    assert min(gaps(fault_server)) >= 0.3


def test_the_global_limit_spans_hosts():
    settings = Settings().with_overrides(global_connections=2, host_delay_ms=0)
    gate = HostGate(settings)
    inside = threading.Semaphore(0)
    leave = threading.Event()

    def hold(host: str) -> None:
        with gate.slot(host):
            inside.release()
            leave.wait(PATIENCE)

    threads = [threading.Thread(target=hold, args=(h,)) for h in ("a.cn", "b.cn", "c.cn")]
    for t in threads:
        t.start()
    assert inside.acquire(timeout=PATIENCE) and inside.acquire(timeout=PATIENCE)
    # the third host waits for a global slot (a window for what must not happen: load can
    # only make it see less)
    assert not inside.acquire(timeout=0.2), "a third slot given with only two allowed"
    leave.set()
    assert inside.acquire(timeout=PATIENCE), "the third host never got the slot let go"
    for t in threads:
        t.join()


def test_a_stop_interrupts_a_waiting_slot():
    gate = HostGate(Settings().with_overrides(per_host_connections=1))
    cancel = threading.Event()
    outcome: list[BaseException] = []

    def wait_for_slot() -> None:
        try:
            with gate.slot("example.com", cancel=cancel):
                pass
        except StopRequested as e:
            outcome.append(e)

    with gate.slot("example.com"):
        waiter = threading.Thread(target=wait_for_slot)
        waiter.start()
        cancel.set()
        waiter.join(timeout=PATIENCE)
        assert not waiter.is_alive(), "the stop did not end the wait for a slot"
    assert len(outcome) == 1 and str(outcome[0]) == "stopped"
