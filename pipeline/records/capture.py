"""What the browser extension hands the archive (issue 33): a page as the person saw it, or
a link they right-clicked; and what became of it, for the extension to show."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CapturedPage:
    """A page as the browser rendered it: its address and title, its DOM
    (``document.documentElement.outerHTML``), the selection's HTML when the person selected
    something ("" otherwise: then the selection is the article), the browser that sent it
    (its name and version as it says them) and the category to file it under."""

    url: str
    title: str
    html: str
    selection: str
    browser: str
    category: str


@dataclass(frozen=True)
class CapturedLink:
    """A link the person right-clicked, and the page it was on (its address policy vouches
    for the link, as a harvest's list page does)."""

    url: str
    found_on: str
    category: str


@dataclass(frozen=True)
class CaptureResult:
    """The task a capture made or found, whether it was new, and its status word after the
    capture (a page is cleaned and localized at once unless a run holds the archive:
    ``waiting`` then says the next run takes it up)."""

    task_id: int
    added: bool
    status: str
    waiting: bool = False
    error: str = ""
