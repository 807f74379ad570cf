"""The page and image deadlines hold for bodies of every shape (issue 25, break 2).

Each shape is a real server on 127.0.0.1 (tests/sites/faults.NEVER_ENDING) that never
finishes: a body with no length that trickles forever, the same chunked, a byte every fraction
of a second, a chunk-size or header line that never ends, headers and then silence, and no
headers at all. Deadlines are set short through the settings; the read timeout stays at its
default (20 s), so only the deadline can end these.

Each fetch runs in a thread joined with a bound, so a deadline that does not hold fails the
test with a message instead of hanging the suite.
"""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import quote

import pytest

from pipeline.net.fetch import fetch_page, fetch_resource
from pipeline.net.fetcher import Fetcher
from pipeline.net.session import new_session
from pipeline.records.errors import FetchError, StopRequested
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from pipeline.run.localize import image_want
from pipeline.usecases.workspace import Workspace
from tests.sites.faults import NEVER_ENDING, FaultServer, served_as
from tests.waiting import PATIENCE, outcome_of, when

DEADLINE = 2.0
# The requirement (issue 25) is a request ended within its deadline plus 2 s; that figure is
# measured by ``python -m bench.fetch_faults --deadlines``. A test only waits, up to PATIENCE,
# for the fetch to end and checks why it ended: a deadline that did not hold runs on forever
# (a body that never ends) or ends by the 20 s read timeout with another reason (silence).
SETTINGS = Settings().with_overrides(page_deadline=DEADLINE, image_deadline=DEADLINE)
REASON = f"no complete answer within {DEADLINE:g} s"
RULES = Rules()


def assert_cut_at_the_deadline(outcome: object) -> None:
    assert isinstance(outcome, FetchError), outcome
    assert outcome.reason == REASON


@pytest.mark.parametrize("path", NEVER_ENDING.values(), ids=NEVER_ENDING.keys())
def test_a_page_fails_at_its_deadline_whatever_the_shape_of_its_body(path: str) -> None:
    with FaultServer() as server, new_session(SETTINGS) as session:
        outcome = outcome_of(lambda: fetch_page(Fetcher(session, SETTINGS, RULES),
                                                server.url(path)))
    assert_cut_at_the_deadline(outcome)


@pytest.mark.parametrize("path", NEVER_ENDING.values(), ids=NEVER_ENDING.keys())
def test_an_image_fails_at_its_deadline_and_no_part_of_it_is_taken(path: str) -> None:
    """An image is any body (no HTML checks): a body cut at the deadline must fail, not come
    back as the bytes that arrived so far."""
    with FaultServer() as server, new_session(SETTINGS) as session:
        url = server.url(served_as(path, "image/png"))
        outcome = outcome_of(lambda: fetch_resource(Fetcher(session, SETTINGS, RULES), url,
                                                    image_want(SETTINGS)))
    assert_cut_at_the_deadline(outcome)


def test_a_stop_ends_a_silent_body() -> None:
    """A stop aborts the read of a body with no length that never comes (its socket is the
    response's, not the connection's, once http.client sees it must read to the close; and
    no byte arrives for the read loop to notice the stop between reads)."""
    # a deadline past PATIENCE and the real 20 s read timeout: only the stop can end this
    # with a StopRequested
    settings = Settings().with_overrides(page_deadline=2 * PATIENCE)
    cancel = threading.Event()
    with FaultServer() as server, new_session(settings) as session:
        when(lambda: server.count("/silent"), cancel.set, "the request at the server")
        outcome = outcome_of(lambda: fetch_page(Fetcher(session, settings, RULES, cancel=cancel),
                                                server.url("/silent")))
    assert isinstance(outcome, StopRequested), outcome


def test_a_run_with_an_endless_page_ends_and_marks_the_task_failed(tmp_path: Path) -> None:
    with FaultServer() as server:
        ws = Workspace.open(tmp_path / "archive", SETTINGS)
        ws.add_links(server.url("/endless"))
        outcome = outcome_of(ws.run)
    assert not isinstance(outcome, BaseException), outcome
    task = Workspace.open(tmp_path / "archive", SETTINGS).task(1)  # as saved on disk
    assert (task.status, task.error) == ("failed", REASON)


def test_a_run_with_an_endless_image_keeps_the_article_without_it(tmp_path: Path) -> None:
    """The asset localizer's download: the image fails at its deadline, the article is
    localized without it and the reason is in 04_logs/assets.csv."""
    with FaultServer() as server:
        image = server.url(served_as("/endless", "image/jpeg"))
        text = "一段足够长的正文，写在一张永远下载不完的图片旁边。" * 12
        page = server.url("/ok?text=" + quote(f"{text}<img src='{image}' alt='图'>{text}"))
        ws = Workspace.open(tmp_path / "archive", SETTINGS)
        ws.add_links(page)
        outcome = outcome_of(ws.run)
    assert not isinstance(outcome, BaseException), outcome
    task = Workspace.open(tmp_path / "archive", SETTINGS).task(1)
    assert (task.status, task.images_total, task.images_ok) == ("localized", 1, 0), task.error
    log = (ws.archive.logs_dir / "assets.csv").read_text(encoding="utf-8")
    assert "/endless" in log and REASON in log
