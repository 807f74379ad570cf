"""fetch_page against a real misbehaving server on 127.0.0.1 (issue 3's fault list)."""

from __future__ import annotations

import ipaddress
import threading
import tracemalloc
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any
from urllib.parse import quote

import pytest
import requests

from pipeline.net.breaker import HostBreakers
from pipeline.net.fetch import fetch_page, fetch_resource, retry_wait
from pipeline.net.fetcher import PAGE_ACCEPT, Attempt, Fetcher, RawPage, Want
from pipeline.net.response import INTERSTITIAL_MAX_BYTES, looks_interstitial
from pipeline.net.session import new_session
from pipeline.records.address_class import AddressClass
from pipeline.records.errors import FetchError, RetryLater, StopRequested
from pipeline.records.settings import MB, Settings
from pipeline.rules.model import Rules, SiteRules
from pipeline.text.decode import decode_html
from pipeline.web.addresses import AddressPolicy, BlockedAddress, Network
from tests.sites import faults
from tests.sites.faults import FaultServer, fault_servers
from tests.waiting import PATIENCE, outcome_of, when

RULES = Rules()


def fetcher(session: requests.Session, settings: Settings, rules: Rules = RULES,
            **kw: Any) -> Fetcher:
    """A fetcher with no task (each URL judged as a link a person added)."""
    return Fetcher(session, settings, rules, **kw)


def fetch(
    session: requests.Session, server: FaultServer, path: str, settings: Settings, *,
    attempt: int | None = None, **kw: Any
) -> RawPage:
    return fetch_page(fetcher(session, settings, **kw), server.url(path), attempt=attempt)


def fails(
    session: requests.Session, server: FaultServer, path: str, settings: Settings
) -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(session, server, path, settings)
    return info.value


# --- retries -------------------------------------------------------------------------------


def test_slow_server_times_out_then_the_retry_succeeds(fetch_session, fault_server, fast_settings):
    attempts: list[Attempt] = []
    page = fetch(fetch_session, fault_server, "/slow?fail=1&delay=3", fast_settings,
                 on_attempt=attempts.append)
    assert page.status == 200 and page.attempts == 2
    assert [a.attempt for a in attempts] == [1, 2]
    assert attempts[0].error == "no answer within 0.5 s" and attempts[0].status is None
    assert attempts[1].status == 200 and attempts[1].error is None


def test_a_server_that_stays_slow_fails_retryably_after_three_attempts(
    fetch_session, fault_server, fast_settings
):
    settings = fast_settings.with_overrides(read_timeout=0.2)
    error = fails(fetch_session, fault_server, "/slow?fail=9&delay=3", settings)
    assert error.reason == "no answer within 0.2 s" and error.retryable
    assert fault_server.count("/slow?fail=9&delay=3") == settings.retries + 1


def test_connection_reset_mid_body_is_retried(fetch_session, fault_server, fast_settings):
    assert fetch(fetch_session, fault_server, "/reset?fail=1", fast_settings).attempts == 2
    error = fails(fetch_session, fault_server, "/reset?fail=9", fast_settings)
    assert error.retryable and "Connection reset" in error.reason
    assert fault_server.count("/reset?fail=9") == 3


def test_500_then_200(fetch_session, fault_server, fast_settings):
    attempts: list[Attempt] = []
    page = fetch(fetch_session, fault_server, "/status?code=500&fail=1", fast_settings,
                 on_attempt=attempts.append)
    assert page.status == 200 and b"</html>" in page.body
    assert [(a.attempt, a.status, a.error) for a in attempts] == [
        (1, 500, "HTTP 500 Internal Server Error"), (2, 200, None)
    ]


@pytest.mark.parametrize("code", [408, 502, 503, 504])
def test_every_transient_status_is_retried(fetch_session, fault_server, fast_settings, code):
    assert fetch(fetch_session, fault_server, f"/status?code={code}", fast_settings).attempts == 2


def test_429_waits_as_long_as_retry_after_asks(fetch_session, fault_server, fast_settings):
    path = "/status?code=429&retry_after=1"
    page = fetch(fetch_session, fault_server, path, fast_settings)
    first, second = fault_server.starts("/status")
    assert page.attempts == 2
    assert second - first >= 1.0  # not the 50 ms the schedule alone would wait


def test_retry_after_is_capped(fetch_session, fault_server, fast_settings):
    settings = fast_settings.with_overrides(retry_after_cap=0.2)
    fetch(fetch_session, fault_server, "/status?code=429&retry_after=3600", settings)
    first, second = fault_server.starts("/status")
    assert 0.2 <= second - first < 1.0


def test_429_that_never_clears_fails_retryably(fetch_session, fault_server, fast_settings):
    error = fails(fetch_session, fault_server, "/status?code=429&retry_after=0&fail=9",
                  fast_settings)
    assert error.reason == "HTTP 429 Too Many Requests" and error.retryable


def test_default_schedule_and_retry_after_parsing():
    """The real 2 s / 6 s schedule and Retry-After forms, computed without waiting."""
    s = Settings()
    now = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    assert [retry_wait(n, s) for n in (1, 2, 3)] == [2.0, 6.0, 6.0]
    assert retry_wait(1, s, "30") == 30.0
    assert retry_wait(1, s, "500") == s.retry_after_cap == 120.0
    assert retry_wait(1, s, format_datetime(now + timedelta(seconds=45), usegmt=True), now) == 45
    assert retry_wait(2, s, format_datetime(now - timedelta(hours=1), usegmt=True), now) == 0
    assert retry_wait(2, s, "soon, maybe") == 6.0  # unreadable: the schedule applies


def test_a_stop_interrupts_a_retry_wait(fault_server):
    """The wait after a 500 is cut short by the cancel event: a wait of twice PATIENCE
    ends well within it, however loaded the machine."""
    cancel = threading.Event()
    settings = Settings().with_overrides(retry_waits=(2 * PATIENCE, 2 * PATIENCE))
    path = "/status?code=500&fail=9"
    when(lambda: fault_server.count(path), cancel.set, "the first attempt")
    with requests.Session() as s:
        outcome = outcome_of(lambda: fetch_page(fetcher(s, settings, cancel=cancel),
                                                fault_server.url(path)))
    assert isinstance(outcome, StopRequested), outcome
    assert fault_server.count(path) == 1


def test_a_stop_aborts_a_request_waiting_on_a_slow_server(fault_server):
    """With a read timeout and a server silence of twice PATIENCE, only the stop can end
    the fetch within PATIENCE."""
    settings = Settings().with_overrides(read_timeout=2 * PATIENCE,
                                         page_deadline=2 * PATIENCE)
    cancel = threading.Event()
    path = f"/slow?fail=9&delay={2 * PATIENCE}"
    when(lambda: fault_server.count(path), cancel.set, "the request at the server")
    with new_session(settings) as s:
        outcome = outcome_of(lambda: fetch_page(fetcher(s, settings, cancel=cancel),
                                                fault_server.url(path)))
    assert isinstance(outcome, StopRequested), outcome


# --- redirects -----------------------------------------------------------------------------


def test_redirect_loop_fails_at_once(fetch_session, fault_server, fast_settings):
    error = fails(fetch_session, fault_server, "/loop/a", fast_settings)
    assert error.reason == "redirect loop" and not error.retryable
    assert fault_server.count("/loop/a") == 1 and fault_server.count("/loop/b") == 1


def test_a_redirect_to_itself_that_sets_a_cookie_is_not_a_loop(
    fetch_session, fault_server, fast_settings
):
    page = fetch(fetch_session, fault_server, "/cookie-reload", fast_settings)
    assert page.redirects == (page.url,) and page.final_url == page.url
    assert fault_server.hits[1].headers["Cookie"] == "visited=1"


def test_redirects_are_followed_and_the_final_url_recorded(
    fetch_session, fault_server, fast_settings
):
    page = fetch(fetch_session, fault_server, "/chain?n=10", fast_settings)
    assert page.final_url == fault_server.url("/chain?n=0")
    assert page.url == fault_server.url("/chain?n=10")
    assert len(page.redirects) == 10 and page.redirects[0] == page.url


def test_more_than_max_redirects_fails(fetch_session, fault_server, fast_settings):
    error = fails(fetch_session, fault_server, "/chain?n=11", fast_settings)
    assert error.reason == "too many redirects (more than 10)" and not error.retryable
    assert fault_server.count("/chain?n=0") == 0


@pytest.mark.parametrize(
    ("target", "scheme"),
    [("file:///etc/passwd", "file"), ("javascript:alert(1)", "javascript"),
     ("ftp://127.0.0.1/x.html", "ftp")],
)
def test_redirect_to_another_scheme_is_refused(
    fetch_session, fault_server, fast_settings, target, scheme
):
    error = fails(fetch_session, fault_server, f"/redirect?to={target}", fast_settings)
    assert error.reason == f"redirect to unsupported URL scheme: {scheme} (only http and https)"
    assert not error.retryable


@pytest.mark.parametrize(
    ("url", "scheme"),
    [("file:///etc/passwd", "file"), ("javascript:alert(document.cookie)", "javascript"),
     ("ftp://example.com/a.html", "ftp"), ("data:text/html,<p>x</p>", "data")],
)
def test_only_http_and_https_are_ever_fetched(fetch_session, fast_settings, url, scheme):
    with pytest.raises(FetchError) as info:
        fetch_page(fetcher(fetch_session, fast_settings), url)
    assert info.value.reason == f"unsupported URL scheme: {scheme} (only http and https)"
    assert not info.value.retryable


# --- what the server sends -----------------------------------------------------------------


def test_404_fails_at_once_with_the_status(fetch_session, fault_server, fast_settings):
    attempts: list[Attempt] = []
    with pytest.raises(FetchError) as info:
        fetch(fetch_session, fault_server, "/status?code=404&fail=9", fast_settings,
              on_attempt=attempts.append)
    assert info.value.reason == "HTTP 404 Not Found" and not info.value.retryable
    assert attempts == [Attempt(fault_server.url("/status?code=404&fail=9"), 1, 404,
                                "HTTP 404 Not Found", attempts[0].elapsed)]


def test_gzip_bomb_stops_at_the_page_limit(fetch_session, fault_server, fast_settings):
    faults._bomb()  # built before measuring: the server's 60 MB is not the client's
    tracemalloc.start()
    try:
        error = fails(fetch_session, fault_server, "/gzip-bomb", fast_settings)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert error.reason == "page larger than 5 MB" and not error.retryable
    assert peak < 3 * fast_settings.max_page_bytes  # it did not inflate all 60 MB


def test_a_6_mb_page_is_refused_and_a_4_mb_page_is_not(fetch_session, fault_server, fast_settings):
    assert fails(fetch_session, fault_server, "/big?mb=6", fast_settings).reason == (
        "page larger than 5 MB"
    )
    page = fetch(fetch_session, fault_server, "/big?mb=4", fast_settings)
    assert len(page.body) == 4 * MB and page.body.endswith(b"</html>")


def test_brotli_bodies_are_decompressed(fetch_session, fault_server, fast_settings):
    page = fetch(fetch_session, fault_server, "/br", fast_settings)
    assert page.headers["Content-Encoding"] == "br"
    assert "压缩的正文".encode() in page.body


def test_pdf_is_not_an_html_page(fetch_session, fault_server, fast_settings):
    error = fails(fetch_session, fault_server, "/pdf", fast_settings)
    assert error.reason == "not an HTML page: application/pdf" and not error.retryable


@pytest.mark.parametrize("query", ["", "lang=zh&", "code=403&"])
def test_interstitial_pages_fail_retryably(fetch_session, fault_server, fast_settings, query):
    """English and GBK-encoded Chinese challenge pages, and a 403 challenge, are all caught."""
    error = fails(fetch_session, fault_server, f"/interstitial?{query}fail=9", fast_settings)
    assert error.reason == "interstitial page" and error.retryable


def test_an_interstitial_that_clears_gives_the_article(fetch_session, fault_server, fast_settings):
    page = fetch(fetch_session, fault_server, "/interstitial?fail=1", fast_settings)
    assert page.attempts == 2 and "正文内容".encode() in page.body


def test_a_long_article_that_mentions_captcha_is_not_an_interstitial():
    article = f"<html><body><p>{'How CAPTCHA works. ' * 2000}</p></body></html>".encode()
    assert len(article) > INTERSTITIAL_MAX_BYTES and not looks_interstitial(article)
    assert looks_interstitial("<title>安全验证</title>".encode("gb18030"))


def test_truncated_body_is_retried(fetch_session, fault_server, fast_settings):
    assert fetch(fetch_session, fault_server, "/truncated?fail=1", fast_settings).attempts == 2
    error = fails(fetch_session, fault_server, "/truncated?fail=9", fast_settings)
    assert error.reason.startswith("truncated body: ") and error.retryable


def test_a_connection_closed_before_html_end_is_a_cut_short_page(
    fetch_session, fault_server, fast_settings
):
    page = fetch(fetch_session, fault_server, "/unterminated?fail=1", fast_settings)
    assert page.attempts == 2 and page.body.endswith(b"</html>")
    error = fails(fetch_session, fault_server, "/unterminated?fail=9", fast_settings)
    assert error.reason == "page cut short: the connection closed before </html>"
    assert error.retryable


# --- encodings: raw bytes kept as sent, decoded by pipeline.text.decode -------------------------


def decoded(session: requests.Session, server: FaultServer, path: str, settings: Settings) -> str:
    page = fetch(session, server, path, settings)
    return decode_html(page.body, page.headers.get("Content-Type")).text


@pytest.mark.parametrize("path", ["/gbk-utf8-header", "/meta-charset", "/gbk-no-charset"])
def test_gbk_pages_arrive_byte_for_byte_and_decode(fetch_session, fault_server, fast_settings,
                                                   path):
    page = fetch(fetch_session, fault_server, path, fast_settings)
    assert faults.GBK_TEXT.encode("gbk") in page.body  # the raw bytes, untouched
    assert faults.GBK_TEXT in decoded(fetch_session, fault_server, path, fast_settings)


def test_a_page_mixing_encodings_is_decoded_with_replacement_not_dropped(
    fetch_session, fault_server, fast_settings
):
    text = decoded(fetch_session, fault_server, "/mixed", fast_settings)
    assert "统一码写的正文。" in text and "\ufffd" in text


# --- what is sent --------------------------------------------------------------------------


def test_requests_name_kuaibu_and_the_users_languages(fetch_session, fault_server, fast_settings):
    fetch(fetch_session, fault_server, "/headers", fast_settings)
    sent = fault_server.hits[-1].headers
    assert sent["User-Agent"] == fast_settings.user_agent and "Kuaibu" in sent["User-Agent"]
    assert sent["Accept-Language"] == "zh-CN,zh;q=0.9,en;q=0.8"
    assert sent["Accept-Encoding"] == "gzip, deflate, br"


def test_rules_override_the_user_agent_and_add_headers_only_for_their_host(fetch_session,
                                                                          fast_settings):
    rules = SiteRules(user_agent="Mozilla/5.0 (X11) Firefox/140.0",
                      headers={"X-Token": "secret"}, referer="https://example.org/")
    with fault_servers("127.0.0.1", "127.0.0.2") as (home, other):
        hop = other.url("/headers")
        fetch_page(fetcher(fetch_session, fast_settings, Rules(rules)),
                   home.url(f"/redirect?to={hop}"))
    home_sent, other_sent = home.hits[0].headers, other.hits[0].headers
    assert home_sent["User-Agent"] == other_sent["User-Agent"] == rules.user_agent
    assert home_sent["X-Token"] == "secret" and "X-Token" not in other_sent
    assert other_sent["Referer"] == "https://example.org/"


@pytest.mark.parametrize("body, html", [
    ("<!DOCTYPE html><p>x</p>", True),
    ("<html><p>x</p></html>", True),
    ("<body><p>A page that opens only its body.</p></body>", True),  # as an image body is judged
    ("<head><title>t</title></head><p>x</p>", True),
    ("just some text", False),
])
def test_a_page_with_no_content_type_is_html_by_its_bytes(fetch_session, fault_server,
                                                          fast_settings, body: str,
                                                          html: bool) -> None:
    """One "looks like HTML" (``assets.sniff``) for a typeless page and an image's error body."""
    url = fault_server.url(f"/typeless?body={quote(body)}")
    if html:
        assert fetch_page(fetcher(fetch_session, fast_settings), url).body == body.encode()
    else:
        with pytest.raises(FetchError) as info:
            fetch_page(fetcher(fetch_session, fast_settings), url)
        assert info.value.kind == "not-html"


# --- other resources: fetch_resource (images use it with the page's session and gate) -------


IMAGE = Want("image/*", 5 * MB, 30.0, noun="image", html_page=False)


def test_a_resource_that_is_not_html_is_returned_as_sent(fetch_session, fault_server,
                                                          fast_settings):
    page = fetch_resource(fetcher(fetch_session, fast_settings), fault_server.url("/pdf"), IMAGE)
    assert page.body.startswith(b"%PDF-1.4") and page.headers["Content-Type"] == "application/pdf"


def test_a_resource_has_its_own_size_limit_and_noun(fetch_session, fault_server, fast_settings):
    with pytest.raises(FetchError) as info:
        fetch_resource(fetcher(fetch_session, fast_settings), fault_server.url("/big?mb=6"),
                       IMAGE)
    assert info.value.reason == "image larger than 5 MB" and not info.value.retryable


def test_a_resource_is_retried_like_a_page(fetch_session, fault_server, fast_settings):
    page = fetch_resource(fetcher(fetch_session, fast_settings),
                          fault_server.url("/status?code=503"), IMAGE)
    assert page.attempts == 2


def test_a_resource_sends_its_accept_and_referer_unless_the_rules_name_one(
    fetch_session, fault_server, fast_settings
):
    url = fault_server.url("/headers")
    fetch_resource(fetcher(fetch_session, fast_settings), url, IMAGE, referer="http://a.test/p")
    fetch_resource(fetcher(fetch_session, fast_settings, Rules(SiteRules(referer="http://b.test/"))),
                   url, IMAGE, referer="http://a.test/p")
    fetch(fetch_session, fault_server, "/headers", fast_settings)
    first, second, plain_page = (h.headers for h in fault_server.hits)
    assert (first["Accept"], first["Referer"]) == ("image/*", "http://a.test/p")
    assert second["Referer"] == "http://b.test/"
    assert plain_page["Accept"] == PAGE_ACCEPT and "Referer" not in plain_page


# --- deadlines, header names, breakers, attempts one at a time ------------------------------


def test_a_page_that_trickles_fails_at_its_deadline(fetch_session, fault_server, fast_settings):
    settings = fast_settings.with_overrides(page_deadline=1.0, retries=0)
    error = outcome_of(lambda: fails(fetch_session, fault_server, "/trickle?every=0.05",
                                     settings))
    # each byte came in time: no read timeout tripped, the deadline ended it
    assert isinstance(error, FetchError), error
    assert error.reason == "no complete answer within 1 s" and error.unreachable


def test_header_names_are_read_in_any_case(fetch_session, fault_server, fast_settings):
    page = fetch(fetch_session, fault_server, "/lower-case-type", fast_settings)
    assert page.headers["Content-Type"] == "text/html; charset=gbk"  # sent as content-type
    decoded = decode_html(page.body, page.headers.get("content-TYPE"), None, fast_settings)
    assert faults.GBK_TEXT in decoded.text  # the header's charset was used


def test_a_host_that_refuses_trips_its_breaker(fetch_session, fast_settings):
    with FaultServer() as gone:
        url = gone.url("/ok")  # nothing listens there once the block ends: refused
    trips: list[tuple[str, str]] = []
    breakers = HostBreakers(3, on_trip=lambda host, reason: trips.append((host, reason)))
    attempts: list[Attempt] = []
    settings = fast_settings.with_overrides(retries=0)
    errors = []
    for n in range(6):
        with pytest.raises(FetchError) as info:
            fetch_page(fetcher(fetch_session, settings, breakers=breakers,
                               on_attempt=attempts.append), f"{url}?n={n}")
        errors.append(info.value)
    assert len(attempts) == 3  # three requests reached the network; the rest failed at once
    assert all(e.unreachable for e in errors[:3])
    assert errors[-1].reason.startswith("host unreachable (3 failures since ")
    assert not errors[-1].retryable  # not in this run; a later run tries the host again
    assert [host for host, _ in trips] == ["127.0.0.1"]  # said once


def test_one_attempt_at_a_time_says_when_to_try_again(fetch_session, fault_server, fast_settings):
    path = "/status?code=503&fail=2"
    with pytest.raises(RetryLater) as info:
        fetch(fetch_session, fault_server, path, fast_settings, attempt=1)
    assert (info.value.wait, info.value.attempt, info.value.kind) == (0.05, 1, "http-5xx")
    with pytest.raises(RetryLater):
        fetch(fetch_session, fault_server, path, fast_settings, attempt=2)
    assert fetch(fetch_session, fault_server, path, fast_settings, attempt=3).status == 200
    with pytest.raises(FetchError) as last:  # the tries are used up: a plain failure
        fetch(fetch_session, fault_server, "/status?code=503&fail=9", fast_settings, attempt=3)
    assert not isinstance(last.value, RetryLater)


# --- the address policy, end to end ------------------------------------------------------------
# The test servers are on loopback, so "a public page" is the loopback server judged by a policy
# that lets loopback through but is not a local origin: what a public site is to the rules.
AS_PUBLIC = AddressPolicy(allow=frozenset({AddressClass.LOOPBACK}))


def test_a_public_pages_policy_never_connects_to_loopback(fetch_session, fault_server,
                                                          fast_settings):
    with pytest.raises(BlockedAddress) as info:
        fetch_page(fetcher(fetch_session, fast_settings, addresses=AddressPolicy()),
                   fault_server.url("/ok"))
    assert "is loopback" in info.value.reason and info.value.kind == "blocked-address"
    assert fault_server.hits == []  # refused before connecting


@pytest.mark.parametrize("target, rule", [
    ("http://10.0.0.1/admin", "is private"),
    ("http://192.168.1.1/", "is private"),
    ("http://169.254.169.254/latest/meta-data/", "is link-local: never fetched"),
    ("http://0.0.0.0/", "is unspecified: never fetched"),
    ("http://[fd00::1]/", "is private"),
    ("http://0xa9fea9fe/", "is link-local"),  # 169.254.169.254 spelt in hex
])
def test_a_redirect_of_a_public_page_to_an_inner_address_is_refused(
        fetch_session, fault_server, fast_settings, target, rule):
    url = fault_server.url(f"/redirect?to={quote(target, safe='')}")
    with pytest.raises(FetchError) as info:
        fetch_page(fetcher(fetch_session, fast_settings.with_overrides(retries=0),
                           addresses=AS_PUBLIC), url)
    assert rule in info.value.reason and info.value.kind == "blocked-address"


def test_a_name_is_judged_by_what_it_resolves_to(fetch_session, fault_server, fast_settings):
    def resolver(host: str) -> list[ipaddress.IPv4Address]:
        return [ipaddress.IPv4Address("169.254.169.254" if host == "metadata.test"
                                      else "127.0.0.1")]

    link = f"http://metadata.test:{fault_server.port}/ok"
    policy = AddressPolicy(allow=AS_PUBLIC.allow, network=Network(resolver))
    with pytest.raises(BlockedAddress, match="of metadata.test is link-local"):
        fetch_page(fetcher(fetch_session, fast_settings, addresses=policy), link)
    page = fetch_page(fetcher(fetch_session, fast_settings, addresses=policy),
                      f"http://site.test:{fault_server.port}/ok")
    assert page.status == 200  # connected to the address judged, named site.test
    assert fault_server.hits[-1].headers.get("Host") == f"site.test:{fault_server.port}"


def test_a_pasted_link_on_a_private_address_is_archivable_with_its_images(
        fetch_session, fault_server, fast_settings):
    policy = AddressPolicy.from_setting(fast_settings.allow_addresses).for_task(
        fault_server.url("/ok"))  # an intranet wiki
    assert policy.local_origin
    task = fetcher(fetch_session, fast_settings, addresses=policy)
    assert fetch_page(task, fault_server.url("/ok")).status == 200
    assert fetch_resource(task, fault_server.url("/status?code=200&fail=0"),
                          IMAGE).status == 200


def test_a_body_that_cannot_finish_in_time_is_cut_when_that_is_clear(fetch_session, fault_server,
                                                                     fast_settings):
    # a byte every 2 s, a deadline of twice PATIENCE: cut at the deadline, it would run past
    # PATIENCE; cut as soon as the pace shows it cannot finish, well within it
    settings = fast_settings.with_overrides(page_deadline=2 * PATIENCE, read_timeout=10.0,
                                            retries=0)
    # cut at the deadline, it would not end within PATIENCE: outcome_of fails the test
    error = outcome_of(lambda: fails(fetch_session, fault_server, "/trickle?every=2.0",
                                     settings))
    assert isinstance(error, FetchError), error
    assert (error.reason.startswith("too slow: ")
            and f"past the {2 * PATIENCE:g} s deadline" in error.reason), error.reason
    assert error.unreachable
