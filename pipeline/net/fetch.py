"""One resource over HTTP, with the seed's limits and retries (003 §3.2): a RawPage or a FetchError.

Pages and images go through the same code (``fetch_page`` is ``fetch_resource`` wanting an HTML
page), so images share the session, the politeness gate, timeouts, retries and cookies: all
of which a call is handed at once, as the ``Fetcher`` its task, harvest or render made.
Redirects are followed here, hop by hop, so that every hop is checked (http/https only),
counted, passes the politeness gate and the host's circuit breaker, and is logged. The body is
streamed and counted after decompression, so a gzip bomb stops at the size limit instead of
filling memory, and each request has one deadline across connect, headers and body (a
``_Deadline``), held where the bytes are read, so no body of any shape (no length, chunked,
trickling, never sent) holds a worker past it. Header names are read case-insensitively.

``fetch_resource`` with ``attempt`` makes one attempt and raises ``RetryLater`` when another
is worth making: the runner puts the work back in its queue with a not-before time, so a
retry's wait never holds a worker. Without it, the retries happen in place (tests, tools).
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import KW_ONLY, dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import requests
import urllib3
import urllib3.connection
import urllib3.exceptions
import urllib3.util.connection
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import select_proxy

from pipeline.assets.sniff import looks_like_html
from pipeline.net.breaker import HostBreakers, HostTripped
from pipeline.net.cookies import CookieStore
from pipeline.net.politeness import HostGate, Slot
from pipeline.records.errors import (
    ErrorKind,
    FetchError,
    HttpStatusError,
    RetryLater,
    StopRequested,
)
from pipeline.records.failures import Code, Failure, failure
from pipeline.records.settings import MB, Settings
from pipeline.rules.model import Rules, SiteRules
from pipeline.web.addresses import AddressPolicy, ip_of_peer
from pipeline.web.urls import host_of

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Anti-bot pages often come with these codes; their body decides between "interstitial" and
# the plain status.
CHALLENGE_STATUSES = frozenset({403, 429, 503})
ALLOWED_SCHEMES = frozenset({"http", "https"})

# Challenge pages are small; a real article page that merely mentions "captcha" is rarely
# this short, so only short bodies are searched for markers.
INTERSTITIAL_MAX_BYTES = 32 * 1024
INTERSTITIAL_MARKERS = (
    "正在验证", "请稍候", "安全验证", "人机验证",
    "just a moment", "checking your browser", "verify you are human", "captcha",
)
PAGE_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"
_CHUNK = 64 * 1024
# A body is judged on its pace after this long, and given up when, at that pace, it would
# end this many times past its deadline (a pace that varies is not cut too soon).
PACE_GRACE_S = 2.0
PACE_MARGIN = 2.0
_STOP_POLL_S = 0.1  # how soon an in-flight request notices a stop
# A document that opened <html> (or its doctype) and was sent until the connection closed must
# end in </html>: else the connection broke. Not ``looks_like_html``: a body that opens only
# <head> or <body> may end without </html> and be whole.
_HTML_OPEN = re.compile(rb"<html[\s>]|<!doctype\s+html", re.I)
_HTML_END = re.compile(rb"</html\s*>", re.I)


@dataclass(frozen=True)
class Want:
    """What a request is for: the Accept header, the size limit (decompressed bytes), the noun
    its errors use, and whether the body must be an HTML page (its content type, anti-bot
    pages and a document cut short are then judged; any other body is left to the caller)."""

    accept: str
    max_bytes: int
    deadline: float  # seconds one request may take, connect to last byte
    noun: str = "page"
    html_page: bool = True

    @classmethod
    def page(cls, settings: Settings) -> Want:
        return cls(PAGE_ACCEPT, settings.max_page_bytes, settings.page_deadline)


@dataclass(frozen=True)
class RawPage:
    """The bytes of a page (or any resource) exactly as received, and how they came."""

    url: str  # as requested
    final_url: str  # after redirects
    status: int
    headers: CaseInsensitiveDict[str]  # the final response's, names in any case
    body: bytes  # decompressed, not decoded
    fetched_at: str  # ISO 8601, UTC
    elapsed: float  # seconds, the successful attempt from first hop to last byte
    redirects: tuple[str, ...]  # every URL that answered with a redirect, in order
    attempts: int


@dataclass(frozen=True)
class Attempt:
    """One HTTP request (a redirect hop counts as one), for a line in 04_logs/fetch.log."""

    url: str
    attempt: int  # 1 for the first try of the page, 2 for its first retry, …
    status: int | None
    error: str | None
    elapsed: float

    def log_line(self, who: str, when: str) -> str:
        """This request as a line of 04_logs/fetch.log: ``who`` asked (``#12`` for a task,
        ``harvest`` for a list page), at ``when``, which try, what came back, how long."""
        outcome = self.error or f"HTTP {self.status}"
        return f"{when}\t{who}\ttry {self.attempt}\t{outcome}\t{self.elapsed:.2f}s\t{self.url}"


@dataclass(frozen=True)
class Fetcher:
    """What every request of one task, harvest or render shares, made once and handed to
    each ``fetch_page``/``fetch_resource``, which then name only what is the request's own
    (its URL, what it wants, its referrer, which attempt).

    ``session`` should come from ``new_session``: its connections tell the gate when a
    request really left and let a stop abort a slow read. ``rules`` are the whole file: a
    request takes its own host's. ``addresses`` is the task's address policy
    (``AddressPolicy.for_task``: an image, a redirect, a browser's request are judged by
    their page's); None takes each URL as a link a person added, which only a fetch with no
    task (a test, a tool) may rely on. ``cancel`` stops a request in flight or waiting for
    the gate or a retry (StopRequested); ``on_attempt`` hears of every request made."""

    session: requests.Session
    settings: Settings
    rules: Rules
    _: KW_ONLY
    addresses: AddressPolicy | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    gate: HostGate | None = None
    breakers: HostBreakers | None = None
    cookies: CookieStore | None = None
    on_attempt: Callable[[Attempt], None] | None = None


def new_session(settings: Settings) -> requests.Session:
    """The one session of a run: truthful User-Agent, the user's languages, compressed bodies."""
    session = requests.Session()
    session.headers.update(
        {
            "User-Agent": settings.user_agent,
            "Accept": PAGE_ACCEPT,
            "Accept-Language": settings.accept_language,
            # br is decoded by urllib3 because the brotli package is installed
            "Accept-Encoding": "gzip, deflate, br",
        }
    )
    # Keep connections for many hosts, as many per host as the run may open at once.
    adapter = _SentReportingAdapter(pool_connections=64, pool_maxsize=settings.global_connections)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class _Deadline:
    """The time one request may take, connect to last byte (``Want.deadline``), asked in
    every place the request can wait: each socket wait is cut to the time left, the read loop
    checks it between reads, and the watcher aborts the socket when it passes."""

    # A cut wait ends this long after the deadline: the watcher's abort (at the deadline)
    # comes first, and a timeout that still fires is seen after the deadline has passed, so
    # either way the failure is read as the deadline's, not as "no answer within 20 s".
    _CUT_PAST_S = 0.05

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        return self.ends - time.monotonic()

    def passed(self) -> bool:
        return self.left() <= 0

    def cut(self, timeout: float) -> float:
        """``timeout`` (one socket wait's) shortened to the time left (never to 0, which
        would make the socket non-blocking)."""
        return min(timeout, max(0.0, self.left()) + self._CUT_PAST_S)

    def error(self) -> FetchError:
        # unreachable: a host that cannot answer in time counts on its breaker
        return FetchError(failure(Code.DEADLINE, f"{self.seconds:g}"),
                          kind=ErrorKind.NETWORK, unreachable=True)

    def check(self) -> None:
        if self.passed():
            raise self.error()


class _Hop:
    """One request in flight: its gate slot, its address policy, its deadline, and the socket
    it was sent on.

    The hop holds the socket itself: http.client hands the socket of a response without a
    length (read to the close) to the response and clears the connection's ``sock``, so an
    abort that went through the connection would find nothing to shut."""

    def __init__(self, slot: Slot | None, addresses: AddressPolicy | None,
                 deadline: _Deadline) -> None:
        self.slot = slot
        self.addresses = addresses  # None: connected through a proxy, checked by name
        self.deadline = deadline
        self.sock: socket.socket | None = None
        self.aborted = False  # by the watcher: a stop, or the deadline passed

    def before_read(self, timeout: float) -> None:
        """Raise the deadline's error once it has passed, else give the next socket read at
        most the time left (``timeout``, the read timeout, when more is left)."""
        self.deadline.check()
        if self.sock is not None:
            with contextlib.suppress(OSError):  # closed by http.client at the body's end
                self.sock.settimeout(self.deadline.cut(timeout))

    def abort(self) -> None:
        """Unblock a read that waits on the server: a stop or a deadline must not wait for
        a read timeout, nor for a server that keeps sending."""
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)


# The hop this thread is sending; the connection reports to it (requests passes no context).
_sending = threading.local()


class _SentReporter:
    """Mixed into urllib3's connections: connect only to addresses the hop's policy allows,
    hand the hop the socket that carries it, and tell the gate when the request has really
    gone out (after any connect or TLS handshake)."""

    def request(self, *args: Any, **kwargs: Any) -> None:
        hop: _Hop | None = getattr(_sending, "hop", None)
        if hop is not None:
            sock = getattr(self, "sock", None)
            if hop.addresses is not None and sock is not None:
                # a kept-alive connection skips _new_conn: its peer is judged for this task
                hop.addresses.check(ip_of_peer(sock), getattr(self, "host", None))
        super().request(*args, **kwargs)  # type: ignore[misc]
        if hop is not None:
            hop.sock = getattr(self, "sock", None)  # connected now (TLS-wrapped for https)
            if hop.slot is not None:
                hop.slot.started()

    def _new_conn(self) -> socket.socket:
        """Resolve, judge every address, and connect to an allowed one (the address judged
        is the address reached: no second lookup that could answer otherwise). The Host
        header, SNI and certificate checks still use the name."""
        hop: _Hop | None = getattr(_sending, "hop", None)
        conn: Any = self
        if hop is None or hop.addresses is None or conn.proxy is not None:
            return super()._new_conn()  # type: ignore[misc,no-any-return]
        try:
            allowed = hop.addresses.connectable(conn._dns_host)
        except socket.gaierror as e:
            raise urllib3.exceptions.NameResolutionError(conn.host, conn, e) from e
        error: OSError | None = None
        for ip in allowed:
            try:
                return urllib3.util.connection.create_connection(
                    (str(ip), conn.port), conn.timeout, source_address=conn.source_address,
                    socket_options=conn.socket_options)
            except TimeoutError as e:
                raise urllib3.exceptions.ConnectTimeoutError(
                    conn, f"Connection to {conn.host} timed out."
                    f" (connect timeout={conn.timeout})") from e
            except OSError as e:
                error = e
        raise urllib3.exceptions.NewConnectionError(
            conn, f"Failed to establish a new connection: {error}")


class _HTTPConnection(_SentReporter, urllib3.connection.HTTPConnection):
    pass


class _HTTPSConnection(_SentReporter, urllib3.connection.HTTPSConnection):
    pass


class _HTTPPool(urllib3.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _SentReportingAdapter(HTTPAdapter):
    """requests' adapter over connections that report when each request has really left."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}


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
    if problem := _scheme_problem(url):
        raise FetchError(problem, kind=ErrorKind.BAD_URL)
    settings = fetcher.settings
    addresses = fetcher.addresses
    if addresses is None:
        addresses = AddressPolicy.from_setting(settings.allow_addresses).for_task(url)
    call = _Call(fetcher, url, fetcher.rules.for_host(host_of(url)), want, referer, addresses)
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


def _one_attempt(call: _Call, attempt: int) -> RawPage:
    try:
        return _fetch_chain(call, attempt)
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


def looks_interstitial(body: bytes) -> bool:
    """A short page carrying an anti-bot marker, read as UTF-8 and as GB18030 alike."""
    if len(body) > INTERSTITIAL_MAX_BYTES:
        return False
    texts = (body.decode("utf-8", "replace").lower(), body.decode("gb18030", "replace").lower())
    return any(marker in text for text in texts for marker in INTERSTITIAL_MARKERS)


@dataclass(frozen=True)
class _Call:
    """One fetch: the fetcher its requests share, and what is this fetch's own (its URL, that
    host's rules, what it wants, its referrer, the address policy it is judged by)."""

    fetcher: Fetcher
    url: str
    rules: SiteRules
    want: Want
    referer: str | None
    addresses: AddressPolicy


def _fetch_chain(call: _Call, attempt: int) -> RawPage:
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


def _redirect_problem(
    call: _Call, target: str, seen: set[tuple[str, str | None]], redirects: int
) -> Failure | None:
    """Why a redirect must not be followed, or None. The same URL asked for with the same
    cookies is a loop; with new ones it is a site setting a cookie and reloading."""
    if problem := _scheme_problem(target):
        return failure(Code.REDIRECT_TO, problem)
    if (target, _cookie_header(_prepare(call, target))) in seen:
        return failure(Code.REDIRECT_LOOP)
    if redirects > call.fetcher.settings.max_redirects:
        return failure(Code.TOO_MANY_REDIRECTS, call.fetcher.settings.max_redirects)
    return None


def _exchange(call: _Call, url: str) -> _Answer:
    """One request through the breaker and the gate: status, headers, the body if it
    matters, the cookie sent. A failure to reach the host counts on its breaker; any answer
    resets it."""
    host = urlsplit(url).hostname or ""
    if call.fetcher.breakers is None:
        return _gated_exchange(call, url, host, [])
    call.fetcher.breakers.check(host)
    answered: list[bool] = []
    try:
        answer = _gated_exchange(call, url, host, answered)
    except FetchError as e:
        if e.unreachable:
            call.fetcher.breakers.failed(host)
        elif answered:
            call.fetcher.breakers.succeeded(host)
        raise
    call.fetcher.breakers.succeeded(host)
    return answer


_Answer = tuple[int, CaseInsensitiveDict[str], bytes, str | None]


def _gated_exchange(call: _Call, url: str, host: str, answered: list[bool]) -> _Answer:
    """The request itself; ``answered`` gets an entry once the server has answered."""
    prepared = _prepare(call, url)
    env = call.fetcher.session.merge_environment_settings(url, {}, True, None, None)
    addresses: AddressPolicy | None = call.addresses
    if select_proxy(url, env.get("proxies") or {}):  # type: ignore[arg-type]
        # the connection goes to the proxy: the name is judged here (when it resolves here
        # at all), the rest is the proxy's
        with contextlib.suppress(OSError):
            call.addresses.connectable(host)
        addresses = None
    same_host = host == urlsplit(call.url).hostname
    slot = (
        call.fetcher.gate.slot(
            host,
            concurrency=call.rules.concurrency if same_host else None,
            delay_ms=call.rules.delay_ms if same_host else None,
            cancel=call.fetcher.cancel,
        )
        if call.fetcher.gate
        else contextlib.nullcontext()
    )
    with slot as granted:
        if call.fetcher.cancel.is_set():
            raise StopRequested()
        if call.fetcher.breakers is not None:
            call.fetcher.breakers.check(host)  # it may have opened while this waited for the gate
        hop = _Hop(granted, addresses, _Deadline(call.want.deadline))
        with _watched(hop, call.fetcher.cancel):
            _sending.hop = hop
            try:
                response = _send(call, prepared, env, hop.deadline)
            finally:
                _sending.hop = None
            answered.append(True)
            with response:
                headers = CaseInsensitiveDict(response.headers)
                status = response.status_code
                if status in REDIRECT_STATUSES and "Location" in headers:
                    return status, headers, b"", _cookie_header(prepared)
                body = _judged_body(call, hop, response, status, headers)
    return status, headers, body, _cookie_header(prepared)


@contextlib.contextmanager
def _watched(hop: _Hop, cancel: threading.Event) -> Iterator[None]:
    """While the block runs, a watcher shuts the hop's socket as soon as ``cancel`` is set or
    the hop's deadline passes (a read inside http.client — a chunk-size line, a header line —
    is not the read loop's to check). The failure that follows is reported as StopRequested,
    or as the deadline's FetchError, not as whatever the abort broke; and a body that merely
    seemed to end because its socket was shut is not taken as complete.

    The block does not wait for the watcher to notice it ended (that would add up to a poll
    interval to every request); the lock makes sure a late watcher never aborts a connection
    that has gone back to the pool."""
    lock = threading.Lock()
    done = threading.Event()
    deadline = hop.deadline

    def watch() -> None:
        while True:
            stopping = cancel.wait(max(0.0, min(_STOP_POLL_S, deadline.left())))
            with lock:
                if done.is_set():
                    return
                if stopping or deadline.passed():
                    hop.aborted = True
                    hop.abort()
                    return

    threading.Thread(target=watch, name="fetch-watcher", daemon=True).start()
    try:
        yield
    except (FetchError, StopRequested) as e:
        if cancel.is_set():
            raise StopRequested() from e
        if hop.aborted or deadline.passed():
            raise deadline.error() from None
        raise
    finally:
        with lock:
            done.set()
    if hop.aborted:  # read after ``done``: no watcher can set it any more
        if cancel.is_set():
            raise StopRequested()
        raise deadline.error()


def _send(
    call: _Call, prepared: requests.PreparedRequest, env: dict[str, object], deadline: _Deadline
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
        raise FetchError(failure(Code.TLS, _root_cause(e)), kind=ErrorKind.NETWORK) from None
    except requests.exceptions.ConnectionError as e:
        # refused, no such name, unreachable network: the host gave no answer at all (a
        # connection broken mid-answer surfaces later, while the body is read)
        raise FetchError(connection_failure(_root_cause(e)), kind=ErrorKind.NETWORK,
                         retryable=True, unreachable=True) from None
    except (requests.exceptions.InvalidURL, requests.exceptions.InvalidSchema) as e:
        raise FetchError(failure(Code.INVALID_URL, e), kind=ErrorKind.BAD_URL) from None
    except requests.exceptions.RequestException as e:
        raise FetchError(failure(Code.REQUEST_FAILED, _root_cause(e)), kind=ErrorKind.NETWORK,
                         retryable=True) from None


def _judged_body(
    call: _Call, hop: _Hop, response: requests.Response, status: int,
    headers: CaseInsensitiveDict[str],
) -> bytes:
    """Read the body when it can matter, and raise for anything that is not what was wanted."""
    mime = headers.get("Content-Type", "").split(";")[0].strip().lower()
    ok = 200 <= status < 300
    if not call.want.html_page:
        if not ok:
            raise _status_error(status, headers)
        return _read_body(call, hop, response)
    if not ok and not (status in CHALLENGE_STATUSES and mime in HTML_TYPES):
        raise _status_error(status, headers)
    if ok and mime and mime not in HTML_TYPES:
        raise FetchError(failure(Code.NOT_HTML, mime), kind=ErrorKind.NOT_HTML)
    body = _read_body(call, hop, response)
    if looks_interstitial(body):
        raise FetchError(failure(Code.INTERSTITIAL), kind=ErrorKind.INTERSTITIAL,
                         retryable=True)
    if not ok:
        raise _status_error(status, headers)
    if not mime and not looks_like_html(body):
        raise FetchError(failure(Code.NOT_HTML_UNTYPED), kind=ErrorKind.NOT_HTML)
    close_delimited = "Content-Length" not in headers and "chunked" not in (
        headers.get("Transfer-Encoding", "").lower()
    )
    if close_delimited and _HTML_OPEN.search(body[:4096]) and not _HTML_END.search(body):
        raise FetchError(failure(Code.CUT_SHORT), kind=ErrorKind.TRUNCATED, retryable=True)
    return body


def _read_body(call: _Call, hop: _Hop, response: requests.Response) -> bytes:
    """Stream the body, counting decompressed bytes against the limit; an announced length
    over the limit fails before anything is read. Each read waits at most the time left of
    the hop's deadline, and the loop checks it, whatever the body's shape."""
    want, settings = call.want, call.fetcher.settings
    limit = want.max_bytes
    too_large = FetchError(failure(Code.TOO_LARGE, want.noun, f"{limit / MB:g}"),
                           kind=ErrorKind.TOO_LARGE)
    announced = response.headers.get("Content-Length", "")
    if announced.isdigit() and int(announced) > limit and not response.headers.get(
        "Content-Encoding"
    ):
        raise too_large
    body = bytearray()
    started = time.monotonic()
    expected = int(announced) if announced.isdigit() else None
    try:
        # read1: whatever has arrived (up to a chunk), so a slow body is seen as it comes
        while True:
            hop.before_read(settings.read_timeout)
            if not (chunk := response.raw.read1(_CHUNK, decode_content=True)):
                break
            body += chunk
            if len(body) > limit:
                raise too_large
            if call.fetcher.cancel.is_set():
                raise StopRequested()
            if expected is not None:
                _check_pace(response.raw.tell(), expected, time.monotonic() - started,
                            want.deadline)
    except urllib3.exceptions.ReadTimeoutError:
        raise FetchError(
            failure(Code.BODY_STALLED, f"{settings.read_timeout:g}"),
            kind=ErrorKind.NETWORK, retryable=True,
        ) from None
    except urllib3.exceptions.ProtocolError as e:
        incomplete = next(
            (a for a in e.args if isinstance(a, urllib3.exceptions.IncompleteRead)), None
        )
        if incomplete is not None:
            total = incomplete.partial + incomplete.expected
            raise FetchError(
                failure(Code.TRUNCATED, incomplete.partial, total),
                kind=ErrorKind.TRUNCATED, retryable=True,
            ) from None
        raise FetchError(
            failure(Code.CONNECTION_BROKEN, want.noun, _root_cause(e)),
            kind=ErrorKind.NETWORK, retryable=True,
        ) from None
    except urllib3.exceptions.DecodeError as e:
        raise FetchError(failure(Code.CORRUPT, _root_cause(e)),
                         kind=ErrorKind.TRUNCATED) from None
    return bytes(body)


def _check_pace(received: int, expected: int, elapsed: float, deadline: float) -> None:
    """Give up on a body whose announced length cannot arrive by the deadline at the pace it
    comes (a server trickling bytes): said once it is clear (after PACE_GRACE_S), rather than
    holding a worker until the deadline. Bodies without a length wait for the deadline."""
    if elapsed < PACE_GRACE_S or received <= 0 or received >= expected:
        return
    finish = elapsed * expected / received
    if finish > deadline * PACE_MARGIN:
        raise FetchError(failure(Code.TOO_SLOW, f"{deadline:g}", f"{received:,}", f"{expected:,}",
                                 f"{elapsed:.0f}", f"{finish:.0f}"),
                         kind=ErrorKind.NETWORK, unreachable=True)


def _hop_headers(call: _Call, url: str) -> dict[str, str]:
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


def _prepare(call: _Call, url: str) -> requests.PreparedRequest:
    """The request for one hop: session headers, the rules' headers, and every cookie that
    applies — the session's (set by servers this run) and the configured ones. A URL requests
    cannot parse (a port past 65535, a space in the host) fails as the link it is."""
    try:
        prepared = call.fetcher.session.prepare_request(
            requests.Request("GET", url, headers=_hop_headers(call, url))
        )
    except requests.exceptions.InvalidURL as e:
        raise FetchError(failure(Code.INVALID_URL, e), kind=ErrorKind.BAD_URL) from None
    configured = call.fetcher.cookies.header_for(url) if call.fetcher.cookies else None
    if configured:
        prepared.headers["Cookie"] = "; ".join(
            c for c in (_cookie_header(prepared), configured) if c
        )
    return prepared


def _cookie_header(prepared: requests.PreparedRequest) -> str | None:
    cookie = prepared.headers.get("Cookie")
    return cookie if isinstance(cookie, str) else None


def _status_error(status: int, headers: CaseInsensitiveDict[str]) -> HttpStatusError:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    return HttpStatusError(
        status,
        failure(Code.HTTP_STATUS, status, phrase) if phrase
        else failure(Code.HTTP_STATUS_UNNAMED, status),
        retryable=status in RETRY_STATUSES,
        retry_after=headers.get("Retry-After"),
    )


def _scheme_problem(url: str) -> Failure | None:
    """Only http and https, ever (the seed's security rule): no file:, javascript:, ftp:…"""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        return failure(Code.UNSUPPORTED_SCHEME, parts.scheme or "none")
    if not parts.hostname:
        return failure(Code.NO_HOST_IN_URL, repr(url))
    return None


# What an operating system's "connection failed" says, by what it means to a person: the
# causes are the OS's and the resolver's words, so this is the one place they are read.
_CONNECTION_CAUSES: tuple[tuple[Code, tuple[str, ...]], ...] = (
    (Code.CONNECTION_REFUSED, ("[Errno 111]", "Connection refused")),
    (Code.HOST_NOT_FOUND, ("Name or service not known", "nodename nor servname",
                           "No address associated", "getaddrinfo failed",
                           "Failed to resolve")),
    (Code.DNS_TEMPORARY, ("Temporary failure in name resolution",)),
    (Code.NETWORK_UNREACHABLE, ("No route to host", "Network is unreachable")),
    (Code.CONNECTION_RESET, ("Connection reset",)),
)


def connection_failure(cause: str) -> Failure:
    """A failed connection's failure, coded by its cause (refused, no such name, …)."""
    code = next((code for code, marks in _CONNECTION_CAUSES
                 if any(mark in cause for mark in marks)), Code.CONNECTION_FAILED)
    return failure(code, cause)


def _strip_fragment(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(fragment=""))


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


def _root_cause(e: BaseException) -> str:
    """The innermost message of a wrapped network error, e.g. "[Errno 111] Connection refused"."""
    while True:
        inner = next((a for a in getattr(e, "args", ()) if isinstance(a, BaseException)), None)
        inner = inner or e.__cause__ or e.__context__
        if inner is None or inner is e:
            break
        e = inner
    text = str(e)
    return text.split(": ", 1)[-1] if "Errno" not in text else text[text.index("[Errno"):]


def _report(call: _Call, attempt: Attempt) -> None:
    if call.fetcher.on_attempt is not None:
        call.fetcher.on_attempt(attempt)
