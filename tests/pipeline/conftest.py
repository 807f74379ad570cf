"""Fixtures for the fetch-stage tests: a fault server and settings that keep retries fast."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from pipeline.net.session import new_session
from pipeline.records.settings import Settings
from tests.sites.faults import FaultServer


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    with FaultServer() as s:
        yield s


@pytest.fixture
def fast_settings() -> Settings:
    """Default limits, but retries wait 50/100 ms and a read times out after half a second."""
    return Settings().with_overrides(retry_waits=(0.05, 0.1), read_timeout=0.5)


@pytest.fixture
def fetch_session(fast_settings: Settings) -> Iterator[requests.Session]:
    with new_session(fast_settings) as s:
        yield s
