"""Every reason the pipeline writes, produced for real, is known to the window's translation."""

from __future__ import annotations

import re

import pytest

from gui.reasons import (
    CONTEXT,
    failure_template,
    reason_pattern,
    task_reason,
    translate_failure,
    translate_reason,
)
from pipeline.extract import extract
from pipeline.net.breaker import HostBreakers
from pipeline.net.fetch import fetch_page
from pipeline.net.fetcher import Fetcher
from pipeline.net.session import new_session
from pipeline.records.errors import KuaibuError, RulesError
from pipeline.records.failures import Code, Failure, arity, failure
from pipeline.records.settings import Settings
from pipeline.records.task import Status, Task, failure_changes
from pipeline.rules.model import Rules, parse_rules
from pipeline.web.addresses import AddressPolicy
from pipeline.web.urls import normalize_url
from tests.gui.test_language import _messages
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
        fetcher = Fetcher(session, SETTINGS, Rules())
        for path in PATHS:
            found.append(_reason(lambda path=path: fetch_page(fetcher, server.url(path))))
        with FaultServer() as gone:
            dead = gone.url("/ok")
        breakers = HostBreakers(1)
        for _ in range(2):
            found.append(_reason(lambda: fetch_page(
                Fetcher(session, SETTINGS, Rules(), breakers=breakers), dead)))
        found.append(_reason(lambda: fetch_page(
            Fetcher(session, SETTINGS, Rules(), addresses=AddressPolicy()), server.url("/ok"))))
        found.append(_reason(lambda: fetch_page(fetcher, "http://169.254.169.254/")))
        found.append(_reason(lambda: fetch_page(fetcher, "ftp://a.example/")))
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


def test_every_reason_reads_in_chinese(reasons: list[str], chinese: None) -> None:
    for reason in reasons:
        shown = translate_reason(reason)
        assert re.search(r"[\u4e00-\u9fff]", shown), (reason, shown)
    assert translate_reason("HTTP 404 Not Found") != "HTTP 404 Not Found"
    assert "502" in translate_reason("HTTP 502 Bad Gateway")  # the variable part is kept


def _sample(code: Code) -> Failure:
    """A failure of ``code`` with as many arguments as its sentence takes (a wrapped one
    where a failure is wrapped)."""
    count = arity(code)
    wrapped = failure(Code.REDIRECT_LOOP)
    return failure(code, *(wrapped if code in (Code.REDIRECT_TO, Code.NEW_RULES_FAILED)
                           else f"arg{n}" for n in range(count)))


def test_every_code_has_a_sentence_in_the_translation() -> None:
    """A code the window has no sentence for, or whose sentence is not in the shipped
    translation, fails here (lupdate finds the sentence; this finds the code)."""
    shipped = {source for context, source, _ in _messages() if context == CONTEXT}
    for code in Code:
        template = failure_template(_sample(code))
        assert template in shipped, (code, template)
    for status in ("401", "403", "404", "410", "429", "503", "418"):
        assert failure_template(failure(Code.HTTP_STATUS, status, "x")) in shipped


def test_every_code_reads_in_chinese(chinese: None) -> None:
    for code in Code:
        shown = translate_failure(_sample(code))
        assert re.search(r"[\u4e00-\u9fff]", shown), (code, shown)
        assert not re.search(r"%\d", shown), (code, shown)
    shown = translate_failure(failure(Code.REDIRECT_TO, failure(Code.UNSUPPORTED_SCHEME, "ftp")))
    assert "ftp" in shown and shown != translate_failure(failure(Code.REDIRECT_LOOP))


def test_a_task_is_said_by_its_code_and_an_old_row_by_its_pattern(chinese: None) -> None:
    """The code wins: its sentence is found even where no pattern would read the English
    (a reworded message); a row written before codes is still read by its pattern."""
    reason = failure(Code.HTTP_STATUS, 404, "Not Found")
    coded = Task(id=1, url="https://a.example/", status=Status.FAILED,
                 **failure_changes(reason))  # type: ignore[arg-type]
    old = Task(id=2, url="https://a.example/", status=Status.FAILED, error=reason.text)
    assert task_reason(coded) == task_reason(old) == translate_reason("HTTP 404 Not Found")
    blocked = failure(Code.ADDRESS_LOCAL, "10.0.0.1", "private", " of wiki.corp")
    assert "10.0.0.1" in task_reason(Task(id=3, url="https://a.example/", status=Status.FAILED,
                                          **failure_changes(blocked)))  # type: ignore[arg-type]


def test_an_invalid_selector_in_the_rules_is_said_by_its_code(chinese: None) -> None:
    """The rules editor and the window say an invalid selector one way: by its code, which
    the rules error carries (the editor no longer reads the English with a second pattern)."""
    with pytest.raises(RulesError) as raised:
        parse_rules("a.example:\n  strip: ['p[[']\n")
    assert raised.value.problem is not None and raised.value.problem.code is Code.BAD_SELECTOR
    shown = translate_failure(raised.value.problem)
    assert "'p[['" in shown and "CSS 选择器" in shown, shown
