"""What a page tells about the rules' selectors, as records the rules editor reads: each
selector's effect (made by ``pipeline.extract.effects``), a proposed content selector and the
page's blocks for "Pick content" (made by ``pipeline.extract.suggest``). Apart from the
extractor so that the window imports them without it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class RuleKey(StrEnum):
    CONTENT = "content_selector"
    TITLE = "title_selector"
    STRIP = "strip"


@dataclass(frozen=True)
class RuleEffect:
    """One selector of the rules on one page. ``matched``: elements (for the content
    selector, outer ones: nested matches fold into theirs); ``chars``: their text, spaces not
    counted. A content selector matching nothing means the automatic extraction was used."""

    key: RuleKey
    css: str
    matched: int
    chars: int

    @property
    def message(self) -> str:
        """The effect in English (the window words it in its own language from the fields)."""
        if self.key is RuleKey.CONTENT:
            if not self.matched:
                return f"content selector {self.css!r} matched nothing: automatic extraction used"
            return (f"content selector {self.css!r} matched {_elements(self.matched)}"
                    f" ({self.chars:,} characters)")
        if self.key is RuleKey.TITLE:
            if not self.matched:
                return f"title selector {self.css!r} matched nothing: the page's headline used"
            return f"title selector {self.css!r} matched {_elements(self.matched)}"
        if not self.matched:
            return f"strip {self.css!r} matched nothing"
        return f"strip {self.css!r} removed {_elements(self.matched)} ({self.chars:,} characters)"


def _elements(n: int) -> str:
    return f"{n} element" if n == 1 else f"{n} elements"


class Reason(Enum):
    """Why a selector was proposed (or none was); the GUI translates by this code."""

    WHOLE = "whole"
    WIDE = "wide"
    SPLIT = "split"
    PART = "part"
    PICKED = "picked"
    NOT_ON_PAGE = "not on page"
    IN_BODY = "in body"
    NO_ELEMENT = "no element"
    NO_SELECTOR = "no selector"


@dataclass(frozen=True)
class Suggestion:
    """A selector for "Pick content", with what the person needs to trust it.

    ``share``: of the article's text, what the element holds (0–1; 0 for a pick made without
    an article). ``matched_pages`` of ``site_pages``: the site's pages on which the selector
    finds exactly one element with real text. ``path``: the element named, as in ``Node.path``.
    """

    selector: str | None
    share: float
    matched_pages: int
    site_pages: int
    reason_code: Reason
    reason: str
    path: str | None = None


@dataclass(frozen=True)
class Node:
    """A block of the page for the GUI's element tree, in document order.

    ``path``: the element's ``getroottree().getpath()`` in the tree ``dom.parse`` builds of the
    page (what ``selector_for_element`` takes); ``depth``: how many listed nodes hold it."""

    path: str
    tag: str
    id: str | None
    classes: tuple[str, ...]
    chars: int
    depth: int
    preview: str
