"""Every tunable default in one place, with the values each one accepts.

The numbers are the seed workflow's (003: "起步参数"): they are what a polite batch archiver
uses on Chinese and Western sites alike. Pass a ``Settings`` down; never read globals.

Each field declares its range (and, for the settings dialog, its label and unit) once, beside
its default, so ``Settings()``, ``--set``, the dialog and saved preferences all hold the same
limits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from pipeline.records.address_class import ALLOW_CHOICES
from pipeline.records.language_tag import language_tag

MB = 1024 * 1024
LABEL_CONTEXT = "Settings"  # the labels' translation context (lupdate needs it spelt out in each)
T = TypeVar("T")
BOOK_ORDERS = ("list", "published", "title")  # book_order's choices, list (the default) first


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation without importing Qt: lupdate knows this name and, run
    over this file too, collects the text; the dialog translates it with
    ``QCoreApplication.translate``."""
    return text


@dataclass(frozen=True)
class Spec:
    """What one setting accepts, and how the settings dialog shows it."""

    low: float | None = None  # the smallest value allowed
    above: bool = False  # ``low`` itself is refused too: "above 0"
    high: float | None = None  # the largest value allowed
    choices: tuple[str, ...] = ()  # for text: the only words allowed
    language: bool = False  # for text: a well-formed BCP 47 tag (None: no tag given)
    scale: int = 1  # the dialog shows value / scale (bytes as MB); --set takes the value itself
    label: str = ""  # English label in the settings dialog; without one it is not there

    def __post_init__(self) -> None:
        if self.label and (self.low is None or self.high is None):
            raise ValueError(f"{self.label!r}: a spin box needs both a low and a high bound")

    @property
    def tunable(self) -> bool:
        """Whether a person tunes this in the settings dialog."""
        return bool(self.label)

    def problem(self, value: Any) -> str | None:
        """What ``value`` must be instead, worded for "setting X must be …", or None if it is
        fine. A tuple is checked item by item (``retry_waits``)."""
        if isinstance(value, tuple):
            wrong = [w for w in map(self.problem, value) if w]
            return f"{wrong[0]} each" if wrong else None
        if self.choices and value not in self.choices:
            return " or ".join(self.choices)
        if self.language and value is not None and language_tag(value) is None:
            return "a valid BCP 47 tag (zh-CN, en, ja)"
        if isinstance(value, float) and math.isnan(value):  # NaN passes every comparison
            return "a number"
        # a line break in a header value (user_agent) would fail every request of a run
        if isinstance(value, str) and any(ord(c) < 32 or ord(c) == 127 for c in value):
            return "text without control characters (line breaks, tabs, NUL)"
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return f"above {self.low}" if self.above else f"{self.low} or more"
        if self.high is not None and value > self.high:
            return f"{self.high} or less"
        return None


def setting(default: T, **spec: Any) -> T:
    """A ``Settings`` field: its default and its ``Spec``, declared together."""
    return field(default=default, metadata={"spec": Spec(**spec)})


@dataclass(frozen=True)
class Settings:
    # fetch (seed 003 §3.2)
    connect_timeout: float = setting(8.0, low=0, above=True, high=120,
                                     label=QT_TRANSLATE_NOOP("Settings", "Connect timeout (s)"))
    read_timeout: float = setting(20.0, low=0, above=True, high=600,
                                  label=QT_TRANSLATE_NOOP("Settings", "Read timeout (s)"))
    max_page_bytes: int = setting(5 * MB, low=0, above=True, high=1024 * MB)
    retries: int = setting(2, low=0, high=10, label=QT_TRANSLATE_NOOP("Settings", "Retries"))
    # seconds before each retry
    retry_waits: tuple[float, ...] = setting((2.0, 6.0), low=0, high=600)
    retry_after_cap: float = setting(120.0, low=0, high=3600)
    # address classes fetched even as a public page's redirect or image (pipeline.web.addresses);
    # link-local cloud metadata, 0.0.0.0 and multicast stay refused unless named here
    allow_addresses: tuple[str, ...] = setting((), choices=ALLOW_CHOICES)
    # one request (connect, headers and body) may take this long, however the bytes trickle
    page_deadline: float = setting(60.0, low=0, above=True, high=3600,
                                   label=QT_TRANSLATE_NOOP("Settings", "Page deadline (s)"))
    image_deadline: float = setting(30.0, low=0, above=True, high=3600,
                                    label=QT_TRANSLATE_NOOP("Settings", "Image deadline (s)"))
    # after this many failures in a row to reach a host, its other requests in the run fail
    # at once (its circuit breaker opens); a later run tries it again
    host_failures_to_trip: int = setting(3, low=1, high=100)
    max_redirects: int = setting(10, low=0, above=True, high=100)
    per_host_connections: int = setting(
        2, low=0, above=True, high=16,
        label=QT_TRANSLATE_NOOP("Settings", "Connections per site"))
    global_connections: int = setting(
        8, low=0, above=True, high=64, label=QT_TRANSLATE_NOOP("Settings", "Connections in all"))
    host_delay_ms: int = setting(
        300, low=0, high=60_000,
        label=QT_TRANSLATE_NOOP("Settings", "Delay between requests to a site (ms)"))
    # truthful: names the tool and what it does, and points at no page that does not exist
    user_agent: str = setting("Kuaibu/0.1 (offline article archiver)")
    accept_language: str = setting("zh-CN,zh;q=0.9,en;q=0.8")
    cookies_file: str | None = setting(None)
    # render (issue 19, pipeline.net.render): "per-site" renders only the pages of sites whose rule
    # says ``render: browser``; "browser" renders every page but those of sites whose rule
    # says ``render: fetch``
    render: str = setting("per-site", choices=("per-site", "browser"))
    browser_path: str | None = setting(None)  # Chromium's executable; None: found on PATH
    # a page has settled when no request is in flight and its DOM has not changed for this
    # long (Playwright's "networkidle" uses 500 ms), waited for at most render_settle_seconds
    render_quiet_ms: int = setting(500, low=50, high=10_000)
    render_settle_seconds: float = setting(10.0, low=0, above=True, high=600)
    # lazy images load as they scroll into view: at most this many screens, this far apart
    render_scroll_steps: int = setting(30, low=0, high=500)
    render_scroll_pause_ms: int = setting(100, low=0, high=5000)
    render_pages: int = setting(4, low=1, high=16)  # pages the browser renders at once
    # decode: re-decode when more than this share of characters are U+FFFD (seed 003 §2.1)
    replacement_ratio: float = setting(0.01, low=0, high=1)
    # assets (seed 003 §3.2: 1600 px, q82); under 16 px no picture is readable
    image_max_edge: int = setting(
        1600, low=16, high=10_000, label=QT_TRANSLATE_NOOP("Settings", "Largest image edge (px)"))
    jpeg_quality: int = setting(82, low=1, high=100,
                                label=QT_TRANSLATE_NOOP("Settings", "JPEG quality"))
    max_image_bytes: int = setting(
        20 * MB, low=0, above=True, high=1024 * MB, scale=MB,
        label=QT_TRANSLATE_NOOP("Settings", "Largest image download (MB)"))
    max_images_per_article: int = setting(200, low=0, above=True, high=10_000)
    max_image_pixels: int = setting(50_000_000, low=0, above=True, high=4_000_000_000)
    # book
    epub_budget_bytes: int = setting(
        50 * MB, low=0, above=True, high=2000 * MB, scale=MB,
        label=QT_TRANSLATE_NOOP("Settings", "EPUB size budget (MB)"))
    # the chapters' order inside a category: the task list's (as pasted or arranged), by
    # published date or by title (``build --order``)
    book_order: str = setting("list", choices=BOOK_ORDERS)
    pdf_page: str = setting("A4", choices=("A4", "A5"))  # build --format pdf: the page size
    # the book's title (default: the archive's name; a category's book, the category), its
    # dc:creator and dc:publisher, and its language (default: the articles' vote)
    book_title: str | None = setting(None)
    book_author: str = setting("Kuaibu")
    book_publisher: str | None = setting(None)
    book_language: str | None = setting(None, language=True)
    # task list: how often the store flushes status changes to tasks.csv
    tasks_flush_seconds: float = setting(1.0, low=0, high=3600)
    # a page saved from the browser waits this long for another run (most often another
    # save's, seconds long) to let go of the archive; then it is left for the next run
    capture_run_wait_seconds: float = setting(10.0, low=0, high=600)

    def __post_init__(self) -> None:
        """Refuse values no run could work with (they arrive from --set, the settings dialog
        and saved preferences), so the mistake is named at once instead of hanging a run."""
        for f in fields(self):
            value = getattr(self, f.name)
            wanted = f.metadata["spec"].problem(value)
            if wanted is not None:
                raise ValueError(f"setting {f.name} must be {wanted}, not {value!r}")

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with some values changed; unknown names are an error, not a silent no-op."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
        return replace(self, **changes)

    def with_text_overrides(self, pairs: Iterable[str]) -> Settings:
        """A copy with ``name=value`` changes as typed on a command line (``--set``).

        Values take the type of the default: numbers, comma-separated lists of seconds, text.
        """
        changes: dict[str, Any] = {}
        for pair in pairs:
            name, eq, text = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not eq or not hasattr(self, name):
                known = ", ".join(f.name for f in fields(self))
                raise ValueError(f"--set takes NAME=VALUE with NAME one of: {known}")
            default = getattr(self, name)
            try:
                if isinstance(default, tuple):
                    items = [x.strip() for x in text.split(",") if x.strip()]
                    # a list of words (its Spec names the choices) or of seconds
                    changes[name] = (tuple(items) if SPECS[name].choices
                                     else tuple(float(x) for x in items))
                elif isinstance(default, (int, float)):
                    changes[name] = type(default)(text)
                else:
                    changes[name] = text or None
            except ValueError:
                kind = "whole number" if isinstance(default, int) else "number"
                raise ValueError(f"--set {name}: {text!r} is not a {kind}") from None
        return self.with_overrides(**changes)


SPECS: dict[str, Spec] = {f.name: f.metadata["spec"] for f in fields(Settings)}
TUNABLE: dict[str, Spec] = {name: spec for name, spec in SPECS.items() if spec.tunable}
