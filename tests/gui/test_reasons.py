"""Every reason the pipeline writes, produced for real, is known to the window's translation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from gui.language import install_language
from gui.reasons import reason_pattern, translate_reason
from pipeline.addresses import AddressPolicy
from pipeline.breaker import HostBreakers
from pipeline.errors import KuaibuError
from pipeline.extract import extract
from pipeline.fetch import fetch_page, new_session
from pipeline.rules import SiteRules, parse_rules
from pipeline.settings import Settings
from pipeline.urls import normalize_url
from tests.sites.faults import FaultServer

SETTINGS = Settings().with_overrides(retries=0, read_timeout=0.5, page_deadline=1.0,
                                     max_page_bytes=1024 * 1024)
PATHS = ("/status?code=404&fail=9", "/status?code=410&fail=9", "/status?code=403&fail=9",
         "/status?code=500&fail=9", "/status?code=418&fail=9", "/pdf", "/interstitial",
         "/truncated?fail=9", "/unterminated?fail=9", "/loop/a", "/big?mb=2",
         "/trickle?every=0.05", "/slow?fail=9&delay=2", "/reset?fail=9")


def _reason(call: object) -> str:
    try:
        call()  # type: ignore[operator]
    except KuaibuError as e:
        return str(e)
    raise AssertionError("no failure")


@pytest.fixture(scope="module")
def reasons() -> list[str]:
    """The reasons themselves, as fetching, extracting, intake and rules write them."""
    found: list[str] = []
    with FaultServer() as server, new_session(SETTINGS) as session:
        for path in PATHS:
            found.append(_reason(lambda path=path: fetch_page(
                session, server.url(path), SETTINGS, SiteRules())))
        with FaultServer() as gone:
            dead = gone.url("/ok")
        breakers = HostBreakers(1)
        for _ in range(2):
            found.append(_reason(lambda: fetch_page(session, dead, SETTINGS, SiteRules(),
                                                    breakers=breakers)))
        found.append(_reason(lambda: fetch_page(session, server.url("/ok"), SETTINGS,
                                                SiteRules(), addresses=AddressPolicy())))
        found.append(_reason(lambda: fetch_page(session, "http://169.254.169.254/", SETTINGS,
                                                SiteRules())))
        found.append(_reason(lambda: fetch_page(session, "ftp://a.example/", SETTINGS,
                                                SiteRules())))
    found.append(_reason(lambda: extract("<html><body><ul><li><a href=/>x</a></li></ul>",
                                         "https://a.example/")))
    for link in ("ftp://a.example/f", "http://a..b/", "mailto:x@a.example", "http:///x"):
        found.append(_reason(lambda link=link: normalize_url(link)))
    found.append(_reason(lambda: parse_rules("a.example:\n  strip: ['p[[']\n")).split(": ", 2)[2])
    found.append("new rules failed: no article found")
    found.append("internal error: KeyError: 'x'")
    return found


def test_every_reason_the_pipeline_writes_has_a_pattern(reasons: list[str]) -> None:
    unknown = [r for r in reasons if reason_pattern(r) is None]
    assert unknown == []
    assert len(set(reasons)) >= 20  # the scenario really produced that many kinds


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    installed = install_language(qapp, "zh_CN")
    yield
    install_language(qapp, "en", installed)


def test_every_reason_reads_in_chinese(reasons: list[str], chinese: None) -> None:
    for reason in reasons:
        shown = translate_reason(reason)
        assert re.search(r"[\u4e00-\u9fff]", shown), (reason, shown)
    assert translate_reason("HTTP 404 Not Found") != "HTTP 404 Not Found"
    assert "502" in translate_reason("HTTP 502 Bad Gateway")  # the variable part is kept
