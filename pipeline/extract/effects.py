"""What each of a site's rules does on a page: how many elements a selector matches and how
much text it takes, so the rules editor can say "content selector matched 1 element (2,431
characters)" or "matched nothing: automatic extraction used" instead of leaving a person to
guess why the article looks as it does."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from lxml import etree

from pipeline.extract.dom import parse, remove, text_of
from pipeline.rules import SiteRules
from pipeline.selectors import selector


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


def rule_effects(html: str, rules: SiteRules) -> list[RuleEffect]:
    """Each selector's effect, in the order extraction applies them: the title selector on
    the whole page (the headline is read before anything is cut), the strip selectors one
    after another (what one removed, the next does not find), the content selector on what
    is left."""
    root = parse(html)
    effects = [_effect(root, RuleKey.TITLE, rules.title_selector)] if rules.title_selector else []
    for css in rules.strip_all:
        effects.append(effect := _effect(root, RuleKey.STRIP, css))
        for el in effect.elements:
            remove(el)
    if rules.content_selector:
        effects.append(_effect(root, RuleKey.CONTENT, rules.content_selector))
    return [RuleEffect(e.key, e.css, len(e.elements), _chars(e.elements)) for e in effects]


@dataclass(frozen=True)
class _Found:
    key: RuleKey
    css: str
    elements: list[etree._Element]


def _effect(root: etree._Element, key: RuleKey, css: str) -> _Found:
    return _Found(key, css, _outer(selector(css)(root)))


def _outer(found: list[etree._Element]) -> list[etree._Element]:
    matched = set(found)
    return [el for el in found if not any(a in matched for a in el.iterancestors())]


def _chars(found: list[etree._Element]) -> int:
    return sum(len("".join(text_of(el).split())) for el in found)


def _elements(n: int) -> str:
    return f"{n} element" if n == 1 else f"{n} elements"
