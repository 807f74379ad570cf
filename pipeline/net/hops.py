"""One attempt of a fetch: the request and each redirect it is sent on, hop by hop.

Redirects are followed here rather than by requests so that every hop is checked (http/https
only, no loop, at most ``max_redirects``), counted, passes the host's circuit breaker and the
politeness gate, is judged by the task's address policy, has its own deadline, and is logged.
A hop's request carries the rules' headers (extra ones only to the requested URL's own host)
and every cookie that applies. Apart from the retries (``fetch``), which only decide whether
another attempt is worth making, and from the body (``response``), read once a hop answers.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit, urlunsplit

import requests
from requests.structures import CaseInsensitiveDict
from requests.utils import select_proxy

from pipeline.net.breaker import HostTripped
from pipeline.net.causes import connection_failure, root_cause
from pipeline.net.deadline import Deadline, Hop, watched
from pipeline.net.fetcher import Attempt, Fetcher, RawPage, Want
from pipeline.net.response import judged_body
from pipeline.net.session import sending
from pipeline.records.errors import ErrorKind, FetchError, HttpStatusError, StopRequested
from pipeline.records.failures import Code, Failure, failure
from pipeline.rules.model import SiteRules
from pipeline.web.addresses import AddressPolicy
from pipeline.web.urls import host_of

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ALLOWED_SCHEMES = frozenset({"http", "https"})


@dataclass(frozen=True)
class Call:
    """One fetch: the fetcher its requests share, and what is this fetch's own (its URL, that
    host's rules, what it wants, its referrer, the address policy it is judged by)."""

    fetcher: Fetcher
    url: str
    rules: SiteRules
    want: Want
    referer: str | None
    addresses: AddressPolicy


def fetch_chain(call: Call, attempt: int) -> RawPage:
    """One attempt: follow redirects from ``call.url`` to a final response and judge it."""
    started = time.monotonic()
    redirects: list[str] = []
    seen: set[tuple[str, str | None]] = set()
    hop = call.url
    while True:
        hop_started = time.monotonic()
        try:
            status, headers, body, sent_cookie = _exchange(call, hop)
        except HostTripped:
            raise  # no request was made; the breaker logged its opening once
        except FetchError as e:
            status_seen = e.status if isinstance(e, HttpStatusError) else None
            _report(call, Attempt(hop, attempt, status_seen, e.reason,
                                  time.monotonic() - hop_started))
            raise
        elapsed = time.monotonic() - hop_started
        location = headers.get("Location") if status in REDIRECT_STATUSES else None
        if location is None:
            _report(call, Attempt(hop, attempt, status, None, elapsed))
            return RawPage(
                url=call.url,
                final_url=hop,
                status=status,
                headers=headers,
                body=body,
                fetched_at=datetime.now(UTC).isoformat(timespec="seconds"),
                elapsed=time.monotonic() - started,
                redirects=tuple(redirects),
                attempts=attempt,
            )
        seen.add((hop, sent_cookie))
        redirects.append(hop)
        target = _strip_fragment(urljoin(hop, location.strip()))
        problem = _redirect_problem(call, target, seen, len(redirects))
        _report(call, Attempt(hop, attempt, status, problem.text if problem else None,
                              elapsed))
        if problem:
            raise FetchError(problem, kind=ErrorKind.REDIRECT)
        hop = target


def scheme_problem(url: str) -> Failure | None:
    """Only http and https, ever (the seed's security rule): no file:, javascript:, ftp:…"""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        return failure(Code.UNSUPPORTED_SCHEME, parts.scheme or "none")
    if not parts.hostname:
        return failure(Code.NO_HOST_IN_URL, repr(url))
    return None


def _redirect_problem(
    call: Call, target: str, seen: set[tuple[str, str | None]], redirects: int
) -> Failure | None:
    """Why a redirect must not be followed, or None. The same URL asked for with the same
    cookies is a loop; with new ones it is a site setting a cookie and reloading."""
    if problem := scheme_problem(target):
        return failure(Code.REDIRECT_TO, problem)
    if (target, _cookie_header(_prepare(call, target))) in seen:
        return failure(Code.REDIRECT_LOOP)
    settings = call.fetcher.settings
    if redirects > settings.max_redirects:
        return failure(Code.TOO_MANY_REDIRECTS, settings.max_redirects)
    return None


def _exchange(call: Call, url: str) -> _Answer:
    """One request through the breaker and the gate: status, headers, the body if it
    matters, the cookie sent. A failure to reach the host counts on its breaker; any answer
    resets it."""
    host = urlsplit(url).hostname or ""
    breakers = call.fetcher.breakers
    if breakers is None:
        return _gated_exchange(call, url, host, [])
    breakers.check(host)
    answered: list[bool] = []
    try:
        answer = _gated_exchange(call, url, host, answered)
    except FetchError as e:
        if e.unreachable:
            breakers.failed(host)
        elif answered:
            breakers.succeeded(host)
        raise
    breakers.succeeded(host)
    return answer


_Answer = tuple[int, CaseInsensitiveDict[str], bytes, str | None]


def _gated_exchange(call: Call, url: str, host: str, answered: list[bool]) -> _Answer:
    """The request itself; ``answered`` gets an entry once the server has answered."""
    fetcher = call.fetcher
    prepared = _prepare(call, url)
    env = fetcher.session.merge_environment_settings(url, {}, True, None, None)
    addresses: AddressPolicy | None = call.addresses
    if select_proxy(url, env.get("proxies") or {}):  # type: ignore[arg-type]
        # the connection goes to the proxy: the name is judged here (when it resolves here
        # at all), the rest is the proxy's
        with contextlib.suppress(OSError):
            call.addresses.connectable(host)
        addresses = None
    same_host = host == urlsplit(call.url).hostname
    slot = (
        fetcher.gate.slot(
            host,
            concurrency=call.rules.concurrency if same_host else None,
            delay_ms=call.rules.delay_ms if same_host else None,
            cancel=fetcher.cancel,
        )
        if fetcher.gate
        else contextlib.nullcontext()
    )
    with slot as granted:
        if fetcher.cancel.is_set():
            raise StopRequested()
        if fetcher.breakers is not None:
            fetcher.breakers.check(host)  # it may have opened while this waited for the gate
        hop = Hop(granted, addresses, Deadline(call.want.deadline), fetcher.cancel,
                  fetcher.settings.read_timeout)
        with watched(hop):
            with sending(hop):
                response = _send(call, prepared, env, hop.deadline)
            answered.append(True)
            with response:
                headers = CaseInsensitiveDict(response.headers)
                status = response.status_code
                if status in REDIRECT_STATUSES and "Location" in headers:
                    return status, headers, b"", _cookie_header(prepared)
                body = judged_body(call.want, hop, response, status, headers)
    return status, headers, body, _cookie_header(prepared)


def _send(
    call: Call, prepared: requests.PreparedRequest, env: dict[str, object], deadline: Deadline
) -> requests.Response:
    """Send the request and read the status line and headers, connect and header waits each
    cut to what is left of ``deadline``."""
    s = call.fetcher.settings
    try:
        return call.fetcher.session.send(
            prepared,
            timeout=(deadline.cut(s.connect_timeout), deadline.cut(s.read_timeout)),
            allow_redirects=False,
            **env,  # type: ignore[arg-type]
        )
    except requests.exceptions.ConnectTimeout:
        raise FetchError(failure(Code.CONNECT_TIMEOUT, f"{s.connect_timeout:g}"),
                         kind=ErrorKind.NETWORK, retryable=True,
                         unreachable=True) from None
    except requests.exceptions.ReadTimeout:
        raise FetchError(failure(Code.READ_TIMEOUT, f"{s.read_timeout:g}"),
                         kind=ErrorKind.NETWORK, retryable=True) from None
    except requests.exceptions.SSLError as e:
        raise FetchError(failure(Code.TLS, root_cause(e)), kind=ErrorKind.NETWORK) from None
    except requests.exceptions.ConnectionError as e:
        # refused, no such name, unreachable network: the host gave no answer at all (a
        # connection broken mid-answer surfaces later, while the body is read)
        raise FetchError(connection_failure(root_cause(e)), kind=ErrorKind.NETWORK,
                         retryable=True, unreachable=True) from None
    except (requests.exceptions.InvalidURL, requests.exceptions.InvalidSchema) as e:
        raise FetchError(failure(Code.INVALID_URL, e), kind=ErrorKind.BAD_URL) from None
    except requests.exceptions.RequestException as e:
        raise FetchError(failure(Code.REQUEST_FAILED, root_cause(e)), kind=ErrorKind.NETWORK,
                         retryable=True) from None


def _hop_headers(call: Call, url: str) -> dict[str, str]:
    """What is wanted and rules.yaml's per-domain request headers. Extra headers (which may
    carry secrets) go only to the requested URL's own host; a browser-like User-Agent and the
    Referer go to every hop."""
    rules = call.rules
    headers: dict[str, str] = {"Accept": call.want.accept}
    if rules.user_agent:
        headers["User-Agent"] = rules.user_agent
    if referer := rules.referer or call.referer:
        headers["Referer"] = referer
    if host_of(url) == host_of(call.url):
        headers.update(rules.headers)
    return headers


def _prepare(call: Call, url: str) -> requests.PreparedRequest:
    """The request for one hop: session headers, the rules' headers, and every cookie that
    applies — the session's (set by servers this run) and the configured ones. A URL requests
    cannot parse (a port past 65535, a space in the host) fails as the link it is."""
    cookies = call.fetcher.cookies
    try:
        prepared = call.fetcher.session.prepare_request(
            requests.Request("GET", url, headers=_hop_headers(call, url))
        )
    except requests.exceptions.InvalidURL as e:
        raise FetchError(failure(Code.INVALID_URL, e), kind=ErrorKind.BAD_URL) from None
    configured = cookies.header_for(url) if cookies else None
    if configured:
        prepared.headers["Cookie"] = "; ".join(
            c for c in (_cookie_header(prepared), configured) if c
        )
    return prepared


def _cookie_header(prepared: requests.PreparedRequest) -> str | None:
    cookie = prepared.headers.get("Cookie")
    return cookie if isinstance(cookie, str) else None


def _strip_fragment(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(fragment=""))


def _report(call: Call, attempt: Attempt) -> None:
    if call.fetcher.on_attempt is not None:
        call.fetcher.on_attempt(attempt)
