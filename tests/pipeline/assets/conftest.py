"""Fixtures for the localize-stage tests: an image host and a stage context in a tmp archive."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.net.breaker import HostBreakers
from pipeline.net.cookies import CookieStore
from pipeline.net.politeness import HostGate
from pipeline.net.session import new_session
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from pipeline.run.stages import StageContext
from pipeline.store.archive import Archive
from pipeline.web.addresses import AddressPolicy
from tests.sites.images import ImageServer


@pytest.fixture
def server() -> Iterator[ImageServer]:
    with ImageServer() as s:
        yield s


@pytest.fixture
def settings() -> Settings:
    """Default limits; retries wait 10/20 ms and no per-host spacing, to keep tests fast."""
    return Settings().with_overrides(retry_waits=(0.01, 0.02), host_delay_ms=0,
                                     read_timeout=2.0)


@pytest.fixture
def ctx(tmp_path: Path, settings: Settings) -> Iterator[StageContext]:
    with new_session(settings) as session:
        yield StageContext(
            archive=Archive.open(tmp_path / "archive"), settings=settings, rules=Rules(),
            session=session, gate=HostGate(settings), cookies=CookieStore(),
                breakers=HostBreakers(settings.host_failures_to_trip),
            cancel=threading.Event(), on_attempt=lambda task, attempt: None,
            addresses=AddressPolicy.from_setting(settings.allow_addresses),
        )
