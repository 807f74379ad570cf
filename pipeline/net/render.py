"""Pages whose article their scripts build, rendered in the system's Chromium (issue 19).

Opt-in (a site's ``render: browser`` rule, or the ``render`` setting) and optional: Playwright
is the ``browser`` extra and Chromium the distribution's package; ``browser_problem`` says
which is missing. The fetch stage fetches the page as always; the browser is handed those
bytes for the page's own address and never touches the network itself: every request it
makes is routed here, judged (``request_verdict``) and, when allowed, fetched through
``fetch_resource`` — the run's session, cookies, politeness gate, circuit breakers, address
policy, size limits and deadlines — then handed back to it. WebSockets are refused, service
workers and downloads are off, and a dead proxy catches any connection Chromium would open
outside the routes (preconnects, WebRTC), so nothing reaches a host by another way.

One ``Renderer`` per run: a thread of its own runs an asyncio loop with Playwright's async
API and one browser, launched when the first page needs it; each page gets a fresh context
(no cookies, storage or cache shared between pages). Workers hand a page over and wait. The
async API rather than the sync one because a route handler must wait for ``fetch_resource``
(a slow image: up to its deadline) without holding up every other page's requests and timers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

from pipeline.net.fetch import fetch_resource
from pipeline.net.fetcher import Fetcher, RawPage, Want
from pipeline.records.errors import ErrorKind, FetchError, StopRequested
from pipeline.records.failures import INSTALL_CHROMIUM, INSTALL_PLAYWRIGHT, Code, Failure, failure
from pipeline.records.settings import MB, Settings
from pipeline.web.urls import host_of

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, Playwright, Route, WebSocketRoute

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")
# Chromium's own connections (updates, sync, field trials, safe browsing) stay off: an archiver
# talks only to the sites it was given. --no-sandbox: Chromium will not start as root with its
# sandbox, and containers often lack the user namespaces it needs; the scripts of the sites a
# person chose then run without it, one more reason rendering is opt-in.
LAUNCH_ARGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
# Every request the browser makes is answered by the routes, but Chromium opens some
# connections on its own (a <link rel=preconnect> reaches its host before any request): they
# all go to a proxy that refuses them, a port of the Renderer's own that is bound and never
# listened on. "<-loopback>": Chromium would otherwise never proxy 127.0.0.1 and localhost.
PROXY_BYPASS = "<-loopback>"
# What a page may load from other hosts: how it looks, never what it says or sends.
OTHER_HOST_TYPES = frozenset({"image", "stylesheet", "script", "font"})
# Never, from any host: streams that would keep the page busy until its deadline, and an
# installed app's manifest.
NEVER_TYPES = frozenset({"websocket", "eventsource", "manifest"})
# What the browser is told of a fetched response. The rest describe a transfer it did not
# make (the encoding and length of a body already decompressed) or would act on (cookies are
# the session's, a Content-Security-Policy of a page served from bytes).
PASSED_HEADERS = ("content-type", "access-control-allow-origin",
                  "access-control-allow-credentials", "last-modified")
# Milliseconds since the page's DOM last changed (the MutationObserver is installed before
# any of the page's scripts run).
_WATCH_CHANGES = """
window.__kuaibuChanged = performance.now();
new MutationObserver(() => { window.__kuaibuChanged = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""
_SINCE_CHANGE = "() => performance.now() - (window.__kuaibuChanged || 0)"
# Whether the end of the page is in view; and one screen further down, then that.
_AT_END = """() => {
  const page = document.scrollingElement || document.documentElement;
  return window.scrollY + window.innerHeight >= page.scrollHeight - 1;
}"""
_SCROLL = f"() => {{ window.scrollBy(0, window.innerHeight); return ({_AT_END})(); }}"
_POLL_S = 0.05  # how often the settle wait looks, and a waiting worker checks for a stop
_CLOSE_S = 30.0  # the longest closing the browser may take at the end of a run


def find_browser(settings: Settings) -> str | None:
    """Chromium's executable: the ``browser_path`` setting when it names one, else the first
    of ``BROWSER_NAMES`` on PATH."""
    if settings.browser_path:
        path = Path(settings.browser_path)
        return str(path) if path.is_file() else None
    return next(filter(None, map(shutil.which, BROWSER_NAMES)), None)


def browser_problem(settings: Settings) -> Failure | None:
    """Why pages cannot be rendered here, naming what to install; None when they can."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return failure(Code.NEEDS_PLAYWRIGHT, INSTALL_PLAYWRIGHT, INSTALL_CHROMIUM)
    if find_browser(settings) is None:
        if settings.browser_path:
            return failure(Code.NO_CHROMIUM_AT, settings.browser_path, INSTALL_CHROMIUM)
        return failure(Code.NO_CHROMIUM, ", ".join(BROWSER_NAMES), INSTALL_CHROMIUM)
    return None


def wants_browser(settings: Settings, rule: str | None) -> bool:
    """Whether a page is rendered: its site's ``render`` rule decides, else the setting."""
    return rule == "browser" if rule is not None else settings.render == "browser"


@dataclass(frozen=True)
class BrowserRequest:
    """One request the browser made while rendering, and what became of it: ``page`` (the
    fetched page's bytes), ``served``, ``blocked: …`` or ``failed: …``."""

    url: str
    resource_type: str
    outcome: str


@dataclass(frozen=True)
class Rendered:
    """A page after its scripts ran: the DOM as HTML, the address it ended at (a script may
    have changed it), every request the browser made and the seconds it took."""

    html: str
    final_url: str
    requests: tuple[BrowserRequest, ...]
    elapsed: float

    def counts(self) -> dict[str, int]:
        """Requests by outcome, the reasons left out: {"page": 1, "served": 7, …}."""
        counts: dict[str, int] = {}
        for r in self.requests:
            word = r.outcome.split(":", 1)[0]
            counts[word] = counts.get(word, 0) + 1
        return counts

    def blocked(self) -> list[BrowserRequest]:
        """The requests the browser was refused (``fetch_resource`` logs those it made)."""
        return [r for r in self.requests if r.outcome.startswith("blocked")]


def request_verdict(url: str, method: str, resource_type: str, page_host: str) -> str | None:
    """Why the browser may not have what it asks for, or None (fetch it): http(s) GETs only,
    no streams, and from other hosts than the page's only images, styles, scripts and fonts."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        return f"{parts.scheme or 'no'} scheme"
    if method.upper() != "GET":
        return f"a {method.upper()} request (an archiver only reads)"
    if resource_type in NEVER_TYPES:
        return f"a {resource_type}"
    if host_of(url) != page_host and resource_type not in OTHER_HOST_TYPES:
        return f"a {resource_type} request to another host"
    return None


def resource_want(resource_type: str, accept: str, settings: Settings) -> Want:
    """A browser request as ``fetch_resource`` takes it: the browser's own Accept header, an
    image's limits for images and a page's for the rest; the body is the browser's to judge."""
    if resource_type == "image":
        return Want(accept, settings.max_image_bytes, settings.image_deadline, noun="image",
                    html_page=False)
    return Want(accept, settings.max_page_bytes, settings.page_deadline,
                noun=resource_type, html_page=False)


# url, resource type, the browser's Accept header, the render's end → the response
ResourceFetch = Callable[[str, str, str, threading.Event], RawPage]


def fetch_through(fetcher: Fetcher, page_url: str) -> ResourceFetch:
    """The browser's requests for the page at ``page_url`` fetched as a run fetches a page's
    images, with the page's ``fetcher``: each host's rules, the page as Referer (unless its
    site's rules name one), the task's address policy, politeness, cookies and retries; each
    stopped by the render's end rather than the fetcher's own stop (the render heeds that)."""
    referer = fetcher.rules.for_host(host_of(page_url)).referer or page_url

    def fetch(url: str, resource_type: str, accept: str, over: threading.Event) -> RawPage:
        return fetch_resource(replace(fetcher, cancel=over), url,
                              resource_want(resource_type, accept, fetcher.settings),
                              referer=referer)
    return fetch


class _Activity:
    """The requests a page has in flight, and when the last one ended."""

    def __init__(self) -> None:
        self.open = 0
        self.last = time.monotonic()

    def begin(self) -> None:
        self.open += 1

    def end(self) -> None:
        self.open -= 1
        self.last = time.monotonic()

    def idle(self) -> float:
        """Seconds without a request in flight (0 while one is)."""
        return 0.0 if self.open else time.monotonic() - self.last


class Renderer:
    """The run's browser. ``render`` may be called from any thread, at once from several;
    Chromium starts with the first page and stops at ``close`` (or the end of a ``with``)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._slots: asyncio.Semaphore | None = None
        self._problem: Failure | None = None
        self._checked = False
        self._refusing: socket.socket | None = None  # the dead proxy's port, while it runs

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def problem(self) -> Failure | None:
        """``browser_problem`` once per run, or why Chromium would not start."""
        with self._lock:
            if not self._checked:
                self._problem, self._checked = browser_problem(self.settings), True
            return self._problem

    def render(self, page: RawPage, fetch: ResourceFetch,
               cancel: threading.Event | None = None) -> Rendered:
        """``page`` (fetched already) after its scripts ran, its other requests made with
        ``fetch``. Raises FetchError: kind rules when the browser cannot render here, network
        when the page's deadline passes first, too-large for a DOM over the page limit;
        StopRequested when ``cancel`` is set meanwhile."""
        loop, pool = self._started()
        over = threading.Event()  # ends the render's requests still in flight
        future = asyncio.run_coroutine_threadsafe(self._render(page, fetch, over, pool), loop)
        try:
            while True:
                try:
                    return future.result(timeout=_POLL_S)
                except concurrent.futures.TimeoutError:
                    if cancel is not None and cancel.is_set():
                        future.cancel()
                        raise StopRequested() from None
        finally:
            over.set()

    def close(self) -> None:
        """Stop the browser and its thread; a Renderer never started has nothing to stop."""
        with self._lock:
            loop, thread, pool = self._loop, self._thread, self._pool
            self._loop = self._thread = self._pool = None
        if loop is None or thread is None or pool is None:
            return
        with contextlib.suppress(Exception):  # a browser that died has nothing left to close
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(_CLOSE_S)
        self._stop(loop, thread)
        pool.shutdown(wait=False, cancel_futures=True)

    def _stop(self, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        """End the browser's thread and free the dead proxy's port."""
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()
        if self._refusing is not None:
            self._refusing.close()
            self._refusing = None

    # -- the browser's thread ---------------------------------------------------------------

    def _started(self) -> tuple[asyncio.AbstractEventLoop, concurrent.futures.Executor]:
        """The loop the browser runs on, started (and Chromium launched) on first use, and
        the threads its requests are fetched in."""
        if problem := self.problem():
            raise FetchError(problem, kind=ErrorKind.RULES)
        with self._lock:
            if self._loop is not None and self._pool is not None:
                return self._loop, self._pool
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="kuaibu-browser",
                                      daemon=True)
            thread.start()
            try:
                asyncio.run_coroutine_threadsafe(self._launch(), loop).result()
            except Exception as e:
                self._stop(loop, thread)
                self._problem = failure(Code.CHROMIUM_DID_NOT_START, _first_line(e))
                raise FetchError(self._problem, kind=ErrorKind.RULES) from None
            self._pool = concurrent.futures.ThreadPoolExecutor(
                self.settings.global_connections, thread_name_prefix="kuaibu-browser-fetch")
            self._loop, self._thread = loop, thread
            return loop, self._pool

    async def _launch(self) -> None:
        from playwright.async_api import async_playwright

        if self._playwright is None:
            self._playwright = await async_playwright().start()
            self._slots = asyncio.Semaphore(self.settings.render_pages)
        if self._refusing is None:
            self._refusing = socket.socket()
            self._refusing.bind(("127.0.0.1", 0))  # no listen(): every connection refused
        port = self._refusing.getsockname()[1]
        # a fresh, empty profile each launch (Playwright's temporary user data dir)
        self._browser = await self._playwright.chromium.launch(
            executable_path=find_browser(self.settings), args=list(LAUNCH_ARGS),
            proxy={"server": f"http://127.0.0.1:{port}", "bypass": PROXY_BYPASS})

    async def _shutdown(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
        self._browser = self._playwright = None

    async def _render(self, page: RawPage, fetch: ResourceFetch, over: threading.Event,
                      pool: concurrent.futures.Executor) -> Rendered:
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        assert self._slots is not None
        async with self._slots:
            if self._browser is None or not self._browser.is_connected():
                await self._launch()  # Chromium crashed (or was killed) since the last page
            deadline = self.settings.page_deadline
            started = time.monotonic()
            log: list[BrowserRequest] = []
            try:
                html, url = await asyncio.wait_for(
                    self._in_context(_Answerer(page, fetch, over, log, pool)), deadline)
            except (TimeoutError, PlaywrightTimeout):
                raise FetchError(failure(Code.RENDER_TIMEOUT, f"{deadline:g}"),
                                 kind=ErrorKind.NETWORK) from None
            finally:
                over.set()
        size = len(html.encode("utf-8"))
        if size > self.settings.max_page_bytes:
            raise FetchError(failure(Code.RENDERED_TOO_LARGE,
                                     f"{self.settings.max_page_bytes / MB:g}"),
                             kind=ErrorKind.TOO_LARGE)
        return Rendered(html, url, tuple(log), time.monotonic() - started)

    async def _in_context(self, answer: _Answerer) -> tuple[str, str]:
        """Load the page in a fresh context, let it settle, scroll to its end, settle again."""
        assert self._browser is not None
        s = self.settings
        context = await self._browser.new_context(accept_downloads=False,
                                                  service_workers="block")
        try:
            context.set_default_timeout(s.page_deadline * 1000)
            tab = answer.tab = await context.new_page()
            await context.route_web_socket(re.compile(".*"), answer.refuse_socket)
            await context.route("**/*", answer.route)
            await tab.add_init_script(_WATCH_CHANGES)
            await tab.goto(answer.page.final_url, wait_until="load")
            await _settle(tab, answer.activity, s)
            await _scroll_to_end(tab, answer.activity, s)
            return await tab.content(), tab.url
        finally:
            with contextlib.suppress(Exception):  # closing a context the deadline cut short
                await context.close()


async def _settle(tab: Page, activity: _Activity, settings: Settings) -> None:
    """Wait until no request has been in flight and the DOM has not changed for
    ``render_quiet_ms``, counted from this call at the earliest (what was just done — a
    scroll — has that long to start something), for at most ``render_settle_seconds`` (a
    page that never settles — a clock, a carousel — is taken as it is then)."""
    quiet = settings.render_quiet_ms / 1000
    started = time.monotonic()
    ends = started + settings.render_settle_seconds
    while (now := time.monotonic()) < ends:
        if (now - started >= quiet and activity.idle() >= quiet
                and await tab.evaluate(_SINCE_CHANGE) >= quiet * 1000):
            return
        await asyncio.sleep(_POLL_S)


async def _scroll_to_end(tab: Page, activity: _Activity, settings: Settings) -> None:
    """Scroll a screen at a time to the end of the page (lazy images load as they come into
    view) and let it settle there; a page that grew meanwhile (its data came after the first
    settle, a feed that loads more) is scrolled on, for at most ``render_scroll_steps``
    screens in all."""
    for _ in range(settings.render_scroll_steps):
        at_end = await tab.evaluate(_SCROLL)
        await asyncio.sleep(settings.render_scroll_pause_ms / 1000)
        if at_end:
            await _settle(tab, activity, settings)
            if await tab.evaluate(_AT_END):
                return
    await _settle(tab, activity, settings)


class _Answerer:
    """The routes of one page: its own address from the bytes fetched, every other request
    judged, then fetched in the pool or refused; each one logged."""

    def __init__(self, page: RawPage, fetch: ResourceFetch, over: threading.Event,
                 log: list[BrowserRequest], pool: concurrent.futures.Executor) -> None:
        self.page, self.fetch, self.over, self.log, self.pool = page, fetch, over, log, pool
        self.activity = _Activity()
        self.tab: Page | None = None  # set before the first route is asked
        self.host = host_of(page.final_url)
        self.document_served = False

    async def route(self, route: Route) -> None:
        request = route.request
        self.activity.begin()
        try:
            outcome = await self._answer(route)
        finally:
            self.activity.end()
        self.log.append(BrowserRequest(request.url, request.resource_type, outcome))

    async def refuse_socket(self, ws: WebSocketRoute) -> None:
        """A WebSocket is never connected (``route`` does not see them)."""
        self.log.append(BrowserRequest(ws.url, "websocket", "blocked: a websocket"))
        await _quietly(ws.close())

    async def _answer(self, route: Route) -> str:
        request = route.request
        if (request.is_navigation_request() and self.tab is not None
                and request.frame == self.tab.main_frame):
            if self.document_served:  # a script sending the page elsewhere, or reloading it
                await _quietly(route.abort("blockedbyclient"))
                return "blocked: the page navigating away"
            self.document_served = True
            await _quietly(route.fulfill(status=self.page.status, body=self.page.body,
                                         headers=_passed(self.page.headers)))
            return "page"
        verdict = request_verdict(request.url, request.method, request.resource_type,
                                  self.host)
        if verdict is not None:
            await _quietly(route.abort("blockedbyclient"))
            return f"blocked: {verdict}"
        accept = request.headers.get("accept", "*/*")
        try:
            got = await asyncio.get_running_loop().run_in_executor(
                self.pool, self.fetch, request.url, request.resource_type, accept, self.over)
        except StopRequested:
            await _quietly(route.abort("aborted"))
            return "failed: the render ended first"
        except FetchError as e:
            await _quietly(route.abort("failed"))
            return f"failed: {e.reason}"
        except Exception as e:  # a bug: the page goes on without this one, which says why
            await _quietly(route.abort("failed"))
            return f"failed: internal error: {type(e).__name__}: {e}"
        await _quietly(route.fulfill(status=got.status, body=got.body,
                                     headers=_passed(got.headers)))
        return "served"


def _passed(headers: Mapping[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items() if k.lower() in PASSED_HEADERS}


async def _quietly(action: Any) -> None:
    """A route answered after its page closed (the deadline passed) raises; nothing is lost."""
    with contextlib.suppress(Exception):
        await action


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
