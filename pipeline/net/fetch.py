"""One resource over HTTP, with the seed's limits and retries (003 §3.2): a RawPage or a FetchError.

Pages and images go through the same code (``fetch_page`` is ``fetch_resource`` wanting an HTML
page), so images share the session, the politeness gate, timeouts, retries and cookies: all
of which a call is handed at once, as the ``Fetcher`` its task, harvest or render made.
An attempt follows redirects hop by hop (``hops``), each request with one deadline across
connect, headers and body (``deadline``), over connections that judge where they connect
(``session``), its body read within limits (``response``).

``fetch_resource`` with ``attempt`` makes one attempt and raises ``RetryLater`` when another
is worth making: the runner puts the work back in its queue with a not-before time, so a
retry's wait never holds a worker. Without it, the retries happen in place (tests, tools).
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from pipeline.net.fetcher import Fetcher, RawPage, Want
from pipeline.net.hops import Call, fetch_chain, scheme_problem
from pipeline.records.errors import (
    ErrorKind,
    FetchError,
    HttpStatusError,
    RetryLater,
    StopRequested,
)
from pipeline.records.settings import Settings
from pipeline.web.addresses import AddressPolicy
from pipeline.web.urls import host_of


def fetch_page(fetcher: Fetcher, url: str, *, attempt: int | None = None) -> RawPage:
    """Fetch one HTML page, retrying what is worth retrying; raise FetchError otherwise.

    Raises StopRequested when ``fetcher.cancel`` is set: while waiting for the gate or a
    retry, or while a request is in flight.
    """
    return fetch_resource(fetcher, url, Want.page(fetcher.settings), attempt=attempt)


def fetch_resource(
    fetcher: Fetcher,
    url: str,
    want: Want,
    *,
    referer: str | None = None,
    attempt: int | None = None,
) -> RawPage:
    """Fetch what ``want`` describes, with fetch_page's retries, limits and stop handling.

    ``url`` is asked with its host's rules. ``referer`` is sent on every hop unless the rules
    name their own (an image asks with its page's URL, as hotlink protection expects).
    ``attempt`` (1-based): make that one attempt only, and raise RetryLater (with the wait)
    when it failed in a way worth another and ``settings.retries`` leaves one. Without the
    fetcher's address policy, ``url`` is taken as a link a person added.
    """
    if problem := scheme_problem(url):
        raise FetchError(problem, kind=ErrorKind.BAD_URL)
    settings = fetcher.settings
    addresses = fetcher.addresses
    if addresses is None:
        addresses = AddressPolicy.from_setting(settings.allow_addresses).for_task(url)
    call = Call(fetcher, url, fetcher.rules.for_host(host_of(url)), want, referer, addresses)
    if attempt is not None:
        return _one_attempt(call, attempt)
    attempt = 1
    while True:
        try:
            return _one_attempt(call, attempt)
        except RetryLater as later:
            if fetcher.cancel.wait(later.wait):
                raise StopRequested() from None
        attempt += 1


def _one_attempt(call: Call, attempt: int) -> RawPage:
    try:
        return fetch_chain(call, attempt)
    except FetchError as e:
        settings = call.fetcher.settings
        if not e.retryable or attempt > settings.retries:
            raise
        wait = retry_wait(attempt, settings,
                          e.retry_after if isinstance(e, HttpStatusError) else None)
        raise RetryLater(e, wait, attempt) from e


def retry_wait(
    retry: int, settings: Settings, retry_after: str | None = None, now: datetime | None = None
) -> float:
    """Seconds to wait before retry number ``retry`` (1-based).

    The server's Retry-After (seconds or an HTTP-date, RFC 9110 §10.2.3) wins over the
    schedule, capped at ``settings.retry_after_cap``.
    """
    if retry_after is not None:
        asked = _parse_retry_after(retry_after, now or datetime.now(UTC))
        if asked is not None:
            return min(asked, settings.retry_after_cap)
    waits = settings.retry_waits
    return waits[min(retry, len(waits)) - 1] if waits else 0.0


def _parse_retry_after(value: str, now: datetime) -> float | None:
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())
