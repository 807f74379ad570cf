"""What a fetch is given and what it gives back: the ``Fetcher`` a run's requests share, a
request's ``Want``, and the ``RawPage`` and ``Attempt`` lines that come of it.

Apart from ``fetch.py`` so that the modules a fetch is made of (``hops``, ``response``) can
name these records without importing the loop that uses them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

import requests
from requests.structures import CaseInsensitiveDict

from pipeline.net.breaker import HostBreakers
from pipeline.net.cookies import CookieStore
from pipeline.net.politeness import HostGate
from pipeline.records.settings import Settings
from pipeline.rules.model import Rules
from pipeline.web.addresses import AddressPolicy

PAGE_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"


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
